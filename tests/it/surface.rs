//! Points on triangle surfaces: the minimum distance by brute force, maximality by dense
//! area-weighted probes (and exactly on a flat patch, by the 2D arrangement check of
//! `maximal`), exact counts, reconstruction from face and barycentrics, unit normals,
//! bit-identical reruns, variable radius, and the mesh's errors; every fill check for both
//! ways of reaching the fill (darts, and the front walking on the surface).

use poisson_nd::rng::{rng_from_seed, uniform01};
use poisson_nd::surface::{
    SurfaceDensity, SurfaceElimination, SurfaceFill, SurfaceMesh, SurfacePoisson,
};
use poisson_nd::{DensityMapping, Domain, Error, PairRule, StopReason};
use std::f64::consts::PI;

/// A UV sphere of radius `radius` with `rings` × `segments` quads (poles as fans).
fn sphere(radius: f64, rings: usize, segments: usize) -> SurfaceMesh {
    let mut vertices = vec![[0.0, 0.0, radius], [0.0, 0.0, -radius]];
    for i in 1..rings {
        let theta = PI * i as f64 / rings as f64;
        for j in 0..segments {
            let phi = 2.0 * PI * j as f64 / segments as f64;
            vertices.push([
                radius * theta.sin() * phi.cos(),
                radius * theta.sin() * phi.sin(),
                radius * theta.cos(),
            ]);
        }
    }
    let at = |i: usize, j: usize| 2 + (i - 1) * segments + j % segments;
    let mut triangles = Vec::new();
    for j in 0..segments {
        triangles.push([0, at(1, j), at(1, j + 1)]);
        triangles.push([1, at(rings - 1, j + 1), at(rings - 1, j)]);
    }
    for i in 1..rings - 1 {
        for j in 0..segments {
            triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    SurfaceMesh::new(vertices, triangles).expect("a valid sphere")
}

/// A torus (major radius 1, minor 0.35) as a grid of quads, with vertex normals and UVs.
fn torus(n: usize, m: usize) -> SurfaceMesh {
    let (big, small) = (1.0, 0.35);
    let mut vertices = Vec::new();
    let mut normals = Vec::new();
    let mut uvs = Vec::new();
    for i in 0..n {
        let u = 2.0 * PI * i as f64 / n as f64;
        for j in 0..m {
            let v = 2.0 * PI * j as f64 / m as f64;
            let ring = big + small * v.cos();
            vertices.push([ring * u.cos(), ring * u.sin(), small * v.sin()]);
            normals.push([v.cos() * u.cos(), v.cos() * u.sin(), v.sin()]);
            uvs.push([i as f64 / n as f64, j as f64 / m as f64]);
        }
    }
    let at = |i: usize, j: usize| (i % n) * m + j % m;
    let mut triangles = Vec::new();
    for i in 0..n {
        for j in 0..m {
            triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    SurfaceMesh::new(vertices, triangles)
        .and_then(|mesh| mesh.with_normals(normals))
        .and_then(|mesh| mesh.with_uvs(uvs))
        .expect("a valid torus")
}

/// The unit square at z = 0 as a k × k grid of quads, each split in two, with UVs = (x, y).
fn patch(k: usize) -> SurfaceMesh {
    let mut vertices = Vec::new();
    for i in 0..=k {
        for j in 0..=k {
            vertices.push([i as f64 / k as f64, j as f64 / k as f64, 0.0]);
        }
    }
    let at = |i: usize, j: usize| i * (k + 1) + j;
    let mut triangles = Vec::new();
    for i in 0..k {
        for j in 0..k {
            triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    let uvs = vertices.iter().map(|v| [v[0], v[1]]).collect();
    SurfaceMesh::new(vertices, triangles).and_then(|m| m.with_uvs(uvs)).expect("a valid patch")
}

/// Two pieces: a square frame with a square hole (z = 0) and, apart from it, a tilted
/// triangle; plus a degenerate triangle, which must be ignored.
fn two_pieces_with_a_hole() -> SurfaceMesh {
    let vertices = vec![
        // Outer square 0..3, inner square 4..7.
        [0.0, 0.0, 0.0],
        [3.0, 0.0, 0.0],
        [3.0, 3.0, 0.0],
        [0.0, 3.0, 0.0],
        [1.0, 1.0, 0.0],
        [2.0, 1.0, 0.0],
        [2.0, 2.0, 0.0],
        [1.0, 2.0, 0.0],
        // The separate triangle.
        [5.0, 0.0, 0.0],
        [7.0, 0.0, 1.0],
        [5.0, 2.0, 2.0],
    ];
    let triangles = vec![
        [0, 1, 5],
        [0, 5, 4],
        [1, 2, 6],
        [1, 6, 5],
        [2, 3, 7],
        [2, 7, 6],
        [3, 0, 4],
        [3, 4, 7],
        [8, 9, 10],
        [8, 8, 9],
    ];
    SurfaceMesh::new(vertices, triangles).expect("valid")
}

/// The smallest distance between two points, by brute force.
fn closest(points: &[[f64; 3]]) -> f64 {
    let mut best = f64::INFINITY;
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            best = best.min(dist2(&points[i], &points[j]));
        }
    }
    best.sqrt()
}

fn dist2(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum()
}

/// Random points uniform over the surface's area (by rejection on the triangles' areas).
fn probes(mesh: &SurfaceMesh, n: usize, seed: u64) -> Vec<(usize, [f64; 3])> {
    let mut rng = rng_from_seed(seed);
    let faces = mesh.faces();
    let largest = faces.iter().map(|&f| mesh.face_area(f as usize)).fold(0.0, f64::max);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let f = faces[(uniform01(&mut rng) * faces.len() as f64) as usize] as usize;
        if uniform01(&mut rng) * largest >= mesh.face_area(f) {
            continue;
        }
        let (mut s, mut t) = (uniform01(&mut rng), uniform01(&mut rng));
        if s + t > 1.0 {
            (s, t) = (1.0 - s, 1.0 - t);
        }
        out.push((f, mesh.point_at(f, [1.0 - s - t, s, t])));
    }
    out
}

/// The surfaces every check runs on, with a radius for about a thousand points or fewer.
fn surfaces() -> Vec<(&'static str, SurfaceMesh, f64)> {
    vec![
        ("sphere", sphere(1.0, 24, 48), 0.12),
        ("torus", torus(48, 16), 0.09),
        ("patch", patch(7), 0.045),
        ("two pieces and a hole", two_pieces_with_a_hole(), 0.2),
    ]
}

/// Every way to a maximal fill.
const METHODS: [SurfaceFill; 3] = [SurfaceFill::Darts, SurfaceFill::Front, SurfaceFill::Boundary];

/// The fill of `mesh` at radius `r` by `method`.
fn filler(mesh: &SurfaceMesh, r: f64, method: SurfaceFill) -> SurfacePoisson {
    SurfacePoisson::new(mesh.clone(), r).expect("valid").with_fill(method)
}

/// The same triangles, each with three vertices of its own (as an STL file gives them).
fn soup(mesh: &SurfaceMesh) -> SurfaceMesh {
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for face in 0..mesh.triangle_count() {
        let base = vertices.len();
        vertices.extend(mesh.corners(face));
        triangles.push([base, base + 1, base + 2]);
    }
    SurfaceMesh::new(vertices, triangles).expect("valid")
}

#[test]
fn a_fill_keeps_its_distance_and_leaves_no_gap() {
    let mut cases: Vec<(String, SurfaceMesh, f64, SurfaceFill)> = Vec::new();
    for (name, mesh, r) in surfaces() {
        for method in METHODS {
            cases.push((format!("{name}, {method:?}"), mesh.clone(), r, method));
        }
    }
    // The front on a soup of triangles (joined by their corners' coordinates), and on a mesh
    // far finer than the radius (walks cross many sides, some lost).
    cases.push(("torus soup, Front".into(), soup(&torus(48, 16)), 0.09, SurfaceFill::Front));
    cases.push(("fine patch, Front".into(), patch(80), 0.1, SurfaceFill::Front));
    for (name, mesh, r, method) in cases {
        let set = filler(&mesh, r, method).fill_seeded(5);
        assert_eq!(set.stop, StopReason::Exhausted, "{name}");
        assert_eq!(set.unresolved, 0, "{name}");
        assert!(set.len() > 50, "{name}: {} points", set.len());
        let d = closest(&set.points);
        assert!(d >= r, "{name}: pair at {d} < {r}");
        // Maximal: every probe of the surface is within r of a sample.
        for (f, p) in probes(&mesh, 20_000, 9) {
            let near = set.points.iter().map(|q| dist2(&p, q)).fold(f64::INFINITY, f64::min);
            assert!(
                near < r * r,
                "{name}: probe {p:?} on face {f} is {} from every sample",
                near.sqrt()
            );
        }
        // Degenerate triangles get nothing; every point lies on a face with area.
        assert!(set.faces.iter().all(|&f| mesh.face_area(f as usize) > 0.0), "{name}");
    }
}

#[test]
fn a_flat_patch_is_exactly_maximal() {
    let mesh = patch(5);
    let domain = Domain::<2>::unit();
    for (seed, method) in (0..3).flat_map(|seed| METHODS.map(|method| (seed, method))) {
        let r = 0.04;
        let set = filler(&mesh, r, method).fill_seeded(seed);
        let flat: Vec<[f64; 2]> = set.points.iter().map(|p| [p[0], p[1]]).collect();
        assert!(set.points.iter().all(|p| p[2] == 0.0));
        let hole = crate::maximal::uncovered_vertex_2d(&domain, &flat, r);
        assert_eq!(hole, None, "seed {seed}, {method:?}: {} points", set.len());
    }
}

#[test]
fn the_fill_along_the_edge_puts_every_nearest_neighbour_at_the_radius() {
    for (name, mesh, r) in surfaces() {
        let set = filler(&mesh, r, SurfaceFill::Boundary).fill_seeded(2);
        let darts = filler(&mesh, r, SurfaceFill::Darts).fill_seeded(2);
        for (i, p) in set.points.iter().enumerate() {
            let nearest = set
                .points
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, q)| dist2(p, q))
                .fold(f64::INFINITY, f64::min)
                .sqrt();
            assert!(nearest >= r && nearest < r * (1.0 + 1e-9), "{name}: point {i} at {nearest}");
        }
        // Denser than the darts' fill, as boundary sampling is.
        assert!(
            set.len() as f64 > 1.1 * darts.len() as f64,
            "{name}: {} vs {}",
            set.len(),
            darts.len()
        );
    }
    // A sliver far thinner than rounding can frame, stacked copies of one square: every
    // visit ends, pairs keep r, and no probe is left uncovered.
    let sliver = SurfaceMesh::new(
        vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 1e-13, 0.0], [0.0, 1.0, 0.0]],
        vec![[0, 1, 2], [0, 1, 3], [2, 1, 0]],
    )
    .unwrap();
    let stacked = SurfaceMesh::new(
        vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
        (0..40).flat_map(|_| [[0, 1, 2], [0, 2, 3]]).collect(),
    )
    .unwrap();
    for (name, mesh) in [("sliver", sliver), ("stacked", stacked)] {
        let r = 0.05;
        let set = filler(&mesh, r, SurfaceFill::Boundary).fill_seeded(1);
        assert_eq!(set.stop, StopReason::Exhausted, "{name}");
        assert!(closest(&set.points) >= r, "{name}");
        for (f, p) in probes(&mesh, 5000, 3) {
            let near = set.points.iter().map(|q| dist2(&p, q)).fold(f64::INFINITY, f64::min);
            assert!(near < r * r * (1.0 + 1e-9), "{name}: probe {p:?} on face {f}");
        }
    }
    // Under a density it fills as the fronts do.
    let mesh = patch(6);
    let per_vertex: Vec<f64> = mesh.vertices().iter().map(|v| v[0]).collect();
    let density = SurfaceDensity::per_vertex(per_vertex, DensityMapping::Lerp, 0.02, 0.08).unwrap();
    let sampler = SurfacePoisson::from_density(mesh, density, PairRule::Max).unwrap();
    let edge = sampler.clone().with_fill(SurfaceFill::Boundary);
    assert_eq!(edge.fill_method(), SurfaceFill::Boundary);
    assert_eq!(edge.fill_seeded(3), sampler.with_fill(SurfaceFill::Front).fill_seeded(3));
}

#[test]
fn points_rebuild_from_face_and_barycentrics_with_unit_normals() {
    for (name, mesh, r) in surfaces() {
        let fill = filler(&mesh, r, SurfaceFill::Darts).fill_seeded(1);
        let front = filler(&mesh, r, SurfaceFill::Front).fill_seeded(1);
        let exact = SurfaceElimination::new(mesh.clone()).sample_seeded(700, 1);
        for set in [&fill, &front, &exact] {
            for (k, p) in set.points.iter().enumerate() {
                let b = set.barycentrics[k];
                assert!(b.iter().all(|&x| (-1e-12..=1.0 + 1e-12).contains(&x)), "{name}: {b:?}");
                assert!((b.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{name}");
                let rebuilt = mesh.point_at(set.faces[k] as usize, b);
                let scale = p.iter().fold(1.0f64, |m, x| m.max(x.abs()));
                assert!(dist2(p, &rebuilt).sqrt() <= 1e-12 * scale, "{name}");
            }
            for n in set.normals(&mesh) {
                assert!((n.iter().map(|x| x * x).sum::<f64>().sqrt() - 1.0).abs() < 1e-12);
            }
            assert_eq!(set.uvs(&mesh).is_some(), mesh.uvs().is_some(), "{name}");
        }
    }
}

#[test]
fn interpolated_normals_follow_the_torus() {
    let mesh = torus(64, 24);
    let set = SurfacePoisson::new(mesh.clone(), 0.1).expect("valid").fill_seeded(2);
    for (p, n) in set.points.iter().zip(set.normals(&mesh)) {
        // The true normal points from the tube's centre circle to the point.
        let ring = p[0].hypot(p[1]);
        let centre = [p[0] / ring, p[1] / ring, 0.0];
        let out: Vec<f64> = (0..3).map(|i| p[i] - centre[i]).collect();
        let len = out.iter().map(|x| x * x).sum::<f64>().sqrt();
        let cos: f64 = (0..3).map(|i| n[i] * out[i] / len).sum();
        assert!(cos > 0.99, "normal {n:?} at {p:?}");
    }
}

#[test]
fn elimination_gives_exactly_n_well_spread_points() {
    for (name, mesh, _) in surfaces() {
        for n in [1, 2, 10, 500, 2000] {
            let set = SurfaceElimination::new(mesh.clone()).sample_seeded(n, 3);
            assert_eq!(set.len(), n, "{name}");
            assert_eq!(set.stop, StopReason::TargetReached);
            assert_eq!(set.attempts, 5 * n as u64);
        }
        // Spread: the closest pair is a good fraction of the packing radius for the area
        // (relative radius; white noise of 2000 points would be near 0.01).
        let n = 2000;
        let set = SurfaceElimination::new(mesh.clone()).sample_seeded(n, 4);
        let packing = (mesh.area() / (2.0 * 3f64.sqrt() * n as f64)).sqrt() * 2.0;
        let relative = closest(&set.points) / packing;
        assert!(relative > 0.5, "{name}: relative radius {relative}");
    }
    // Progressive: the first half is itself the output of a halving.
    let mesh = sphere(1.0, 16, 32);
    let set = SurfaceElimination::new(mesh.clone()).with_progressive(true).sample_seeded(800, 6);
    let half = &set.points[..400];
    let packing = (mesh.area() / (2.0 * 3f64.sqrt() * 400.0)).sqrt() * 2.0;
    assert!(closest(half) / packing > 0.5);
}

#[test]
fn reruns_are_bit_identical() {
    let mesh = torus(40, 14);
    let a = SurfacePoisson::new(mesh.clone(), 0.08).unwrap().fill_seeded(11);
    let b = SurfacePoisson::new(mesh.clone(), 0.08).unwrap().fill_seeded(11);
    assert_eq!(a, b);
    let c = SurfacePoisson::new(mesh.clone(), 0.08).unwrap().fill_seeded(12);
    assert_ne!(a.points, c.points);
    let front = filler(&mesh, 0.08, SurfaceFill::Front);
    assert_eq!(front.fill_method(), SurfaceFill::Front);
    assert_eq!(front.fill_seeded(11), front.clone().fill_seeded(11));
    assert_ne!(front.fill_seeded(11).points, a.points);
    // The method survives a new point limit.
    assert_eq!(front.with_max_points(1 << 20).unwrap().fill_method(), SurfaceFill::Front);
    let edge = filler(&mesh, 0.08, SurfaceFill::Boundary);
    assert_eq!(edge.fill_seeded(11), edge.clone().fill_seeded(11));
    assert_ne!(edge.fill_seeded(11).points, edge.fill_seeded(12).points);
    assert_eq!(edge.with_max_points(1 << 20).unwrap().fill_method(), SurfaceFill::Boundary);
    let a = SurfaceElimination::new(mesh.clone()).sample_seeded(900, 11);
    let b = SurfaceElimination::new(mesh.clone()).sample_seeded(900, 11);
    assert_eq!(a, b);
}

/// A fill takes five generator words a dart (landed or missed) and nothing else, so the
/// caller's generator ends `5 · attempts` words on, on every surface and with a density,
/// though darts' words are drawn before the darts ahead of them are thrown.
#[test]
fn a_fill_takes_five_words_a_dart() {
    use rand::Rng;
    fn check(name: &str, sampler: &SurfacePoisson, seed: u64) {
        let mut rng = rng_from_seed(seed);
        let set = sampler.fill(&mut rng);
        assert_eq!(set.stop, StopReason::Exhausted, "{name}");
        let mut fresh = rng_from_seed(seed);
        for _ in 0..5 * set.attempts {
            fresh.next_u64();
        }
        assert_eq!(rng.next_u64(), fresh.next_u64(), "{name}: {} darts", set.attempts);
    }
    for (seed, (name, mesh, r)) in surfaces().into_iter().enumerate() {
        check(name, &SurfacePoisson::new(mesh, r).unwrap(), seed as u64);
    }
    let mesh = patch(6);
    let per_vertex: Vec<f64> = mesh.vertices().iter().map(|v| v[0]).collect();
    let density = SurfaceDensity::per_vertex(per_vertex, DensityMapping::Lerp, 0.02, 0.08).unwrap();
    check("density", &SurfacePoisson::from_density(mesh, density, PairRule::Max).unwrap(), 9);
}

#[test]
fn a_density_sets_each_points_radius() {
    let mesh = patch(6);
    let (rmin, rmax) = (0.02, 0.08);
    // Dense at x = 1 (density 1), sparse at x = 0, per vertex and as a texture.
    let per_vertex: Vec<f64> = mesh.vertices().iter().map(|v| v[0]).collect();
    let texture: Vec<f64> = (0..8).flat_map(|_| (0..32).map(|i| (i as f64 + 0.5) / 32.0)).collect();
    let densities = [
        SurfaceDensity::per_vertex(per_vertex, DensityMapping::Lerp, rmin, rmax).unwrap(),
        SurfaceDensity::texture(32, 8, texture, DensityMapping::Lerp, rmin, rmax).unwrap(),
    ];
    for (density, method) in densities.iter().flat_map(|d| METHODS.map(|m| (d, m))) {
        for rule in [PairRule::Max, PairRule::Min, PairRule::Mean] {
            let sampler = SurfacePoisson::from_density(mesh.clone(), density.clone(), rule)
                .unwrap()
                .with_fill(method);
            let set = sampler.fill_seeded(4);
            assert_eq!(set.stop, StopReason::Exhausted);
            assert_eq!(set.unresolved, 0);
            let radii = set.radii.as_ref().expect("radii");
            // Every pair keeps the rule's distance.
            for i in 0..set.len() {
                for j in i + 1..set.len() {
                    let s = rule.distance(radii[i], radii[j]);
                    let d = dist2(&set.points[i], &set.points[j]).sqrt();
                    assert!(d >= s, "{rule:?}: pair at {d} < {s}");
                }
            }
            // Maximal: a probe with radius r(x) conflicts with some sample.
            for (f, p) in probes(&mesh, 5000, 2) {
                let b = {
                    // The patch is flat and axis-aligned: the radius is that of x.
                    let x = p[0];
                    rmin * x + rmax * (1.0 - x)
                };
                let hit = set.points.iter().zip(radii).any(|(q, &rq)| {
                    let s = rule.distance(b * (1.0 + 1e-9), rq);
                    dist2(&p, q) < s * s
                });
                assert!(hit, "{rule:?}: probe {p:?} on face {f} has room");
            }
            // Denser on the right.
            let right = set.points.iter().filter(|p| p[0] > 0.5).count();
            assert!(right > 2 * (set.len() - right), "{right} of {}", set.len());
        }
    }
}

#[test]
fn the_point_limit_must_hold_the_densest_packing() {
    // As for the box samplers: a limit the packing estimate passes is refused up front, with
    // the estimate; one that holds it is never reached.
    let sampler = SurfacePoisson::new(sphere(1.0, 12, 24), 0.05).unwrap();
    let Err(Error::TooManyPoints { estimated_points, limit: 100, .. }) =
        sampler.clone().with_max_points(100)
    else {
        panic!("a limit of 100 points at radius 0.05 on the unit sphere is refused");
    };
    let limit = estimated_points.ceil() as usize;
    for method in METHODS {
        let set = sampler.clone().with_fill(method).with_max_points(limit).unwrap().fill_seeded(1);
        assert_eq!(set.stop, StopReason::Exhausted, "{method:?}");
        assert!(set.len() < limit, "{method:?}: {} of {limit}", set.len());
    }
    assert!(SurfacePoisson::new(sphere(1.0, 12, 24), 0.05).unwrap().with_max_points(0).is_err());
    let eliminated = SurfaceElimination::new(sphere(1.0, 12, 24))
        .with_max_points(50)
        .unwrap()
        .sample_seeded(80, 1);
    // The limit counts the 5 candidates a point is chosen from.
    let seen = (eliminated.len(), eliminated.stop, eliminated.attempts);
    assert_eq!(seen, (10, StopReason::PointLimit, 50));
}

#[test]
fn bad_meshes_and_settings_are_errors() {
    let square = || vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]];
    let message = |e: Error| e.to_string();
    assert!(message(SurfaceMesh::new(square(), vec![]).unwrap_err()).contains("empty"));
    let e = SurfaceMesh::new(
        vec![[0.0, f64::NAN, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        vec![[0, 1, 2]],
    );
    assert!(message(e.unwrap_err()).contains("mesh vertex 0 is not finite"));
    let e = SurfaceMesh::new(square(), vec![[0, 1, 3]]);
    assert!(message(e.unwrap_err()).contains("vertex index 3 is out of range"));
    // Only degenerate triangles: nothing to sample.
    let e = SurfaceMesh::new(square(), vec![[0, 1, 1], [0, 0, 2]]);
    assert!(message(e.unwrap_err()).contains("positive area"));
    // Collinear corners.
    let e = SurfaceMesh::new(vec![[0.0; 3], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], vec![[0, 1, 2]]);
    assert!(e.is_err());
    // Coordinates beyond the limits (docs/limits.md).
    let huge = vec![[0.0; 3], [1e300, 0.0, 0.0], [0.0, 1e300, 0.0]];
    assert!(message(SurfaceMesh::new(huge, vec![[0, 1, 2]]).unwrap_err()).contains("1e99"));
    // Too small for any area to be represented, or merely below the limit: the scale is named,
    // not a lack of triangles.
    for side in [4e-320, 1e-300, 1e-154, 1e-99] {
        let tiny = vec![[0.0; 3], [side, 0.0, 0.0], [0.0, side, 0.0]];
        let e = message(SurfaceMesh::new(tiny, vec![[0, 1, 2]]).unwrap_err());
        assert!(e.contains("widest side") && e.contains("1e-98"), "{side:e}: {e}");
    }
    // Far from the origin for its size (a few rounding steps wide there): refused by its
    // resolution, naming the side; just inside the resolution it is sampled.
    for (offset, side, refused) in [(1e15, 1.0, true), (-1e15, 1e3, false), (1e40, 1e28, false)] {
        let far = vec![[offset, 0.0, 0.0], [offset, side, 0.0], [offset, 0.0, side]];
        match SurfaceMesh::new(far, vec![[0, 1, 2]]) {
            Err(e) => {
                let e = message(e);
                assert!(refused && e.contains("widest side") && e.contains("2^-40"), "{e}");
            }
            Ok(mesh) => {
                assert!(!refused, "{offset:e} {side:e}");
                let points = SurfaceElimination::new(mesh).sample_seeded(20, 1);
                assert_eq!(points.len(), 20);
            }
        }
    }
    // Attributes of the wrong length or not finite.
    let mesh = SurfaceMesh::new(square(), vec![[0, 1, 2]]).unwrap();
    assert!(mesh.clone().with_normals(vec![[0.0, 0.0, 1.0]]).is_err());
    assert!(mesh.clone().with_uvs(vec![[0.0, f64::INFINITY]; 3]).is_err());
    // Radii.
    for r in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(SurfacePoisson::new(mesh.clone(), r).is_err(), "{r}");
    }
    let e = SurfacePoisson::new(mesh.clone(), 1e-300).unwrap_err();
    assert!(matches!(e, Error::OutOfRange { .. }), "{e}");
    let e = SurfacePoisson::new(mesh.clone(), 1e-6).unwrap_err();
    assert!(matches!(e, Error::TooManyPoints { .. }), "{e}");
    // A strip 1000 long and 0.001 wide would be cut into 2·10^10 pieces for about 10^5
    // points: refused, naming the triangle, before any memory is taken.
    let strip = SurfaceMesh::new(
        vec![[0.0; 3], [1000.0, 0.0, 0.0], [1000.0, 0.001, 0.0], [0.0, 0.001, 0.0]],
        vec![[0, 1, 2], [0, 2, 3]],
    )
    .unwrap();
    let e = SurfacePoisson::new(strip.clone(), 0.01).unwrap_err();
    assert!(matches!(e, Error::ThinTriangles { triangle: 0, .. }), "{e}");
    assert!(message(e).contains("triangle 0 is 1000"));
    // At a radius of 2, its 5·10^5 pieces are allowed (under 2^24), though they are 500
    // a point, and the strip is filled end to end.
    let points = SurfacePoisson::new(strip, 2.0).unwrap().fill_seeded(1);
    assert!(points.len() >= 250 && points.unresolved == 0, "{}", points.len());
    // A texture needs UVs; per-vertex densities one per vertex.
    let texture = SurfaceDensity::texture(1, 1, vec![0.5], DensityMapping::Lerp, 0.1, 0.2).unwrap();
    assert!(SurfacePoisson::from_density(mesh.clone(), texture, PairRule::Max).is_err());
    let short = SurfaceDensity::per_vertex(vec![0.5; 2], DensityMapping::Lerp, 0.1, 0.2).unwrap();
    assert!(SurfacePoisson::from_density(mesh.clone(), short, PairRule::Max).is_err());
    assert!(SurfaceElimination::new(mesh.clone()).with_ratio(0.5).is_err());
}

#[test]
fn extreme_magnitudes_sample_as_the_unit_mesh_scaled() {
    // The same sphere at scales 1e-90 and 1e90: the same number of points at the same
    // relative radius, every pair at least r apart.
    let scaled = |scale: f64| {
        let unit = sphere(1.0, 10, 20);
        let vertices = unit.vertices().iter().map(|v| v.map(|x| x * scale)).collect();
        let triangles = unit.triangles().iter().map(|t| t.map(|v| v as usize)).collect();
        SurfaceMesh::new(vertices, triangles)
    };
    for (scale, method) in [1e-90, 1e90].into_iter().flat_map(|s| METHODS.map(|m| (s, m))) {
        let reference = filler(&sphere(1.0, 10, 20), 0.2, method).fill_seeded(1);
        let mesh = scaled(scale).unwrap();
        let r = 0.2 * scale;
        let set = filler(&mesh, r, method).fill_seeded(1);
        assert!(closest(&set.points) >= r);
        let ratio = set.len() as f64 / reference.len() as f64;
        assert!((0.9..1.1).contains(&ratio), "{scale}: {} vs {}", set.len(), reference.len());
        let eliminated = SurfaceElimination::new(mesh).sample_seeded(100, 1);
        assert_eq!(eliminated.len(), 100);
        assert!(closest(&eliminated.points) > 0.1 * scale);
    }
    // Beyond the limits (docs/limits.md): one-line errors naming the value, no run.
    for scale in [1e-150, 1e150] {
        let error = scaled(scale).unwrap_err().to_string();
        assert!(error.contains("mesh"), "{error}");
    }
    let unit = || sphere(1.0, 10, 20);
    for r in [1e-300, 1e-14, 1e150, f64::MIN_POSITIVE / 2.0] {
        let error = SurfacePoisson::new(unit(), r).unwrap_err().to_string();
        assert!(error.contains("radius"), "{r}: {error}");
    }
}

/// The distance from `p` to the surface by brute force: each face asked alone (a mesh of that
/// face only, whose answer the library's unit tests check against a lattice of the face's
/// points), the least taken. The index must find exactly this least.
fn brute_nearest(mesh: &SurfaceMesh, p: &[f64; 3]) -> f64 {
    let mut best = f64::INFINITY;
    for &face in mesh.faces() {
        let single = SurfaceMesh::new(mesh.corners(face as usize).to_vec(), vec![[0, 1, 2]])
            .expect("a non-degenerate face");
        let near = single.nearest(p).expect("finite");
        best = best.min(near.distance);
    }
    best
}

#[test]
fn the_nearest_point_of_a_surface_is_found() {
    let mut rng = rng_from_seed(11);
    for (name, mesh, _) in surfaces() {
        let (lower, upper) = mesh.bounds();
        for k in 0..60 {
            // Points around the mesh's box, a third of them far outside it.
            let spread = if k % 3 == 0 { 4.0 } else { 1.2 };
            let p: [f64; 3] = std::array::from_fn(|i| {
                let centre = 0.5 * (lower[i] + upper[i]);
                centre + spread * (uniform01(&mut rng) - 0.5) * (upper[i] - lower[i])
            });
            let near = mesh.nearest(&p).expect("finite");
            let q = mesh.point_at(near.face, near.barycentric);
            assert!((dist2(&p, &q).sqrt() - near.distance).abs() <= 1e-15 * near.distance);
            assert!(near.barycentric.iter().all(|&b| (0.0..=1.0).contains(&b)));
            assert_eq!(near.distance, brute_nearest(&mesh, &p), "{name}: {p:?}");
        }
        // Points on the surface are on it, in their own face or one as near (a shared side).
        for (face, p) in probes(&mesh, 200, 3) {
            let near = mesh.nearest(&p).expect("finite");
            assert!(near.distance <= 1e-14, "{name}: {} from face {face}", near.distance);
        }
    }
}

#[test]
fn the_nearest_point_takes_every_finite_point_and_skips_degenerate_faces() {
    let mesh = sphere(1.0, 8, 16);
    // Non-finite points have none; extreme ones a finite distance.
    for p in [[f64::NAN, 0.0, 0.0], [0.0, f64::INFINITY, 0.0]] {
        assert!(mesh.nearest(&p).is_none());
    }
    for (p, expected) in [([0.0, 0.0, 1e300], 1e300), ([0.0, -f64::MAX, 0.0], f64::MAX)] {
        let near = mesh.nearest(&p).expect("finite");
        assert!(near.distance.is_finite() && (near.distance / expected - 1.0).abs() < 1e-12);
    }
    // Farther than the largest float: a face all the same (at that distance every face is
    // as near, to rounding), the distance infinite.
    let near = mesh.nearest(&[f64::MAX, f64::MAX, f64::MAX]).expect("finite");
    assert_eq!(near.distance, f64::INFINITY);
    assert!(near.barycentric.iter().all(|&b| (0.0..=1.0).contains(&b)));
    let tiny = mesh.nearest(&[5e-324, 0.0, 0.0]).expect("finite");
    assert!(tiny.distance > 0.9 && tiny.distance < 1.0);
    // A mesh at the smallest and largest scales: the distance scales with it.
    for scale in [1e-90, 1e90] {
        let vertices = mesh.vertices().iter().map(|v| v.map(|x| x * scale)).collect();
        let triangles = mesh.triangles().iter().map(|t| t.map(|v| v as usize)).collect();
        let scaled = SurfaceMesh::new(vertices, triangles).expect("valid");
        let near = scaled.nearest(&[0.0, 0.0, 3.0 * scale]).expect("finite");
        assert!((near.distance / scale - 2.0).abs() < 1e-12, "{scale}: {}", near.distance);
    }
    // A degenerate face nearer than every other is passed over.
    let vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [5.0, 5.0, 5.0]];
    let with_degenerate = SurfaceMesh::new(vertices, vec![[0, 1, 2], [3, 3, 3]]).unwrap();
    let near = with_degenerate.nearest(&[5.0, 5.0, 5.0]).expect("finite");
    assert_eq!(near.face, 0);
}
