//! [`Analysis`] for people: the table `experiments analyze` prints, one section per family
//! of metrics, and the JSON of `--json`.

use super::Analysis;
use crate::format::{plus_minus, significant};
use crate::metrics::surface::OFF_SURFACE_TOLERANCE;
use crate::metrics::{EdgeCorrection, Estimate};
use std::fmt::Write as _;

/// Significant digits of the table's numbers.
const DIGITS: usize = 6;

fn num(x: f64) -> String {
    significant(x, DIGITS)
}

fn estimate(e: &Estimate) -> String {
    plus_minus(e.value, e.std_error)
}

/// The analysis as JSON, with the scalar metrics under the names the report's
/// `results.csv` uses (`metrics`).
pub fn json(a: &Analysis) -> Result<String, String> {
    let mut value = serde_json::to_value(a).map_err(|e| e.to_string())?;
    let metrics: serde_json::Map<String, serde_json::Value> =
        a.metrics().into_iter().map(|(name, v)| (name.to_string(), v.into())).collect();
    if let Some(object) = value.as_object_mut() {
        object.insert("metrics".into(), metrics.into());
    }
    let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
    Ok(format!("{text}\n"))
}

/// The human-readable table: every section in turn.
pub fn render(a: &Analysis) -> String {
    let mut out = String::new();
    for section in [
        header,
        nearest_neighbour,
        close_pairs,
        relative_radius,
        coverage,
        spectrum,
        pair_correlation,
        discrepancy,
        varying_radius,
        density_follow,
        spatial_stats,
        notes,
    ] {
        section(a, &mut out);
    }
    out
}

/// What the white-noise reference at the boundary is, in words.
fn boundary(a: &Analysis) -> &'static str {
    if a.domain.periodic { "torus, exact" } else { "same box, simulated" }
}

fn header(a: &Analysis, w: &mut String) {
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
}

fn nearest_neighbour(a: &Analysis, w: &mut String) {
    let _ = writeln!(w, "\nnearest-neighbour distance");
    let Some(st) = &a.nearest_neighbour else {
        let _ = writeln!(w, "  (a single point has no neighbour)");
        return;
    };
    let wn = &a.white_noise;
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
            "  white noise mean NN: {} {m}  (Clark–Evans R {})",
            boundary(a),
            num(wn.clark_evans_boundary.unwrap_or(f64::NAN))
        );
    }
    let h = &st.histogram;
    let _ = writeln!(w, "  histogram (bin width {}):", num(h.bin_width));
    let peak = h.counts.iter().copied().max().unwrap_or(1).max(1);
    for (i, &c) in h.counts.iter().enumerate() {
        let bar = "#".repeat(((c as f64 / peak as f64) * 40.0).round() as usize);
        let _ = writeln!(
            w,
            "    [{:>10}, {:>10})  {:>8}  {bar}",
            num(h.edge(i)),
            num(h.edge(i + 1)),
            c
        );
    }
}

fn close_pairs(a: &Analysis, w: &mut String) {
    let wn = &a.white_noise;
    let boundary = boundary(a);
    let _ = writeln!(w, "\nclose pairs at r");
    let _ = writeln!(
        w,
        "  cluster rate (NN < r)  {}   white noise: infinite plane {}",
        num(a.cluster_rate.unwrap_or(f64::NAN)),
        num(wn.cluster_rate_infinite)
    );
    if let Some(c) = wn.cluster_rate_torus {
        let _ = writeln!(w, "                         white noise: {boundary} {}", num(c));
    }
    if let Some(c) = wn.simulated.as_ref().and_then(|s| s.cluster_rate.as_ref()) {
        let _ = writeln!(w, "                         white noise: {boundary} {}", estimate(c));
    }
    let pairs = a.pairs_closer.map_or("- (skipped, see the notes)".to_string(), |p| p.to_string());
    let _ = write!(w, "  pairs closer than r    {pairs}");
    let references = [
        wn.pairs_closer_torus.as_ref(),
        wn.simulated.as_ref().and_then(|s| s.pairs_closer.as_ref()),
    ];
    for p in references.into_iter().flatten() {
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
}

fn relative_radius(a: &Analysis, w: &mut String) {
    let Some(rr) = &a.relative_radius else {
        return;
    };
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

fn coverage(a: &Analysis, w: &mut String) {
    let c = &a.coverage;
    let _ = writeln!(
        w,
        "\ncoverage within r       {}  ({} probes, seed {})",
        plus_minus(c.fraction, c.std_error),
        c.probes,
        c.seed
    );
}

fn spectrum(a: &Analysis, w: &mut String) {
    let Some(sp) = &a.spectrum else {
        return;
    };
    let spacing = sp.mean_points.powf(1.0 / sp.dim as f64);
    let _ = writeln!(
        w,
        "\npower spectrum on the box seen as a torus (rings of width 1 cycle per side up to {}, \
         axes {})",
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
    if let Some(low) = super::low_frequency_power(sp) {
        let _ = writeln!(w, "  low-frequency power (0 < |k| ≤ ½ N^(1/D)) {}", num(low));
    }
    let _ =
        writeln!(w, "  {:>8} {:>10} {:>12} {:>16}", "ring", "× N^(1/D)", "power", "anisotropy dB");
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

fn pair_correlation(a: &Analysis, w: &mut String) {
    let Some(pcf) = &a.pair_correlation else {
        return;
    };
    let edges = match pcf.edge_correction {
        EdgeCorrection::Periodic => "periodic",
        EdgeCorrection::Translation => "translation-corrected",
    };
    let _ =
        writeln!(w, "\npair correlation g(r) (bin width {}, {edges} edges)", num(pcf.bin_width));
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

fn discrepancy(a: &Analysis, w: &mut String) {
    if let Some(d) = &a.discrepancy {
        let _ = writeln!(
            w,
            "\nL2-star discrepancy     {}   (squared {}; white noise E[squared] {})",
            num(d.l2_star),
            num(d.l2_star_squared),
            num(d.white_noise_squared)
        );
    }
}

fn density_follow(a: &Analysis, w: &mut String) {
    let Some(f) = &a.density_follow else {
        return;
    };
    let mapping = poisson_nd::Choice::name(f.mapping);
    let cells: Vec<String> = (0..a.dim).map(|_| f.cells_per_axis.to_string()).collect();
    let _ = writeln!(
        w,
        "\ndensity follow ({mapping} mapping, {} cells, {} midpoint sub-cells per axis each)",
        cells.join("×"),
        f.subsamples_per_axis
    );
    let _ = writeln!(
        w,
        "  mean |relative error| per cell  {}  (Poisson sampling error 1/√expected: {}; \
         ratio {})",
        num(f.mean_abs_relative_error),
        num(f.sampling_error),
        num(f.mean_abs_relative_error / f.sampling_error)
    );
    if let Some(c) = &f.worst {
        let index: Vec<String> = c.index.iter().map(usize::to_string).collect();
        let _ = writeln!(
            w,
            "  worst cell ({}): {} points, {} expected, relative error {}",
            index.join(", "),
            c.measured,
            num(c.expected),
            num(c.relative_error)
        );
    }
    if f.approximate {
        let _ = writeln!(
            w,
            "  (lerp mapping: the expected counts, ∝ ∫ r(x)^(-D) dx, are an approximation)"
        );
    }
}

fn varying_radius(a: &Analysis, w: &mut String) {
    let Some(v) = &a.varying_radius else {
        return;
    };
    let s = &v.stats;
    let _ = writeln!(
        w,
        "\nvarying radius (column '{}', pairs must keep {}(r_i, r_j))",
        v.column,
        s.rule.as_str()
    );
    let _ = writeln!(
        w,
        "  radius: min {}  mean {}  max {}  std {}",
        num(s.radius.min),
        num(s.radius.mean),
        num(s.radius.max),
        num(s.radius.std)
    );
    let _ = writeln!(
        w,
        "  pairs closer than their rule distance  {}  ({} points involved)",
        s.violations, s.points_in_violations
    );
    if let Some(p) = &s.worst {
        let _ = writeln!(
            w,
            "  worst pair: points {} and {} (0-based, file order), distance {} = {} × rule \
             distance {}",
            p.i,
            p.j,
            num(p.distance),
            num(p.ratio),
            num(p.rule_distance)
        );
    }
    if let Some(q) = &s.nn_over_radius {
        let _ = writeln!(
            w,
            "  nearest neighbour / own radius: mean {}  std {}  min {}  max {}",
            num(q.mean),
            num(q.std),
            num(q.min),
            num(q.max)
        );
    }
    let _ = writeln!(
        w,
        "  cluster rate (NN closer than the rule distance)  {}",
        num(s.cluster_rate.unwrap_or(f64::NAN))
    );
}

/// Rows of the spatial statistics' table: eight values of r up to r_max.
const STATS_ROWS: usize = 8;

fn spatial_stats(a: &Analysis, w: &mut String) {
    let Some(st) = &a.spatial_stats else {
        return;
    };
    let r_max = st.r.last().copied().unwrap_or(0.0);
    let _ = writeln!(
        w,
        "\nspatial statistics (r up to {} in {} steps; estimates: {} for K, L, g and {} for G, F, J)",
        num(r_max),
        st.r.len().saturating_sub(1),
        st.k.preferred.name(),
        st.nearest_neighbour.preferred.name()
    );
    let probes: Vec<String> = (0..st.dim).map(|_| st.probes.per_axis.to_string()).collect();
    let _ = writeln!(
        w,
        "  intensity λ {}  kernel half-width h {}  F probes {}",
        num(st.intensity),
        num(st.kernel_half_width),
        probes.join("×")
    );
    let _ = writeln!(
        w,
        "  {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>12}",
        "r", "K", "L", "g", "G", "F", "J", "Poisson G, F"
    );
    let functions = st.functions();
    for row in 1..=STATS_ROWS {
        let target = r_max * row as f64 / STATS_ROWS as f64;
        let k = st.r.partition_point(|&r| r < target).min(st.r.len().saturating_sub(1));
        // Undefined values (J where F = 1) as "-".
        let cell = |x: f64| if x.is_finite() { num(x) } else { "-".to_string() };
        let _ = write!(w, "  {:>10}", cell(st.r[k]));
        for f in functions {
            let _ = write!(w, " {:>10}", cell(f.preferred_values()[k]));
        }
        let _ = writeln!(w, " {:>12}", cell(st.nearest_neighbour.poisson[k]));
    }
    let _ = writeln!(
        w,
        "  (Poisson: K = V_D r^D, L = r, g = 1, J = 1; every correction with --json or --stats-out)"
    );
}

fn notes(a: &Analysis, w: &mut String) {
    if !a.notes.is_empty() {
        let _ = writeln!(w, "\nnotes");
        for note in &a.notes {
            let _ = writeln!(w, "  - {note}");
        }
    }
}

/// The table of `analyze --mesh`: points on a surface.
pub fn render_surface(m: &crate::metrics::surface::SurfaceMetrics, mesh: &str) -> String {
    let mut w = String::new();
    let _ = writeln!(
        w,
        "{} points on the surface of {mesh}, area {}, density {} (distances Euclidean in 3D)",
        m.points,
        num(m.area),
        num(m.points as f64 / m.area)
    );
    let _ = writeln!(w, "\nnearest-neighbour distance");
    match &m.nearest_neighbour {
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
        }
        None => {
            let _ = writeln!(w, "  (fewer than two points)");
        }
    }
    let _ = writeln!(w, "\nrelative radius");
    let _ = writeln!(
        w,
        "  d_min {}  d_max {} (hexagonal packing of the area)  ρ_rel {}",
        num(m.d_min),
        num(m.d_max),
        num(m.relative_radius)
    );
    let c = &m.coverage;
    let _ = writeln!(w, "\ncoverage ({} probes uniform over the area, seed {})", c.probes, c.seed);
    let _ = writeln!(
        w,
        "  largest gap {} ({} d_max)  mean gap {}",
        num(c.largest_gap),
        num(c.largest_gap_relative),
        num(c.mean_gap)
    );
    if let Some(offset) = m.face_offset {
        let _ = writeln!(w, "\nfaces and barycentrics place every point within {}", num(offset));
    }
    let off = &m.off_surface;
    if let Some(k) = off.farthest {
        let _ = writeln!(
            w,
            "\ndistance from the surface: largest {} (point {k}, counted from 0)",
            num(off.largest)
        );
        if off.points_off > 0 {
            let _ = writeln!(
                w,
                "  {} of {} points lie off the surface (farther than {} d_max): the numbers \
                 above take them as on it",
                off.points_off, m.points, OFF_SURFACE_TOLERANCE
            );
        }
    }
    if let Some(n) = &m.nominal {
        let _ = writeln!(w, "\nagainst the radius r = {}", num(n.radius));
        let _ = writeln!(
            w,
            "  d_min / r {}  points closer than r to another {}  probes within r {}",
            num(n.d_min_over_radius),
            n.points_too_close,
            num(n.covered_fraction)
        );
    }
    w
}
