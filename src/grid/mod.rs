//! The background grid: the one structure every sampler that needs spatial look-ups shares.
//!
//! - `layout`: the immutable geometry (cell sides, the cell and key of a point, dense or
//!   hashed), built and validated once per sampler and shared by its runs, with its
//!   neighbour offsets from `offsets` (which cells a reach needs, in which order, with their
//!   distance bounds) and its 3^D blocks from `blocks`;
//! - `storage`: the points of one run, bucketed by cell. Cells keep the index of their
//!   newest point and points chain to the previous point of the same cell, so one structure
//!   serves fine cells (side ≤ r/√D, in practice one point each), coarse cells (several
//!   points) and the nearest-neighbour cells of best candidate (about 2^(D/2) points,
//!   searched by `nearest`);
//! - `conflict`: the rule that says when two points are too close. The grid's query is
//!   generic over it: `ConstantRadius` for one radius, `FieldRule` for a radius field with
//!   a pair rule (whose query also narrows its reach per candidate).
//!
//! The correctness argument for the neighbourhood is in docs/algorithms.md.

pub(crate) mod blocks;
pub(crate) mod conflict;
pub(crate) mod cover;
pub(crate) mod inline;
pub(crate) mod layout;
pub(crate) mod nearest;
pub(crate) mod offsets;
#[cfg(feature = "live")]
pub(crate) mod slots;
pub(crate) mod sorted;
pub(crate) mod storage;

pub(crate) use conflict::{ConflictRule, ConstantRadius, FieldRule};
pub(crate) use inline::InlineCells;
pub(crate) use layout::GridLayout;
pub use sorted::closest_pair_within;
pub(crate) use sorted::{SortedCells, radix_sort_by_key};
pub(crate) use storage::{CellHeads, Grid, StoredGrid, with_storage};
#[cfg(feature = "scatter")]
pub(crate) use storage::{StorageRun, run_in_storage};

use crate::error::Error;

/// How finely the background grid divides space, relative to the radius `r`.
///
/// Both answer "is a point closer than r?" exactly, so a sampler's output is bit-identical
/// with either; only speed and memory differ. [`Coarse`](Self::Coarse) is the default: with
/// the occupancy bitmap scanned row by row it was the faster of the two in every dimension
/// measured (2D to 6D, docs/design.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GridResolution {
    /// Cells of side at most r/√D: a cell holds one point (two only if they are r apart
    /// to rounding, on opposite corners), and the search reaches
    /// ⌈√D⌉ cells along each axis (pruned to the cells that can hold a point closer than r:
    /// 21 in 2D, 117 in 3D, 3,903 in 5D). Few distance tests, many cells.
    Fine,
    /// Cells of side at most r: a cell may hold several points, and the search covers the
    /// 3^D cells around the candidate. Fewer, denser cells: less memory traffic.
    #[default]
    Coarse,
}

impl crate::choice::Choice for GridResolution {
    const ALL: &'static [Self] = &[GridResolution::Coarse, GridResolution::Fine];

    fn name(self) -> &'static str {
        match self {
            GridResolution::Coarse => "coarse",
            GridResolution::Fine => "fine",
        }
    }

    fn description(self) -> &'static str {
        match self {
            GridResolution::Coarse => {
                "cells of side r: several points per cell, 3^D cells searched"
            }
            GridResolution::Fine => {
                "cells of side r/√D: one point per cell, the cells within reach searched"
            }
        }
    }
}

/// Grid settings that change speed and memory, never the points: the advanced corner of a
/// sampler's configuration (see `with_tuning` on the builders).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Tuning {
    dense_grid_limit: usize,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning { dense_grid_limit: crate::defaults::DENSE_GRID_LIMIT }
    }
}

impl Tuning {
    /// Sets the memory a dense background grid may take (default
    /// [`defaults::DENSE_GRID_LIMIT`](crate::defaults::DENSE_GRID_LIMIT), 256 MiB); past it
    /// cells are kept in a hash map whose size follows the number of points. 0 always
    /// hashes. In 1D and 2D a dense grid of one radius in a closed box also keeps 8 bytes a
    /// cell of covered sub-cells (a faster query) when they fit the limit with the 4-byte
    /// heads, and searches without them otherwise: the points are the same either way.
    #[must_use]
    pub fn with_dense_grid_limit(mut self, bytes: usize) -> Self {
        self.dense_grid_limit = bytes;
        self
    }

    /// The memory a dense grid may take, in bytes.
    pub fn dense_grid_limit(&self) -> usize {
        self.dense_grid_limit
    }
}

/// Marks "no point" in cell heads and chains.
pub(crate) const NONE: u32 = u32::MAX;

/// Set in a link (a cell head or a chain entry) when the cell holds a further, older point:
/// the chain is read only then, which spares one memory access for most cells.
pub(crate) const MORE: u32 = 1 << 31;

/// The largest number of points a grid can index (a link is a 31-bit index and [`MORE`]; one
/// value is NONE).
pub(crate) const MAX_GRID_POINTS: usize = (MORE - 1) as usize;

/// The most grid cells a radius field's search may visit per candidate (about 4 million):
/// the neighbour table is built once per sampler and its size grows as `(rmax/rmin)^D`.
pub(crate) const FIELD_NEIGHBOURHOOD_LIMIT: usize = 1 << 22;

/// Refuses radius bounds whose search (cells of side `ℓ = √(rmin·rmax)` or `ℓ/√D`, reach `rmax`)
/// would visit more than [`FIELD_NEIGHBOURHOOD_LIMIT`] cells: the table alone would take
/// too long to build and too much memory.
pub(crate) fn check_field_reach<const D: usize>(
    rmin: f64,
    rmax: f64,
    resolution: GridResolution,
) -> Result<(), Error> {
    let length = conflict::field_cell_length(rmin, rmax);
    let side = match resolution {
        GridResolution::Fine => length / (D as f64).sqrt(),
        GridResolution::Coarse => length,
    };
    // The offsets within reach lie in a ball of radius reach/side + 1 cells (a slight
    // over-estimate of their number).
    let cells = crate::packing::unit_ball_volume(D) * (rmax / side + 1.0).powi(D as i32);
    if cells > FIELD_NEIGHBOURHOOD_LIMIT as f64 {
        return Err(Error::RadiusRatioTooLarge {
            ratio: rmax / rmin,
            cells,
            limit: FIELD_NEIGHBOURHOOD_LIMIT,
        });
    }
    Ok(())
}

/// The grid layout for a radius field: cells from √(rmin·rmax), reach rmax. The dense limit
/// counts the byte per cell that keeps the cell's radius bound next to its 4-byte head.
pub(crate) fn field_layout<const D: usize>(
    domain: &crate::domain::Domain<D>,
    setup: &crate::field::FieldSetup<D>,
    resolution: GridResolution,
    tuning: Tuning,
) -> Result<GridLayout<D>, Error> {
    check_field_reach::<D>(setup.rmin, setup.rmax, resolution)?;
    let rule = FieldRule::new(setup.rule, setup.rmin, setup.rmax);
    GridLayout::for_rule(domain, &rule, resolution, tuning.dense_grid_limit() / 5 * 4)
}
