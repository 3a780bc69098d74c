//! Edge-correction weights in a box: what the estimators over pairs of points (the binned
//! and the kernel pair correlation, Ripley's K) and the distance distributions censored by the
//! boundary (G, F) need to know about the box's faces.
//!
//! A periodic box has no faces: its estimators use the toroidal distance with weight 1, and
//! [`distance_to_boundary`] is infinite there (no censoring).

use poisson_nd::{Domain, Point};
use std::f64::consts::{FRAC_PI_2, TAU};

/// The largest weight a pair gets, as spatstat's `maxedgewt` option (default 100): a weight
/// above it is lowered to it. Within half the shortest side, where the summary functions are
/// evaluated, no weight comes near it (translation weights stay below 5 up to 8D, isotropic
/// ones at most 4), so the cap only guards degenerate input.
pub const MAX_EDGE_WEIGHT: f64 = 100.0;

/// The translation (Ohser–Stoyan) weight of the pair `p`, `q` in a closed box of sides
/// `extent`: `|W| / |W ∩ (W + (p − q))| = Π_a L_a / (L_a − |p_a − q_a|)`, the inverse
/// fraction of the box's translations that keep both points inside, capped at
/// [`MAX_EDGE_WEIGHT`]. It is 1 for coincident points and grows towards the cap as the
/// difference along an axis approaches that side.
///
/// ```
/// use experiments::metrics::edge_correction::translation_weight;
/// let w = translation_weight(&[2.0, 1.0], &[0.0, 0.0], &[1.0, 0.5]);
/// assert!((w - 4.0).abs() < 1e-15); // 2/(2 − 1) · 1/(1 − 0.5)
/// ```
pub fn translation_weight<const D: usize>(extent: &[f64; D], p: &Point<D>, q: &Point<D>) -> f64 {
    let mut overlap = 1.0;
    for a in 0..D {
        overlap *= 1.0 - (p[a] - q[a]).abs() / extent[a];
    }
    if overlap > 0.0 { (1.0 / overlap).min(MAX_EDGE_WEIGHT) } else { MAX_EDGE_WEIGHT }
}

/// Ripley's isotropic weight for a point `p` of the closed rectangle `origin + [0, extent]`
/// and a distance `d`: `1 / (fraction of the circle of radius d about p that lies inside the
/// rectangle)`, at least 1 and capped at [`MAX_EDGE_WEIGHT`]; 1 for `d = 0`.
///
/// The part of the circle outside is the union of the arcs beyond each side: beyond a side at
/// distance `e < d` lies the arc of half-angle `α = acos(e / d)` about that side's outward
/// normal. Arcs of opposite sides never meet (that would take `α_1 + α_2 > π`); arcs of two
/// adjacent sides overlap by `α_1 + α_2 − π/2` exactly when the corner between them is inside
/// the circle (`e_1² + e_2² < d²`). So the outside angle is
/// `Σ 2α_s − Σ_adjacent max(0, α_s + α_t − π/2)`, and the weight `2π / (2π − outside)`.
///
/// ```
/// use experiments::metrics::edge_correction::isotropic_weight;
/// // Half the circle sticks out of the left side of the unit square.
/// let w = isotropic_weight(&[0.0, 0.0], &[1.0, 1.0], &[0.0, 0.5], 0.2);
/// assert!((w - 2.0).abs() < 1e-12);
/// ```
pub fn isotropic_weight(origin: &[f64; 2], extent: &[f64; 2], p: &Point<2>, d: f64) -> f64 {
    if d <= 0.0 {
        return 1.0;
    }
    // Distances to the sides, in the order left, bottom, right, top: each side's neighbours
    // are the next and the previous one in this cycle.
    let sides = [
        p[0] - origin[0],
        p[1] - origin[1],
        origin[0] + extent[0] - p[0],
        origin[1] + extent[1] - p[1],
    ];
    let half_angle = sides.map(|e| if e < d { (e.max(0.0) / d).acos() } else { 0.0 });
    let mut outside = 0.0;
    for s in 0..4 {
        let (a, b) = (half_angle[s], half_angle[(s + 1) % 4]);
        outside += 2.0 * a - (a + b - FRAC_PI_2).max(0.0);
    }
    let inside = 1.0 - outside / TAU;
    if inside > 0.0 { (1.0 / inside).clamp(1.0, MAX_EDGE_WEIGHT) } else { MAX_EDGE_WEIGHT }
}

/// The distance from `p` to the boundary of a closed box, `min_a min(p_a − o_a, o_a + L_a −
/// p_a)`; infinite in a periodic box, which has no boundary.
pub fn distance_to_boundary<const D: usize>(domain: &Domain<D>, p: &Point<D>) -> f64 {
    if domain.is_periodic() {
        return f64::INFINITY;
    }
    let (origin, extent) = (domain.origin(), domain.extent());
    (0..D)
        .map(|a| (p[a] - origin[a]).min(origin[a] + extent[a] - p[a]))
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fraction of the circle inside, counted on a fine grid of angles.
    fn fraction_inside(origin: &[f64; 2], extent: &[f64; 2], p: &Point<2>, d: f64) -> f64 {
        let steps = 2_000_000;
        let inside = (0..steps)
            .filter(|&k| {
                let t = (k as f64 + 0.5) / steps as f64 * TAU;
                let (x, y) = (p[0] + d * t.cos(), p[1] + d * t.sin());
                x > origin[0]
                    && x < origin[0] + extent[0]
                    && y > origin[1]
                    && y < origin[1] + extent[1]
            })
            .count();
        inside as f64 / steps as f64
    }

    #[test]
    fn isotropic_weight_matches_counted_arcs() {
        let (origin, extent) = ([-0.5, 0.25], [1.0, 0.6]);
        let cases = [
            ([0.0, 0.55], 0.1),    // well inside
            ([-0.45, 0.55], 0.1),  // one side
            ([-0.45, 0.3], 0.1),   // corner outside the circle, two sides
            ([-0.47, 0.28], 0.1),  // corner inside the circle
            ([-0.5, 0.25], 0.2),   // at the corner
            ([0.0, 0.55], 0.35),   // top and bottom
            ([-0.49, 0.84], 0.29), // near a corner, reaching the far side too
        ];
        for (p, d) in cases {
            let want = 1.0 / fraction_inside(&origin, &extent, &p, d);
            let got = isotropic_weight(&origin, &extent, &p, d);
            assert!((got - want).abs() < 2e-5 * want, "{p:?} {d}: {got} vs {want}");
        }
    }

    #[test]
    fn translation_weight_is_the_inverse_overlap() {
        let w = translation_weight(&[1.0, 0.6, 2.0], &[0.1, 0.5, 1.0], &[0.3, 0.2, 0.5]);
        let want = 1.0 / ((1.0 - 0.2) * (1.0 - 0.3 / 0.6) * (1.0 - 0.5 / 2.0));
        assert!((w - want).abs() < 1e-14);
        assert_eq!(translation_weight(&[1.0], &[0.0], &[1.0]), MAX_EDGE_WEIGHT);
    }
}
