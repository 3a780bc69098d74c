//! The conventions of gridded fields, images and density mappings, pinned by small
//! hand-made arrays whose interpolated values are known exactly (dyadic numbers, so `==`).

use poisson_nd::field::{DensityField, DensityMapping, GriddedField, RadiusField};
use poisson_nd::{Domain, Point};

fn grid<const D: usize>(
    origin: [f64; D],
    extent: [f64; D],
    shape: [usize; D],
    values: Vec<f64>,
) -> GriddedField<D> {
    let domain = Domain::from_origin_and_extent(origin, extent).expect("valid box");
    GriddedField::new(&domain, shape, values).expect("valid grid")
}

#[test]
fn one_axis_centres_midpoints_and_clamping() {
    // Four values over [−2, 2): centres at −1.5, −0.5, 0.5, 1.5.
    let g = grid([-2.0], [4.0], [4], vec![1.0, 2.0, 4.0, 8.0]);
    let at = |x: f64| g.value(&[x]);
    assert_eq!([at(-1.5), at(-0.5), at(0.5), at(1.5)], [1.0, 2.0, 4.0, 8.0]);
    assert_eq!([at(-1.0), at(0.0), at(1.0)], [1.5, 3.0, 6.0]);
    assert_eq!(at(-1.25), 1.25); // a quarter of the way
    // Clamped in the outer half cells and beyond the box.
    assert_eq!([at(-2.0), at(-1.75), at(-100.0)], [1.0, 1.0, 1.0]);
    assert_eq!([at(1.75), at(2.0), at(1e9)], [8.0, 8.0, 8.0]);
    assert!(at(f64::NAN).is_nan());
    assert_eq!(g.value_range(), (1.0, 8.0));
    assert_eq!(RadiusField::<1>::bounds(&g), (1.0, 8.0));
}

#[test]
fn two_axes_last_axis_fastest_in_a_shifted_box() {
    // Shape (2, 3) over [10, 14) × [−3, 0): centres x0 ∈ {11, 13}, x1 ∈ {−2.5, −1.5, −0.5}.
    // values[k0·3 + k1].
    let g = grid([10.0, -3.0], [4.0, 3.0], [2, 3], vec![0.0, 1.0, 2.0, 4.0, 5.0, 6.0]);
    assert_eq!(g.value(&[11.0, -2.5]), 0.0);
    assert_eq!(g.value(&[11.0, -1.5]), 1.0);
    assert_eq!(g.value(&[11.0, -0.5]), 2.0);
    assert_eq!(g.value(&[13.0, -2.5]), 4.0);
    assert_eq!(g.value(&[13.0, -0.5]), 6.0);
    // Midpoints: along axis 0, along axis 1, and of four centres.
    assert_eq!(g.value(&[12.0, -2.5]), 2.0);
    assert_eq!(g.value(&[11.0, -2.0]), 0.5);
    assert_eq!(g.value(&[12.0, -1.0]), 3.5);
    // Bilinear at (x0, x1) = (11.5, −2.25): t0 = 0.25, t1 = 0.25 from (0, 0).
    assert_eq!(
        g.value(&[11.5, -2.25]),
        0.75 * 0.75 * 0.0 + 0.75 * 0.25 * 1.0 + 0.25 * 0.75 * 4.0 + 0.25 * 0.25 * 5.0
    );
    // Clamped along one axis only, then both.
    assert_eq!(g.value(&[0.0, -1.5]), 1.0);
    assert_eq!(g.value(&[12.0, 50.0]), 4.0);
    assert_eq!(g.value(&[99.0, -99.0]), 4.0);
    assert_eq!(g.shape(), [2, 3]);
}

#[test]
fn three_axes_corner_cube_is_trilinear() {
    // A 2×2×2 cube over [0, 1)³, centres at 0.25 and 0.75, values v = k0 + 2·k1 + 4·k2
    // stored at index k0·4 + k1·2 + k2. Multilinear interpolation reproduces a linear
    // function exactly: v(x) = 2(x0 − 0.25) + 4(x1 − 0.25) + 8(x2 − 0.25) inside the centres.
    let mut values = vec![0.0; 8];
    for k0 in 0..2 {
        for k1 in 0..2 {
            for k2 in 0..2 {
                values[k0 * 4 + k1 * 2 + k2] = (k0 + 2 * k1 + 4 * k2) as f64;
            }
        }
    }
    let g = grid([0.0; 3], [1.0; 3], [2, 2, 2], values);
    let linear = |p: &Point<3>| 2.0 * (p[0] - 0.25) + 4.0 * (p[1] - 0.25) + 8.0 * (p[2] - 0.25);
    for p in [[0.25, 0.25, 0.25], [0.75, 0.25, 0.75], [0.5, 0.5, 0.5], [0.375, 0.5, 0.625]] {
        assert_eq!(g.value(&p), linear(&p), "{p:?}");
    }
    assert_eq!(g.value(&[0.5, 0.5, 0.5]), 3.5); // the cube's centre: the mean of its corners
    assert_eq!(g.value(&[0.0, 0.0, 0.0]), 0.0); // clamped to corner (0, 0, 0)
    assert_eq!(g.value(&[1.0, 1.0, 1.0]), 7.0);
    // A non-linear corner set: only corner (1, 1, 1) is 1; at the centre its weight is 1/8.
    let mut one = vec![0.0; 8];
    one[7] = 1.0;
    let g = grid([0.0; 3], [1.0; 3], [2, 2, 2], one);
    assert_eq!(g.value(&[0.5, 0.5, 0.5]), 0.125);
    assert_eq!(g.value(&[0.625, 0.5, 0.75]), 0.75 * 0.5 * 1.0);
}

#[test]
fn an_axis_with_one_value_is_constant_along_it() {
    let g = grid([0.0, 0.0], [1.0, 1.0], [1, 2], vec![3.0, 5.0]);
    assert_eq!(g.value(&[0.1, 0.25]), 3.0);
    assert_eq!(g.value(&[0.9, 0.5]), 4.0);
    // And in 4D, with two axes of one value.
    let g = grid([0.0; 4], [1.0; 4], [1, 2, 1, 2], vec![0.0, 1.0, 2.0, 3.0]);
    assert_eq!(g.value(&[0.3, 0.75, 0.9, 0.25]), 2.0);
    assert_eq!(g.value(&[0.3, 0.5, 0.9, 0.5]), 1.5);
}

#[test]
fn image_rows_put_row_zero_at_the_top() {
    // 3 × 2 pixels over [10, 13) × [−1, 1): columns at x0 = 10.5, 11.5, 12.5; the top row
    // (row 0) at x1 = 0.5, the bottom row at −0.5.
    let domain = Domain::from_origin_and_extent([10.0, -1.0], [3.0, 2.0]).expect("valid");
    let rows = vec![
        0.0, 0.5, 1.0, // row 0, north
        0.25, 0.25, 0.25, // row 1, south
    ];
    let image = GriddedField::from_image_rows(&domain, 3, 2, rows).expect("valid image");
    assert_eq!(image.value(&[10.5, 0.5]), 0.0);
    assert_eq!(image.value(&[11.5, 0.5]), 0.5);
    assert_eq!(image.value(&[12.5, 0.5]), 1.0);
    assert_eq!(image.value(&[11.5, -0.5]), 0.25);
    // Between centres: along a row, between rows, and of four pixels.
    assert_eq!(image.value(&[11.0, 0.5]), 0.25);
    assert_eq!(image.value(&[11.5, 0.0]), 0.375);
    assert_eq!(image.value(&[11.0, 0.0]), 0.25);
    // Clamp-to-edge: the top-right pixel beyond the north-east corner, and so on.
    assert_eq!(image.value(&[100.0, 100.0]), 1.0);
    assert_eq!(image.value(&[-100.0, -100.0]), 0.25);
    assert_eq!(image.value(&[12.5, 0.9]), 1.0);
    assert_eq!(image.value(&[10.0, 0.75]), 0.0);
    // The stored grid has the last axis (north) fastest: (k0, k1) = (2, 1) is the top right.
    assert_eq!(image.shape(), [3, 2]);
    assert_eq!(image.values()[2 * 2 + 1], 1.0);
}

#[test]
fn an_image_is_a_density_over_the_first_two_axes_of_any_box() {
    let domain = Domain::from_origin_and_extent([0.0, 0.0, -5.0], [2.0, 1.0, 10.0]).expect("ok");
    // One row of two pixels: density 1 on the left (x0 < 1), 0 on the right.
    let image = GriddedField::from_image_rows(&domain, 2, 1, vec![1.0, 0.0]).expect("valid");
    let field =
        DensityField::<3>::from_image(image, DensityMapping::Lerp, 0.5, 2.0).expect("valid");
    for z in [-5.0, 0.0, 4.9] {
        assert_eq!(field.radius(&[0.5, 0.3, z]), 0.5);
        assert_eq!(field.radius(&[1.5, 0.7, z]), 2.0);
        assert_eq!(field.radius(&[1.0, 0.5, z]), 1.25);
        assert_eq!(field.density(&[1.0, 0.5, z]), 0.5);
    }
    assert_eq!(field.bounds(), (0.5, 2.0));
    assert_eq!(field.mapping(), DensityMapping::Lerp);
}

#[test]
fn lerp_mapping_at_known_densities() {
    let lerp = |d| DensityMapping::Lerp.radius::<2>(d, 1.0, 3.0);
    assert_eq!(
        [lerp(0.0), lerp(0.25), lerp(0.5), lerp(0.75), lerp(1.0)],
        [3.0, 2.5, 2.0, 1.5, 1.0]
    );
    // Exact ends for bounds that are not dyadic.
    assert_eq!(DensityMapping::Lerp.radius::<3>(1.0, 0.1, 0.3), 0.1);
    assert_eq!(DensityMapping::Lerp.radius::<3>(0.0, 0.1, 0.3), 0.3);
    assert_eq!(DensityMapping::default(), DensityMapping::Lerp);
}

#[test]
fn inverse_mapping_at_known_densities() {
    // 2D: r = rmin / √density.
    let inv2 = |d| DensityMapping::Inverse.radius::<2>(d, 1.0, 3.0);
    assert_eq!([inv2(1.0), inv2(0.25), inv2(0.0)], [1.0, 2.0, 3.0]);
    assert_eq!(inv2(1.0 / 16.0), 3.0); // 4, clamped to rmax
    assert!((inv2(0.5) - 2f64.sqrt()).abs() < 1e-15);
    // 3D: r = rmin / ∛density; 1D: r = rmin / density.
    assert_eq!(DensityMapping::Inverse.radius::<3>(0.125, 1.0, 3.0), 2.0);
    assert_eq!(DensityMapping::Inverse.radius::<1>(0.5, 1.0, 3.0), 2.0);
    assert_eq!(DensityMapping::Inverse.radius::<1>(0.25, 1.0, 3.0), 3.0);
}

#[test]
fn densities_outside_zero_one_map_to_nan() {
    for mapping in [DensityMapping::Lerp, DensityMapping::Inverse] {
        for d in [-0.01, 1.01, f64::NAN, f64::INFINITY] {
            assert!(mapping.radius::<2>(d, 1.0, 3.0).is_nan(), "{mapping:?} {d}");
        }
    }
}

#[test]
fn density_fields_map_gridded_and_closure_densities() {
    let domain = Domain::<2>::unit();
    // Density 0 at the left centre (x0 = 0.25), 1 at the right one (0.75).
    let density = GriddedField::new(&domain, [2, 1], vec![0.0, 1.0]).expect("valid");
    let lerp = DensityField::new(density.clone(), DensityMapping::Lerp, 1.0, 3.0).expect("ok");
    let inverse = DensityField::new(density, DensityMapping::Inverse, 1.0, 3.0).expect("ok");
    assert_eq!(
        [lerp.radius(&[0.25, 0.5]), lerp.radius(&[0.5, 0.1]), lerp.radius(&[0.9, 0.9])],
        [3.0, 2.0, 1.0]
    );
    // Density 0.25 at x0 = 0.375: lerp 2.5, inverse 2.
    assert_eq!(lerp.radius(&[0.375, 0.5]), 2.5);
    assert_eq!(inverse.radius(&[0.375, 0.5]), 2.0);
    assert_eq!(inverse.radius(&[0.0, 0.0]), 3.0);
    let closure =
        DensityField::from_fn(|p: &[f64; 2]| p[0], DensityMapping::Lerp, 1.0, 3.0).expect("ok");
    assert_eq!(closure.radius(&[0.25, 0.0]), 2.5);
    // A closure density outside [0, 1] gives NaN, which samplers refuse.
    let bad = DensityField::from_fn(|_: &[f64; 2]| 2.0, DensityMapping::Lerp, 1.0, 3.0);
    assert!(bad.expect("bounds are fine").radius(&[0.5, 0.5]).is_nan());
    // Debug output names the kind of density without printing closures.
    assert!(format!("{closure:?}").contains("Function"));
}
