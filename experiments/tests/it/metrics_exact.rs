//! Metrics against exact answers: the k-d tree against brute force (closed and periodic),
//! Warnock's formula against a direct integration, coverage against areas.

use experiments::metrics::pairs::pairs_closer_than;
use experiments::metrics::{
    NeighbourIndex, closest_pair, coverage, l2_star_discrepancy_squared,
    nearest_neighbour_distances, pair_correlation, unit_ball_volume,
};
use poisson_nd::rng::{rng_from_seed, uniform01};
use poisson_nd::{Domain, Point};
use std::f64::consts::PI;
use testkit::oracle::{brute_nn, brute_pairs};

/// Random points in `domain`, a third of them hugging a face (within 1e-3 of it), plus an
/// exact duplicate when there are enough points.
fn awkward_points<const D: usize>(domain: &Domain<D>, n: usize, seed: u64) -> Vec<Point<D>> {
    let mut rng = rng_from_seed(seed);
    let mut points: Vec<Point<D>> = (0..n)
        .map(|i| {
            let mut p = domain.uniform_point(&mut rng);
            if i % 3 == 0 {
                let axis = i % D;
                let lo = domain.origin()[axis];
                let side = domain.extent()[axis];
                let t = 1e-3 * side * uniform01(&mut rng);
                p[axis] = if i % 2 == 0 { lo + t } else { lo + side - t - 1e-12 * side };
            }
            p
        })
        .collect();
    if n >= 10 {
        points[7] = points[3];
    }
    if n >= 50 {
        // A pile of copies, one signed zero against the other, and (periodic) a point on the
        // upper face that wraps onto one on the lower face.
        for i in 20..26 {
            points[i] = points[11];
        }
        points[30][0] = -0.0;
        points[31] = points[30];
        points[31][0] = 0.0;
        points[32][0] = domain.origin()[0];
        points[33] = points[32];
        points[33][0] = domain.origin()[0] + domain.extent()[0];
        if !domain.is_periodic() {
            points[33][0] = points[32][0];
        }
    }
    points
}

/// The pair correlation's per-bin pair counts and translation weights by brute force.
fn brute_pair_bins<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    bin_width: f64,
    bins: usize,
) -> (Vec<u64>, Vec<f64>) {
    let (mut counts, mut weights) = (vec![0u64; bins], vec![0.0; bins]);
    let wrapped: Vec<Point<D>> = points
        .iter()
        .map(|p| if domain.is_periodic() { domain.wrap(p).unwrap() } else { *p })
        .collect();
    let r_max = bins as f64 * bin_width;
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            let d2 = domain.distance_squared(&wrapped[i], &wrapped[j]);
            if d2 >= r_max * r_max {
                continue;
            }
            let b = ((d2.sqrt() / bin_width) as usize).min(bins - 1);
            let mut overlap = 1.0;
            for a in 0..D {
                overlap *= domain.extent()[a] - (wrapped[i][a] - wrapped[j][a]).abs();
            }
            counts[b] += 1;
            weights[b] += if domain.is_periodic() { 1.0 } else { domain.volume() / overlap };
        }
    }
    (counts, weights)
}

fn compare_with_brute_force<const D: usize>(domain: &Domain<D>, n: usize, seed: u64) {
    let points = awkward_points(domain, n, seed);
    let fast = nearest_neighbour_distances(&points, domain);
    let slow = brute_nn(&points, domain);
    for (i, (a, b)) in fast.iter().zip(&slow).enumerate() {
        assert!(
            a == b || (a - b).abs() <= 1e-12 * b.max(1e-300),
            "D={D} n={n} periodic={} point {i}: k-d tree {a}, brute force {b}",
            domain.is_periodic()
        );
    }
    if n >= 2 {
        let (i, j, d) = closest_pair(&points, domain).unwrap();
        let min = slow.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(i < j && (d - min).abs() <= 1e-12 * min.max(1e-300));
    }
    let side = domain.extent().iter().copied().fold(f64::INFINITY, f64::min);
    let index = NeighbourIndex::new(&points, domain);
    for fraction in [0.01, 0.1, 0.3, 0.6, 0.9] {
        let r = fraction * side;
        assert_eq!(
            pairs_closer_than(&points, domain, r),
            brute_pairs(&points, domain, r),
            "D={D} n={n} r={r} periodic={}",
            domain.is_periodic()
        );
    }
    // Pair counts and the pair correlation's bins, identical points counted together.
    let r = 0.3 * side;
    let brute = brute_pairs(&points, domain, r);
    let counts = index.pairs_within_up_to(r, u64::MAX).unwrap();
    assert_eq!(counts.points, brute, "D={D} n={n} pair counts");
    assert!(counts.sites <= counts.points);
    if counts.sites > 0 {
        assert_eq!(index.pairs_within_up_to(r, counts.sites - 1), None);
    }
    let bins = 6;
    let pcf = pair_correlation(&points, domain, r / bins as f64, r);
    if n >= 2 && pcf.bins.len() == bins {
        let (slow_counts, slow_weights) = brute_pair_bins(&points, domain, r / bins as f64, bins);
        let n = n as f64;
        for (b, bin) in pcf.bins.iter().enumerate() {
            assert_eq!(bin.pairs, slow_counts[b], "D={D} bin {b}");
            let shell =
                unit_ball_volume(D) * (bin.r_upper.powi(D as i32) - bin.r_lower.powi(D as i32));
            let g = domain.volume() / (n * (n - 1.0)) * 2.0 * slow_weights[b] / shell;
            assert!((bin.g - g).abs() <= 1e-9 * g.abs(), "D={D} bin {b}: {} vs {g}", bin.g);
        }
    }
    // Arbitrary query locations: nearest point and every point within r.
    let mut rng = rng_from_seed(seed ^ 0xABCD);
    for _ in 0..20 {
        let q = domain.uniform_point(&mut rng);
        let brute = points
            .iter()
            .map(|p| domain.distance_squared(&q, p))
            .fold(f64::INFINITY, f64::min)
            .sqrt();
        let (_, d) = index.nearest(&q).unwrap();
        assert!((d - brute).abs() <= 1e-12 * brute.max(1e-300), "D={D}: {d} vs {brute}");
        let r = 0.45 * side;
        let mut fast: Vec<usize> = Vec::new();
        index.for_each_within(&q, r, |j, _| fast.push(j));
        fast.sort_unstable();
        let slow: Vec<usize> = (0..points.len())
            .filter(|&j| domain.distance_squared(&q, &points[j]) < r * r)
            .collect();
        assert_eq!(fast, slow, "D={D} within");
    }
}

/// k-d tree nearest neighbours, closest pair, close-pair counts, nearest-point and radius
/// queries equal brute force, in closed and periodic boxes with a negative origin and unequal
/// sides, D = 1..5 and 8, with points hugging the faces, duplicates and a pile of copies.
/// Deterministic.
#[test]
fn kd_tree_matches_brute_force() {
    fn all<const D: usize>() {
        let mut origin = [0.0; D];
        let mut extent = [0.0; D];
        for a in 0..D {
            origin[a] = -1.5 + 0.3 * a as f64;
            extent[a] = 1.0 + 0.25 * a as f64;
        }
        let closed = Domain::from_origin_and_extent(origin, extent).unwrap();
        for (k, n) in [2usize, 3, 50, 400].into_iter().enumerate() {
            compare_with_brute_force(&closed, n, 10 * D as u64 + k as u64);
            compare_with_brute_force(&closed.periodic(), n, 100 * D as u64 + k as u64);
        }
    }
    all::<1>();
    all::<2>();
    all::<3>();
    all::<4>();
    all::<5>();
    all::<8>();
}

/// Edge cases: no points, one point, all points equal; periodic wrap across a corner.
#[test]
fn neighbour_edge_cases() {
    let torus = Domain::<2>::unit().periodic();
    assert!(nearest_neighbour_distances(&[], &torus).is_empty());
    assert_eq!(nearest_neighbour_distances(&[[0.5, 0.5]], &torus), vec![f64::INFINITY]);
    assert_eq!(nearest_neighbour_distances(&[[0.5, 0.5]; 3], &torus), vec![0.0; 3]);
    let corner = [[0.01, 0.01], [0.99, 0.99], [0.5, 0.5]];
    let d = nearest_neighbour_distances(&corner, &torus);
    assert!((d[0] - 0.02f64.hypot(0.02)).abs() < 1e-12, "{d:?}");
    assert_eq!(pairs_closer_than(&corner, &torus, 0.03), 1);
    assert_eq!(pairs_closer_than(&corner, &Domain::unit(), 0.03), 0);
}

/// The exact L2-star discrepancy by direct integration: the coordinates cut the cube into
/// cells on which the count of points in `[0, y)` is constant, and `(c/N − Π y_a)²` is
/// integrated exactly over each cell.
fn l2_star_squared_by_cells<const D: usize>(points: &[Point<D>]) -> f64 {
    let n = points.len() as f64;
    let mut cuts: Vec<Vec<f64>> = (0..D)
        .map(|a| {
            let mut c: Vec<f64> = points.iter().map(|p| p[a]).collect();
            c.push(0.0);
            c.push(1.0);
            c.sort_by(f64::total_cmp);
            c.dedup();
            c
        })
        .collect();
    let cells: Vec<usize> = cuts.iter_mut().map(|c| c.len() - 1).collect();
    let total_cells: usize = cells.iter().product();
    let mut sum = 0.0;
    for mut id in 0..total_cells {
        let mut lo = [0.0; D];
        let mut hi = [0.0; D];
        for a in 0..D {
            let i = id % cells[a];
            id /= cells[a];
            lo[a] = cuts[a][i];
            hi[a] = cuts[a][i + 1];
        }
        // y in the open cell: point p is in [0, y) iff p_a <= lo_a on every axis.
        let c = points.iter().filter(|p| (0..D).all(|a| p[a] <= lo[a])).count() as f64 / n;
        let (mut v, mut m1, mut m2) = (1.0, 1.0, 1.0);
        for a in 0..D {
            v *= hi[a] - lo[a];
            m1 *= (hi[a] * hi[a] - lo[a] * lo[a]) / 2.0;
            m2 *= (hi[a].powi(3) - lo[a].powi(3)) / 3.0;
        }
        sum += c * c * v - 2.0 * c * m1 + m2;
    }
    sum
}

/// Warnock's formula equals the direct integration on tiny sets (2D, 3D, in a box that is
/// not the unit cube), and the one-point closed form
/// `3^−D − 2^(1−D) Π(1 − u_a²) + Π(1 − u_a)` in D = 1..4.
#[test]
fn discrepancy_matches_direct_integration() {
    let pts2 = [[0.1, 0.7], [0.35, 0.2], [0.6, 0.95], [0.8, 0.45], [0.95, 0.05]];
    let want = l2_star_squared_by_cells(&pts2);
    let got = l2_star_discrepancy_squared(&pts2, &Domain::unit());
    eprintln!("2D: Warnock {got:.15}, cells {want:.15}");
    assert!((got - want).abs() < 1e-14);
    // The same points in a shifted, stretched box.
    let domain = Domain::from_origin_and_extent([-2.0, 1.0], [4.0, 0.5]).unwrap();
    let moved: Vec<Point<2>> = pts2.iter().map(|p| [-2.0 + 4.0 * p[0], 1.0 + 0.5 * p[1]]).collect();
    assert!((l2_star_discrepancy_squared(&moved, &domain) - want).abs() < 1e-14);

    let pts3 = [[0.2, 0.5, 0.9], [0.7, 0.1, 0.3], [0.45, 0.85, 0.6], [0.05, 0.3, 0.15]];
    let want = l2_star_squared_by_cells(&pts3);
    let got = l2_star_discrepancy_squared(&pts3, &Domain::unit());
    eprintln!("3D: Warnock {got:.15}, cells {want:.15}");
    assert!((got - want).abs() < 1e-14);

    fn one_point<const D: usize>(u: Point<D>) {
        let d = D as i32;
        let want = 3f64.powi(-d)
            - 2f64.powi(1 - d) * u.iter().map(|x| 1.0 - x * x).product::<f64>()
            + u.iter().map(|x| 1.0 - x).product::<f64>();
        let got = l2_star_discrepancy_squared(&[u], &Domain::unit());
        assert!((got - want).abs() < 1e-15, "D={D}");
        assert!((got - l2_star_squared_by_cells(&[u])).abs() < 1e-14, "D={D}");
    }
    one_point([0.3]);
    one_point([0.3, 0.8]);
    one_point([0.3, 0.8, 0.5]);
    one_point([0.3, 0.8, 0.5, 0.05]);
}

/// Coverage of simple configurations against their exact areas with 200 000 probes, each
/// at 5 binomial standard errors (false-alarm rate 6e-7 per check).
#[test]
fn coverage_matches_exact_areas() {
    let check = |name: &str, got: experiments::metrics::Coverage, want: f64| {
        eprintln!("{name}: {:.5} ± {:.5}, exact {want:.5}", got.fraction, got.std_error);
        let se = (want * (1.0 - want) / got.probes as f64).sqrt();
        assert!((got.fraction - want).abs() < 5.0 * se, "{name}");
    };
    let square = Domain::<2>::unit();
    let torus = square.periodic();
    let r = 0.3;
    let probes = 200_000;
    check("centre disc", coverage(&[[0.5, 0.5]], &square, r, probes, 1), PI * r * r);
    check("corner quarter disc", coverage(&[[0.0, 0.0]], &square, r, probes, 2), PI * r * r / 4.0);
    check("corner disc on the torus", coverage(&[[0.0, 0.0]], &torus, r, probes, 3), PI * r * r);
    // Two discs 0.2 apart across the seam: union = 2πr² − lens.
    let (r, d) = (0.15f64, 0.2f64);
    let lens = 2.0 * r * r * (d / (2.0 * r)).acos() - d / 2.0 * (4.0 * r * r - d * d).sqrt();
    check(
        "two discs across the seam",
        coverage(&[[0.9, 0.5], [0.1, 0.5]], &torus, r, probes, 4),
        2.0 * PI * r * r - lens,
    );
    let cube = Domain::<3>::unit();
    check("3D ball", coverage(&[[0.5, 0.5, 0.5]], &cube, 0.4, probes, 5), 4.0 / 3.0 * PI * 0.064);
    // 1D: two points whose intervals overlap.
    let line = Domain::<1>::unit();
    check("1D intervals", coverage(&[[0.2], [0.3]], &line, 0.1, probes, 6), 0.3);
}
