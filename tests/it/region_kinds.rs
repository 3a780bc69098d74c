//! Each region kind on its own: box classification against brute force, polygon and mesh
//! robustness on vertices and edges, the image and voxel conventions, and every error.

use crate::shapes;
use geo::Contains;
use poisson_nd::region::{
    Ball, BoxClass, BoxRegion, Difference, Intersection, Mask, Mesh, Polygons, Sdf, Union, Voxels,
};
use poisson_nd::rng::{rng_from_seed, uniform01};
use poisson_nd::{
    BestCandidate, Bridson, DartThrowing, Domain, Error, Halton, JitteredGrid, Maximal, Point,
    Region, SampleElimination, WhiteNoise,
};
use rand::Rng;
use std::sync::Arc;

/// A random box inside `[lo, hi]`, of side up to `max_side` (sometimes flat or a point).
fn random_box<const D: usize, R: Rng>(
    rng: &mut R,
    lo: f64,
    hi: f64,
    max_side: f64,
) -> (Point<D>, Point<D>) {
    let lower: Point<D> = std::array::from_fn(|_| lo + (hi - lo) * uniform01(rng));
    let kind = uniform01(rng);
    let upper = std::array::from_fn(|i| {
        let side = if kind < 0.05 { 0.0 } else { max_side * uniform01(rng).powi(2) };
        lower[i] + side
    });
    (lower, upper)
}

/// Points of a box: its corners, its centre, and random points.
fn probes_of<const D: usize, R: Rng>(
    rng: &mut R,
    lower: &Point<D>,
    upper: &Point<D>,
) -> Vec<Point<D>> {
    let mut points: Vec<Point<D>> = (0..1usize << D)
        .map(|k| std::array::from_fn(|i| if k >> i & 1 == 1 { upper[i] } else { lower[i] }))
        .collect();
    points.push(std::array::from_fn(|i| 0.5 * (lower[i] + upper[i])));
    for _ in 0..64 {
        points.push(std::array::from_fn(|i| lower[i] + (upper[i] - lower[i]) * uniform01(rng)));
    }
    points
}

/// Every box classified `Inside` holds only inside probes, every `Outside` one none; and the
/// classification is not always `Straddling` (each kind says something).
fn check_classification<const D: usize>(name: &str, region: &dyn Region<D>, max_side: f64) {
    let mut rng = rng_from_seed(17);
    let (mut inside, mut outside) = (0, 0);
    for _ in 0..3000 {
        let (lower, upper) = random_box::<D, _>(&mut rng, -0.1, 1.1, max_side);
        let class = region.classify_box(&lower, &upper);
        for p in probes_of(&mut rng, &lower, &upper) {
            match class {
                BoxClass::Inside => assert!(region.contains(&p), "{name}: {p:?} in an inside box"),
                BoxClass::Outside => {
                    assert!(!region.contains(&p), "{name}: {p:?} in an outside box")
                }
                BoxClass::Straddling => {}
            }
        }
        inside += usize::from(class == BoxClass::Inside);
        outside += usize::from(class == BoxClass::Outside);
    }
    assert!(inside > 10 && outside > 10, "{name}: {inside} inside, {outside} outside boxes");
    assert!(region.resolves_boundary(), "{name}");
}

#[test]
fn box_classification_agrees_with_brute_force_for_every_kind() {
    for (name, region) in shapes::shapes_2d() {
        check_classification::<2>(name, &*region, 0.3);
    }
    for (name, region) in shapes::shapes_3d() {
        check_classification::<3>(name, &*region, 0.3);
    }
    check_classification::<4>("ball-4d", &Ball::new([0.5; 4], 0.45).unwrap(), 0.3);
    check_classification::<2>(
        "whole box",
        &poisson_nd::region::WholeDomain::new(Domain::unit()),
        0.3,
    );
    // Boxes that lie exactly on a polygon's edges or a voxel's faces.
    let square = Polygons::new(&[vec![shapes::square_ring([0.25, 0.25], [0.75, 0.75])]]).unwrap();
    assert_eq!(square.classify_box(&[0.25, 0.3], &[0.25, 0.4]), BoxClass::Straddling);
    assert_eq!(square.classify_box(&[0.3, 0.3], &[0.7, 0.7]), BoxClass::Inside);
    assert_eq!(square.classify_box(&[0.75, 0.3], &[0.8, 0.4]), BoxClass::Straddling);
    assert_eq!(square.classify_box(&[0.76, 0.3], &[0.8, 0.4]), BoxClass::Outside);
}

/// Boolean operations combine the classes exactly as the sets combine.
#[test]
fn boolean_operations_combine_points_and_classes() {
    let a = Ball::new([0.4, 0.5], 0.3).unwrap();
    let b = BoxRegion::new([0.5, 0.2], [0.9, 0.8]).unwrap();
    let mut rng = rng_from_seed(3);
    let union = Union::new(a, b);
    let intersection = Intersection::new(a, b);
    let difference = Difference::new(a, b);
    for _ in 0..20_000 {
        let p = [uniform01(&mut rng), uniform01(&mut rng)];
        assert_eq!(union.contains(&p), a.contains(&p) || b.contains(&p));
        assert_eq!(intersection.contains(&p), a.contains(&p) && b.contains(&p));
        assert_eq!(difference.contains(&p), a.contains(&p) && !b.contains(&p));
    }
    check_classification::<2>("union", &union, 0.3);
    check_classification::<2>("intersection", &intersection, 0.3);
    check_classification::<2>("difference", &difference, 0.3);
    // Signed distances combine as min / max / max(a, −b) when both parts know one.
    let p = [0.45, 0.5];
    let (da, db) = (a.signed_distance(&p).unwrap(), b.signed_distance(&p).unwrap());
    assert_eq!(union.signed_distance(&p), Some(da.min(db)));
    assert_eq!(intersection.signed_distance(&p), Some(da.max(db)));
    assert_eq!(difference.signed_distance(&p), Some(da.max(-db)));
}

#[test]
fn signed_distances_of_boxes_and_balls_are_exact() {
    let ball = Ball::new([1.0, 2.0, 3.0], 0.5).unwrap();
    assert_eq!(ball.signed_distance(&[1.0, 2.0, 4.0]), Some(0.5));
    assert_eq!(ball.signed_distance(&[1.0, 2.0, 3.0]), Some(-0.5));
    let square = BoxRegion::new([0.0, 0.0], [1.0, 1.0]).unwrap();
    assert_eq!(square.signed_distance(&[0.5, 0.25]), Some(-0.25));
    assert_eq!(square.signed_distance(&[4.0, 5.0]), Some(5.0));
}

/// The polygon test is geo's indexed containment: it agrees with geo's plain (unindexed)
/// `Contains` on random points, on every vertex, and on points exactly on edges, and answers
/// the same every time (boundary points are outside).
#[test]
fn polygons_agree_with_geo_on_vertices_edges_and_random_points() {
    for polygons in [shapes::polygon_with_hole(), shapes::islands()] {
        let plain = polygons.as_geo().clone();
        let mut rng = rng_from_seed(5);
        let oracle = |p: &Point<2>| plain.contains(&geo::Coord { x: p[0], y: p[1] });
        for _ in 0..20_000 {
            let p = [uniform01(&mut rng), uniform01(&mut rng)];
            assert_eq!(polygons.contains(&p), oracle(&p), "{p:?}");
        }
        for polygon in &plain.0 {
            for ring in std::iter::once(polygon.exterior()).chain(polygon.interiors()) {
                for line in ring.lines() {
                    for p in [
                        [line.start.x, line.start.y],
                        [0.5 * (line.start.x + line.end.x), 0.5 * (line.start.y + line.end.y)],
                    ] {
                        assert_eq!(polygons.contains(&p), oracle(&p), "{p:?}");
                        assert_eq!(polygons.contains(&p), polygons.contains(&p));
                    }
                    // Vertices are on the boundary: outside.
                    assert!(!polygons.contains(&[line.start.x, line.start.y]));
                }
            }
        }
    }
    // Axis-aligned edges: midpoints lie exactly on them.
    let square = Polygons::new(&[vec![shapes::square_ring([0.0, 0.0], [1.0, 1.0])]]).unwrap();
    for p in [[0.5, 0.0], [1.0, 0.5], [0.0, 0.25], [1.0, 1.0], [0.0, 0.0]] {
        assert!(!square.contains(&p), "{p:?} is on the boundary");
    }
    assert!(square.contains(&[0.5, 0.5]) && square.contains(&[1e-300, 0.5]));
    assert!(!square.contains(&[-1e-300, 0.5]) && !square.contains(&[f64::NAN, 0.5]));
}

/// Ring orientation and closing vertices do not matter; overlapping pieces are joined.
#[test]
fn polygon_rings_may_come_in_either_orientation() {
    let ccw = shapes::square_ring([0.0, 0.0], [1.0, 1.0]);
    let mut cw = ccw.clone();
    cw.reverse();
    let mut closed = ccw.clone();
    closed.push(ccw[0]);
    let hole = shapes::square_ring([0.25, 0.25], [0.75, 0.75]);
    for (outer, inner) in [(&ccw, &hole), (&cw, &hole), (&closed, &hole)] {
        let shape = Polygons::new(&[vec![outer.clone(), inner.clone()]]).unwrap();
        assert!(shape.contains(&[0.1, 0.1]));
        assert!(!shape.contains(&[0.5, 0.5]), "the hole stays a hole");
    }
    let overlapping = Polygons::new(&[
        vec![shapes::square_ring([0.0, 0.0], [0.6, 1.0])],
        vec![shapes::square_ring([0.4, 0.0], [1.0, 1.0])],
    ])
    .unwrap();
    assert!(overlapping.contains(&[0.5, 0.5]), "overlapping pieces are joined");
    assert_eq!(overlapping.edge_count(), 8);
}

/// A polygon of 10^4 vertices: built, classified and sampled.
#[test]
fn a_polygon_of_ten_thousand_vertices_is_sampled() {
    let ring = shapes::wavy_ring([0.5, 0.5], 0.4, 0.1, 10_000);
    let polygon = Polygons::new(&[vec![ring]]).unwrap();
    let set = poisson_nd::FillSampler::fill_seeded(
        &Bridson::builder(Domain::unit(), 0.01).with_region(polygon).build().unwrap(),
        1,
    );
    let check = Polygons::new(&[vec![shapes::wavy_ring([0.5, 0.5], 0.4, 0.1, 10_000)]]).unwrap();
    assert!(set.len() > 2000);
    assert!(set.points.iter().all(|p| check.contains(p)));
}

/// The mesh test against shapes whose inside is known exactly: an octahedron (|x|+|y|+|z| <
/// s, exact for dyadic coordinates) and a cube whose faces are cut into many triangles, with
/// rays through vertices, along edges and in the planes of faces.
#[test]
fn meshes_agree_with_analytic_shapes_including_degenerate_rays() {
    let octahedron = shapes::octahedron(0.5, 0.5);
    let exact = |p: &Point<3>| (p[0] - 0.5).abs() + (p[1] - 0.5).abs() + (p[2] - 0.5).abs() < 0.5;
    // A dyadic lattice: many points align with vertices and edges seen along x.
    for i in -2..=18 {
        for j in -2..=18 {
            for k in -2..=18 {
                let p = [i as f64 / 16.0, j as f64 / 16.0, k as f64 / 16.0];
                assert_eq!(octahedron.contains(&p), exact(&p), "octahedron {p:?}");
            }
        }
    }
    let cube = shapes::subdivided_cube(0.25, 0.75, 4);
    let in_cube = |p: &Point<3>| p.iter().all(|&x| x > 0.25 && x < 0.75);
    for i in -1..=17 {
        for j in -1..=17 {
            for k in -1..=17 {
                let p = [i as f64 / 16.0, j as f64 / 16.0, k as f64 / 16.0];
                assert_eq!(cube.contains(&p), in_cube(&p), "cube {p:?}");
            }
        }
    }
    let mut rng = rng_from_seed(8);
    for _ in 0..20_000 {
        let p = [uniform01(&mut rng), uniform01(&mut rng), uniform01(&mut rng)];
        assert_eq!(octahedron.contains(&p), exact(&p), "{p:?}");
        assert_eq!(cube.contains(&p), in_cube(&p), "{p:?}");
    }
}

/// A torus mesh against the analytic torus, away from the surface by more than the chord
/// error of the mesh.
#[test]
fn a_torus_mesh_matches_the_torus_away_from_its_surface() {
    let (big, small) = (0.3, 0.15);
    let mesh = shapes::torus_mesh(big, small, 96, 48);
    let mut rng = rng_from_seed(2);
    let mut checked = 0;
    for _ in 0..20_000 {
        let p = [uniform01(&mut rng), uniform01(&mut rng), uniform01(&mut rng)];
        let tube = ((p[0] - 0.5).hypot(p[1] - 0.5) - big).hypot(p[2] - 0.5) - small;
        if tube.abs() > 0.01 {
            assert_eq!(mesh.contains(&p), tube < 0.0, "{p:?}");
            checked += 1;
        }
    }
    assert!(checked > 15_000);
    assert_eq!(mesh.triangle_count(), 2 * 96 * 48);
}

#[test]
fn masks_follow_the_image_convention() {
    // 4 × 2 pixels over [0, 4] × [0, 2]: row 0 is the top row (y in (1, 2]).
    let rows = vec![vec![1.0, 0.0, 0.0, 0.5], vec![0.0, 0.0, 0.49, 1.0]];
    let mask = Mask::from_grey_rows(&rows, [0.0, 0.0], [4.0, 2.0]).unwrap();
    assert_eq!(mask.size(), (4, 2));
    assert!(mask.contains(&[0.5, 1.5]) && mask.contains(&[3.5, 1.5]) && mask.contains(&[3.5, 0.5]));
    assert!(!mask.contains(&[2.5, 0.5]), "0.49 is below one half");
    // Pixel (0, 0) covers [0, 1) × (1, 2]: its top edge and left edge are in, the others out.
    assert!(mask.contains(&[0.0, 2.0]) && mask.contains(&[0.0, 1.0 + 1e-12]));
    assert!(!mask.contains(&[0.0, 1.0]), "y = 1 belongs to the row below");
    assert!(!mask.contains(&[1.0, 1.5]), "x = 1 belongs to the next column");
    assert!(!mask.contains(&[0.5, 2.0 + 1e-12]) && !mask.contains(&[-1e-12, 1.5]));
    // The flat form reads the same pixels.
    let flat = Mask::from_grey(4, 2, &rows.concat(), [0.0, 0.0], [4.0, 2.0]).unwrap();
    let mut rng = rng_from_seed(1);
    for _ in 0..5_000 {
        let p = [4.4 * uniform01(&mut rng) - 0.2, 2.4 * uniform01(&mut rng) - 0.2];
        assert_eq!(mask.contains(&p), flat.contains(&p), "{p:?}");
    }
}

#[test]
fn voxels_follow_the_density_grid_convention() {
    // 2 × 3 cells over [0, 2) × [0, 3), C order: value k is cell (k / 3, k % 3).
    let values = [0.0, 0.6, 0.0, 1.0, 0.5, 0.0];
    let voxels = Voxels::from_values([2, 3], &values, [0.0, 0.0], [2.0, 3.0]).unwrap();
    assert!(voxels.contains(&[0.5, 1.5]), "cell (0, 1) = 0.6");
    assert!(voxels.contains(&[1.5, 0.5]), "cell (1, 0) = 1.0");
    assert!(!voxels.contains(&[1.5, 1.5]), "cell (1, 1) = 0.5 is not above one half");
    assert!(voxels.contains(&[1.0, 0.0]) && !voxels.contains(&[2.0, 0.5]));
    assert_eq!(voxels.shape(), &[2, 3]);
    let bools = Voxels::from_bools([2, 3], values.map(|v| v > 0.5).to_vec(), [0.0; 2], [2.0, 3.0]);
    assert!(bools.unwrap().contains(&[0.5, 1.5]));
}

#[test]
fn sdf_classification_needs_a_distance_bound() {
    let circle = |p: &[f64; 2]| (p[0] - 0.5).hypot(p[1] - 0.5) - 0.3;
    let bounded = Sdf::new([0.0; 2], [1.0; 2], circle).unwrap();
    assert_eq!(bounded.classify_box(&[0.45, 0.45], &[0.55, 0.55]), BoxClass::Inside);
    // Scaled by 3, the closure is 3-Lipschitz and must say so.
    let steep = Sdf::new([0.0; 2], [1.0; 2], move |p: &[f64; 2]| 3.0 * circle(p))
        .unwrap()
        .with_lipschitz(3.0)
        .unwrap();
    check_classification::<2>("steep sdf", &steep, 0.3);
    let blind = Sdf::new([0.0; 2], [1.0; 2], circle).unwrap().without_distance_bound();
    assert_eq!(blind.classify_box(&[0.45, 0.45], &[0.55, 0.55]), BoxClass::Straddling);
    assert!(!blind.resolves_boundary());
    // Bridson still samples it; Maximal refuses it, saying why.
    let set = poisson_nd::FillSampler::fill_seeded(
        &Bridson::builder(Domain::unit(), 0.05).with_region(blind).build().unwrap(),
        1,
    );
    assert!(set.points.iter().all(|p| circle(p) < 0.0) && set.len() > 10);
    let blind = Sdf::new([0.0; 2], [1.0; 2], circle).unwrap().without_distance_bound();
    let err = Maximal::builder(Domain::unit(), 0.05).with_region(blind).build().unwrap_err();
    assert!(matches!(err, Error::UnsupportedRegion { sampler: "maximal", .. }), "{err}");
}

// ------------------------------------------------------------------------------------------
// Errors: every constructor refuses bad input with an error that names the problem.

#[test]
fn region_constructors_refuse_bad_input() {
    let nan = f64::NAN;
    assert!(matches!(BoxRegion::new([0.0, nan], [1.0, 1.0]), Err(Error::NonFinite { .. })));
    assert!(matches!(
        BoxRegion::new([0.0, 1.0], [1.0, 1.0]),
        Err(Error::InvalidCorners { axis: 1, .. })
    ));
    assert!(matches!(Ball::new([nan, 0.0], 1.0), Err(Error::NonFinite { .. })));
    for radius in [0.0, -1.0, nan, f64::INFINITY] {
        assert!(matches!(Ball::new([0.0; 3], radius), Err(Error::InvalidParameter { .. })));
    }
    let f = |p: &[f64; 2]| p[0];
    assert!(Sdf::new([0.0, 0.0], [1.0, f64::INFINITY], f).is_err());
    assert!(Sdf::new([0.0; 2], [1.0; 2], f).unwrap().with_lipschitz(0.0).is_err());

    // Polygons.
    let square = shapes::square_ring([0.0, 0.0], [1.0, 1.0]);
    assert_eq!(Polygons::new(&[]).unwrap_err(), Error::EmptyInput("the list of polygons"));
    let err =
        Polygons::new(&[vec![vec![[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [0.0, 0.0]]]]).unwrap_err();
    assert_eq!(err, Error::DegenerateRing { polygon: 0, ring: 0, distinct: 2 });
    assert!(err.to_string().contains("polygon 0, ring 0 has 2 distinct vertices"), "{err}");
    let err =
        Polygons::new(&[vec![square.clone()], vec![square.clone(), vec![[0.1, 0.1]]]]).unwrap_err();
    assert_eq!(err, Error::DegenerateRing { polygon: 1, ring: 1, distinct: 1 });
    let mut with_nan = square.clone();
    with_nan[2][1] = nan;
    let err = Polygons::new(&[vec![with_nan]]).unwrap_err();
    assert!(matches!(err, Error::NonFinite { index: 5, .. }), "{err:?}");
    assert!(err.to_string().contains("not finite"), "{err}");
    assert!(matches!(Polygons::new(&[vec![]]), Err(Error::DegenerateRing { .. })));
    // Coordinates past the limits: refused (the winding test's products would overflow and
    // leave every point outside); at the limit, the square is a region like any other.
    let huge = shapes::square_ring([-1e155, -1e155], [1e155, 1e155]);
    let err = Polygons::new(&[vec![huge]]).unwrap_err();
    assert!(err.to_string().contains("between -1e100 and 1e100, got -1e155"), "{err}");
    let wide = Polygons::new(&[vec![shapes::square_ring([-1e100, -1e100], [1e100, 1e100])]]);
    assert!(wide.unwrap().contains(&[0.5, 0.5]));
    // Holes: outside their exterior in part, or overlapping another hole, they would wind the
    // other way (points there inside); refused. Touching at a point or along a side is fine.
    let ring = |points: &[[f64; 2]]| points.to_vec();
    let leaving = ring(&[[0.5, 0.5], [2.0, 2.0], [0.5, 2.0]]);
    let err = Polygons::new(&[vec![square.clone(), leaving]]).unwrap_err();
    assert!(matches!(err, Error::InvalidHole { polygon: 0, ring: 1, .. }), "{err:?}");
    assert!(err.to_string().contains("polygon 0, ring 1: the hole reaches outside"), "{err}");
    let wholly_outside = shapes::square_ring([2.0, 2.0], [3.0, 3.0]);
    assert!(Polygons::new(&[vec![square.clone(), wholly_outside]]).is_err());
    let (a, b) =
        (shapes::square_ring([0.1, 0.1], [0.5, 0.5]), shapes::square_ring([0.4, 0.4], [0.8, 0.8]));
    let err =
        Polygons::new(&[vec![square.clone()], vec![square.clone(), a.clone(), b]]).unwrap_err();
    assert!(matches!(err, Error::InvalidHole { polygon: 1, ring: 1, .. }), "{err:?}");
    assert!(err.to_string().contains("overlaps ring 2"), "{err}");
    let touching = [
        shapes::square_ring([0.0, 0.2], [0.3, 0.4]), // a side along the exterior's
        ring(&[[0.5, 0.0], [0.7, 0.2], [0.5, 0.4], [0.3, 0.2]]), // a corner on it
        shapes::square_ring([0.5, 0.5], [0.9, 0.9]),
        shapes::square_ring([0.3, 0.5], [0.5, 0.9]), // a side along the hole before
    ];
    let mut rings = vec![square.clone()];
    rings.extend(touching);
    let shape = Polygons::new(&[rings]).unwrap();
    assert!(shape.contains(&[0.95, 0.95]) && !shape.contains(&[0.6, 0.6]));
    assert!(!shape.contains(&[0.4, 0.6]) && !shape.contains(&[0.1, 0.3]));
    // Many holes, each compared only with the few whose boxes meet its own.
    let mut rings = vec![shapes::square_ring([0.0, 0.0], [40.0, 40.0])];
    for i in 0..40 {
        for j in 0..40 {
            let lo = [i as f64 + 0.25, j as f64 + 0.25];
            rings.push(shapes::square_ring(lo, [lo[0] + 0.5, lo[1] + 0.5]));
        }
    }
    let shape = Polygons::new(&[rings]).unwrap();
    assert!(shape.contains(&[0.1, 0.1]) && !shape.contains(&[0.5, 0.5]));

    // Masks.
    let lo = [0.0, 0.0];
    let hi = [1.0, 1.0];
    let err = Mask::from_grey_rows(&[vec![1.0, 0.0], vec![1.0]], lo, hi).unwrap_err();
    assert!(matches!(err, Error::ShapeMismatch { expected: 2, got: 1, .. }), "{err:?}");
    assert!(err.to_string().contains("mask row 1"), "{err}");
    assert_eq!(Mask::from_grey_rows(&[], lo, hi).unwrap_err(), Error::EmptyInput("the mask image"));
    assert!(matches!(Mask::from_grey(2, 2, &[1.0; 3], lo, hi), Err(Error::ShapeMismatch { .. })));
    let err = Mask::from_grey(2, 1, &[1.0, nan], lo, hi).unwrap_err();
    assert!(matches!(err, Error::NonFinite { index: 1, .. }), "{err:?}");
    assert!(matches!(Mask::from_grey(1, 1, &[1.5], lo, hi), Err(Error::InvalidParameter { .. })));
    assert!(matches!(Mask::from_grey(2, 1, &[0.1, 0.2], lo, hi), Err(Error::EmptyRegion(_))));
    assert!(Mask::from_grey(1, 1, &[1.0], hi, lo).is_err());

    // Voxels.
    let err = Voxels::from_values([2, 2, 2], &[1.0; 7], [0.0; 3], [1.0; 3]).unwrap_err();
    assert!(matches!(err, Error::ShapeMismatch { expected: 8, got: 7, .. }), "{err:?}");
    let err = Voxels::from_values([2, 0], &[], [0.0; 2], [1.0; 2]).unwrap_err();
    assert!(matches!(err, Error::EmptyRegion(_)), "{err:?}");
    assert_eq!(
        err.to_string(),
        "the region has no point inside the domain (the voxel grid of shape [2, 0] has no cells)"
    );
    let err = Voxels::from_values([2], &[1.0, nan], [0.0], [1.0]).unwrap_err();
    assert!(matches!(err, Error::NonFinite { index: 1, .. }), "{err:?}");
    assert!(matches!(
        Voxels::from_values([2], &[0.5, 0.1], [0.0], [1.0]),
        Err(Error::EmptyRegion(_))
    ));

    // Meshes.
    let tetra = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let faces = vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    assert!(Mesh::new(tetra.clone(), faces.clone()).is_ok());
    let err = Mesh::new(tetra.clone(), faces[..3].to_vec()).unwrap_err();
    assert!(matches!(err, Error::OpenMesh { count: 1, .. }), "{err:?}");
    assert!(err.to_string().contains("not closed: edge (1, 2)"), "{err}");
    assert_eq!(
        Mesh::new(tetra.clone(), vec![]).unwrap_err(),
        Error::EmptyInput("the mesh's triangle list")
    );
    let err = Mesh::new(tetra.clone(), vec![[0, 1, 4]]).unwrap_err();
    assert!(
        err.to_string().contains("triangle 0 is invalid: vertex index 4 is out of range"),
        "{err}"
    );
    let err = Mesh::new(tetra.clone(), vec![[0, 1, 1]]).unwrap_err();
    assert!(matches!(err, Error::InvalidTriangle { triangle: 0, .. }), "{err:?}");
    let mut bad = tetra.clone();
    bad[3][2] = f64::INFINITY;
    assert!(matches!(Mesh::new(bad, faces), Err(Error::NonFinite { index: 11, .. })));
}

/// Every sampler refuses a region in a periodic box, a region that misses the box, and an
/// empty region.
#[test]
fn samplers_refuse_periodic_boxes_missing_and_empty_regions() {
    let torus = Domain::<2>::unit().periodic();
    let unit = Domain::<2>::unit();
    let ball = Ball::new([0.5, 0.5], 0.3).unwrap();
    let far = BoxRegion::new([2.0, 2.0], [3.0, 3.0]).unwrap();
    let empty = Intersection::new(
        BoxRegion::new([0.0, 0.0], [0.4, 0.4]).unwrap(),
        BoxRegion::new([0.6, 0.6], [1.0, 1.0]).unwrap(),
    );
    let disjoint_balls = Intersection::new(
        Ball::new([0.2, 0.2], 0.1).unwrap(),
        Ball::new([0.25, 0.8], 0.1).unwrap(),
    );
    type Build = Box<dyn Fn(Domain<2>, Arc<dyn Region<2>>) -> Result<(), Error>>;
    let builders: Vec<(&str, Build)> = vec![
        ("bridson", Box::new(|d, r| Bridson::builder(d, 0.05).with_region(r).build().map(|_| ()))),
        (
            "darts",
            Box::new(|d, r| DartThrowing::builder(d, 0.05).with_region(r).build().map(|_| ())),
        ),
        ("maximal", Box::new(|d, r| Maximal::builder(d, 0.05).with_region(r).build().map(|_| ()))),
        ("white", Box::new(|d, r| WhiteNoise::builder(d).with_region(r).build().map(|_| ()))),
        ("halton", Box::new(|d, r| Halton::builder(d).with_region(r).build().map(|_| ()))),
        ("jittered", Box::new(|d, r| JitteredGrid::builder(d).with_region(r).build().map(|_| ()))),
        ("best", Box::new(|d, r| BestCandidate::builder(d).with_region(r).build().map(|_| ()))),
        (
            "elimination",
            Box::new(|d, r| SampleElimination::builder(d).with_region(r).build().map(|_| ())),
        ),
    ];
    for (name, build) in builders {
        let err = build(torus, Arc::new(ball)).unwrap_err();
        assert_eq!(err, Error::PeriodicRegion, "{name}");
        assert!(err.to_string().contains("periodic"), "{err}");
        let err = build(unit, Arc::new(far)).unwrap_err();
        assert!(matches!(err, Error::RegionOutsideDomain { .. }), "{name}: {err:?}");
        assert!(err.to_string().contains("does not meet the domain's box"), "{err}");
        let err = build(unit, Arc::new(empty.clone())).unwrap_err();
        assert!(matches!(err, Error::EmptyRegion(_)), "{name}: {err:?}");
        let err = build(unit, Arc::new(disjoint_balls.clone())).unwrap_err();
        assert!(matches!(err, Error::EmptyRegion(_)), "{name}: {err:?}");
        assert!(err.to_string().contains("no point inside the domain"), "{err}");
        assert!(build(unit, Arc::new(ball)).is_ok(), "{name}");
    }
}
