//! Test domains and radii.

use poisson_nd::Domain;

/// A box that has broken samplers before: negative origin, sides that are no multiple of
/// any cell size, different along each axis.
pub fn awkward_box<const D: usize>() -> Domain<D> {
    let origin = std::array::from_fn(|i| -0.37 - 0.11 * i as f64);
    let extent = std::array::from_fn(|i| 1.0 + 0.173 * i as f64);
    Domain::from_origin_and_extent(origin, extent).expect("valid box")
}

/// A radius at which Bridson fills `domain` with roughly `points` points.
pub fn radius_for_about<const D: usize>(domain: &Domain<D>, points: f64) -> f64 {
    // π^(D/2) / Γ(D/2 + 1), computed independently of the library's `unit_ball_volume` (the
    // two can differ in the last bit, which would change the points of every test using
    // this radius).
    let unit_ball = std::f64::consts::PI.powf(D as f64 / 2.0) / gamma_half_plus_one(D);
    // Bridson packs disjoint balls of radius r/2 to roughly 0.75 · 0.66^(D−1) of the volume
    // (about 0.5 in 2D, 0.04 in 8D); precision does not matter here.
    let fraction = 0.75 * 0.66f64.powi(D as i32 - 1);
    2.0 * (fraction * domain.volume() / (points * unit_ball)).powf(1.0 / D as f64)
}

/// Γ(D/2 + 1).
fn gamma_half_plus_one(d: usize) -> f64 {
    // Γ(x+1) = xΓ(x), Γ(1) = 1, Γ(1/2) = √π.
    let mut g = if d.is_multiple_of(2) { 1.0 } else { std::f64::consts::PI.sqrt() };
    let mut x = if d.is_multiple_of(2) { 1.0 } else { 0.5 };
    while x < d as f64 / 2.0 + 0.5 {
        g *= x;
        x += 1.0;
    }
    g
}
