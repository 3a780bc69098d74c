//! The live set's spatial index: a grid whose cells sit in a hash map, each a short list of
//! its members, so that points can be removed as well as added.
//!
//! The samplers' grid (`src/grid/`) chains points by index in an append-only array, which
//! cannot forget a point; here a cell owns copies of its members (id, position, radius), so a
//! removal is a swap-remove in one short list and an emptied cell leaves the map. Memory
//! follows the number of points, not the volume of the box.
//!
//! The grid answers one question: which members *may* lie within a given reach of a point.
//! It visits every cell that can hold such a member (and skips the others by a lower bound on
//! their distance), never decides a distance itself, and visits cells in no particular order:
//! every caller's answer is independent of the order (an "any", a minimum with ties broken by
//! id, or a sorted list).

use crate::domain::Domain;
use crate::error::Error;
use crate::grid::storage::CellKeyHasher;
use crate::point::Point;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// A stored point as its cell keeps it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Member<const D: usize> {
    /// The point's id.
    pub(crate) id: u64,
    /// Its position (inside the domain's box).
    pub(crate) point: Point<D>,
    /// Its radius (the constant radius, or the field's value where it stands).
    pub(crate) radius: f64,
}

/// Cells along one axis past which a query gives up the cell walk and looks at every member.
const MAX_AXIS_CELLS: f64 = 64.0;

/// The most cells along one axis: keeps the relative rounding of a cell index (about
/// `2⁻⁵²·cells`) far below the slack the queries add (`1e-9` cells).
const MAX_CELLS_PER_AXIS: f64 = (1u64 << 36) as f64;

/// Slack, in cells, added to each side of a query's range and taken from each cell's
/// distance bound: covers the rounding of `(x − origin)/side`.
const SLACK: f64 = 1e-9;

/// A grid over the domain's box with cells of side at least `length`.
#[derive(Debug, Clone)]
pub(crate) struct CellGrid<const D: usize> {
    origin: Point<D>,
    side: [f64; D],
    inverse_side: [f64; D],
    cells: [u64; D],
    strides: [u64; D],
    periodic: bool,
    map: HashMap<u64, Vec<Member<D>>, BuildHasherDefault<CellKeyHasher>>,
}

impl<const D: usize> CellGrid<D> {
    /// An empty grid over `domain` with cells of side at least `length` along every axis
    /// (exactly `length` in a closed box; on a torus the side is `extent / n` with
    /// `n = ⌊extent / length⌋ ≥ 1`, so that the cells tile the torus).
    ///
    /// Errors: more cells than a 64-bit key can number ([`Error::GridTooLarge`]).
    pub(crate) fn new(domain: &Domain<D>, length: f64) -> Result<Self, Error> {
        let extent = domain.extent();
        let periodic = domain.is_periodic();
        let mut cells = [1u64; D];
        let mut side = [length; D];
        let mut total = 1.0f64;
        for i in 0..D {
            let n = if periodic {
                (extent[i] / length).floor().max(1.0)
            } else {
                (extent[i] / length).ceil().max(1.0)
            };
            total *= n;
            if n.is_nan() || n > MAX_CELLS_PER_AXIS {
                return Err(Error::GridTooLarge { cells: total.max(n) });
            }
            cells[i] = n as u64;
            if periodic {
                side[i] = extent[i] / n;
            }
        }
        let mut strides = [1u64; D];
        let mut product = 1u64;
        for i in 0..D {
            strides[i] = product;
            product = product.checked_mul(cells[i]).ok_or(Error::GridTooLarge { cells: total })?;
        }
        Ok(CellGrid {
            origin: *domain.origin(),
            side,
            inverse_side: std::array::from_fn(|i| 1.0 / side[i]),
            cells,
            strides,
            periodic,
            map: HashMap::default(),
        })
    }

    /// The key of the cell holding `p` (a point of the box; rounding is clamped into it).
    fn key_of(&self, p: &Point<D>) -> u64 {
        let mut key = 0;
        for i in 0..D {
            let t = ((p[i] - self.origin[i]) * self.inverse_side[i]).floor();
            let index = t.clamp(0.0, (self.cells[i] - 1) as f64) as u64;
            key += index * self.strides[i];
        }
        key
    }

    /// Adds a member.
    pub(crate) fn insert(&mut self, member: Member<D>) {
        self.map.entry(self.key_of(&member.point)).or_default().push(member);
    }

    /// Removes the member `id` stored at `point`; returns whether it was there.
    pub(crate) fn remove(&mut self, id: u64, point: &Point<D>) -> bool {
        let key = self.key_of(point);
        let Some(cell) = self.map.get_mut(&key) else { return false };
        let Some(at) = cell.iter().position(|m| m.id == id) else { return false };
        cell.swap_remove(at);
        if cell.is_empty() {
            self.map.remove(&key);
        }
        true
    }

    /// Calls `visit` with every member that may lie within `reach` of `p` (and possibly
    /// others), until it returns true; returns whether it did. On a torus `p` must lie in the
    /// box; in a closed box it may lie anywhere.
    ///
    /// Per axis, the cells whose slab comes within `reach` of `p` (a hair more, for rounding);
    /// of their product, those whose lower bound on the distance to `p` (the root of the sum of
    /// squared per-axis gaps, a hair less) exceeds `reach` are skipped. On a torus an axis whose
    /// range spans all its cells is walked once, with no bound. When the walk would visit more
    /// cells than are occupied (or an axis spans more than 64 cells), every member is visited
    /// instead.
    pub(crate) fn visit(
        &self,
        p: &Point<D>,
        reach: f64,
        mut visit: impl FnMut(&Member<D>) -> bool,
    ) -> bool {
        if self.map.is_empty() {
            return false;
        }
        // Per axis: first and last (unwrapped) cell, the position in cells, and whether the
        // whole axis is walked.
        let mut first = [0i64; D];
        let mut last = [0i64; D];
        let mut at = [0.0f64; D];
        let mut whole = [false; D];
        let mut walk = 1.0f64;
        let mut everything = false;
        for i in 0..D {
            let n = self.cells[i] as f64;
            let t = (p[i] - self.origin[i]) * self.inverse_side[i];
            let span = reach * self.inverse_side[i];
            let slack = SLACK * (1.0 + n + t.abs() + span);
            let (mut lo, mut hi) = ((t - span - slack).floor(), (t + span + slack).floor());
            if !(lo.is_finite() && hi.is_finite()) {
                everything = true;
                break;
            }
            if self.periodic {
                if hi - lo + 1.0 >= n {
                    whole[i] = true;
                    lo = 0.0;
                    hi = n - 1.0;
                }
            } else {
                lo = lo.max(0.0);
                hi = hi.min(n - 1.0);
                if lo > hi {
                    return false;
                }
            }
            if hi - lo + 1.0 > MAX_AXIS_CELLS {
                everything = true;
                break;
            }
            first[i] = lo as i64;
            last[i] = hi as i64;
            at[i] = t;
            walk *= hi - lo + 1.0;
        }
        if everything || walk > self.map.len() as f64 {
            return self.map.values().flatten().any(visit);
        }
        let reach_squared = reach * reach;
        let mut cell = first;
        loop {
            let mut key = 0u64;
            let mut bound = 0.0;
            for i in 0..D {
                let j = cell[i];
                let n = self.cells[i] as i64;
                key += j.rem_euclid(n) as u64 * self.strides[i];
                if !whole[i] {
                    let gap = (j as f64 - at[i]).max(at[i] - (j + 1) as f64);
                    let gap = (gap - SLACK * (1.0 + n as f64 + at[i].abs())).max(0.0);
                    let gap = gap * self.side[i];
                    bound += gap * gap;
                }
            }
            if bound <= reach_squared
                && let Some(members) = self.map.get(&key)
                && members.iter().any(&mut visit)
            {
                return true;
            }
            let mut i = 0;
            loop {
                if i == D {
                    return false;
                }
                cell[i] += 1;
                if cell[i] <= last[i] {
                    break;
                }
                cell[i] = first[i];
                i += 1;
            }
        }
    }
}
