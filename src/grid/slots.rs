//! Removable slots: cells that own copies of their members, so that points can be removed as
//! well as added (a live set's index).
//!
//! The chained grid links points by index in an append-only array, which cannot forget a
//! point; here a cell owns its members (id, position, radius) in a short list in a hash map,
//! so a removal is a swap-remove in one list and an emptied cell leaves the map. Memory
//! follows the number of points, not the volume of the box.
//!
//! The slots answer one question: which members *may* lie within a given reach of a point.
//! They visit every cell that can hold such a member (and skip the others by a lower bound on
//! their distance, [`GridLayout::any_key_within`]), never decide a distance themselves, and
//! visit cells in no particular order: every caller's answer must be independent of the order
//! (an "any", a minimum with ties broken by id, or a sorted list).

use super::layout::GridLayout;
use super::storage::CellKeyHasher;
use crate::domain::Domain;
use crate::error::Error;
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

/// Members in the cells of a layout, in a hash map by cell key.
#[derive(Debug, Clone)]
pub(crate) struct Slots<const D: usize> {
    layout: GridLayout<D>,
    map: HashMap<u64, Vec<Member<D>>, BuildHasherDefault<CellKeyHasher>>,
}

impl<const D: usize> Slots<D> {
    /// Empty slots over `domain` with cells of side about `length` (at most that on a torus,
    /// where equal cells tile it).
    ///
    /// Errors: more cells than a 64-bit key can number ([`Error::GridTooLarge`]).
    pub(crate) fn new(domain: &Domain<D>, length: f64) -> Result<Self, Error> {
        // No neighbour offsets (queries walk the cells their reach needs) and always hashed.
        let layout = GridLayout::new(domain, length, 0.0, 0)?;
        Ok(Slots { layout, map: HashMap::default() })
    }

    /// Adds a member.
    pub(crate) fn insert(&mut self, member: Member<D>) {
        self.map.entry(self.layout.key_near(&member.point)).or_default().push(member);
    }

    /// Removes the member `id` stored at `point`; returns whether it was there.
    pub(crate) fn remove(&mut self, id: u64, point: &Point<D>) -> bool {
        let key = self.layout.key_near(point);
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
    /// box; in a closed box it may lie anywhere. When the cells to walk would outnumber the
    /// occupied ones, every member is visited instead.
    pub(crate) fn visit(
        &self,
        p: &Point<D>,
        reach: f64,
        mut visit: impl FnMut(&Member<D>) -> bool,
    ) -> bool {
        if self.map.is_empty() {
            return false;
        }
        let walked = self.layout.any_key_within(p, reach, self.map.len() as f64, |key| {
            self.map.get(&key).is_some_and(|members| members.iter().any(&mut visit))
        });
        match walked {
            Some(found) => found,
            None => self.map.values().flatten().any(visit),
        }
    }
}
