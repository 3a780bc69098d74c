//! When two points are too close: the one question the grid's query asks of each pair.
//!
//! The grid finds the stored points that *could* conflict with a candidate (those within the
//! rule's [`reach`](ConflictRule::reach)) and asks the rule about each, by the stored point's
//! index, so that a rule may keep per-point data (a radius, a class) in its own arrays.
//!
//! # Why the grid stays exact for any rule
//!
//! The layout takes two lengths from the rule: the smallest distance two points may keep
//! ([`min_distance`](ConflictRule::min_distance), `r_min`) sets the cell side, so that a cell
//! holds a bounded number of points; the largest distance at which two points can conflict
//! (`reach`, `r_max`) sets the neighbour offsets: every cell that can hold a point closer than
//! `r_max` to a point of the centre cell is searched, `⌈r_max / side⌉` cells along an axis
//! (docs/algorithms.md). A pair that conflicts is closer than `r_max`, so its cell is in the
//! table, and the rule itself decides the pair. A per-point radius with a pair rule
//! (`max(r_i, r_j)`, `min`, the mean) has `r_max` = the largest radius of the field; a table of
//! class-pair distances has its largest entry. Neither needs a second grid; only a field whose
//! radii span orders of magnitude would want a hierarchy of grids for speed.
//!
//! A constant radius ([`ConstantRadius`]) keeps no per-point data and compares against `r²`:
//! the query monomorphizes to the plain `d² < r²` test.

/// The conflict test the grid's query is generic over.
pub(crate) trait ConflictRule {
    /// What a candidate brings to the test besides its position: nothing for a constant
    /// radius; later its radius, or its class.
    type Spacing: Copy;

    /// The smallest distance two stored points can be apart (`r_min`): sets the cell side.
    fn min_distance(&self) -> f64;

    /// The largest distance at which two points can conflict (`r_max`): the grid searches
    /// every cell that can hold a point closer than this.
    fn reach(&self) -> f64;

    /// Whether a candidate with `spacing`, at squared distance `distance_squared` from stored
    /// point number `index`, conflicts with it.
    fn conflicts(&self, spacing: Self::Spacing, distance_squared: f64, index: u32) -> bool;

    /// Records the spacing of a point just stored as number `index` (indices come in order).
    fn record(&mut self, index: u32, spacing: Self::Spacing);
}

/// One minimum distance `r` for every pair: the rule of every sampler today.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ConstantRadius {
    radius: f64,
    radius_squared: f64,
}

impl ConstantRadius {
    /// Pairs closer than `radius` conflict.
    pub(crate) fn new(radius: f64) -> Self {
        ConstantRadius { radius, radius_squared: radius * radius }
    }
}

impl ConflictRule for ConstantRadius {
    type Spacing = ();

    #[inline(always)]
    fn min_distance(&self) -> f64 {
        self.radius
    }

    #[inline(always)]
    fn reach(&self) -> f64 {
        self.radius
    }

    #[inline(always)]
    fn conflicts(&self, _: (), distance_squared: f64, _: u32) -> bool {
        distance_squared < self.radius_squared
    }

    #[inline(always)]
    fn record(&mut self, _: u32, _: ()) {}
}

/// No pair ever conflicts: for a grid used only for nearest-neighbour queries (best
/// candidate), which never asks for conflicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct NeverConflicts;

impl ConflictRule for NeverConflicts {
    type Spacing = ();

    fn min_distance(&self) -> f64 {
        0.0
    }

    fn reach(&self) -> f64 {
        0.0
    }

    #[inline(always)]
    fn conflicts(&self, _: (), _: f64, _: u32) -> bool {
        false
    }

    #[inline(always)]
    fn record(&mut self, _: u32, _: ()) {}
}
