//! `PoissonSet`: the library's live set (insert, remove, fill, queries, save and load) for
//! any dimension behind one Python class.

use crate::arrays::{domain, point, points_array};
use crate::shapes::{Field, Region};
use crate::{Interrupt, dim_error, value_error, whole};
use experiments::with_dim;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use poisson_nd::StopReason;
use poisson_nd::live::{InsertError, PoissonSet as Set, Snapshot};
use poisson_nd::rng::{PortableRng, rng_from_seed};
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use std::path::PathBuf;

/// One dimension's set with the generator of its fills.
struct Live<const D: usize> {
    set: Set<D>,
    rng: PortableRng,
    /// Stops a fill on Ctrl-C.
    interrupt: Interrupt,
}

impl<const D: usize> Live<D> {
    /// The set with its generator, its fills interruptible.
    fn boxed(mut set: Set<D>, seed: u64) -> Box<dyn AnyLive> {
        let interrupt = Interrupt::default();
        set.set_progress(interrupt.hook());
        Box::new(Live { set, rng: rng_from_seed(seed), interrupt })
    }
}

/// What Python asks of a set, whatever its dimension.
trait AnyLive: Send + Sync {
    fn dim(&self) -> usize;
    fn len(&self) -> usize;
    fn insert(&mut self, p: &[f64]) -> PyResult<Option<u64>>;
    fn conflict(&self, p: &[f64]) -> PyResult<Option<(u64, f64)>>;
    fn remove(&mut self, id: u64) -> Option<Vec<f64>>;
    fn get(&self, id: u64) -> Option<Vec<f64>>;
    fn nearest(&self, p: &[f64]) -> PyResult<Option<(u64, f64)>>;
    fn within(&self, p: &[f64], distance: f64) -> PyResult<Vec<u64>>;
    fn fill(&mut self, py: Python<'_>, region: Option<&Region>) -> PyResult<(usize, u64, String)>;
    fn points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>>;
    fn ids(&self) -> Vec<u64>;
    fn radii(&self) -> Option<Vec<f64>>;
    fn snapshot(&self) -> Snapshot;
    fn describe(&self) -> String;
}

impl<const D: usize> AnyLive for Live<D> {
    fn dim(&self) -> usize {
        D
    }

    fn len(&self) -> usize {
        self.set.len()
    }

    fn insert(&mut self, p: &[f64]) -> PyResult<Option<u64>> {
        match self.set.insert(point::<D>(p, "point")?) {
            Ok(id) => Ok(Some(id.get())),
            Err(InsertError::Conflict { .. }) => Ok(None),
            Err(e) => Err(value_error(format!("cannot insert {p:?}: {e}"))),
        }
    }

    fn conflict(&self, p: &[f64]) -> PyResult<Option<(u64, f64)>> {
        match self.set.check(&point::<D>(p, "point")?) {
            Err(InsertError::Conflict { id, distance }) => Ok(Some((id.get(), distance))),
            Err(e) => Err(value_error(format!("{p:?}: {e}"))),
            Ok(()) => Ok(None),
        }
    }

    fn remove(&mut self, id: u64) -> Option<Vec<f64>> {
        let id = self.set.id(id)?;
        self.set.remove(id).map(|p| p.to_vec())
    }

    fn get(&self, id: u64) -> Option<Vec<f64>> {
        self.set.id(id).and_then(|id| self.set.get(id)).map(|p| p.to_vec())
    }

    fn nearest(&self, p: &[f64]) -> PyResult<Option<(u64, f64)>> {
        let q = point::<D>(p, "point")?;
        if let Some(i) = (0..D).find(|&i| !q[i].is_finite()) {
            return Err(value_error(format!("point: coordinate {i} is {}, not finite", q[i])));
        }
        Ok(self.set.nearest(&q).map(|(id, d)| {
            // Far from the set a squared distance overflows: the distance again, scaled.
            let d = if d.is_finite() {
                d
            } else {
                self.set.get(id).map_or(d, |s| {
                    let scale = (0..D).map(|i| (q[i] - s[i]).abs()).fold(0.0, f64::max);
                    scale * (0..D).map(|i| ((q[i] - s[i]) / scale).powi(2)).sum::<f64>().sqrt()
                })
            };
            (id.get(), d)
        }))
    }

    fn within(&self, p: &[f64], distance: f64) -> PyResult<Vec<u64>> {
        if !(distance.is_finite() && distance >= 0.0) {
            return Err(value_error(format!("distance must be finite and ≥ 0, got {distance}")));
        }
        Ok(self
            .set
            .within(&point::<D>(p, "point")?, distance)
            .into_iter()
            .map(|id| id.get())
            .collect())
    }

    fn fill(&mut self, py: Python<'_>, region: Option<&Region>) -> PyResult<(usize, u64, String)> {
        let area = region.map(Region::get::<D>).transpose()?;
        let mut interrupts = vec![self.interrupt.clone()];
        interrupts.extend(region.map(Region::interrupts).unwrap_or_default().iter().cloned());
        for kept in &interrupts {
            kept.take();
        }
        let Live { set, rng, .. } = self;
        let waiting: Vec<&Interrupt> = interrupts.iter().collect();
        let report = crate::interruptible(py, &waiting, || match &area {
            Some(area) => set.fill(area.as_ref(), rng),
            None => set.fill_all(rng),
        })?;
        for kept in &interrupts {
            kept.check()?;
        }
        let report = report.map_err(value_error)?;
        if report.stop == StopReason::InvalidField {
            let why = report.field_error.map_or("an invalid radius".into(), |e| e.to_string());
            return Err(value_error(format!("the radius field stopped the fill: {why}")));
        }
        Ok((report.added, report.attempts, report.stop.to_string()))
    }

    fn points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        points_array(py, self.set.points())
    }

    fn ids(&self) -> Vec<u64> {
        self.set.iter().map(|(id, _)| id.get()).collect()
    }

    fn radii(&self) -> Option<Vec<f64>> {
        self.set.radius_field()?;
        Some(self.set.iter().filter_map(|(id, _)| self.set.radius_of(id)).collect())
    }

    fn snapshot(&self) -> Snapshot {
        self.set.snapshot()
    }

    fn describe(&self) -> String {
        let domain = self.set.domain();
        let lower = domain.origin().to_vec();
        let upper: Vec<f64> = (0..D).map(|k| lower[k] + domain.extent()[k]).collect();
        let radius = match self.set.radius_field() {
            Some(_) => format!("radius_bounds={:?}", self.set.radius_bounds()),
            None => format!("radius={}", self.set.radius()),
        };
        format!(
            "PoissonSet(d={D}, {radius}, l_bounds={lower:?}, u_bounds={upper:?}, periodic={}, \
             k={}, points={})",
            if domain.is_periodic() { "True" } else { "False" },
            self.set.attempts(),
            self.set.len()
        )
    }
}

/// A live Poisson-disk set: points inserted and removed one at a time, areas filled by
/// Bridson's front, nearest and range queries, saved to and loaded from JSON. Every point
/// keeps an id (an int) that never changes and is never reused.
#[pyclass(module = "poisson_nd")]
pub struct PoissonSet {
    inner: Box<dyn AnyLive>,
}

impl std::fmt::Debug for PoissonSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.inner.describe())
    }
}

#[allow(clippy::too_many_arguments)]
fn build<const D: usize>(
    radius: Option<f64>,
    field: Option<&Field>,
    l_bounds: &[f64],
    u_bounds: &[f64],
    periodic: bool,
    k: Option<u32>,
    max_points: Option<usize>,
    seed: u64,
) -> PyResult<Box<dyn AnyLive>> {
    let domain = domain::<D>(l_bounds, u_bounds, periodic)?;
    let mut builder = match (radius, field) {
        (Some(radius), None) => Set::builder(domain, radius),
        (None, Some(field)) => {
            let (field, rule) = field.build(&domain)?;
            Set::builder_with_field(domain, field).with_pair_rule(rule)
        }
        _ => return Err(value_error("give exactly one of radius and field")),
    };
    if let Some(k) = k {
        builder = builder.with_attempts(k);
    }
    if let Some(limit) = max_points {
        builder = builder.with_max_points(limit);
    }
    let set = builder.build().map_err(value_error)?;
    Ok(Live::boxed(set, seed))
}

#[pymethods]
impl PoissonSet {
    /// An empty set in the box `[l_bounds, u_bounds)` (periodic: a torus) whose points keep
    /// `radius` apart, or the distances a radius `field` gives; `k` candidates per active
    /// point in a fill, at most `max_points` points; fills draw from the portable generator
    /// seeded with `seed`.
    #[new]
    #[pyo3(signature = (l_bounds, u_bounds, radius = None, *, field = None, periodic = false, k = None, max_points = None, seed = 0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        l_bounds: Vec<f64>,
        u_bounds: Vec<f64>,
        radius: Option<f64>,
        field: Option<PyRef<'_, Field>>,
        periodic: bool,
        k: Option<i128>,
        max_points: Option<i128>,
        seed: i128,
    ) -> PyResult<PoissonSet> {
        let seed: u64 = whole(seed, "seed")?;
        let k: Option<u32> = k.map(|k| whole(k, "k")).transpose()?;
        let max_points: Option<usize> = max_points.map(|m| whole(m, "max_points")).transpose()?;
        let d = l_bounds.len();
        let field = field.as_deref();
        let inner = with_dim!(d, D => build::<D>(radius, field, &l_bounds, &u_bounds, periodic, k, max_points, seed)?,
            else return Err(dim_error(d)));
        Ok(PoissonSet { inner })
    }

    /// Stores `point` and returns its id, or None when a stored point is too close (see
    /// `conflict`). Raises ValueError for a point outside a closed box, a radius field that
    /// fails there, or a full set.
    fn insert(&mut self, point: Vec<f64>) -> PyResult<Option<u64>> {
        self.inner.insert(&point)
    }

    /// The stored point that keeps `point` out, with its distance, or None.
    fn conflict(&self, point: Vec<f64>) -> PyResult<Option<(u64, f64)>> {
        self.inner.conflict(&point)
    }

    /// Removes the point `id` and returns its coordinates; KeyError for an unknown id.
    fn remove<'py>(&mut self, py: Python<'py>, id: i128) -> PyResult<Bound<'py, PyArray1<f64>>> {
        match u64::try_from(id).ok().and_then(|id| self.inner.remove(id)) {
            Some(p) => Ok(p.into_pyarray(py)),
            None => Err(PyKeyError::new_err(format!("no point with id {id}"))),
        }
    }

    /// The coordinates of point `id`; KeyError for an unknown id.
    fn __getitem__<'py>(&self, py: Python<'py>, id: i128) -> PyResult<Bound<'py, PyArray1<f64>>> {
        match u64::try_from(id).ok().and_then(|id| self.inner.get(id)) {
            Some(p) => Ok(p.into_pyarray(py)),
            None => Err(PyKeyError::new_err(format!("no point with id {id}"))),
        }
    }

    fn __contains__(&self, id: i128) -> bool {
        u64::try_from(id).ok().and_then(|id| self.inner.get(id)).is_some()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Fills the box, or only `region` (a `Region` inside the box), with Bridson's front
    /// continued from the points there; existing points never move. Returns a dict with the
    /// points `added`, the candidate `attempts` and the `stop` reason.
    #[pyo3(signature = (region = None))]
    fn fill(&mut self, py: Python<'_>, region: Option<PyRef<'_, Region>>) -> PyResult<Py<PyAny>> {
        let (added, attempts, stop) = self.inner.fill(py, region.as_deref())?;
        let report = pyo3::types::PyDict::new(py);
        report.set_item("added", added)?;
        report.set_item("attempts", attempts)?;
        report.set_item("stop", stop)?;
        Ok(report.into_any().unbind())
    }

    /// The nearest stored point to `point` as `(id, distance)`, or None in an empty set.
    fn nearest(&self, point: Vec<f64>) -> PyResult<Option<(u64, f64)>> {
        self.inner.nearest(&point)
    }

    /// The ids of the stored points within `distance` of `point` (distance ≤ it), by
    /// increasing id.
    fn within(&self, point: Vec<f64>, distance: f64) -> PyResult<Vec<u64>> {
        self.inner.within(&point, distance)
    }

    /// The stored points, shape (n, d), by increasing id.
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        self.inner.points(py)
    }

    /// The ids of the stored points, in the order of `points`.
    #[getter]
    fn ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        Ok(self.inner.ids().into_pyarray(py))
    }

    /// Each stored point's radius (with a radius field), in the order of `points`; None
    /// for a set of one radius.
    #[getter]
    fn radii<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
        Ok(self.inner.radii().map(|r| r.into_pyarray(py)))
    }

    /// The dimension.
    #[getter]
    fn d(&self) -> usize {
        self.inner.dim()
    }

    /// Writes the set to `path` as JSON (the library's snapshot: box, settings, points with
    /// their ids, the active list), replacing the file whole or not at all.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        let text = serde_json::to_string(&self.inner.snapshot()).map_err(value_error)?;
        experiments::io::write_atomically(&path, text.as_bytes())
            .map_err(|e| value_error(format!("cannot write {}: {e}", path.display())))
    }

    /// The set saved at `path`; a set saved with a radius field needs the same `field`
    /// again (fields are not saved). Fills continue from the generator seeded with `seed`.
    #[staticmethod]
    #[pyo3(signature = (path, *, field = None, seed = 0))]
    fn load(path: PathBuf, field: Option<PyRef<'_, Field>>, seed: i128) -> PyResult<PoissonSet> {
        let seed: u64 = whole(seed, "seed")?;
        let name = path.display().to_string();
        let text = experiments::inputs::read_text_bounded(&path)
            .map_err(|e| value_error(format!("cannot read {name}: {e}")))?;
        let snapshot: Snapshot =
            serde_json::from_str(&text).map_err(|e| value_error(format!("{name}: {e}")))?;
        let d = snapshot.dimension();
        let inner: Box<dyn AnyLive> = with_dim!(d, D => {
            let set = match field.as_deref() {
                None => Set::<D>::from_snapshot(snapshot),
                // The field is laid over the saved box, as it was over the box it was made in.
                Some(field) => {
                    let (built, _) = field.build(&snapshot.domain::<D>().map_err(|e| value_error(format!("{name}: {e}")))?)?;
                    Set::<D>::from_snapshot_with_field(snapshot, built)
                }
            }
            .map_err(|e| value_error(format!("{name}: {e}")))?;
            Live::boxed(set, seed)
        }, else return Err(value_error(format!("{name}: the set is {d}-dimensional; 1 to 8 are supported"))));
        Ok(PoissonSet { inner })
    }

    fn __repr__(&self) -> String {
        self.inner.describe()
    }
}
