//! Lloyd relaxation: the exact Voronoi cells tile the box (periodic or closed), their centroids
//! agree with a brute-force probe estimate, the CVT energy never rises from one iteration to
//! the next, and the sampler keeps the library's promises.

use poisson_nd::{Domain, Error, Lloyd, Point, Sampler, VoronoiCell, WhiteNoise};
use testkit::oracle::brute_nn;

fn boxes() -> Vec<Domain<2>> {
    let square = Domain::<2>::unit();
    let wide = Domain::from_origin_and_extent([-3.0, 10.0], [2.5, 0.8]).unwrap();
    vec![square, square.periodic(), wide, wide.periodic()]
}

/// `∫_cell |x − p|² dx` over a polygon (counter-clockwise), by triangles fanned from `p`:
/// a triangle `p, a, b` contributes `|cross(a−p, b−p)| (|a−p|² + |b−p|² + (a−p)·(b−p)) / 12`.
fn second_moment(cell: &VoronoiCell<2>, p: &Point<2>) -> f64 {
    let v = &cell.vertices;
    (0..v.len())
        .map(|k| {
            let a = [v[k][0] - p[0], v[k][1] - p[1]];
            let b = [v[(k + 1) % v.len()][0] - p[0], v[(k + 1) % v.len()][1] - p[1]];
            let cross = a[0] * b[1] - a[1] * b[0];
            cross
                * (a[0] * a[0]
                    + a[1] * a[1]
                    + b[0] * b[0]
                    + b[1] * b[1]
                    + a[0] * b[0]
                    + a[1] * b[1])
                / 12.0
        })
        .sum()
}

fn energy(domain: &Domain<2>, points: &[Point<2>]) -> f64 {
    let cells = Lloyd::voronoi_cells(domain, points).unwrap();
    cells.iter().zip(points).map(|(c, p)| second_moment(c, p)).sum()
}

#[test]
fn cells_tile_the_box() {
    for domain in boxes() {
        for (n, seed) in [(1, 1), (2, 2), (3, 3), (50, 4), (500, 5)] {
            let points = WhiteNoise::new(domain).sample_seeded(n, seed).points;
            let cells = Lloyd::voronoi_cells(&domain, &points).unwrap();
            assert_eq!(cells.len(), n);
            let area: f64 = cells.iter().map(|c| c.area).sum();
            let label = format!("{domain:?} n {n}");
            assert!((area - domain.volume()).abs() <= 1e-12 * domain.volume(), "{label}: {area}");
            for cell in &cells {
                assert!(cell.area > 0.0, "{label}");
                assert!(domain.contains(&cell.centroid), "{label}");
                if !domain.is_periodic() {
                    // Mirror bisectors clip the cells to the box.
                    let (o, e) = (domain.origin(), domain.extent());
                    for v in &cell.vertices {
                        for k in 0..2 {
                            let slack = 1e-12 * e[k];
                            assert!(v[k] >= o[k] - slack && v[k] <= o[k] + e[k] + slack, "{label}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn centroids_agree_with_a_probe_estimate() {
    for domain in boxes() {
        let points = WhiteNoise::new(domain).sample_seeded(40, 8).points;
        let cells = Lloyd::voronoi_cells(&domain, &points).unwrap();
        let (o, e) = (domain.origin(), domain.extent());
        let m = 600;
        // Probes on a fine grid, each assigned to its nearest point; in a periodic box the
        // offset from the point is the shortest one, so centroids are averaged around it.
        let mut sums = vec![[0.0f64; 3]; points.len()];
        for a in 0..m {
            for b in 0..m {
                let x = [
                    o[0] + (a as f64 + 0.5) / m as f64 * e[0],
                    o[1] + (b as f64 + 0.5) / m as f64 * e[1],
                ];
                let (j, _) = points
                    .iter()
                    .enumerate()
                    .map(|(j, p)| (j, domain.distance_squared(&x, p)))
                    .fold((0, f64::INFINITY), |best, c| if c.1 < best.1 { c } else { best });
                let mut d = [x[0] - points[j][0], x[1] - points[j][1]];
                if domain.is_periodic() {
                    for k in 0..2 {
                        d[k] -= e[k] * (d[k] / e[k]).round();
                    }
                }
                sums[j][0] += d[0];
                sums[j][1] += d[1];
                sums[j][2] += 1.0;
            }
        }
        let h = e[0].max(e[1]) / m as f64;
        for (j, cell) in cells.iter().enumerate() {
            let s = sums[j];
            let probe_area = s[2] * e[0] * e[1] / (m * m) as f64;
            let mut centroid = [points[j][0] + s[0] / s[2], points[j][1] + s[1] / s[2]];
            if let Some(wrapped) = domain.wrap(&centroid) {
                centroid = wrapped;
            }
            let offset = domain.distance_squared(&centroid, &cell.centroid).sqrt();
            // A grid of step h places a centroid to within a few h (the cells' boundaries
            // are resolved to h).
            assert!(offset < 3.0 * h, "{domain:?} cell {j}: {offset} (h {h})");
            let v = &cell.vertices;
            let perimeter: f64 = (0..v.len())
                .map(|k| {
                    let w = v[(k + 1) % v.len()];
                    (w[0] - v[k][0]).hypot(w[1] - v[k][1])
                })
                .sum();
            assert!((probe_area - cell.area).abs() < perimeter * h, "{domain:?} cell {j}");
        }
    }
}

#[test]
fn the_energy_never_rises() {
    for domain in boxes() {
        let mut points = WhiteNoise::new(domain).sample_seeded(300, 3).points;
        let mut last = energy(&domain, &points);
        for iteration in 0..15 {
            points = Lloyd::relax(domain, points, 1).unwrap().points;
            let now = energy(&domain, &points);
            assert!(
                now <= last * (1.0 + 1e-12),
                "{domain:?} iteration {iteration}: {last} -> {now}"
            );
            last = now;
        }
        // Deterministic: the same call twice gives the same points, bit for bit.
        let start = WhiteNoise::new(domain).sample_seeded(300, 3).points;
        let (a, b) = (Lloyd::relax(domain, start.clone(), 15), Lloyd::relax(domain, start, 15));
        assert_eq!(a.unwrap().points, b.unwrap().points);
    }
}

#[test]
fn exact_counts_in_the_box_and_reproducible() {
    for domain in boxes() {
        let lloyd = Lloyd::builder(domain).with_iterations(5).build().unwrap();
        for n in [0, 1, 2, 3, 4, 17, 150] {
            let set = lloyd.sample_seeded(n, 9);
            assert_eq!(set.len(), n);
            assert!(set.points.iter().all(|p| domain.contains(p)));
            assert_eq!(set.points, lloyd.sample_seeded(n, 9).points);
        }
    }
}

#[test]
fn degenerate_points_do_not_panic() {
    for domain in [Domain::<2>::unit(), Domain::<2>::unit().periodic()] {
        let starts: Vec<Vec<Point<2>>> = vec![
            vec![],
            vec![[0.0, 0.0]],
            vec![[0.3, 0.7]; 20],
            (0..20).map(|k| [k as f64 / 20.0, 0.5]).collect(),
            (0..20).map(|k| [0.0, k as f64 / 20.0]).collect(),
            (0..16).map(|k| [(k % 4) as f64 / 4.0, (k / 4) as f64 / 4.0]).collect(),
        ];
        for start in starts {
            let cells = Lloyd::voronoi_cells(&domain, &start).unwrap();
            let area: f64 = cells.iter().map(|c| c.area).sum();
            if !start.is_empty() {
                assert!((area - 1.0).abs() < 1e-12, "{start:?}: {area}");
            }
            let set = Lloyd::relax(domain, start.clone(), 20).unwrap();
            assert_eq!(set.len(), start.len());
            assert!(set.points.iter().all(|p| domain.contains(p)));
        }
    }
    // A single point in a closed box goes to its centre.
    let one = Lloyd::relax(Domain::<2>::unit(), vec![[0.1, 0.9]], 1).unwrap();
    assert!((one.points[0][0] - 0.5).abs() < 1e-15 && (one.points[0][1] - 0.5).abs() < 1e-15);
}

#[test]
fn relaxed_points_are_well_spread() {
    let domain = Domain::<2>::unit().periodic();
    let set = Lloyd::new(domain).unwrap().sample_seeded(1000, 2);
    let nn = brute_nn(&set.points, &domain);
    let hex = (2.0 / (3f64.sqrt() * 1000.0)).sqrt();
    let dx = nn.iter().copied().fold(f64::INFINITY, f64::min) / hex;
    assert!(dx > 0.6, "δX {dx}");
}

#[test]
fn wrong_input_is_refused() {
    assert!(matches!(Lloyd::new(Domain::<1>::unit()), Err(Error::InvalidParameter { .. })));
    assert!(matches!(Lloyd::new(Domain::<3>::unit()), Err(Error::InvalidParameter { .. })));
    assert!(Lloyd::relax(Domain::<3>::unit(), vec![[0.5; 3]], 1).is_err());
    let unit = Domain::<2>::unit();
    assert!(Lloyd::relax(unit, vec![[f64::INFINITY, 0.5]], 1).is_err());
    assert!(Lloyd::voronoi_cells(&unit, &[[0.5, 1.0]]).is_err());
    assert_eq!(Lloyd::new(unit).unwrap().name(), "lloyd");
}
