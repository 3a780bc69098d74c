//! `analyze`: every metric of `experiments analyze --json`, for points in a numpy array.

use crate::arrays::{domain, read_points};
use crate::shapes::choice;
use crate::{dim_error, value_error};
use experiments::analyze::{AnalyzeOptions, PointRadii, analyze_with_radii, table};
use experiments::with_dim;
use poisson_nd::field::PairRule;
use pyo3::prelude::*;

/// The analysis of `points` (shape (n, d), inside the box) as the JSON text of
/// `experiments analyze --json` with the same settings. A setting left `None` takes the
/// command line's default.
#[pyfunction]
#[pyo3(signature = (points, l_bounds, u_bounds, periodic, radius = None, radii = None, radius_rule = "max", probes = None, seed = None, reference_realisations = None, bins = None, spectrum_multiple = None, exclude_axes = false, max_pairs = None, periodogram_multiple = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn analyze_json(
    py: Python<'_>,
    points: &Bound<'_, PyAny>,
    l_bounds: Vec<f64>,
    u_bounds: Vec<f64>,
    periodic: bool,
    radius: Option<f64>,
    radii: Option<&Bound<'_, PyAny>>,
    radius_rule: &str,
    probes: Option<usize>,
    seed: Option<u64>,
    reference_realisations: Option<usize>,
    bins: Option<usize>,
    spectrum_multiple: Option<f64>,
    exclude_axes: bool,
    max_pairs: Option<u64>,
    periodogram_multiple: Option<f64>,
) -> PyResult<String> {
    let defaults = AnalyzeOptions::default();
    let bounded = |value: Option<usize>, default: usize, lo: usize, hi: usize, name: &str| {
        let v = value.unwrap_or(default);
        if (lo..=hi).contains(&v) {
            Ok(v)
        } else {
            Err(value_error(format!("{name} must be between {lo} and {hi}, got {v}")))
        }
    };
    let positive = |value: Option<f64>, name: &str| match value {
        Some(v) if !(v.is_finite() && v > 0.0) => {
            Err(value_error(format!("{name} must be finite and positive, got {v}")))
        }
        _ => Ok(value),
    };
    let options = AnalyzeOptions {
        radius: positive(radius, "radius")?,
        histogram_bins: bounded(bins, defaults.histogram_bins, 1, 1_000_000, "bins")?,
        probes: bounded(probes, defaults.probes, 1, 100_000_000, "probes")?,
        seed: seed.unwrap_or(defaults.seed),
        reference_realisations: bounded(
            reference_realisations,
            defaults.reference_realisations,
            0,
            10_000,
            "reference_realisations",
        )?,
        spectrum_multiple: positive(spectrum_multiple, "spectrum_multiple")?
            .unwrap_or(defaults.spectrum_multiple),
        periodogram_multiple: positive(periodogram_multiple, "periodogram_multiple")?,
        exclude_axes,
        pair_budget: max_pairs.unwrap_or(defaults.pair_budget),
        ..defaults
    };
    let rule = choice::<PairRule>(radius_rule, "radius_rule")?;
    let d = l_bounds.len();
    let radii = match radii {
        Some(r) => {
            let (_, values) = crate::arrays::float_array(r, "radii")?;
            if let Some(i) = values.iter().position(|r| !(r.is_finite() && *r > 0.0)) {
                return Err(value_error(format!(
                    "radii: point {i}: radius {} is not positive",
                    values[i]
                )));
            }
            Some(values)
        }
        None => None,
    };
    with_dim!(d, D => {
        let domain = domain::<D>(&l_bounds, &u_bounds, periodic)?;
        let points = read_points::<D>(points, "points")?;
        if let Some(r) = radii.as_ref().filter(|r| r.len() != points.len()) {
            return Err(value_error(format!("radii has {} values for {} points", r.len(), points.len())));
        }
        if let Some(i) = points.iter().position(|p| !domain.contains(p)) {
            return Err(value_error(format!(
                "point {i} {:?} lies outside the box [l_bounds, u_bounds)", points[i]
            )));
        }
        let analysis = py.detach(|| {
            let radii = radii.as_deref().map(|values| PointRadii { column: "radius", values, rule });
            analyze_with_radii(&points, radii, &domain, &options)
        });
        table::json(&analysis).map_err(value_error)
    }, else Err(dim_error(d)))
}
