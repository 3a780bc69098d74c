//! Radius fields and regions from Python data: numpy arrays, coordinate lists, GeoJSON, a
//! mesh, a signed-distance callable, and their booleans.

use crate::arrays::{MAX_GRID_VALUES, float_array_within, index_triples, point, shape_text};
use crate::{Interrupt, dim_error, value_error};
use experiments::with_dim;
use numpy::PyArray1;
use poisson_nd::field::{DensityField, DensityMapping, GriddedField, PairRule, RadiusField};
use poisson_nd::region::{Ball, BoxRegion, Difference, Intersection, Mesh, Polygons, Sdf, Union};
use poisson_nd::{Choice, Domain, Point};
use pyo3::prelude::*;
use std::any::Any;
use std::sync::Arc;

/// The choice called `name` (a mapping, a pair rule), or an error listing the names.
pub(crate) fn choice<T: Choice>(name: &str, what: &str) -> PyResult<T> {
    T::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = T::ALL.iter().map(|value| value.name()).collect();
        value_error(format!("{what} '{name}' is unknown; expected one of: {}", known.join(", ")))
    })
}

#[derive(Debug, Clone, Copy)]
enum FieldKind {
    Density { mapping: DensityMapping, rmin: f64, rmax: f64 },
    Radius,
}

/// A radius that varies over the box: an array of any dimension gridded over the sampler's
/// box (axis k along box axis k, value (i0, ...) at the centre of its cell, multilinear
/// between centres, clamped at the faces: the `.npy` convention of `experiments sample
/// --density`). Made by `Field.density` or `Field.radius`.
#[pyclass(module = "poisson_nd", frozen)]
#[derive(Debug)]
pub struct Field {
    kind: FieldKind,
    shape: Vec<usize>,
    values: Arc<Vec<f64>>,
    rule: PairRule,
}

#[pymethods]
impl Field {
    /// A density in [0, 1] mapped to radii between `rmin` (density 1) and `rmax` (density 0)
    /// by `mapping` ("lerp": linear; "inverse": rmin·density^(-1/D), clamped, so that the
    /// points per volume follow the density); pairs keep the distance `pair_rule` gives
    /// ("max", "min" or "mean" of their radii).
    #[staticmethod]
    #[pyo3(signature = (density, rmin, rmax, mapping = "lerp", pair_rule = "max"))]
    fn density(
        density: &Bound<'_, PyAny>,
        rmin: f64,
        rmax: f64,
        mapping: &str,
        pair_rule: &str,
    ) -> PyResult<Field> {
        poisson_nd::field::check_bounds(rmin, rmax).map_err(value_error)?;
        let mapping = choice::<DensityMapping>(mapping, "mapping")?;
        let rule = choice::<PairRule>(pair_rule, "pair_rule")?;
        let (shape, values) = float_array_within(density, "density", MAX_GRID_VALUES)?;
        check_shape(&shape, "density")?;
        if let Some(i) = values.iter().position(|v| !(0.0..=1.0).contains(v)) {
            return Err(value_error(format!(
                "density: the value at index {} is {}, outside [0, 1]",
                multi_index(&shape, i),
                values[i]
            )));
        }
        let kind = FieldKind::Density { mapping, rmin, rmax };
        Ok(Field { kind, shape, values: Arc::new(values), rule })
    }

    /// Radii given directly, in the box's units (all finite and positive); pairs keep the
    /// distance `pair_rule` gives.
    #[staticmethod]
    #[pyo3(signature = (radius, pair_rule = "max"))]
    fn radius(radius: &Bound<'_, PyAny>, pair_rule: &str) -> PyResult<Field> {
        let rule = choice::<PairRule>(pair_rule, "pair_rule")?;
        let (shape, values) = float_array_within(radius, "radius", MAX_GRID_VALUES)?;
        check_shape(&shape, "radius")?;
        if let Some(i) = values.iter().position(|v| !(v.is_finite() && *v > 0.0)) {
            return Err(value_error(format!(
                "radius: the value at index {} is {}, not finite and positive",
                multi_index(&shape, i),
                values[i]
            )));
        }
        Ok(Field { kind: FieldKind::Radius, shape, values: Arc::new(values), rule })
    }

    /// The number of axes of the array, the dimension of the boxes it fits.
    #[getter]
    fn d(&self) -> usize {
        self.shape.len()
    }

    /// The smallest and largest radius the field can give.
    #[getter]
    fn radius_bounds(&self) -> (f64, f64) {
        match self.kind {
            FieldKind::Density { rmin, rmax, .. } => (rmin, rmax),
            FieldKind::Radius => {
                self.values.iter().fold((f64::INFINITY, 0.0), |(lo, hi), &v| (lo.min(v), hi.max(v)))
            }
        }
    }

    /// The distance rule of a pair: "max", "min" or "mean".
    #[getter]
    fn pair_rule(&self) -> &'static str {
        self.rule.name()
    }

    fn __repr__(&self) -> String {
        let shape = shape_text(&self.shape);
        match self.kind {
            FieldKind::Density { mapping, rmin, rmax } => format!(
                "Field.density(<array {shape}>, rmin={rmin}, rmax={rmax}, mapping='{}', \
                 pair_rule='{}')",
                mapping.name(),
                self.rule.name()
            ),
            FieldKind::Radius => {
                format!("Field.radius(<array {shape}>, pair_rule='{}')", self.rule.name())
            }
        }
    }
}

impl Field {
    /// The field over the box of `domain`, with its pair rule.
    pub(crate) fn build<const D: usize>(
        &self,
        domain: &Domain<D>,
    ) -> PyResult<(Arc<dyn RadiusField<D>>, PairRule)> {
        let shape: [usize; D] = self.shape.as_slice().try_into().map_err(|_| {
            value_error(format!(
                "the field's array has {} axes, but the box is {D}-dimensional",
                self.shape.len()
            ))
        })?;
        let grid = GriddedField::new(domain, shape, self.values.to_vec()).map_err(value_error)?;
        let field: Arc<dyn RadiusField<D>> = match self.kind {
            FieldKind::Density { mapping, rmin, rmax } => {
                Arc::new(DensityField::new(grid, mapping, rmin, rmax).map_err(value_error)?)
            }
            FieldKind::Radius => Arc::new(grid),
        };
        Ok((field, self.rule))
    }
}

fn check_shape(shape: &[usize], what: &str) -> PyResult<()> {
    if shape.is_empty() || shape.len() > experiments::dims::MAX_DIM {
        return Err(value_error(format!(
            "{what} must have 1 to {} axes, got {}",
            experiments::dims::MAX_DIM,
            shape.len()
        )));
    }
    if let Some(axis) = shape.iter().position(|&n| n == 0) {
        return Err(value_error(format!("{what}: axis {axis} is empty")));
    }
    Ok(())
}

/// `(i0, i1, ...)` of the flat C-order index `i`.
fn multi_index(shape: &[usize], mut i: usize) -> String {
    let mut index = vec![0; shape.len()];
    for (slot, &n) in index.iter_mut().zip(shape).rev() {
        *slot = i % n;
        i /= n;
    }
    shape_text(&index)
}

/// Where points may go: a ball, a box, a mask, polygons, a closed mesh, a signed-distance
/// function, or a union, intersection or difference of regions (`|`, `&`, `-`). Give it to
/// an engine as `region=`; without bounds the engine samples the region's bounding box.
#[pyclass(module = "poisson_nd", frozen)]
pub struct Region {
    dim: usize,
    /// `Arc<dyn poisson_nd::Region<dim>>`, behind `Any` so that one Python type holds every
    /// dimension.
    inner: Arc<dyn Any + Send + Sync>,
    description: String,
    /// Where the signed-distance callables inside keep their exceptions.
    interrupts: Vec<Interrupt>,
}

impl std::fmt::Debug for Region {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.description)
    }
}

impl Region {
    fn new<const D: usize>(region: Arc<dyn poisson_nd::Region<D>>, description: String) -> Self {
        Region { dim: D, inner: Arc::new(region), description, interrupts: Vec::new() }
    }

    /// The region as the library's, for a `D`-dimensional box.
    pub(crate) fn get<const D: usize>(&self) -> PyResult<Arc<dyn poisson_nd::Region<D>>> {
        self.inner.downcast_ref::<Arc<dyn poisson_nd::Region<D>>>().cloned().ok_or_else(|| {
            value_error(format!(
                "the region is {}-dimensional, but the box is {D}-dimensional",
                self.dim
            ))
        })
    }

    /// The interrupts of the callables inside, to check after a run.
    pub(crate) fn interrupts(&self) -> &[Interrupt] {
        &self.interrupts
    }

    fn combine(
        &self,
        other: &Region,
        word: &str,
        build: fn(&Region, &Region) -> PyResult<Arc<dyn Any + Send + Sync>>,
    ) -> PyResult<Region> {
        if self.dim != other.dim {
            return Err(value_error(format!(
                "cannot take the {word} of a {}-dimensional and a {}-dimensional region",
                self.dim, other.dim
            )));
        }
        let interrupts = self.interrupts.iter().chain(&other.interrupts).cloned().collect();
        Ok(Region {
            dim: self.dim,
            inner: build(self, other)?,
            description: format!("({} {word} {})", self.description, other.description),
            interrupts,
        })
    }
}

macro_rules! boolean {
    ($kind:ident) => {
        |a: &Region, b: &Region| -> PyResult<Arc<dyn Any + Send + Sync>> {
            with_dim!(a.dim, D => {
                let r: Arc<dyn poisson_nd::Region<D>> = Arc::new($kind::new(a.get::<D>()?, b.get::<D>()?));
                Ok(Arc::new(r))
            }, else Err(dim_error(a.dim)))
        }
    };
}

#[pymethods]
impl Region {
    /// The ball of `radius` around `centre` (any dimension).
    #[staticmethod]
    fn ball(centre: Vec<f64>, radius: f64) -> PyResult<Region> {
        let d = centre.len();
        with_dim!(d, D => {
            let ball = Ball::<D>::new(point(&centre, "centre")?, radius).map_err(value_error)?;
            Ok(Region::new::<D>(Arc::new(ball), format!("Region.ball({centre:?}, {radius})")))
        }, else Err(dim_error(d)))
    }

    /// The box `[lower, upper]` (any dimension).
    #[staticmethod]
    #[pyo3(name = "box")]
    fn box_(lower: Vec<f64>, upper: Vec<f64>) -> PyResult<Region> {
        let d = lower.len();
        with_dim!(d, D => {
            let b = BoxRegion::<D>::new(point(&lower, "lower")?, point(&upper, "upper")?)
                .map_err(value_error)?;
            Ok(Region::new::<D>(Arc::new(b), format!("Region.box({lower:?}, {upper:?})")))
        }, else Err(dim_error(d)))
    }

    /// A voxel mask: an array of D axes gridded over the box `[l_bounds, u_bounds]` (axis k
    /// along box axis k, as `--region mask.npy`); a voxel is inside when its value is above
    /// 0.5 (booleans: True).
    #[staticmethod]
    fn mask(values: &Bound<'_, PyAny>, l_bounds: Vec<f64>, u_bounds: Vec<f64>) -> PyResult<Region> {
        let (shape, values) = float_array_within(values, "values", MAX_GRID_VALUES)?;
        let d = shape.len();
        if d != l_bounds.len() {
            return Err(value_error(format!(
                "the mask has {d} axes, but l_bounds has {} coordinates",
                l_bounds.len()
            )));
        }
        with_dim!(d, D => {
            let shape_d: [usize; D] = std::array::from_fn(|k| shape[k]);
            let voxels = poisson_nd::region::Voxels::<D>::from_values(
                shape_d, &values, point(&l_bounds, "l_bounds")?, point(&u_bounds, "u_bounds")?,
            ).map_err(value_error)?;
            Ok(Region::new::<D>(Arc::new(voxels), format!(
                "Region.mask(<array {}>, {l_bounds:?}, {u_bounds:?})", shape_text(&shape)
            )))
        }, else Err(dim_error(d)))
    }

    /// Polygons with holes in 2D: a list of polygons, each a list of rings (the exterior
    /// first, then the holes), each ring a sequence of (x, y) corners.
    #[staticmethod]
    fn polygons(polygons: Vec<Vec<Vec<[f64; 2]>>>) -> PyResult<Region> {
        let shape = Polygons::new(&polygons).map_err(value_error)?;
        let description = format!("Region.polygons(<{} polygons>)", polygons.len());
        Ok(Region::new::<2>(Arc::new(shape), description))
    }

    /// Polygons from GeoJSON text (a Polygon, MultiPolygon, Feature or FeatureCollection), as
    /// `--region lake.geojson` reads it.
    #[staticmethod]
    fn geojson(text: &str) -> PyResult<Region> {
        let polygons = experiments::inputs::geojson::decode_geojson(text.as_bytes(), "GeoJSON")
            .map_err(value_error)?;
        let shape = experiments::shapes::polygons_region(&polygons)
            .map_err(|e| value_error(format!("GeoJSON: {e}")))?;
        let description = format!("Region.geojson(<{} polygons>)", polygons.len());
        Ok(Region::new::<2>(Arc::new(shape), description))
    }

    /// The inside of a closed triangle mesh in 3D: `vertices` of shape (n, 3), `faces` of
    /// shape (m, 3) with indices into the vertices.
    #[staticmethod]
    fn mesh(vertices: Vec<[f64; 3]>, faces: &Bound<'_, PyAny>) -> PyResult<Region> {
        let n = vertices.len();
        let triangles = index_triples(faces, "faces")?;
        if let Some((i, face)) =
            triangles.iter().enumerate().find(|(_, t)| t.iter().any(|&v| v >= n))
        {
            return Err(value_error(format!(
                "faces: face {i} {face:?} has an index outside the {n} vertices"
            )));
        }
        let description = format!("Region.mesh(<{n} vertices>, <{} faces>)", triangles.len());
        let mesh = Mesh::new(vertices, triangles).map_err(value_error)?;
        Ok(Region::new::<3>(Arc::new(mesh), description))
    }

    /// Where `function(p) < 0` inside the box `[l_bounds, u_bounds]`: `function` takes a
    /// float64 array of D coordinates and returns a float. With a Lipschitz constant (1 for
    /// a true signed distance) the samplers can tell boxes inside or outside without calling
    /// it everywhere; `lipschitz=None` says it bounds no distance (only its sign counts).
    /// An exception it raises stops the run and is raised again.
    #[staticmethod]
    #[pyo3(
        signature = (function, l_bounds, u_bounds, lipschitz = Some(1.0)),
        text_signature = "(function, l_bounds, u_bounds, lipschitz=1.0)"
    )]
    fn sdf(
        function: Py<PyAny>,
        l_bounds: Vec<f64>,
        u_bounds: Vec<f64>,
        lipschitz: Option<f64>,
    ) -> PyResult<Region> {
        let d = l_bounds.len();
        let interrupt = Interrupt::default();
        let kept = interrupt.clone();
        with_dim!(d, D => {
            let f = move |p: &Point<D>| -> f64 {
                if kept.is_set() {
                    return f64::NAN;
                }
                Python::attach(|py| {
                    let array = PyArray1::from_slice(py, p);
                    match function.call1(py, (array,)).and_then(|v| v.extract::<f64>(py)) {
                        Ok(v) => v,
                        Err(e) => {
                            kept.set(e);
                            f64::NAN
                        }
                    }
                })
            };
            let sdf = Sdf::<D, _>::new(point(&l_bounds, "l_bounds")?, point(&u_bounds, "u_bounds")?, f)
                .map_err(value_error)?;
            let sdf = match lipschitz {
                Some(l) => sdf.with_lipschitz(l).map_err(value_error)?,
                None => sdf.without_distance_bound(),
            };
            let mut region = Region::new::<D>(Arc::new(sdf), format!(
                "Region.sdf(<function>, {l_bounds:?}, {u_bounds:?}, lipschitz={lipschitz:?})"
            ));
            region.interrupts.push(interrupt);
            Ok(region)
        }, else Err(dim_error(d)))
    }

    /// The points in this region or in `other`.
    fn union(&self, other: &Region) -> PyResult<Region> {
        self.combine(other, "|", boolean!(Union))
    }

    /// The points in this region and in `other`.
    fn intersection(&self, other: &Region) -> PyResult<Region> {
        self.combine(other, "&", boolean!(Intersection))
    }

    /// The points in this region but not in `other`.
    fn difference(&self, other: &Region) -> PyResult<Region> {
        self.combine(other, "-", boolean!(Difference))
    }

    fn __or__(&self, other: &Region) -> PyResult<Region> {
        self.union(other)
    }

    fn __and__(&self, other: &Region) -> PyResult<Region> {
        self.intersection(other)
    }

    fn __sub__(&self, other: &Region) -> PyResult<Region> {
        self.difference(other)
    }

    /// The dimension.
    #[getter]
    fn d(&self) -> usize {
        self.dim
    }

    /// A box `(lower, upper)` holding the region.
    #[getter]
    fn bounding_box(&self) -> PyResult<(Vec<f64>, Vec<f64>)> {
        with_dim!(self.dim, D => {
            let (lo, hi) = self.get::<D>()?.bounding_box();
            Ok((lo.to_vec(), hi.to_vec()))
        }, else Err(dim_error(self.dim)))
    }

    /// Whether each point of `points` (shape (n, D)) lies in the region.
    fn contains<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        for interrupt in &self.interrupts {
            interrupt.take();
        }
        let inside: Vec<bool> = with_dim!(self.dim, D => {
            let points = crate::arrays::read_points::<D>(points, "points")?;
            let region = self.get::<D>()?;
            points.iter().map(|p| region.contains(p)).collect()
        }, else return Err(dim_error(self.dim)));
        for interrupt in &self.interrupts {
            interrupt.check()?;
        }
        Ok(PyArray1::from_vec(py, inside))
    }

    fn __repr__(&self) -> String {
        self.description.clone()
    }
}
