//! One run of a sampler, built by the command line's specification from a dict of
//! parameters.

use crate::arrays::{domain, points_array};
use crate::shapes::{Field, Region};
use crate::{Interrupt, dim_error, value_error};
use experiments::catalogue::{self as samplers, Value};
use experiments::dims::Dim;
use experiments::shapes::Setup;
use experiments::spec::{BuildIn, OverLimit, SamplerSpec};
use experiments::with_dim;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use poisson_nd::StopReason;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat};
use std::sync::Arc;

/// What one run returns to Python.
type Run<'py> = (Bound<'py, PyArray2<f64>>, Option<Bound<'py, PyArray1<f64>>>, String, u64);

/// Runs the sampler `name` with `params` (the keys of a report's `[[samplers]]` table:
/// `{"k": 12}`) in the box `[l_bounds, u_bounds)` from `seed`, on a worker thread that Ctrl-C
/// stops. `n = None` fills the box (radius-driven samplers); otherwise it is the count
/// (count-driven) or a cap; `Some(0)` builds and checks the sampler without running it.
/// Returns the points `(n, d)`, the per-point radii with a field, the stop reason and the
/// attempts.
#[pyfunction]
#[pyo3(signature = (name, params, d, l_bounds, u_bounds, periodic, radius, n, seed, max_points = None, field = None, region = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sample<'py>(
    py: Python<'py>,
    name: &str,
    params: &Bound<'py, PyDict>,
    d: usize,
    l_bounds: Vec<f64>,
    u_bounds: Vec<f64>,
    periodic: bool,
    radius: Option<f64>,
    n: Option<usize>,
    seed: u64,
    max_points: Option<usize>,
    field: Option<&Field>,
    region: Option<&Region>,
) -> PyResult<Run<'py>> {
    let spec = spec_of(name, params)?;
    with_dim!(d, D => sample_in::<D>(py, &spec, &l_bounds, &u_bounds, periodic, radius, n, seed, max_points, field, region),
        else Err(dim_error(d)))
}

/// The specification of sampler `name` with `params`, checked by the catalogue's one path
/// ([`samplers::parse`]), with the command line's messages. A value of a kind no parameter
/// has is named by its key.
fn spec_of(name: &str, params: &Bound<'_, PyDict>) -> PyResult<SamplerSpec> {
    let mut values = Vec::with_capacity(params.len());
    for (key, value) in params.iter() {
        let key: String = key.extract()?;
        let value = if let Ok(flag) = value.cast::<PyBool>() {
            Value::Flag(flag.is_true())
        } else if value.is_instance_of::<PyFloat>() {
            Value::Float(value.extract()?)
        } else if let Ok(number) = value.extract::<i128>() {
            let number = i64::try_from(number)
                .map_err(|_| value_error(format!("{key} is too large, got {number}")))?;
            Value::Int(number)
        } else if let Ok(text) = value.extract::<String>() {
            Value::Text(text)
        } else {
            return Err(PyTypeError::new_err(format!(
                "{key} must be a number, a bool or a string, got {}",
                value.get_type().name()?
            )));
        };
        values.push((key, value));
    }
    samplers::parse(name, &values).map_err(value_error)
}

/// Every sampler of the catalogue, as dicts: `name`, `class`, `radius_driven`, `field`,
/// `region`, `periodic`, `min_dim`, `max_dim` and `parameters` (their keys).
#[pyfunction]
pub(crate) fn catalogue(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    samplers::catalogue()
        .iter()
        .map(|e| {
            let caps = e.capabilities;
            let entry = PyDict::new(py);
            entry.set_item("name", &e.name)?;
            entry.set_item("class", &e.class)?;
            entry.set_item("radius_driven", caps.radius)?;
            entry.set_item("field", caps.field)?;
            entry.set_item("region", caps.region)?;
            entry.set_item("periodic", caps.periodic)?;
            entry.set_item("min_dim", caps.min_dimension)?;
            entry.set_item("max_dim", caps.max_dimension.min(experiments::dims::MAX_DIM))?;
            entry.set_item("parameters", e.keys().collect::<Vec<_>>())?;
            Ok(entry)
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn sample_in<'py, const D: usize>(
    py: Python<'py>,
    spec: &SamplerSpec,
    l_bounds: &[f64],
    u_bounds: &[f64],
    periodic: bool,
    radius: Option<f64>,
    n: Option<usize>,
    seed: u64,
    max_points: Option<usize>,
    field: Option<&Field>,
    region: Option<&Region>,
) -> PyResult<Run<'py>>
where
    Dim<D>: BuildIn<D>,
{
    let domain = domain::<D>(l_bounds, u_bounds, periodic)?;
    let name = spec.name();
    let limit = max_points.unwrap_or(poisson_nd::defaults::MAX_POINTS);
    match n.and_then(|n| Some((n, spec.over_limit(n, limit)?))) {
        None => {}
        Some((n, OverLimit::Points)) => {
            return Err(value_error(format!(
                "n = {n} is more than the point limit of {limit} (max_points); '{name}' makes \
                 exactly n points"
            )));
        }
        Some((n, OverLimit::Candidates { ratio, candidates })) => {
            return Err(value_error(format!(
                "n = {n} draws {candidates} candidates at ratio {ratio}, more than the point \
                 limit of {limit} (max_points), which counts them too: ask for fewer, lower \
                 ratio or raise max_points"
            )));
        }
        Some((n, OverLimit::Positions { skip })) => {
            return Err(value_error(format!(
                "skip = {skip} leaves {} positions of the sequence '{name}', fewer than n = {n}",
                u64::MAX - skip
            )));
        }
    }
    let mut setup = Setup::<D>::default();
    if let Some(field) = field {
        setup.field = Some(field.build(&domain)?);
    }
    if let Some(region) = region {
        if periodic {
            return Err(value_error(
                "periodic does not apply with a region: a region needs a closed box",
            ));
        }
        setup.region = Some(region.get::<D>()?);
    }
    // The run stops on Ctrl-C and on an exception of a signed-distance function inside the
    // region; those keep their errors from a previous run no longer.
    let interrupt = Interrupt::default();
    let mut interrupts = vec![interrupt.clone()];
    interrupts.extend(region.map(Region::interrupts).unwrap_or_default().iter().cloned());
    for kept in &interrupts {
        kept.take();
    }
    setup.progress = Some(Arc::new(Interrupt::hook_any(interrupts.clone())));
    let built = spec.build_with(domain, radius, max_points, &setup).map_err(|e| {
        // A signed-distance function that raised while the region was checked: its exception
        // says more than the region's emptiness.
        interrupts.iter().find_map(Interrupt::take).unwrap_or_else(|| value_error(e))
    })?;
    // No points asked for (the engines' check at construction): built and checked, not run.
    if n == Some(0) {
        let radii = setup.field.is_some().then(|| Vec::<f64>::new().into_pyarray(py));
        return Ok((
            points_array::<D>(py, Vec::new())?,
            radii,
            StopReason::PointLimit.to_string(),
            0,
        ));
    }
    let set = if certainly_short(
        spec,
        &domain,
        radius.or(setup.field.as_ref().map(|(f, _)| f.bounds().0)),
        n,
    ) {
        py.detach(move || built.run(n, seed))
    } else {
        let waiting: Vec<&Interrupt> = interrupts.iter().collect();
        crate::interruptible_owned(py, &waiting, move || built.run(n, seed))?
    };
    for kept in &interrupts {
        kept.check()?;
    }
    if set.stop == StopReason::InvalidField {
        let why =
            set.field_error.as_ref().map_or("an invalid radius".to_string(), |e| e.to_string());
        return Err(value_error(format!("the radius field stopped the run: {why}")));
    }
    let radii = set.radii.map(|r| r.into_pyarray(py));
    Ok((points_array(py, set.points)?, radii, set.stop.to_string(), set.attempts))
}

/// The most points a run may make and still go without a worker thread: milliseconds of
/// work, less than handing it to a thread and back costs for a tiny run.
const SHORT_RUN_POINTS: f64 = 4096.0;

/// Whether the run makes so few points, so cheaply, that it runs on the calling thread (a
/// Ctrl-C then waits milliseconds for it): at most [`SHORT_RUN_POINTS`] points by the densest
/// packing of the box at the (smallest) radius, or asked for; not dart throwing with a
/// raised miss limit nor best candidate's growing candidates, whose cost is not in the count.
fn certainly_short<const D: usize>(
    spec: &SamplerSpec,
    domain: &poisson_nd::Domain<D>,
    radius: Option<f64>,
    n: Option<usize>,
) -> bool {
    let asked = n.map_or(f64::INFINITY, |n| n as f64);
    let points = match radius.filter(|_| spec.is_radius_driven()) {
        Some(r) => {
            let ball = poisson_nd::packing::unit_ball_volume(D) * (0.5 * r).powi(D as i32);
            (domain.volume() / ball).min(asked)
        }
        None => asked,
    };
    let costly = match spec {
        SamplerSpec::DartThrowing(p) | SamplerSpec::DartThrowingGrid(p) => {
            p.max_misses.is_some_and(|m| m > poisson_nd::defaults::MAX_MISSES)
        }
        SamplerSpec::BestCandidate(p) => p.growing_candidates == Some(true),
        _ => false,
    };
    points <= SHORT_RUN_POINTS && !costly
}
