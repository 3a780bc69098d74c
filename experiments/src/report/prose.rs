//! The report's fixed prose: how to read each section and figure. Kept apart from the code
//! that assembles the sections, so that the words can be read and changed in one place.

use super::DimResult;
use crate::format::short;

/// Under the metric glossary.
pub const METRICS: &str = "Every metric is measured on each realisation; the tables give the \
    mean ± the standard error of the mean over realisations, both rounded to the error's \
    precision (two significant digits of the error when they begin with 10 to 35, one \
    otherwise), results.csv every value in full. r is the \
    comparison radius of the dimension, N the number of points; in a periodic box every distance \
    is measured on the torus. The definitions are in docs/metrics.md and docs/report.md.";

/// The box, the realisations and the seeds of a dimension.
pub fn setup(dim: &DimResult, periodic: bool, realisations: usize, seed: u64) -> String {
    let sides: Vec<String> = dim.extent.iter().map(|&l| short(l)).collect();
    let origin: Vec<String> = dim.origin.iter().map(|&o| short(o)).collect();
    format!(
        "The box of sides {} at ({}) in {}D, {}. {realisations} realisation(s) per sampler; each \
         realisation's seed is derived from the base seed {seed} and written to results.csv.",
        sides.join(" × "),
        origin.join(", "),
        dim.dim,
        if periodic {
            "periodic: a torus, where distances wrap around, so there are no faces, the \
             white-noise formulas are exact and the spectra have no seams"
        } else {
            "closed (not periodic): points near the faces have fewer neighbours, and the radial \
             spectra leave out the frequency axes, where the faces show as a seam"
        }
    )
}

/// The radius-driven samplers of a dimension.
pub fn radius_driven(names: &[&str], radius: f64) -> String {
    format!(
        "Radius-driven samplers ({}) fill the box at r = {} until their own rule stops them, so \
         their point counts differ a little (see the table).",
        names.join(", "),
        short(radius)
    )
}

/// The count-driven samplers of a dimension, and where their count came from: the mean
/// count of the first radius-driven sampler, or the configuration.
pub fn count_driven(names: &[&str], count: usize, from: Option<&str>) -> String {
    let source = match from {
        Some(first) => format!("the mean count of {first}, so all run at the same density"),
        None => "as configured".to_string(),
    };
    format!("Count-driven samplers ({}) draw N = {count} points, {source}.", names.join(", "))
}

/// Two samplers that give the same points from the same seed.
pub fn twins(first: &str, second: &str, difference: &str) -> String {
    format!(
        "{first} and {second} are the same algorithm with {difference}: with the same seed they \
         give identical points, so their metrics agree up to the variation between \
         realisations, and only their times differ."
    )
}

/// How to read the 2D scatters when they show a corner of the box.
pub const POINTS_2D_CORNER: &str = "Each panel shows the first realisation of one sampler, all \
    at the same scale: the corner of the box that holds about a thousand points, so that single \
    points can be told apart (the CSV files hold every point).";

/// How to read the 2D scatters of the whole box.
pub const POINTS_2D: &str =
    "Each panel is the first realisation of one sampler, all at the same scale.";

/// How to read the 3D slabs.
pub const POINTS_3D: &str = "Each figure shows the first realisation of one sampler through \
    three thin central slabs, one across each axis (a full projection of a 3D set is too \
    crowded to show its structure); all panels at the same scale.";

/// What to look for in the point sets.
pub const POINTS_LOOK_FOR: &str = "White noise shows clumps and empty patches; blue noise \
    (Poisson-disk) is even without being regular; a grid or a low-discrepancy sequence shows \
    regular structure.";

/// The nearest-neighbour histograms.
pub const NEAREST_NEIGHBOUR: &str = "How far each point is from its nearest neighbour, as a \
    density over distance / r. White noise follows the dark curve, which starts at 0: some \
    points nearly touch. A Poisson-disk set has nothing below 1 (no pair closer than r) and a \
    narrow peak just above it; the narrower and further right the peak, the more even the set.";

/// The cluster-rate and relative-radius charts.
pub const CLUSTER_AND_RELATIVE_RADIUS: &str = "The cluster rate is the fraction of points with \
    a neighbour closer than r: 0 for a Poisson-disk set of radius r, high for white noise \
    (dashed line). The relative radius ρ_rel is the smallest distance between two points over \
    the spacing of the densest packing of as many points: 1 for that lattice, about 0.75 or \
    more for good blue noise, near 0 for white noise, which always has some close pair.";

/// The radial spectra.
pub const SPECTRA: &str = "The power spectrum shows how much structure a point set has at each \
    frequency (cycles per box side), averaged over directions. White noise is flat at 1. Blue \
    noise has almost no power at low frequencies (no large clumps or holes), a peak near the \
    inverse of the point spacing, then settles at 1; the wider the empty low band, the better \
    it samples without aliasing. Grids and sequences show tall spikes.";

/// The 2D periodograms.
pub const PERIODOGRAMS: &str = "The images are the full 2D periodograms (frequency k_x, k_y, \
    centred on 0): white noise is an even speckle, blue noise a dark disc inside a bright ring, \
    a grid or a Halton set isolated bright dots. A ring that is round means the set looks the \
    same in every direction.";

/// The pair correlation function.
pub const PAIR_CORRELATION: &str = "The pair correlation g(d) is the density of pairs at \
    distance d relative to white noise with as many points: 1 at every distance for white \
    noise. A Poisson-disk set has g = 0 below r, a peak just above r (the nearest neighbours) \
    and damped waves around 1 after it.";

/// How the scaling chart was made.
pub fn scaling_method(relative_radius: f64) -> String {
    format!(
        "Each dot is one timed sampling call: the points produced against wall-clock seconds \
         (the sampling alone, no metrics). Radius-driven samplers were given the radius \
         relative_radius · d_max(N) = {} · d_max(N) for each target N and are drawn at the count \
         they produced. A slope of 1 on these axes is linear time, O(N); a slope of 2 is \
         quadratic, O(N²).",
        short(relative_radius)
    )
}

/// Why the samplers scale as they do.
pub const SCALING_WHY: &str = "Naive dart throwing checks every dart against every point \
    placed, so its time grows about as N² although its number of darts grows about as N; the \
    grid version answers the same question in constant time per dart and is linear, like \
    Bridson's algorithm and best candidate with a fixed number of candidates. (Dart throwing's \
    attempts grow a little slower than N: a run ends after a fixed number of misses in a row, \
    and a larger set, throwing more darts, meets such a streak a little further from \
    saturation.) Times of a few microseconds are dominated by overheads and scatter more.";

/// The per-sampler caps of the scaling experiment.
pub fn scaling_caps(caps: &[String]) -> String {
    format!("Target counts are capped per sampler to keep the run short: {}.", caps.join(", "))
}

/// The caption of the time-against-N chart.
pub const SCALING_TIME_CAPTION: &str = "Time against N on log–log axes, one dot per run, with \
    fitted power laws (exponent in the legend).";

/// The caption of the attempts-against-N chart, with the pairs of samplers that throw the
/// same candidates.
pub fn scaling_attempts_caption(twins: &[(&str, &str)]) -> String {
    let mut caption = "Candidates generated (accepted or rejected) against N for the \
        radius-driven samplers, log–log, with fitted power laws."
        .to_string();
    for (a, b) in twins {
        caption.push_str(&format!(
            " {a} and {b} generate candidates the same way, so their marks lie together."
        ));
    }
    caption
}
