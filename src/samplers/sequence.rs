//! What the low-discrepancy sequences (Halton, Sobol, PMJ02) share: laying the unit cube over
//! the sampling box, and, in a region, keeping the sequence's own points that fall in it.

use crate::domain::Domain;
use crate::point::Point;
use crate::region::Region;
use crate::region::shape::SamplerRegion;
use crate::sampler::{PointSet, StopReason};

/// Runs a sequence: `unit_point(j)` is the `j`-th point of the sequence (0-based, after any
/// skip) in the unit cube `[0, 1)^D`; `available` is how many positions the sequence has.
///
/// Without a region the first `min(n, max_points, available)` points are scaled to the
/// domain's box. In a region they are scaled to the part of the box the region's bounding box
/// covers and kept, in sequence order, while they fall in the region, until there are enough
/// (rejection along the sequence), or a draw budget far beyond what the region's share of its
/// box calls for is spent (then the run stops [`Exhausted`](StopReason::Exhausted)).
/// [`PointSet::attempts`] counts the positions used.
///
/// A coordinate that rounds onto the box's upper face is moved one float down: the points
/// stay in the half-open box.
pub(crate) fn run_sequence<const D: usize>(
    domain: &Domain<D>,
    region: &SamplerRegion<D>,
    n: usize,
    max_points: usize,
    available: u64,
    mut unit_point: impl FnMut(u64) -> Point<D>,
) -> PointSet<D> {
    let count = n.min(max_points).min(usize::try_from(available).unwrap_or(usize::MAX));
    let stop = if count == n { StopReason::TargetReached } else { StopReason::PointLimit };
    let sampling = region.sampling_box(domain);
    let origin = sampling.origin();
    let extent = sampling.extent();
    let mut point_at = |j: u64| -> Point<D> {
        let u = unit_point(j);
        std::array::from_fn(|axis| {
            let upper = origin[axis] + extent[axis];
            let x = origin[axis] + extent[axis] * u[axis];
            if x < upper { x } else { upper.next_down() }
        })
    };
    let SamplerRegion::Shape(shape) = region else {
        let points: Vec<Point<D>> = (0..count as u64).map(point_at).collect();
        return PointSet::new_unrejected(points, *domain, stop);
    };
    let budget = (count as f64 * shape.draw_budget() as f64).min(available as f64) as u64;
    let mut points = Vec::with_capacity(count.min(1 << 20));
    let mut used = 0u64;
    while points.len() < count {
        if used >= budget {
            return PointSet::new(points, *domain, StopReason::Exhausted, used);
        }
        let p = point_at(used);
        used += 1;
        if shape.contains_box_point(&p) {
            points.push(p);
        }
    }
    PointSet::new(points, *domain, stop, used)
}
