//! `Maximal`: minimum distance, exact maximality (2D and 3D), probed maximality (4D–6D), and
//! the packing fractions of saturated random sequential adsorption.
//!
//! Exact coverage check. Let U be the set of locations of the closed box at distance ≥ r from
//! every point (the uncovered set; a periodic box is handled as the closed box with every image
//! of every point whose disk meets it, which has the same uncovered set). U is closed and
//! bounded, so if it is not empty a generic linear function attains its minimum on U at some
//! x. The constraints are "outside each open disk" (|x − p|² ≥ r², a convex function ≥ 0) and
//! the box's faces. At a minimum, fewer than D active constraints leave a line of feasible
//! directions along which the function either decreases to first order, or is stationary while
//! the disks' curvature (the Lagrangian's Hessian is −2Σλ·I on the tangent space) makes x a
//! local *maximum*; either way not a minimum. So x lies on D constraint boundaries at once: it
//! is a *vertex* of the arrangement — in 2D a box corner, a circle–edge or a circle–circle
//! intersection; in 3D a corner, a sphere–edge, a sphere–sphere–face or a sphere–sphere–sphere
//! intersection. Hence: U is empty if every vertex inside the closed box is strictly inside
//! some disk other than the ones that define it. The check computes every vertex and asks
//! exactly that, with a relative margin of 1e-9 on r² so that the defining disks (at distance
//! r up to rounding) never count; a vertex covered by a margin below that would be reported as
//! uncovered (a false alarm, never a missed hole; a few in 10^5 runs).
//! Degenerate arrangements (three circles through one point, tangent circles) have probability
//! zero for random points.

use poisson_nd::{Domain, Maximal, Point, Sampler, StopReason};
use std::collections::HashMap;
use testkit::domains::{awkward_box, radius_for_about};
use testkit::oracle::close_pair;

/// Disks of radius `radius` at the points, with their periodic images when the box is
/// periodic, as seen from the closed box; and a bucket grid over them (side 2r).
struct Disks<const D: usize> {
    centres: Vec<Point<D>>,
    radius: f64,
    buckets: HashMap<[i64; D], Vec<usize>>,
}

impl<const D: usize> Disks<D> {
    fn new(domain: &Domain<D>, points: &[Point<D>], radius: f64) -> Self {
        let (o, l) = (*domain.origin(), *domain.extent());
        let mut centres = Vec::new();
        for p in points {
            if !domain.is_periodic() {
                centres.push(*p);
                continue;
            }
            for code in 0..3usize.pow(D as u32) {
                let mut c = code;
                let image: Point<D> = std::array::from_fn(|i| {
                    let shift = (c % 3) as f64 - 1.0;
                    c /= 3;
                    p[i] + shift * l[i]
                });
                // Keep the images whose disk meets the closed box.
                let gap2: f64 = (0..D)
                    .map(|i| {
                        let g = (o[i] - image[i]).max(image[i] - o[i] - l[i]).max(0.0);
                        g * g
                    })
                    .sum();
                if gap2 < radius * radius {
                    centres.push(image);
                }
            }
        }
        let mut buckets: HashMap<[i64; D], Vec<usize>> = HashMap::new();
        for (k, c) in centres.iter().enumerate() {
            buckets.entry(Self::key(c, radius)).or_default().push(k);
        }
        Disks { centres, radius, buckets }
    }

    fn key(p: &Point<D>, radius: f64) -> [i64; D] {
        std::array::from_fn(|i| (p[i] / (2.0 * radius)).floor() as i64)
    }

    /// Indices of the disks whose centre is closer than 2r to `p`.
    fn near(&self, p: &Point<D>) -> Vec<usize> {
        let key = Self::key(p, self.radius);
        let mut out = Vec::new();
        for code in 0..3usize.pow(D as u32) {
            let mut c = code;
            let k: [i64; D] = std::array::from_fn(|i| {
                let d = (c % 3) as i64 - 1;
                c /= 3;
                key[i] + d
            });
            if let Some(list) = self.buckets.get(&k) {
                for &j in list {
                    if dist2(p, &self.centres[j]) < 4.0 * self.radius * self.radius {
                        out.push(j);
                    }
                }
            }
        }
        out
    }

    /// Whether some disk holds `v` with margin (see the file's header).
    fn covers(&self, v: &Point<D>) -> bool {
        let limit = self.radius * self.radius * (1.0 - 1e-9);
        self.near(v).iter().any(|&j| dist2(v, &self.centres[j]) < limit)
    }
}

fn dist2<const D: usize>(a: &Point<D>, b: &Point<D>) -> f64 {
    (0..D).map(|i| (a[i] - b[i]).powi(2)).sum()
}

fn in_closed_box<const D: usize>(domain: &Domain<D>, v: &Point<D>) -> bool {
    let (o, l) = (domain.origin(), domain.extent());
    (0..D).all(|i| v[i] >= o[i] - 1e-12 && v[i] <= o[i] + l[i] + 1e-12)
}

/// Intersections of two circles in the plane (centres, radii).
fn circle_circle(c1: [f64; 2], r1: f64, c2: [f64; 2], r2: f64) -> Vec<[f64; 2]> {
    let (dx, dy) = (c2[0] - c1[0], c2[1] - c1[1]);
    let d2 = dx * dx + dy * dy;
    let d = d2.sqrt();
    if d == 0.0 || d >= r1 + r2 || d <= (r1 - r2).abs() {
        return Vec::new();
    }
    let a = (r1 * r1 - r2 * r2 + d2) / (2.0 * d);
    let h = (r1 * r1 - a * a).max(0.0).sqrt();
    let (bx, by) = (c1[0] + a * dx / d, c1[1] + a * dy / d);
    vec![[bx - h * dy / d, by + h * dx / d], [bx + h * dy / d, by - h * dx / d]]
}

/// Where the sphere (centre, r) meets the line whose coordinates other than `free` are fixed
/// to those of `at`.
fn sphere_line<const D: usize>(
    centre: &Point<D>,
    r: f64,
    at: Point<D>,
    free: usize,
) -> Vec<Point<D>> {
    let rest: f64 = (0..D).filter(|&i| i != free).map(|i| (at[i] - centre[i]).powi(2)).sum();
    let h2 = r * r - rest;
    if h2 <= 0.0 {
        return Vec::new();
    }
    let h = h2.sqrt();
    [-h, h]
        .iter()
        .map(|s| {
            let mut v = at;
            v[free] = centre[free] + s;
            v
        })
        .collect()
}

/// The box's corners.
fn corners<const D: usize>(domain: &Domain<D>) -> Vec<Point<D>> {
    let (o, l) = (domain.origin(), domain.extent());
    (0..1usize << D)
        .map(|bits| std::array::from_fn(|i| o[i] + if bits >> i & 1 == 1 { l[i] } else { 0.0 }))
        .collect()
}

/// The first uncovered vertex of the 2D arrangement, if any.
pub(crate) fn uncovered_vertex_2d(
    domain: &Domain<2>,
    points: &[Point<2>],
    r: f64,
) -> Option<Point<2>> {
    let disks = Disks::new(domain, points, r);
    let (o, l) = (domain.origin(), domain.extent());
    let mut vertices = corners(domain);
    for (a, c) in disks.centres.iter().enumerate() {
        // Circle–edge: the four edge lines.
        for axis in 0..2 {
            for face in [o[axis], o[axis] + l[axis]] {
                let mut at = *c;
                at[axis] = face;
                vertices.extend(sphere_line(c, r, at, 1 - axis));
            }
        }
        for b in disks.near(c) {
            if b > a {
                vertices.extend(circle_circle(*c, r, disks.centres[b], r));
            }
        }
    }
    vertices.into_iter().filter(|v| in_closed_box(domain, v)).find(|v| !disks.covers(v))
}

/// Intersections of three spheres of radius r.
fn three_spheres(p1: &Point<3>, p2: &Point<3>, p3: &Point<3>, r: f64) -> Vec<Point<3>> {
    let sub = |a: &Point<3>, b: &Point<3>| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let dot = |a: &[f64; 3], b: &[f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let scale = |a: &[f64; 3], s: f64| [a[0] * s, a[1] * s, a[2] * s];
    let u = sub(p2, p1);
    let d = dot(&u, &u).sqrt();
    if d == 0.0 {
        return Vec::new();
    }
    let ex = scale(&u, 1.0 / d);
    let w = sub(p3, p1);
    let i = dot(&ex, &w);
    let wy = sub(&w, &scale(&ex, i));
    let j = dot(&wy, &wy).sqrt();
    if j < 1e-12 * r {
        return Vec::new(); // collinear centres: probability zero
    }
    let ey = scale(&wy, 1.0 / j);
    let ez = [
        ex[1] * ey[2] - ex[2] * ey[1],
        ex[2] * ey[0] - ex[0] * ey[2],
        ex[0] * ey[1] - ex[1] * ey[0],
    ];
    let x = d / 2.0;
    let y = (i * i + j * j) / (2.0 * j) - i * x / j;
    let z2 = r * r - x * x - y * y;
    if z2 <= 0.0 {
        return Vec::new();
    }
    let z = z2.sqrt();
    [-z, z]
        .iter()
        .map(|s| std::array::from_fn(|k| p1[k] + x * ex[k] + y * ey[k] + s * ez[k]))
        .collect()
}

/// The first uncovered vertex of the 3D arrangement, if any.
fn uncovered_vertex_3d(domain: &Domain<3>, points: &[Point<3>], r: f64) -> Option<Point<3>> {
    let disks = Disks::new(domain, points, r);
    let (o, l) = (domain.origin(), domain.extent());
    let mut vertices = corners(domain);
    for (a, c) in disks.centres.iter().enumerate() {
        // Sphere–edge: the twelve edge lines (two coordinates on faces).
        for free in 0..3 {
            let (j, k) = ((free + 1) % 3, (free + 2) % 3);
            for fj in [o[j], o[j] + l[j]] {
                for fk in [o[k], o[k] + l[k]] {
                    let mut at = *c;
                    at[j] = fj;
                    at[k] = fk;
                    vertices.extend(sphere_line(c, r, at, free));
                }
            }
        }
        let near: Vec<usize> = disks.near(c).into_iter().filter(|&b| b > a).collect();
        for (m, &b) in near.iter().enumerate() {
            let cb = disks.centres[b];
            // Sphere–sphere–face: two circles in the face's plane.
            for axis in 0..3 {
                let (j, k) = ((axis + 1) % 3, (axis + 2) % 3);
                for face in [o[axis], o[axis] + l[axis]] {
                    let (ha, hb) = ((c[axis] - face).abs(), (cb[axis] - face).abs());
                    if ha >= r || hb >= r {
                        continue;
                    }
                    let (ra, rb) = ((r * r - ha * ha).sqrt(), (r * r - hb * hb).sqrt());
                    for q in circle_circle([c[j], c[k]], ra, [cb[j], cb[k]], rb) {
                        let mut v = [0.0; 3];
                        v[axis] = face;
                        v[j] = q[0];
                        v[k] = q[1];
                        vertices.push(v);
                    }
                }
            }
            // Three spheres.
            for &e in &near[m + 1..] {
                let ce = disks.centres[e];
                if dist2(&cb, &ce) < 4.0 * r * r {
                    vertices.extend(three_spheres(c, &cb, &ce, r));
                }
            }
        }
    }
    vertices.into_iter().filter(|v| in_closed_box(domain, v)).find(|v| !disks.covers(v))
}

/// The boxes every dimension is checked in: awkward closed and periodic, and a shifted,
/// non-unit box far from the origin.
fn boxes<const D: usize>() -> Vec<Domain<D>> {
    let shifted = Domain::from_origin_and_extent(
        std::array::from_fn(|i| 10.0 - 3.5 * i as f64),
        std::array::from_fn(|i| 0.7 + 0.25 * i as f64),
    )
    .expect("valid box");
    vec![awkward_box::<D>(), awkward_box::<D>().periodic(), shifted, shifted.periodic()]
}

fn no_close_pairs_and_saturated<const D: usize>(points: f64) {
    for (k, domain) in boxes::<D>().into_iter().enumerate() {
        let r = radius_for_about(&domain, points);
        let set = Maximal::new(domain, r).expect("valid").sample_seeded(usize::MAX, 40 + k as u64);
        let label = format!("D={D} box {k} periodic={}", domain.is_periodic());
        assert_eq!(set.stop, StopReason::Exhausted, "{label}");
        assert!(set.len() > 10, "{label}: {} points", set.len());
        assert!(set.points.iter().all(|p| domain.contains(p)), "{label}: outside");
        assert_eq!(close_pair(&domain, &set.points, r), None, "{label}");
    }
}

#[test]
fn no_close_pairs_d1_to_d6() {
    no_close_pairs_and_saturated::<1>(300.0);
    no_close_pairs_and_saturated::<2>(1500.0);
    no_close_pairs_and_saturated::<3>(1500.0);
    no_close_pairs_and_saturated::<4>(400.0);
    no_close_pairs_and_saturated::<5>(100.0);
    no_close_pairs_and_saturated::<6>(40.0);
}

#[test]
fn exact_coverage_2d() {
    for (k, domain) in boxes::<2>().into_iter().chain([Domain::unit()]).enumerate() {
        for seed in 0..3 {
            let r = radius_for_about(&domain, 1500.0);
            let set = Maximal::new(domain, r).expect("valid").sample_seeded(usize::MAX, seed);
            let hole = uncovered_vertex_2d(&domain, &set.points, r);
            assert_eq!(hole, None, "box {k} seed {seed}: {} points", set.len());
        }
    }
}

#[test]
fn exact_coverage_3d() {
    for (k, domain) in boxes::<3>().into_iter().chain([Domain::unit()]).enumerate() {
        for seed in 0..2 {
            let r = radius_for_about(&domain, 1000.0);
            let set = Maximal::new(domain, r).expect("valid").sample_seeded(usize::MAX, seed);
            let hole = uncovered_vertex_3d(&domain, &set.points, r);
            assert_eq!(hole, None, "box {k} seed {seed}: {} points", set.len());
        }
    }
}

#[test]
fn the_exact_check_finds_a_hole() {
    // Remove one point of a maximal set: the vertices around it are uncovered.
    for domain in [Domain::<2>::unit(), Domain::<2>::unit().periodic()] {
        let r = 0.05;
        let mut points =
            Maximal::new(domain, r).expect("valid").sample_seeded(usize::MAX, 1).points;
        assert_eq!(uncovered_vertex_2d(&domain, &points, r), None);
        points.swap_remove(points.len() / 2);
        assert!(uncovered_vertex_2d(&domain, &points, r).is_some());
    }
    let domain = Domain::<3>::unit().periodic();
    let mut points = Maximal::new(domain, 0.15).expect("valid").sample_seeded(usize::MAX, 1).points;
    assert_eq!(uncovered_vertex_3d(&domain, &points, 0.15), None);
    points.swap_remove(points.len() / 2);
    assert!(uncovered_vertex_3d(&domain, &points, 0.15).is_some());
}

fn probe_coverage<const D: usize>(points: f64, probes: usize) {
    use poisson_nd::rng::rng_from_seed;
    for (k, domain) in boxes::<D>().into_iter().enumerate() {
        let r = radius_for_about(&domain, points);
        let set = Maximal::new(domain, r).expect("valid").sample_seeded(usize::MAX, 7 + k as u64);
        let disks = Disks::new(&domain, &set.points, r);
        let mut rng = rng_from_seed(99);
        for _ in 0..probes {
            let probe = domain.uniform_point(&mut rng);
            let covered =
                disks.near(&probe).iter().any(|&j| dist2(&probe, &disks.centres[j]) < r * r);
            assert!(covered, "D={D} box {k}: {probe:?} is farther than r from every point");
        }
    }
}

#[test]
fn probe_coverage_4d_to_6d() {
    probe_coverage::<4>(400.0, 20_000);
    probe_coverage::<5>(100.0, 20_000);
    probe_coverage::<6>(40.0, 20_000);
}

// Reference counts, measured over 1000 seeds (1000..=1999) in 2D and 200 in 3D, release build:
// 2D unit torus, r = 0.02: mean 1741.59, sd 10.15 (packing 0.5471);
// 2D closed unit square, r = 0.02: mean 1788.20, sd 10.24 (packing 0.5618);
// 3D unit torus, r = 0.08: mean 1433.53, sd 8.66 (packing 0.3843);
// 3D closed unit cube, r = 0.08: mean 1666.68, sd 10.34 (packing 0.4468).
// Each test compares the mean of k fixed seeds with mean ± 4.5·sd/√k: a false alarm (a correct
// sampler failing after a change of its random stream) has probability about 7e-6.

fn mean_count<const D: usize>(domain: Domain<D>, r: f64, seeds: u64) -> f64 {
    let sampler = Maximal::new(domain, r).expect("valid");
    (1..=seeds).map(|s| sampler.sample_seeded(usize::MAX, s).len() as f64).sum::<f64>()
        / seeds as f64
}

#[test]
fn count_on_the_2d_torus_matches_saturated_rsa() {
    let seeds = 10;
    let mean = mean_count(Domain::<2>::unit().periodic(), 0.02, seeds);
    let tolerance = 4.5 * 10.15 / (seeds as f64).sqrt();
    assert!((mean - 1741.59).abs() < tolerance, "mean count {mean}");
    let packing = mean * std::f64::consts::PI * 0.01 * 0.01;
    assert!((packing - 0.547).abs() < 0.01, "packing {packing}, literature 0.547");
}

#[test]
fn packing_on_the_3d_torus_matches_saturated_rsa() {
    let seeds = 4;
    let mean = mean_count(Domain::<3>::unit().periodic(), 0.08, seeds);
    let tolerance = 4.5 * 8.66 / (seeds as f64).sqrt();
    assert!((mean - 1433.53).abs() < tolerance, "mean count {mean}");
    let packing = mean * 4.0 / 3.0 * std::f64::consts::PI * 0.04f64.powi(3);
    assert!((packing - 0.384).abs() < 0.01, "packing {packing}, literature 0.384");
}

#[test]
fn a_closed_box_holds_more_than_the_torus() {
    let seeds = 10;
    let closed = mean_count(Domain::<2>::unit(), 0.02, seeds);
    let tolerance = 4.5 * 10.24 / (seeds as f64).sqrt();
    assert!((closed - 1788.20).abs() < tolerance, "mean count {closed}");
    let torus = mean_count(Domain::<2>::unit().periodic(), 0.02, seeds);
    assert!(closed > torus + 30.0, "closed {closed}, torus {torus}");
}

#[test]
fn stops_at_the_target_and_the_point_limit() {
    let domain = Domain::<3>::unit();
    let sampler = Maximal::new(domain, 0.1).expect("valid");
    let set = sampler.sample_seeded(25, 5);
    assert_eq!((set.len(), set.stop), (25, StopReason::TargetReached));
    let capped =
        sampler.to_builder().with_max_points(3000).build().expect("enough for the packing");
    let full = capped.sample_seeded(usize::MAX, 5);
    assert_eq!(full.stop, StopReason::Exhausted);
    assert!(sampler.to_builder().with_max_points(10).build().is_err(), "below the densest packing");
    // The raised limit is in place when the radius is checked against it.
    let fine = Maximal::builder(domain, 0.002).with_max_points(200_000_000).build();
    assert_eq!(fine.expect("raised limit").max_points(), 200_000_000);
    assert!(Maximal::new(domain, 0.002).is_err(), "past the default limit");
    assert_eq!(sampler.sample_seeded(0, 5).stop, StopReason::TargetReached);
}

#[test]
fn invalid_configurations_are_errors() {
    let unit = Domain::<2>::unit();
    for r in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(Maximal::new(unit, r).is_err(), "r = {r}");
    }
    assert!(Maximal::new(unit, 1e-6).is_err(), "past the default point limit");
    // Above 6D the sampler is refused whatever the radius (`Maximal::CAPABILITIES.max_dimension`).
    let big = Domain::<7>::unit();
    let error = Maximal::new(big, 0.5).expect_err("7D is refused").to_string();
    assert!(error.starts_with("dimension (maximal) must be at most 6"), "{error}");
}

#[test]
fn a_radius_larger_than_the_box_gives_one_point() {
    for domain in [Domain::<2>::unit(), Domain::<2>::unit().periodic()] {
        let set = Maximal::new(domain, 2.0).expect("valid").sample_seeded(usize::MAX, 3);
        assert_eq!((set.len(), set.stop), (1, StopReason::Exhausted));
    }
}

/// Where a run leaves the caller's generator: each phase draws its darts a batch at a time
/// (up to 2^20), whole, so the generator ends after the last batch the run drew, whether the
/// run saturated or stopped at n inside it. Pinned from the code of 2026-12-05 (darts in
/// batches): a run to saturation in 2D and in 3D (through several refinements), and runs
/// stopped at n in the first phase and in a deeper one (n a few points below saturation).
#[test]
fn the_generator_ends_after_the_last_batch_drawn() {
    use rand::Rng;
    fn next_after<const D: usize>(r: f64, n: usize, seed: u64) -> (usize, u64) {
        let sampler = Maximal::<D>::new(Domain::unit(), r).unwrap();
        let mut rng = poisson_nd::rng::rng_from_seed(seed);
        let set = sampler.sample(n, &mut rng);
        (set.len(), rng.next_u64())
    }
    let got = [
        next_after::<2>(0.03, usize::MAX, 1),
        next_after::<2>(0.03, 100, 2),
        next_after::<2>(0.03, 800, 3),
        next_after::<3>(0.12, usize::MAX, 4),
        next_after::<3>(0.12, 520, 5),
    ];
    assert_eq!(
        got,
        [
            (804, 3973582997355918005),
            (100, 3097129416873156769),
            (800, 1790549299641204709),
            (531, 15226357679664050345),
            (520, 13717497951157229622),
        ]
    );
}
