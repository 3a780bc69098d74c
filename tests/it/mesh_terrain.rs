//! World scatter on a mesh terrain: the ground (the highest triangle over a point, when it
//! faces up) against a brute force over every triangle; every distance within and across
//! classes; rules, heights and the ground itself held by every instance (none under an
//! overhang, in a hole or off the mesh); coverage of the ground; frames; densities through the
//! UVs; the index's memory bound; determinism and errors.

use crate::world_scatter::assert_distances;
use poisson_nd::Error;
use poisson_nd::field::{DensityMapping, PairRule};
use poisson_nd::scatter::{Ground, MeshTerrain, PlacementRules, Scatter, ScatterClass, UpAxis};
use poisson_nd::surface::{SurfaceDensity, SurfaceMesh};

/// The island's height over the ground point `(x, n)` (`n` = north): a bumpy dome of radius
/// 40 around the origin, 20 high.
fn dome(x: f64, n: f64) -> f64 {
    let r2 = (x * x + n * n) / (40.0 * 40.0);
    (20.0 * (1.0 - r2) + 2.0 * (0.3 * x).sin() * (0.25 * n).cos()).max(0.0)
}

/// An island in glTF's frame (`+y` up, north = `−z`): a grid of `k × k` quads over
/// `[−50, 50]²` with the dome's heights, a flat underside at `y = −5` facing down, a hole
/// where the quads around `(20, 0)` are missing, and a roof at `y = 60` over the square
/// `[−10, 0] × [−10, 0]` (north) wound to face down. With UVs `((x + 50)/100, (n + 50)/100)`.
fn island(k: usize) -> SurfaceMesh {
    let mut vertices = Vec::new();
    let mut uvs = Vec::new();
    let at = |i: usize| -50.0 + 100.0 * i as f64 / k as f64;
    for j in 0..=k {
        for i in 0..=k {
            let (x, n) = (at(i), at(j));
            vertices.push([x, dome(x, n), -n]);
            uvs.push([(x + 50.0) / 100.0, (n + 50.0) / 100.0]);
        }
    }
    let mut triangles = Vec::new();
    let v = |i: usize, j: usize| j * (k + 1) + i;
    for j in 0..k {
        for i in 0..k {
            let (cx, cn) = (0.5 * (at(i) + at(i + 1)), 0.5 * (at(j) + at(j + 1)));
            if (cx - 20.0).abs() < 6.0 && cn.abs() < 6.0 {
                continue; // the hole
            }
            // Counter-clockwise seen from above in glTF's frame (x east, −z north).
            triangles.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            triangles.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
        }
    }
    // The underside: two triangles at y = −5, facing down.
    let base = vertices.len();
    for (x, n) in [(-50.0, -50.0), (50.0, -50.0), (50.0, 50.0), (-50.0, 50.0)] {
        vertices.push([x, -5.0, -n]);
        uvs.push([0.0, 0.0]);
    }
    triangles.push([base, base + 2, base + 1]);
    triangles.push([base, base + 3, base + 2]);
    // The roof, facing down.
    let roof = vertices.len();
    for (x, n) in [(-10.0, -10.0), (0.0, -10.0), (0.0, 0.0), (-10.0, 0.0)] {
        vertices.push([x, 60.0, -n]);
        uvs.push([0.0, 0.0]);
    }
    triangles.push([roof, roof + 2, roof + 1]);
    triangles.push([roof, roof + 3, roof + 2]);
    SurfaceMesh::new(vertices, triangles).unwrap().with_uvs(uvs).unwrap()
}

fn in_hole(x: f64, n: f64) -> bool {
    // The missing quads (2.5 m wide at k = 40) cover at least this square.
    (x - 20.0).abs() < 3.5 && n.abs() < 3.5
}

fn under_roof(x: f64, n: f64) -> bool {
    (-10.0..=0.0).contains(&x) && (-10.0..=0.0).contains(&n)
}

/// The ground at `(x, n)` by brute force over every triangle of the world mesh: the highest
/// one whose projection holds the point, if it faces up: `(height, slope)`.
fn brute_force(mesh: &SurfaceMesh, x: f64, n: f64) -> Option<(f64, f64)> {
    let mut best: Option<(f64, [f64; 3])> = None;
    for f in 0..mesh.triangles().len() {
        let [a, b, c] = mesh.corners(f);
        let (e1, e2, d) =
            ([b[0] - a[0], b[2] - a[2]], [c[0] - a[0], c[2] - a[2]], [x - a[0], n - a[2]]);
        let det = e1[0] * e2[1] - e1[1] * e2[0];
        if det == 0.0 {
            continue;
        }
        let (s, t) = ((d[0] * e2[1] - d[1] * e2[0]) / det, (e1[0] * d[1] - e1[1] * d[0]) / det);
        if s < 0.0 || t < 0.0 || s + t > 1.0 {
            continue;
        }
        let h = a[1] + s * (b[1] - a[1]) + t * (c[1] - a[1]);
        if best.is_none_or(|(top, _)| h > top) {
            best = Some((h, mesh.face_normal(f)));
        }
    }
    let (h, normal) = best?;
    (normal[1] > 0.0).then(|| (h, normal[0].hypot(normal[2]).atan2(normal[1]).to_degrees()))
}

#[test]
fn the_ground_is_the_highest_upward_triangle() {
    let terrain = MeshTerrain::new(island(40), UpAxis::Y).unwrap();
    let mesh = terrain.mesh().clone();
    // The rectangle is the box of the upward faces: the dome's grid.
    assert_eq!(terrain.rectangle(), ([-50.0, -50.0], [50.0, 50.0]));
    let mut state = 12345u64;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let (mut grounds, mut holes) = (0, 0);
    for _ in 0..4000 {
        let (x, n) = (-55.0 + 110.0 * next(), -55.0 + 110.0 * next());
        let expected = brute_force(&mesh, x, n);
        let got = terrain.surface(x, n);
        match (expected, got) {
            (Some((h, slope)), Some(s)) => {
                grounds += 1;
                assert!((s.height - h).abs() < 1e-9, "({x}, {n}): {} vs {h}", s.height);
                assert!((s.slope - slope).abs() < 1e-6, "({x}, {n}): {} vs {slope}", s.slope);
                assert!(s.normal[1] > 0.0);
                let (face, b) = terrain.locate(x, n).unwrap();
                let p = mesh.point_at(face, b);
                assert!((p[0] - x).abs() < 1e-9 && (p[2] - n).abs() < 1e-9 && p[1] == s.height);
            }
            (None, None) => holes += 1,
            (e, g) => panic!("({x}, {n}): brute force {e:?}, index {g:?}"),
        }
        if in_hole(x, n) || under_roof(x, n) || x.abs() > 50.0 || n.abs() > 50.0 {
            assert!(got.is_none(), "({x}, {n}) has no ground");
        }
    }
    assert!(grounds > 2500 && holes > 100, "{grounds} {holes}");
}

#[test]
fn the_frames_agree() {
    // The island given z-up (x east, y north, z up) is the same ground.
    let y_up = island(20);
    let z_vertices: Vec<[f64; 3]> = y_up.vertices().iter().map(|p| [p[0], -p[2], p[1]]).collect();
    let triangles = y_up.triangles().iter().map(|t| t.map(|v| v as usize)).collect();
    let z_up = SurfaceMesh::new(z_vertices, triangles).unwrap();
    let (a, b) =
        (MeshTerrain::new(y_up, UpAxis::Y).unwrap(), MeshTerrain::new(z_up, UpAxis::Z).unwrap());
    assert_eq!(a.rectangle(), b.rectangle());
    for i in 0..50 {
        for k in 0..50 {
            let (x, n) = (-49.0 + 2.0 * i as f64, -49.0 + 2.0 * k as f64);
            assert_eq!(a.surface(x, n), b.surface(x, n), "({x}, {n})");
        }
    }
    // North is −z in glTF's frame: the dome's point 30 m north of the centre.
    let s = a.surface(0.0, 30.0).unwrap();
    assert!((s.height - dome(0.0, 30.0)).abs() < 0.5);
    // A mesh whose faces all point down has no ground.
    let flipped: Vec<[usize; 3]> =
        island(4).triangles().iter().map(|t| [t[0], t[2], t[1]].map(|v| v as usize)).collect();
    let down = SurfaceMesh::new(island(4).vertices().to_vec(), flipped).unwrap();
    // (Its underside and roof now face up: drop them.)
    let dome_only: Vec<[usize; 3]> = down.triangles()[..down.triangles().len() - 4]
        .iter()
        .map(|t| t.map(|v| v as usize))
        .collect();
    let down = SurfaceMesh::new(down.vertices().to_vec(), dome_only).unwrap();
    assert!(matches!(MeshTerrain::new(down, UpAxis::Y), Err(Error::EmptyInput(_))));
}

fn island_scatter() -> Scatter {
    let terrain = MeshTerrain::new(island(40), UpAxis::Y).unwrap();
    Scatter::builder(terrain)
        .with_pair_rule(PairRule::Mean)
        .with_class(
            ScatterClass::new("tree", 4.0)
                .unwrap()
                .with_rules(PlacementRules::new().with_slope(0.0, 25.0).unwrap()),
        )
        .with_class(
            ScatterClass::new("rock", 1.5)
                .unwrap()
                .with_rules(PlacementRules::new().with_height(3.0, 12.0).unwrap()),
        )
        .with_class(ScatterClass::new("grass", 1.0).unwrap())
        .with_distance("tree", "rock", 3.0)
        .build()
        .unwrap()
}

#[test]
fn every_instance_stands_on_upward_ground_it_is_allowed_on() {
    let scatter = island_scatter();
    let points = scatter.sample(9).unwrap();
    assert_distances(&scatter, &points);
    let Ground::Mesh(terrain) = scatter.terrain() else { panic!("a mesh terrain") };
    let mesh = terrain.mesh();
    let instances = scatter.lift(&points, 9);
    assert_eq!(instances.len(), points.len());
    let mut per_class = [0; 3];
    for inst in &instances {
        let [x, y, n] = inst.position;
        per_class[inst.class] += 1;
        let (height, slope) = brute_force(mesh, x, n).expect("ground under every instance");
        assert!((y - height).abs() < 1e-9);
        assert!(!in_hole(x, n) && !under_roof(x, n));
        let rules = scatter.classes()[inst.class].rules();
        let (smin, smax) = rules.slope_band();
        let (hmin, hmax) = rules.height_band();
        assert!(slope >= smin - 1e-6 && slope <= smax + 1e-6, "slope {slope}");
        assert!(y >= hmin && y <= hmax, "height {y}");
    }
    assert!(per_class.iter().all(|&c| c > 20), "{per_class:?}");
    // The same seed, the same points; another seed, others.
    assert_eq!(scatter.sample(9).unwrap(), points);
    assert_ne!(scatter.sample(10).unwrap(), points);
}

#[test]
fn the_ground_is_covered() {
    // One class everywhere: every ground point is within 2r of a point (the restart scan's
    // guarantee), and all but a sliver within r (a maximal fill).
    let r = 2.0;
    let terrain = MeshTerrain::new(island(40), UpAxis::Y).unwrap();
    let scatter = Scatter::builder(terrain.clone())
        .with_class(ScatterClass::new("a", r).unwrap())
        .build()
        .unwrap();
    let points = scatter.sample(3).unwrap();
    let set = &points.classes[0].points;
    let (mut probes, mut beyond_r) = (0, 0);
    for i in 0..250 {
        for k in 0..250 {
            let (x, n) = (-49.8 + 0.4 * i as f64, -49.8 + 0.4 * k as f64);
            if terrain.surface(x, n).is_none() {
                continue;
            }
            probes += 1;
            let nearest =
                set.iter().map(|q| (x - q[0]).hypot(n - q[1])).fold(f64::INFINITY, f64::min);
            assert!(nearest < 2.0 * r, "({x}, {n}) is {nearest} from every point");
            if nearest >= r {
                beyond_r += 1;
            }
        }
    }
    assert!(probes > 40_000, "{probes}");
    assert!((beyond_r as f64) < 0.002 * probes as f64, "{beyond_r} of {probes} beyond r");
}

#[test]
fn a_density_reaches_the_radius_through_the_uvs() {
    let terrain = MeshTerrain::new(island(40), UpAxis::Y).unwrap();
    // Dense (density 1) on the west half of the UV square, sparse on the east.
    let texture =
        SurfaceDensity::texture(2, 1, vec![1.0, 0.0], DensityMapping::Lerp, 1.0, 3.0).unwrap();
    let field = terrain.density_field(texture).unwrap();
    let scatter = Scatter::builder(terrain.clone())
        .with_class(ScatterClass::from_field("fern", field).unwrap())
        .build()
        .unwrap();
    let points = scatter.sample(5).unwrap();
    assert_distances(&scatter, &points);
    let set = &points.classes[0];
    let mesh = terrain.mesh();
    let (mut west, mut east) = (0, 0);
    for (p, &r) in set.points.iter().zip(&set.radii) {
        // The radius is the texture's at the point's UV: u = (x + 50)/100, bilinear between
        // the two pixel centres u = 1/4 and 3/4, density 1 → rmin.
        let (face, b) = terrain.locate(p[0], p[1]).unwrap();
        let u = mesh.uv_at(face, b).unwrap()[0];
        let density = 1.0 - ((u - 0.25) / 0.5).clamp(0.0, 1.0);
        assert!((r - (3.0 - 2.0 * density)).abs() < 1e-9, "{p:?}: {r}");
        if p[0] < -10.0 {
            west += 1;
        } else if p[0] > 10.0 {
            east += 1;
        }
    }
    assert!(west > 2 * east, "{west} west, {east} east");
    // Without UVs the texture has nothing to read.
    let bare = SurfaceMesh::new(island(4).vertices().to_vec(), {
        island(4).triangles().iter().map(|t| t.map(|v| v as usize)).collect()
    })
    .unwrap();
    let texture =
        SurfaceDensity::texture(2, 1, vec![1.0, 0.0], DensityMapping::Lerp, 1.0, 3.0).unwrap();
    assert!(MeshTerrain::new(bare, UpAxis::Y).unwrap().density_field(texture).is_err());
}

#[test]
fn the_index_stays_within_its_bound() {
    // 3,000 large triangles over one another (each covers most of the square) and a few
    // small ones: the grid coarsens rather than list every large triangle in every cell.
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for t in 0..3000 {
        let y = t as f64 * 0.01;
        let base = vertices.len();
        vertices.extend([[-100.0, y, 100.0], [100.0, y, 100.0], [0.0, y, -100.0]]);
        triangles.push([base, base + 1, base + 2]);
    }
    for t in 0..200 {
        let (x, y) = ((t % 20) as f64 * 5.0 - 50.0, 40.0);
        let base = vertices.len();
        vertices.extend([[x, y, 0.0], [x + 1.0, y, 0.0], [x, y, -1.0]]);
        triangles.push([base, base + 1, base + 2]);
    }
    let mesh = SurfaceMesh::new(vertices, triangles).unwrap();
    let terrain = MeshTerrain::new(mesh, UpAxis::Y).unwrap();
    let (faces, entries) = terrain.index_size();
    assert_eq!(faces, 3200);
    assert!(entries <= (16 * faces).max(1 << 16), "{entries} entries for {faces} faces");
    // The top of the stack is the ground, and a small triangle above it where there is one.
    assert!((terrain.surface(0.0, -5.0).unwrap().height - 29.99).abs() < 1e-9);
    assert_eq!(terrain.surface(0.2, 0.2).unwrap().height, 40.0);
}

#[test]
fn magnitudes_the_outputs_cannot_hold_are_refused() {
    let square = |scale: f64, offset: f64| {
        let v = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, -1.0], [0.0, 0.0, -1.0]]
            .map(|p| [p[0] * scale + offset, p[1], p[2] * scale]);
        SurfaceMesh::new(v.to_vec(), vec![[0, 1, 2], [0, 2, 3]]).unwrap()
    };
    for (scale, offset) in [(1e31, 0.0), (1e30, 1e31), (1e-31, 0.0)] {
        let error = MeshTerrain::new(square(scale, offset), UpAxis::Y).unwrap_err();
        assert!(matches!(error, Error::OutOfRange { .. }), "{scale} {offset}: {error}");
        assert!(error.to_string().contains("1e30") || error.to_string().contains("1e-30"));
    }
    // At the ends of the range it samples, and every point stands on the square.
    for scale in [1e-28, 1e29] {
        let terrain = MeshTerrain::new(square(scale, 0.0), UpAxis::Y)
            .unwrap_or_else(|e| panic!("{scale}: {e}"));
        let scatter = Scatter::builder(terrain)
            .with_class(ScatterClass::new("a", scale / 10.0).unwrap())
            .build()
            .unwrap();
        let points = scatter.sample(1).unwrap();
        assert!(points.len() > 50, "{scale}: {}", points.len());
        for p in &points.classes[0].points {
            assert!(scatter.terrain().surface(p[0], p[1]).is_some());
        }
    }
}
