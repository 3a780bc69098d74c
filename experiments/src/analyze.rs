//! `experiments analyze FILE --dim D ...`: every metric of a point set read from a file,
//! as a table or as JSON.

use crate::metrics::baseline::{SimulatedReference, WhiteNoiseTheory, simulate_white_noise};
use crate::metrics::nearest_neighbour::{NearestNeighbourStats, clark_evans, cluster_rate};
use crate::metrics::relative_radius::{RelativeRadius, max_spacing, relative_radius_from};
use crate::metrics::spectrum::{RadialSpectrum, SpectrumAccumulator, SpectrumOptions};
use crate::metrics::{
    Coverage, Estimate, NeighbourIndex, PairCorrelation, coverage, l2_star_discrepancy_squared,
    nearest_neighbour_stats, pair_correlation, pairs::pairs_closer_than_in, unit_ball_volume,
};
use crate::points_csv;
use crate::with_dim;
use poisson_nd::{Domain, Point};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `experiments analyze`.
#[derive(clap::Args, Debug, Clone)]
pub struct AnalyzeArgs {
    /// CSV file of points, one per line ("-" for standard input). Commas or whitespace
    /// between coordinates; an optional header line.
    pub file: PathBuf,
    /// Dimension, 1 to 8: the number of coordinates per line.
    #[arg(long)]
    pub dim: usize,
    /// Box side lengths, comma separated (default: 1 on every axis).
    #[arg(long = "box", value_delimiter = ',', allow_hyphen_values = true)]
    pub extent: Option<Vec<f64>>,
    /// Box origin, comma separated (default: 0 on every axis).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub origin: Option<Vec<f64>>,
    /// Nominal Poisson-disk radius: used for the cluster rate, close pairs, coverage and the
    /// nominal relative radius (default: half the densest-packing spacing d_max / 2).
    #[arg(long, allow_hyphen_values = true)]
    pub radius: Option<f64>,
    /// The box is periodic (a torus): distances wrap around.
    #[arg(long)]
    pub periodic: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write the radial power spectrum to this CSV file.
    #[arg(long)]
    pub spectrum_out: Option<PathBuf>,
    /// Leave the frequency axes (k_x = 0, k_y = 0, ...) out of the spectrum summary: for
    /// closed boxes, whose faces act as a seam on the torus.
    #[arg(long)]
    pub exclude_axes: bool,
    /// Spectrum up to this multiple of N^(1/D) (√N in 2D).
    #[arg(long, default_value_t = crate::metrics::spectrum::DEFAULT_FREQUENCY_MULTIPLE)]
    pub spectrum_multiple: f64,
    /// Monte-Carlo probes for the coverage.
    #[arg(long, default_value_t = 100_000)]
    pub probes: usize,
    /// White-noise realisations simulated as the closed-box reference (0: none).
    #[arg(long, default_value_t = 16)]
    pub reference_realisations: usize,
    /// Seed for the coverage probes and the simulated reference.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Bins of the nearest-neighbour histogram.
    #[arg(long, default_value_t = 20)]
    pub bins: usize,
}

/// The knobs of [`analyze`], with the command line's defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalyzeOptions {
    /// Nominal radius (see [`AnalyzeArgs::radius`]).
    pub radius: Option<f64>,
    /// Bins of the nearest-neighbour histogram.
    pub histogram_bins: usize,
    /// Coverage probes.
    pub probes: usize,
    /// Seed of the probes and of the simulated reference.
    pub seed: u64,
    /// Simulated white-noise realisations for closed boxes (0: none).
    pub reference_realisations: usize,
    /// Spectrum range in units of `N^(1/D)`.
    pub spectrum_multiple: f64,
    /// Leave the frequency axes out of the spectrum summary.
    pub exclude_axes: bool,
    /// The spectrum is skipped when points × frequencies exceeds this (about a second of
    /// work per 10⁹).
    pub spectrum_budget: f64,
    /// The discrepancy (O(N²)) is skipped above this many points.
    pub discrepancy_max_points: usize,
    /// Pair-correlation bin width in units of `d_max`.
    pub pcf_bin_width: f64,
    /// Pair-correlation range in units of `d_max`.
    pub pcf_range: f64,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            radius: None,
            histogram_bins: 20,
            probes: 100_000,
            seed: 0,
            reference_realisations: 16,
            spectrum_multiple: crate::metrics::spectrum::DEFAULT_FREQUENCY_MULTIPLE,
            exclude_axes: false,
            spectrum_budget: 4e9,
            discrepancy_max_points: 20_000,
            pcf_bin_width: 0.1,
            pcf_range: 2.5,
        }
    }
}

/// The box the points were measured in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DomainInfo {
    /// Lower corner.
    pub origin: Vec<f64>,
    /// Side lengths.
    pub extent: Vec<f64>,
    /// Periodic (torus) or closed.
    pub periodic: bool,
    /// Volume.
    pub volume: f64,
}

/// The radius the r-dependent metrics use, and where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RadiusInfo {
    /// The radius.
    pub value: f64,
    /// `"given"` (from `--radius`) or `"d_max/2"` (half the densest-packing spacing).
    pub source: &'static str,
}

/// White-noise expectations at the same N in the same domain.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WhiteNoiseComparison {
    /// Mean NN distance of a Poisson process without boundary.
    pub mean_nn_infinite: f64,
    /// Exact mean NN on the torus (periodic domains).
    pub mean_nn_torus: Option<f64>,
    /// Clark–Evans R against the infinite formula.
    pub clark_evans_infinite: Option<f64>,
    /// Clark–Evans R against the boundary-aware reference (torus formula or simulation).
    pub clark_evans_boundary: Option<f64>,
    /// Cluster rate `1 − exp(−ρ V_D r^D)`.
    pub cluster_rate_infinite: f64,
    /// Exact cluster rate on the torus (periodic domains).
    pub cluster_rate_torus: Option<f64>,
    /// Pairs closer than r on the torus: mean and standard deviation (periodic domains).
    pub pairs_closer_torus: Option<Estimate>,
    /// Simulated reference in the same closed box.
    pub simulated: Option<SimulatedReference>,
    /// Whether r exceeds half the shortest side, where the torus formulas stop being exact.
    pub radius_exceeds_half_side: bool,
}

/// The L2-star discrepancy of the points mapped onto the unit cube.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DiscrepancyReport {
    /// L2-star discrepancy.
    pub l2_star: f64,
    /// Its square.
    pub l2_star_squared: f64,
    /// `E[(L2*)²]` for white noise of the same size, `(2^−D − 3^−D) / N`.
    pub white_noise_squared: f64,
}

/// Every metric of one point set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// Dimension.
    pub dim: usize,
    /// Number of points.
    pub n: usize,
    /// The domain.
    pub domain: DomainInfo,
    /// The radius for the r-dependent metrics.
    pub radius: RadiusInfo,
    /// Nearest-neighbour statistics (`None` for a single point).
    pub nearest_neighbour: Option<NearestNeighbourStats>,
    /// Fraction of points whose nearest neighbour is closer than `radius`.
    pub cluster_rate: f64,
    /// Unordered pairs closer than `radius`.
    pub pairs_closer: u64,
    /// Minimum pairwise distance.
    pub min_distance: Option<f64>,
    /// White-noise expectations.
    pub white_noise: WhiteNoiseComparison,
    /// Relative radius and packing fraction.
    pub relative_radius: Option<RelativeRadius>,
    /// Coverage at `radius`.
    pub coverage: Coverage,
    /// Radial power spectrum (skipped when too expensive).
    pub spectrum: Option<RadialSpectrum>,
    /// Pair correlation function.
    pub pair_correlation: Option<PairCorrelation>,
    /// L2-star discrepancy (skipped for large N).
    pub discrepancy: Option<DiscrepancyReport>,
    /// Remarks: what was skipped and why, what to keep in mind reading a number.
    pub notes: Vec<String>,
}

/// Computes every metric of `points` (at least one, all inside `domain`).
pub fn analyze<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    options: &AnalyzeOptions,
) -> Analysis {
    let n = points.len();
    let volume = domain.volume();
    let mut notes = Vec::new();
    let d_max = max_spacing(D, n, volume).unwrap_or(f64::NAN);
    let radius = match options.radius {
        Some(r) => RadiusInfo { value: r, source: "given" },
        None => RadiusInfo { value: d_max / 2.0, source: "d_max/2" },
    };
    let r = radius.value;
    let index = NeighbourIndex::new(points, domain);
    let nn = index.nearest_neighbour_distances();
    let stats = nearest_neighbour_stats(&nn, options.histogram_bins);
    let min_distance = stats.as_ref().map(|s| s.min);
    let observed_mean = stats.as_ref().map(|s| s.mean);

    let theory = WhiteNoiseTheory::for_domain(domain, n);
    let shortest = domain.extent().iter().copied().fold(f64::INFINITY, f64::min);
    let periodic = domain.is_periodic();
    let simulated = (!periodic && options.reference_realisations > 0 && n >= 2).then(|| {
        simulate_white_noise(domain, n, Some(r), options.reference_realisations, options.seed)
    });
    let mean_nn_torus = (periodic && n >= 2).then(|| theory.mean_nn_torus());
    let boundary_mean = mean_nn_torus.or(simulated.as_ref().map(|s| s.mean_nn.value));
    let white_noise = WhiteNoiseComparison {
        mean_nn_infinite: theory.mean_nn_infinite(),
        mean_nn_torus,
        clark_evans_infinite: observed_mean.map(|m| clark_evans(m, theory.mean_nn_infinite())),
        clark_evans_boundary: observed_mean.zip(boundary_mean).map(|(m, e)| clark_evans(m, e)),
        cluster_rate_infinite: theory.cluster_rate_infinite(r),
        cluster_rate_torus: periodic.then(|| theory.cluster_rate_torus(r)),
        pairs_closer_torus: periodic.then(|| theory.pairs_closer_torus(r)),
        simulated,
        radius_exceeds_half_side: r > shortest / 2.0,
    };
    if periodic && white_noise.radius_exceeds_half_side {
        notes.push("r exceeds half the shortest side: the torus formulas are not exact".into());
    }
    if !periodic && options.reference_realisations == 0 {
        notes.push(
            "closed box without a simulated reference: only the infinite-plane \
                    formulas, which ignore the faces, are shown"
                .into(),
        );
    }

    let relative_radius =
        min_distance.and_then(|d| relative_radius_from(D, n, volume, d, options.radius));
    let coverage = coverage(points, domain, r, options.probes, options.seed);

    let spectrum_options = SpectrumOptions::for_points(D, n, options.spectrum_multiple)
        .exclude_axes(options.exclude_axes);
    let frequencies =
        unit_ball_volume(D) * (spectrum_options.k_max as f64 + 0.5).powi(D as i32) / 2.0;
    let spectrum = if frequencies * n as f64 > options.spectrum_budget {
        notes.push(format!(
            "spectrum skipped: {n} points × about {frequencies:.0} frequencies is over the \
             budget; lower --spectrum-multiple"
        ));
        None
    } else {
        let mut accumulator = SpectrumAccumulator::new(spectrum_options);
        accumulator.add(points, domain);
        Some(accumulator.radial())
    };
    if !periodic && !options.exclude_axes {
        notes.push(
            "closed box seen as a torus: its faces make a seam, with excess power on \
                    the frequency axes (see --exclude-axes)"
                .into(),
        );
    }

    let pair_correlation = (n >= 2 && d_max.is_finite()).then(|| {
        pair_correlation(points, domain, options.pcf_bin_width * d_max, options.pcf_range * d_max)
    });
    let discrepancy = if n <= options.discrepancy_max_points {
        let squared = l2_star_discrepancy_squared(points, domain);
        Some(DiscrepancyReport {
            l2_star: squared.max(0.0).sqrt(),
            l2_star_squared: squared,
            white_noise_squared: theory.l2_star_squared(),
        })
    } else {
        notes.push(format!(
            "L2-star discrepancy skipped: O(N²) above {} points",
            options.discrepancy_max_points
        ));
        None
    };

    Analysis {
        dim: D,
        n,
        domain: DomainInfo {
            origin: domain.origin().to_vec(),
            extent: domain.extent().to_vec(),
            periodic,
            volume,
        },
        radius,
        cluster_rate: cluster_rate(&nn, r),
        pairs_closer: pairs_closer_than_in(&index, r),
        min_distance,
        nearest_neighbour: stats,
        white_noise,
        relative_radius,
        coverage,
        spectrum,
        pair_correlation,
        discrepancy,
        notes,
    }
}

/// Runs `experiments analyze`: reads the file, checks every point lies in the box, prints
/// the analysis. Errors are one line, naming the file and line where there is one.
pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    with_dim!(args.dim, D => run_in::<D>(args),
        else Err(format!("--dim must be between 1 and {}, got {}", crate::dims::MAX_DIM, args.dim)))
}

fn run_in<const D: usize>(args: &AnalyzeArgs) -> Result<(), String> {
    let origin = args.origin.clone().unwrap_or_else(|| vec![0.0; D]);
    let extent = args.extent.clone().unwrap_or_else(|| vec![1.0; D]);
    let mut domain =
        Domain::<D>::from_origin_and_extent_slices(&origin, &extent).map_err(|e| e.to_string())?;
    if args.periodic {
        domain = domain.periodic();
    }
    if let Some(r) = args.radius
        && !(r.is_finite() && r > 0.0)
    {
        return Err(format!("--radius must be finite and positive, got {r}"));
    }
    if !(args.spectrum_multiple.is_finite() && args.spectrum_multiple > 0.0) {
        return Err(format!(
            "--spectrum-multiple must be finite and positive, got {}",
            args.spectrum_multiple
        ));
    }
    let file = args.file.display();
    let read = points_csv::read_points_from::<D>(&args.file).map_err(|e| match e {
        points_csv::ReadError::Io { .. } => e.to_string(),
        points_csv::ReadError::Malformed { .. } => format!("{file}: {e}"),
    })?;
    for (p, line) in read.points.iter().zip(&read.lines) {
        if !domain.contains(p) {
            return Err(format!(
                "{file}: line {line}: point {} lies outside the box {} (set --box/--origin)",
                format_point(p),
                format_box(&domain)
            ));
        }
    }
    let options = AnalyzeOptions {
        radius: args.radius,
        histogram_bins: args.bins.max(1),
        probes: args.probes.max(1),
        seed: args.seed,
        reference_realisations: args.reference_realisations,
        spectrum_multiple: args.spectrum_multiple,
        exclude_axes: args.exclude_axes,
        ..AnalyzeOptions::default()
    };
    let analysis = analyze(&read.points, &domain, &options);
    if let Some(path) = &args.spectrum_out {
        let spectrum = analysis
            .spectrum
            .as_ref()
            .ok_or("the spectrum was skipped (see the notes); nothing to write")?;
        let result = std::fs::File::create(path).and_then(|f| spectrum.write_csv(f));
        result.map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if args.json {
        let text = serde_json::to_string_pretty(&analysis).map_err(|e| e.to_string())?;
        println!("{text}");
    } else {
        print!("{}", render_table(&analysis));
    }
    Ok(())
}

fn format_point(p: &[f64]) -> String {
    let parts: Vec<String> = p.iter().map(|x| x.to_string()).collect();
    format!("({})", parts.join(", "))
}

fn format_box<const D: usize>(domain: &Domain<D>) -> String {
    let parts: Vec<String> = (0..D)
        .map(|a| {
            let lo = domain.origin()[a];
            format!("[{lo}, {})", lo + domain.extent()[a])
        })
        .collect();
    parts.join(" × ")
}

/// Non-finite values print as "-" (undefined), the rest with six significant digits.
fn num(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let magnitude = x.abs().log10().floor() as i32;
    if (-4..6).contains(&magnitude) {
        let decimals = (5 - magnitude).max(0) as usize;
        let text = format!("{x:.decimals$}");
        if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            text
        }
    } else {
        format!("{x:.5e}")
    }
}

fn estimate(e: &Estimate) -> String {
    format!("{} ± {}", num(e.value), num(e.std_error))
}

/// The human-readable report.
pub fn render_table(a: &Analysis) -> String {
    let mut s = String::new();
    let w = &mut s;
    let boxes: Vec<String> = (0..a.dim)
        .map(|i| format!("[{}, {})", a.domain.origin[i], a.domain.origin[i] + a.domain.extent[i]))
        .collect();
    let _ = writeln!(
        w,
        "{} points in {} dimensions, box {} ({}), volume {}, density {}",
        a.n,
        a.dim,
        boxes.join(" × "),
        if a.domain.periodic { "periodic" } else { "closed" },
        num(a.domain.volume),
        num(a.n as f64 / a.domain.volume)
    );
    let _ = writeln!(w, "radius r = {} ({})", num(a.radius.value), a.radius.source);
    let wn = &a.white_noise;
    let boundary = if a.domain.periodic { "torus, exact" } else { "same box, simulated" };

    let _ = writeln!(w, "\nnearest-neighbour distance");
    match &a.nearest_neighbour {
        None => {
            let _ = writeln!(w, "  (a single point has no neighbour)");
        }
        Some(st) => {
            let _ = writeln!(
                w,
                "  min {}  mean {}  median {}  max {}  std {}",
                num(st.min),
                num(st.mean),
                num(st.median),
                num(st.max),
                num(st.std)
            );
            let _ = writeln!(
                w,
                "  white noise mean NN: infinite plane {}  (Clark–Evans R {})",
                num(wn.mean_nn_infinite),
                num(wn.clark_evans_infinite.unwrap_or(f64::NAN))
            );
            let boundary_mean = match (&wn.mean_nn_torus, &wn.simulated) {
                (Some(m), _) => Some(num(*m)),
                (None, Some(sim)) => Some(estimate(&sim.mean_nn)),
                _ => None,
            };
            if let Some(m) = boundary_mean {
                let _ = writeln!(
                    w,
                    "  white noise mean NN: {boundary} {m}  (Clark–Evans R {})",
                    num(wn.clark_evans_boundary.unwrap_or(f64::NAN))
                );
            }
            let _ = writeln!(w, "  histogram (bin width {}):", num(st.histogram.bin_width));
            let peak = st.histogram.counts.iter().copied().max().unwrap_or(1).max(1);
            for (i, &c) in st.histogram.counts.iter().enumerate() {
                let bar = "#".repeat(((c as f64 / peak as f64) * 40.0).round() as usize);
                let _ = writeln!(
                    w,
                    "    [{:>10}, {:>10})  {:>8}  {bar}",
                    num(st.histogram.edge(i)),
                    num(st.histogram.edge(i + 1)),
                    c
                );
            }
        }
    }

    let _ = writeln!(w, "\nclose pairs at r");
    let _ = writeln!(
        w,
        "  cluster rate (NN < r)  {}   white noise: infinite plane {}",
        num(a.cluster_rate),
        num(wn.cluster_rate_infinite)
    );
    if let Some(c) = wn.cluster_rate_torus {
        let _ = writeln!(w, "                         white noise: {boundary} {}", num(c));
    }
    if let Some(c) = wn.simulated.as_ref().and_then(|s| s.cluster_rate.as_ref()) {
        let _ = writeln!(w, "                         white noise: {boundary} {}", estimate(c));
    }
    let _ = write!(w, "  pairs closer than r    {}", a.pairs_closer);
    if let Some(p) = &wn.pairs_closer_torus {
        let _ = write!(w, "   white noise: {boundary} {}", estimate(p));
    }
    if let Some(p) = wn.simulated.as_ref().and_then(|s| s.pairs_closer.as_ref()) {
        let _ = write!(w, "   white noise: {boundary} {}", estimate(p));
    }
    let _ = writeln!(w);
    let _ = writeln!(w, "  minimum distance       {}", a.min_distance.map_or("-".to_string(), num));
    if let Some(sim) = &wn.simulated {
        let _ = writeln!(
            w,
            "  (simulated reference: {} white-noise sets of {} points in the same box)",
            sim.realisations, sim.n
        );
    }

    if let Some(rr) = &a.relative_radius {
        let _ = writeln!(w, "\nrelative radius (d_max = {})", num(rr.d_max));
        let _ = writeln!(
            w,
            "  measured: ρ_rel = d_min/d_max {}  packing fraction {}",
            num(rr.relative_radius),
            num(rr.packing_fraction)
        );
        if let (Some(r), Some(rel), Some(pack)) =
            (rr.nominal_radius, rr.nominal_relative_radius, rr.nominal_packing_fraction)
        {
            let _ = writeln!(
                w,
                "  nominal r = {}: ρ_rel {}  packing fraction {}",
                num(r),
                num(rel),
                num(pack)
            );
        }
    }

    let c = &a.coverage;
    let _ = writeln!(
        w,
        "\ncoverage within r       {} ± {}  ({} probes, seed {})",
        num(c.fraction),
        num(c.std_error),
        c.probes,
        c.seed
    );

    match &a.spectrum {
        None => {}
        Some(sp) => {
            let spacing = sp.mean_points.powf(1.0 / sp.dim as f64);
            let _ = writeln!(
                w,
                "\npower spectrum on the unit torus (rings of width 1 up to {}, axes {})",
                sp.k_max,
                if sp.axes_excluded { "excluded" } else { "included" }
            );
            let _ = writeln!(
                w,
                "  effective Nyquist ν_eff {}  = {} × N^(1/D)",
                num(sp.effective_nyquist),
                num(sp.effective_nyquist_over_spacing)
            );
            if let Some(peak) = &sp.peak {
                let _ = writeln!(
                    w,
                    "  peak: ring {} ({} × N^(1/D)), power {}",
                    peak.radius,
                    num(peak.radius as f64 / spacing),
                    num(peak.power)
                );
            }
            let _ = writeln!(
                w,
                "  {:>8} {:>10} {:>12} {:>16}",
                "ring", "× N^(1/D)", "power", "anisotropy dB"
            );
            for fraction in [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0] {
                let ring = (fraction * spacing).round() as usize;
                if let Some(r) = sp.rings.iter().find(|r| r.radius == ring) {
                    let _ = writeln!(
                        w,
                        "  {:>8} {:>10} {:>12} {:>16}",
                        r.radius,
                        num(r.radius as f64 / spacing),
                        num(r.mean_power),
                        num(r.anisotropy_db)
                    );
                }
            }
        }
    }

    if let Some(pcf) = &a.pair_correlation {
        let _ = writeln!(
            w,
            "\npair correlation g(r) (bin width {}, {} edges)",
            num(pcf.bin_width),
            match pcf.edge_correction {
                crate::metrics::EdgeCorrection::Periodic => "periodic",
                crate::metrics::EdgeCorrection::Translation => "translation-corrected",
            }
        );
        for bin in &pcf.bins {
            let _ = writeln!(
                w,
                "    [{:>10}, {:>10})  {:>8}  ({} pairs)",
                num(bin.r_lower),
                num(bin.r_upper),
                num(bin.g),
                bin.pairs
            );
        }
    }

    if let Some(d) = &a.discrepancy {
        let _ = writeln!(
            w,
            "\nL2-star discrepancy     {}   (squared {}; white noise E[squared] {})",
            num(d.l2_star),
            num(d.l2_star_squared),
            num(d.white_noise_squared)
        );
    }
    if !a.notes.is_empty() {
        let _ = writeln!(w, "\nnotes");
        for note in &a.notes {
            let _ = writeln!(w, "  - {note}");
        }
    }
    s
}
