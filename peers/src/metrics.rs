//! What `peers run` measures about a point set and about its own process.

use std::collections::HashMap;

/// Resident memory of this process, from /proc/self/status (Linux).
#[derive(Debug, Clone, Copy)]
pub struct MemoryStatus {
    /// VmRSS: resident set size now, in bytes.
    pub rss: u64,
    /// VmHWM: the peak resident set size so far, in bytes.
    pub peak_rss: u64,
}

/// Reads VmRSS and VmHWM of this process.
pub fn memory_status() -> std::io::Result<MemoryStatus> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let kib = |key: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(key))?;
        line[key.len()..].trim().trim_end_matches("kB").trim().parse::<u64>().ok()
    };
    match (kib("VmRSS:"), kib("VmHWM:")) {
        (Some(rss), Some(peak)) => Ok(MemoryStatus { rss: rss * 1024, peak_rss: peak * 1024 }),
        _ => Err(std::io::Error::other("no VmRSS/VmHWM in /proc/self/status")),
    }
}

/// Densest packing fraction η_D of equal balls (NaN outside 1..=8, where it is not tabulated).
pub fn packing_density(dim: usize) -> f64 {
    poisson_nd::packing::densest_packing_fraction(dim).unwrap_or(f64::NAN)
}

pub use poisson_nd::packing::unit_ball_volume;

/// ρ_rel = d_min / d_max for `n` points in the unit box (volume 1): d_max is the spacing of the
/// densest packing of `n` equal balls in that volume, 2 (η_D V / (n V_D))^(1/D).
pub fn relative_radius(d_min: f64, n: usize, dim: usize) -> f64 {
    let d_max =
        2.0 * (packing_density(dim) / (n as f64 * unit_ball_volume(dim))).powf(1.0 / dim as f64);
    d_min / d_max
}

/// The exact minimum pairwise distance and the number of pairs closer than a radius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairStats {
    /// Smallest Euclidean distance over all pairs (infinite for fewer than two points).
    pub d_min: f64,
    /// Pairs at distance strictly below the radius.
    pub close_pairs: u64,
}

/// [`PairStats`] of `points` for `radius`, exactly, in about O(N · 3^D / 2) distance tests.
///
/// Points are bucketed into cubes of side `h ≥ radius`. Any pair closer than `h` lies in the
/// same or in adjacent cubes, so scanning each cube against itself and half of its 3^D − 1
/// neighbours finds every pair closer than `h`: all close pairs, and the minimum distance
/// whenever it is below `h`. If it is not, `h` is doubled and the scan repeated. Non-finite
/// points are skipped.
pub fn pair_stats<const D: usize>(points: &[[f64; D]], radius: f64) -> PairStats {
    let finite: Vec<&[f64; D]> =
        points.iter().filter(|p| p.iter().all(|x| x.is_finite())).collect();
    if finite.len() < 2 {
        return PairStats { d_min: f64::INFINITY, close_pairs: 0 };
    }
    // Slightly above the radius: a Poisson-disk set has many pairs between r and 1.25 r, so
    // one pass finds its minimum; a few points per cube keep the scan short.
    let mut side = 1.25 * radius;
    loop {
        let (d2_min, close_pairs) = scan(&finite, side, radius * radius);
        if d2_min < side * side || !side.is_finite() {
            return PairStats { d_min: d2_min.sqrt(), close_pairs };
        }
        side *= 2.0;
    }
}

/// One pass of [`pair_stats`] with cubes of side `side`: the smallest squared distance among
/// pairs in the same or adjacent cubes, and the pairs closer than √`r2`.
fn scan<const D: usize>(points: &[&[f64; D]], side: f64, r2: f64) -> (f64, u64) {
    let cube = |p: &[f64; D]| -> [i64; D] { std::array::from_fn(|i| (p[i] / side).floor() as i64) };
    let mut order: Vec<([i64; D], u32)> =
        points.iter().enumerate().map(|(i, p)| (cube(p), i as u32)).collect();
    order.sort_unstable();
    // Each occupied cube → its run in `order`.
    let mut runs: HashMap<[i64; D], (usize, usize)> = HashMap::with_capacity(order.len());
    let mut start = 0;
    for i in 1..=order.len() {
        if i == order.len() || order[i].0 != order[start].0 {
            runs.insert(order[start].0, (start, i));
            start = i;
        }
    }
    // The neighbour offsets in {-1, 0, 1}^D that come after 0 lexicographically: each
    // unordered pair of distinct cubes is visited once.
    let offsets: Vec<[i64; D]> = (0..3usize.pow(D as u32))
        .map(|code| {
            let mut c = code;
            std::array::from_fn(|_| {
                let d = (c % 3) as i64 - 1;
                c /= 3;
                d
            })
        })
        .filter(|o: &[i64; D]| o.iter().find(|&&d| d != 0).is_some_and(|&d| d > 0))
        .collect();

    let distance2 = |a: &[f64; D], b: &[f64; D]| -> f64 {
        let mut s = 0.0;
        for i in 0..D {
            let d = a[i] - b[i];
            s += d * d;
        }
        s
    };
    let mut d2_min = f64::INFINITY;
    let mut close = 0u64;
    let mut visit = |a: &[f64; D], b: &[f64; D]| {
        let d2 = distance2(a, b);
        d2_min = d2_min.min(d2);
        close += u64::from(d2 < r2);
    };
    for (key, &(lo, hi)) in &runs {
        for i in lo..hi {
            let p = points[order[i].1 as usize];
            for entry in &order[i + 1..hi] {
                visit(p, points[entry.1 as usize]);
            }
        }
        for o in &offsets {
            let neighbour: [i64; D] = std::array::from_fn(|i| key[i] + o[i]);
            if let Some(&(nlo, nhi)) = runs.get(&neighbour) {
                for i in lo..hi {
                    let p = points[order[i].1 as usize];
                    for entry in &order[nlo..nhi] {
                        visit(p, points[entry.1 as usize]);
                    }
                }
            }
        }
    }
    (d2_min, close)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force<const D: usize>(points: &[[f64; D]], radius: f64) -> PairStats {
        let mut d_min = f64::INFINITY;
        let mut close_pairs = 0;
        for (i, a) in points.iter().enumerate() {
            for b in &points[i + 1..] {
                let d: f64 = (0..D).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt();
                d_min = d_min.min(d);
                close_pairs += u64::from(d < radius);
            }
        }
        PairStats { d_min, close_pairs }
    }

    /// A small deterministic generator, enough to scatter test points.
    fn scatter<const D: usize>(n: usize, mut state: u64) -> Vec<[f64; D]> {
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..n).map(|_| std::array::from_fn(|_| next())).collect()
    }

    #[test]
    fn grid_scan_matches_brute_force() {
        for seed in 0..5 {
            let p2 = scatter::<2>(400, seed);
            for r in [0.001, 0.01, 0.05] {
                assert_eq!(pair_stats(&p2, r), brute_force(&p2, r), "2D r={r}");
            }
            let p3 = scatter::<3>(300, seed + 10);
            assert_eq!(pair_stats(&p3, 0.05), brute_force(&p3, 0.05));
            let p6 = scatter::<6>(200, seed + 20);
            assert_eq!(pair_stats(&p6, 0.2), brute_force(&p6, 0.2));
        }
    }

    #[test]
    fn a_far_minimum_is_still_found() {
        // Two points far apart compared with the radius: the side doubles until it sees them.
        let points = [[0.1, 0.1], [0.9, 0.8]];
        let stats = pair_stats(&points, 0.001);
        assert!((stats.d_min - (0.64f64 + 0.49).sqrt()).abs() < 1e-12);
        assert_eq!(stats.close_pairs, 0);
    }

    #[test]
    fn points_outside_the_box_and_duplicates_count() {
        let points = [[-0.5, 0.2], [-0.5, 0.2], [1.2, 0.3]];
        let stats = pair_stats(&points, 0.1);
        assert_eq!(stats.d_min, 0.0);
        assert_eq!(stats.close_pairs, 1);
    }

    #[test]
    fn relative_radius_of_the_hexagonal_lattice_is_one() {
        // A hexagonal packing with spacing d has density 2/(√3 d²) points per unit area.
        let d = 0.01;
        let n = (2.0 / (3f64.sqrt() * d * d)) as usize;
        let rho = relative_radius(d, n, 2);
        assert!((rho - 1.0).abs() < 1e-3, "{rho}");
    }
}
