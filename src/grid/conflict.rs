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
//! the query monomorphizes to the plain `d² < r²` test. A radius field ([`FieldRule`])
//! keeps each point's radius and, for a dense grid, a bound on the radii of each cell, so
//! that its query (`Grid::has_conflict_within`) can skip the cells that cannot hold a
//! conflict for the candidate at hand.

use super::GridLayout;
use crate::field::PairRule;

/// The conflict test the grid's query is generic over.
pub(crate) trait ConflictRule {
    /// What a candidate brings to the test besides its position: nothing for a constant
    /// radius; later its radius, or its class.
    type Spacing: Copy;

    /// The length that sets the cell side: for one radius the smallest distance two stored
    /// points can be apart (`r_min`); any positive length keeps the query exact (the reach
    /// decides what is searched), it only trades cells visited against points per cell.
    fn cell_length(&self) -> f64;

    /// The largest distance at which two points can conflict (`r_max`): the grid searches
    /// every cell that can hold a point closer than this.
    fn reach(&self) -> f64;

    /// Whether a candidate with `spacing`, at squared distance `distance_squared` from stored
    /// point number `index`, conflicts with it.
    fn conflicts(&self, spacing: Self::Spacing, distance_squared: f64, index: u32) -> bool;

    /// Records the spacing of a point just stored as number `index` (indices come in order)
    /// in the cell with key `key`.
    fn record(&mut self, index: u32, key: u64, spacing: Self::Spacing);

    /// Squared distances, ascending, within which a stored point conflicts with every
    /// candidate whatever its spacing (as `conflicts` compares them): one for each kind of
    /// point [`cover_table`](Self::cover_table) tells apart. The grid then keeps a
    /// [`Cover`](super::cover::Cover) of the sub-cells its points cover whole; none, no cover.
    fn cover_radii_squared(&self) -> Vec<f64> {
        Vec::new()
    }

    /// Which of [`cover_radii_squared`](Self::cover_radii_squared) a point stored with
    /// `spacing` covers: one not above the distance within which it conflicts with every
    /// candidate (`None`: none of them).
    fn cover_table(&self, _spacing: Self::Spacing) -> Option<usize> {
        Some(0)
    }
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
    fn cell_length(&self) -> f64 {
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
    fn record(&mut self, _: u32, _: u64, _: ()) {}

    fn cover_radii_squared(&self) -> Vec<f64> {
        vec![self.radius_squared]
    }
}

/// No pair ever conflicts: for a grid used only for nearest-neighbour queries (best
/// candidate), which never asks for conflicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct NeverConflicts;

impl ConflictRule for NeverConflicts {
    type Spacing = ();

    fn cell_length(&self) -> f64 {
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
    fn record(&mut self, _: u32, _: u64, _: ()) {}
}

/// The cell length of a radius field's grid: the geometric mean `√(rmin·rmax)`. Cells of side
/// `rmin` make a candidate in a coarse area visit `(rmax/rmin)^D` mostly empty cells; cells of
/// side `rmax` pile `(rmax/rmin)^D` points into each cell of a fine area. The mean splits the
/// two: about `(rmax/rmin)^(D/2)` of each at worst. Measured on density gradients of 10^6
/// points (2026-12-01): 1.3× faster than `rmin` in 2D at ratio 4, 1.6× at ratio 16, 1.2–1.5× in
/// 3D at ratio 4; `rmin^¾·rmax^¼`, `rmin^¼·rmax^¾` and `rmax` were all slower
/// (docs/algorithms.md, "Variable radius").
pub(crate) fn field_cell_length(rmin: f64, rmax: f64) -> f64 {
    (rmin * rmax).sqrt()
}

/// Relative slack on the lower bounds the field query prunes with: a cell or a run of cells
/// is skipped only when its bound clears the pair distance by more than rounding could
/// account for, so pruning never hides a pair the rule would call a conflict.
pub(crate) const PRUNE_SLACK: f64 = 1.0 + 16.0 * f64::EPSILON;

/// Number of radius levels a cell's bound is rounded up to (one byte per cell).
const LEVELS: usize = 256;

/// Number of covering radii a field's points mark their sub-cells with (see
/// [`Cover`](super::cover::Cover)): a point marks with the largest one not above its own
/// covering radius, at most `(ratio)^(1/15)` below it (1.10× at ratio 4).
const COVER_TABLES: usize = 16;

/// A radius per point (from a radius field) and a pair rule: stored point `j` conflicts
/// with a candidate of radius `r` at distance `d` when `d < rule(r, r_j)`.
///
/// Cells are sized from `√(rmin·rmax)` ([`field_cell_length`]) and the search reaches `rmax` (every pair distance lies in
/// `[rmin, rmax]`); each query narrows that reach to what the candidate can conflict with
/// (`rule(r, largest radius stored)`), and on a dense grid each cell keeps a one-byte upper
/// bound of its points' radii, so that an occupied cell farther than `rule(r, bound)` is
/// skipped without reading its points (docs/algorithms.md, "Variable radius").
#[derive(Debug, Clone)]
pub(crate) struct FieldRule {
    rule: PairRule,
    rmin: f64,
    rmax: f64,
    /// Each stored point's radius, by index.
    radii: Vec<f64>,
    /// The largest radius stored so far (rmin before any).
    largest: f64,
    /// Per cell key (dense grids only; empty otherwise): the level whose radius bounds the
    /// radii of the cell's points from above.
    cell_level: Vec<u8>,
    /// The radius of each level: `rmin·(rmax/rmin)^(q/255)`, non-decreasing, the last one
    /// exactly rmax.
    levels: Box<[f64; LEVELS]>,
    /// The covering radii of the cover's tables, ascending from `rule(rmin, rmin)` to
    /// `rule(rmin, rmax)`: a point of radius `r_j` conflicts with every candidate closer than
    /// `rule(rmin, r_j)`, since every candidate's radius is at least rmin and the pair rules
    /// grow with either radius.
    covering: Vec<f64>,
}

impl FieldRule {
    /// The rule for radii in `[rmin, rmax]` (checked by the caller), for laying out a grid:
    /// its cells keep no radius bounds.
    pub(crate) fn new(rule: PairRule, rmin: f64, rmax: f64) -> Self {
        Self::make(rule, rmin, rmax, None)
    }

    /// The rule for radii in `[rmin, rmax]` on a grid of `layout`: where the layout is dense
    /// (see [`StoredGrid`](super::StoredGrid)), its cells keep radius bounds.
    pub(crate) fn for_layout<const D: usize>(
        rule: PairRule,
        rmin: f64,
        rmax: f64,
        layout: &GridLayout<D>,
    ) -> Self {
        Self::make(rule, rmin, rmax, layout.is_dense().then(|| layout.key_count()))
    }

    /// `dense_keys` is the key count of a dense grid, whose cells then keep radius bounds.
    fn make(rule: PairRule, rmin: f64, rmax: f64, dense_keys: Option<u64>) -> Self {
        let ratio = rmax / rmin;
        let mut levels = Box::new([rmax; LEVELS]);
        for (q, level) in levels.iter_mut().enumerate().take(LEVELS - 1) {
            // The portable power keeps the levels, hence the pruning, the same everywhere
            // (pruning never changes the points, only the work).
            *level = (rmin * libm::pow(ratio, q as f64 / (LEVELS - 1) as f64)).min(rmax);
        }
        // Rounding must not make the levels decrease.
        for q in 1..LEVELS {
            levels[q] = levels[q].max(levels[q - 1]);
        }
        let (low, high) = (rule.distance(rmin, rmin), rule.distance(rmin, rmax));
        let mut covering: Vec<f64> = (0..COVER_TABLES)
            .map(|t| {
                let fraction = t as f64 / (COVER_TABLES - 1) as f64;
                (low * libm::pow(high / low, fraction)).clamp(low, high)
            })
            .collect();
        covering.dedup();
        FieldRule {
            rule,
            rmin,
            rmax,
            radii: Vec::new(),
            largest: rmin,
            cell_level: dense_keys.map_or_else(Vec::new, |keys| vec![0; keys as usize]),
            levels,
            covering,
        }
    }

    /// Each stored point's radius, by index.
    pub(crate) fn radii(&self) -> &[f64] {
        &self.radii
    }

    /// Gives up the rule, keeping the radii.
    pub(crate) fn into_radii(self) -> Vec<f64> {
        self.radii
    }

    /// The radius of stored point `index`.
    #[inline(always)]
    pub(crate) fn radius_of(&self, index: u32) -> f64 {
        self.radii[index as usize]
    }

    /// The distance the pair rule asks of two radii.
    #[inline(always)]
    pub(crate) fn pair_distance(&self, ri: f64, rj: f64) -> f64 {
        self.rule.distance(ri, rj)
    }

    /// The squared distance (with the pruning slack) beyond which no stored point can
    /// conflict with a candidate of radius `r`.
    #[inline(always)]
    pub(crate) fn reach_squared(&self, r: f64) -> f64 {
        let s = self.rule.distance(r, self.largest);
        s * s * PRUNE_SLACK
    }

    /// Whether the cell with key `key`, whose points are at least `sqrt(gap_squared)` from
    /// the candidate's cell, can hold a point that conflicts with a candidate of radius `r`.
    #[inline(always)]
    pub(crate) fn cell_may_conflict(&self, r: f64, key: u64, gap_squared: f64) -> bool {
        match self.cell_level.get(key as usize) {
            Some(&q) => {
                let s = self.rule.distance(r, self.levels[q as usize]);
                gap_squared < s * s * PRUNE_SLACK
            }
            None => true,
        }
    }

    /// The smallest level whose radius is at least `r` (r ≤ rmax, the last level).
    fn level_of(&self, r: f64) -> u8 {
        let q = self.levels.partition_point(|&level| level < r);
        q.min(LEVELS - 1) as u8
    }
}

impl ConflictRule for FieldRule {
    type Spacing = f64;

    fn cell_length(&self) -> f64 {
        field_cell_length(self.rmin, self.rmax)
    }

    fn reach(&self) -> f64 {
        self.rmax
    }

    #[inline(always)]
    fn conflicts(&self, r: f64, distance_squared: f64, index: u32) -> bool {
        let s = self.rule.distance(r, self.radius_of(index));
        distance_squared < s * s
    }

    fn cover_radii_squared(&self) -> Vec<f64> {
        self.covering.iter().map(|c| c * c).collect()
    }

    #[inline]
    fn cover_table(&self, r: f64) -> Option<usize> {
        // `covering` rises: the last table whose radius the point's own covering reaches.
        let own = self.rule.distance(self.rmin, r);
        self.covering.partition_point(|&c| c <= own).checked_sub(1)
    }

    #[inline]
    fn record(&mut self, index: u32, key: u64, r: f64) {
        debug_assert_eq!(index as usize, self.radii.len());
        self.radii.push(r);
        self.largest = self.largest.max(r);
        if !self.cell_level.is_empty() {
            let q = self.level_of(r);
            if let Some(level) = self.cell_level.get_mut(key as usize) {
                *level = (*level).max(q);
            }
        }
    }
}
