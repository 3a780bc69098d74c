//! Where a class may not stand whatever its radius: a bitmap over the ground rectangle whose
//! set cells lie wholly inside the exclusion disc of some point already placed, of a class
//! placed before or of the class itself.
//!
//! A candidate of a class conflicts with a stored point `j` when it lies closer than the pair
//! distance `s_j` (the rule at the two radii, or a constant cross distance). Every pair rule
//! grows with the candidate's radius, so the disc of radius `s_j(rmin)` around `j` excludes
//! any candidate of the class. A cell is set once it lies wholly inside one such disc (with
//! a margin far above rounding), so a candidate in a set cell is one the grid queries would
//! turn down, and a restart-scan cell whose box lies in set cells is one whose witness they
//! would find covered. The bitmap answers the most frequent question of a class filling the
//! gaps of others (three in four of its candidates land near a point already placed) with
//! one bit read instead of a query per grid, and never changes a decision.

use crate::domain::Domain;
use crate::point::Point;

/// Cells per axis of the bitmap per `rmin`: finer cells fill more of each disc (a cell
/// counts only when wholly inside), coarser ones keep the bitmap in cache.
const CELLS_PER_RADIUS: f64 = 4.0;

/// The largest bitmap kept (bits); a larger ground is covered by coarser cells.
const MAX_BITS: f64 = (1u64 << 30) as f64;

/// The cells of the ground rectangle wholly inside some exclusion disc (see the module
/// documentation).
#[derive(Debug, Clone)]
pub(crate) struct Exclusion {
    origin: Point<2>,
    side: [f64; 2],
    inverse: [f64; 2],
    cells: [usize; 2],
    /// A margin on every cell face, above the rounding of a point's cell index.
    margin: [f64; 2],
    /// Tiles of 8 × 8 cells across a row of tiles.
    tiles_per_row: usize,
    /// One word per tile, tile rows one after another: the cell at `(column, row)` is bit
    /// `8·(row % 8) + column % 8` of tile `(row / 8)·tiles_per_row + column / 8`, so that a
    /// disc touches a few words in a few cache lines.
    tiles: Vec<u64>,
}

impl Exclusion {
    /// An empty bitmap over `domain` (closed, never periodic here) for a class whose
    /// smallest radius is `rmin`; `None` when cells fine enough to help would not fit.
    pub(crate) fn new(domain: &Domain<2>, rmin: f64) -> Option<Self> {
        let extent = domain.extent();
        let mut side = rmin / CELLS_PER_RADIUS;
        let wanted = (extent[0] / side).ceil() * (extent[1] / side).ceil();
        if !wanted.is_finite() || wanted > MAX_BITS {
            side *= (wanted / MAX_BITS).sqrt();
        }
        // Cells of half the smallest radius or more would rarely lie wholly inside a disc.
        if side.is_nan() || side >= 0.5 * rmin {
            return None;
        }
        let cells: [usize; 2] =
            std::array::from_fn(|i| (extent[i] / side).ceil().max(1.0) as usize);
        let origin = *domain.origin();
        let side: [f64; 2] = std::array::from_fn(|i| extent[i] / cells[i] as f64);
        let tiles_per_row = cells[0].div_ceil(8);
        Some(Exclusion {
            origin,
            side,
            inverse: std::array::from_fn(|i| cells[i] as f64 / extent[i]),
            cells,
            margin: std::array::from_fn(|i| {
                1e-9 * side[i] + 16.0 * f64::EPSILON * (origin[i].abs() + extent[i])
            }),
            tiles_per_row,
            tiles: vec![0; tiles_per_row * cells[1].div_ceil(8)],
        })
    }

    /// Sets the cells wholly inside the open disc of radius `radius` around `centre`, shrunk
    /// by a relative 10⁻⁹ so that rounding in the conflict test cannot undo the claim.
    pub(crate) fn mark_disc(&mut self, centre: &Point<2>, radius: f64) {
        let reach = radius * (1.0 - 1e-9);
        if reach.is_nan() || reach <= 0.0 {
            return;
        }
        let [cx, cy] = *centre;
        // Truncation is the floor here (negative values saturate to 0); `floor` and `ceil`
        // are library calls on the baseline x86-64 target.
        let row_of = |y: f64| ((y - self.origin[1]) * self.inverse[1]) as usize;
        let first = row_of(cy - reach);
        let last = row_of(cy + reach).min(self.cells[1] - 1);
        for row in first..=last {
            // The row's band, grown by the margin: its farthest edge from the centre.
            let y0 = self.origin[1] + row as f64 * self.side[1] - self.margin[1];
            let y1 = self.origin[1] + (row + 1) as f64 * self.side[1] + self.margin[1];
            let dy = (cy - y0).abs().max((y1 - cy).abs());
            // The chord's half-width, less three margins: one for each grown cell face and
            // one for the rounding of the column estimates below (far smaller than a margin),
            // so that the columns taken lie inside the chord whatever the rounding. A band
            // reaching past the disc gets a negative width: no run.
            let half = (reach * reach - dy * dy).max(0.0).sqrt() - 3.0 * self.margin[0];
            let from = ceiling((cx - half - self.origin[0]) * self.inverse[0]);
            let to = (((cx + half - self.origin[0]) * self.inverse[0]) as usize).min(self.cells[0]);
            if from < to {
                self.set_run(row, from, to);
            }
        }
    }

    /// Sets the cells `[from, to)` of `row`.
    fn set_run(&mut self, row: usize, from: usize, to: usize) {
        let base = row / 8 * self.tiles_per_row;
        let shift = 8 * (row % 8);
        let mut column = from;
        while column < to {
            let end = (column / 8 * 8 + 8).min(to);
            // Bits `column % 8 .. end - column / 8 * 8` of the tile's byte for this row.
            let (low, high) = (column % 8, end - column / 8 * 8);
            let byte = (0xffu64 >> (8 - (high - low))) << low;
            self.tiles[base + column / 8] |= byte << shift;
            column = end;
        }
    }

    /// Whether every cell that a point of the box `[lower, upper]` can fall in is set, so
    /// that [`excludes`](Self::excludes) holds at every point of the box (the cell index is
    /// monotone in each coordinate, rounding included).
    #[inline(always)]
    pub(crate) fn excludes_box(&self, lower: &Point<2>, upper: &Point<2>) -> bool {
        let (Some(low), Some(high)) = (self.cell_of(lower), self.cell_of(upper)) else {
            return false;
        };
        let (columns, rows) = ([low[0], high[0]], [low[1], high[1]]);
        // Tile by tile: the bits of the box's columns within the tile, repeated on each of
        // the box's rows within it, must all be set.
        for tile_row in rows[0] / 8..=rows[1] / 8 {
            let low = rows[0].max(8 * tile_row) - 8 * tile_row;
            let high = rows[1].min(8 * tile_row + 7) - 8 * tile_row;
            let row_bytes = (u64::MAX << (8 * low)) & (u64::MAX >> (8 * (7 - high)));
            for tile_column in columns[0] / 8..=columns[1] / 8 {
                let low = columns[0].max(8 * tile_column) - 8 * tile_column;
                let high = columns[1].min(8 * tile_column + 7) - 8 * tile_column;
                let column_bits = (0xffu64 << low) & (0xffu64 >> (7 - high));
                let need = (column_bits * 0x0101_0101_0101_0101) & row_bytes;
                let tile = self.tiles[tile_row * self.tiles_per_row + tile_column];
                if tile & need != need {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `p` lies in a set cell (false off the ground rectangle).
    #[inline(always)]
    pub(crate) fn excludes(&self, p: &Point<2>) -> bool {
        let Some([column, row]) = self.cell_of(p) else { return false };
        let tile = self.tiles[row / 8 * self.tiles_per_row + column / 8];
        tile >> (8 * (row % 8) + column % 8) & 1 == 1
    }

    /// The `[column, row]` of `p`'s cell, or `None` off the ground rectangle (or for NaN).
    #[inline(always)]
    fn cell_of(&self, p: &Point<2>) -> Option<[usize; 2]> {
        let t: [f64; 2] = std::array::from_fn(|i| (p[i] - self.origin[i]) * self.inverse[i]);
        (0..2)
            .all(|i| t[i] >= 0.0 && t[i] < self.cells[i] as f64)
            .then(|| [t[0] as usize, t[1] as usize])
    }
}

/// `⌈x⌉` for `x` ≥ 0, and 0 below (or for NaN).
#[inline(always)]
fn ceiling(x: f64) -> usize {
    let t = x as usize;
    t + usize::from((t as f64) < x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, uniform01};

    /// Every point in a set cell lies inside some disc (brute force over random points), and
    /// most of the discs' union is set; a box is excluded exactly when every cell it touches
    /// is set (against a cell-by-cell count), and then every point of it lies in a disc.
    #[test]
    fn set_cells_lie_inside_a_disc() {
        let domain = Domain::from_origin_and_extent([-3.0, 10.0], [40.0, 25.0]).unwrap();
        let mut exclusion = Exclusion::new(&domain, 0.9).unwrap();
        let mut rng = rng_from_seed(5);
        let discs: Vec<(Point<2>, f64)> = (0..60)
            .map(|_| {
                let p = domain.uniform_point(&mut rng);
                (p, 0.5 + 2.5 * uniform01(&mut rng))
            })
            .collect();
        for (centre, radius) in &discs {
            exclusion.mark_disc(centre, *radius);
        }
        let inside_some =
            |p: &Point<2>| discs.iter().any(|(c, r)| crate::point::distance_squared(p, c) < r * r);
        let (mut tried, mut excluded, mut covered) = (0, 0, 0);
        for _ in 0..400_000 {
            let p = domain.uniform_point(&mut rng);
            tried += 1;
            let truth = inside_some(&p);
            covered += usize::from(truth);
            if exclusion.excludes(&p) {
                excluded += 1;
                assert!(truth, "{p:?} is excluded but outside every disc");
            }
        }
        assert!(tried > 0 && excluded as f64 > 0.6 * covered as f64, "{excluded} of {covered}");
        let side = exclusion.side;
        let mut boxes_excluded = 0;
        for _ in 0..20_000 {
            let lower = domain.uniform_point(&mut rng);
            let size = [3.0 * side[0] * uniform01(&mut rng), 3.0 * side[1] * uniform01(&mut rng)];
            let upper = [lower[0] + size[0], lower[1] + size[1]];
            let cell = |p: &Point<2>, i: usize| {
                ((p[i] - exclusion.origin[i]) * exclusion.inverse[i]) as usize
            };
            let every_cell_set = (upper[0] < domain.origin()[0] + domain.extent()[0]
                && upper[1] < domain.origin()[1] + domain.extent()[1])
                && (cell(&lower, 1)..=cell(&upper, 1)).all(|row| {
                    (cell(&lower, 0)..=cell(&upper, 0)).all(|column| {
                        let centre = [
                            exclusion.origin[0] + (column as f64 + 0.5) * side[0],
                            exclusion.origin[1] + (row as f64 + 0.5) * side[1],
                        ];
                        exclusion.excludes(&centre)
                    })
                });
            assert_eq!(exclusion.excludes_box(&lower, &upper), every_cell_set);
            if every_cell_set {
                boxes_excluded += 1;
                for _ in 0..20 {
                    let p = [
                        lower[0] + size[0] * uniform01(&mut rng),
                        lower[1] + size[1] * uniform01(&mut rng),
                    ];
                    assert!(inside_some(&p), "{p:?} in an excluded box lies outside every disc");
                }
                assert!(inside_some(&lower) && inside_some(&upper));
            }
        }
        assert!(boxes_excluded > 1000, "only {boxes_excluded} boxes excluded");
        // A disc reaching past the rectangle marks only its cells, and a point off the
        // rectangle is never excluded.
        exclusion.mark_disc(&[-2.9, 10.1], 3.0);
        assert!(exclusion.excludes(&[-2.5, 10.5]));
        assert!(!exclusion.excludes(&[-3.5, 10.5]));
        assert!(!exclusion.excludes(&[f64::NAN, 12.0]));
    }

    /// A cell whose far corner lies just beyond the disc is never set, even by a hair.
    #[test]
    fn a_cell_reaching_past_the_disc_is_not_set() {
        let domain = Domain::from_origin_and_extent([0.0, 0.0], [4.0, 4.0]).unwrap();
        let mut exclusion = Exclusion::new(&domain, 1.0).unwrap();
        let side = exclusion.side[0];
        // The cell [side, 2 side]² has its far corner exactly at distance 2√2·side from the
        // origin corner of the domain.
        exclusion.mark_disc(&[0.0, 0.0], 2.0 * 2f64.sqrt() * side);
        let near_far_corner = [2.0 * side - 1e-12, 2.0 * side - 1e-12];
        assert!(!exclusion.excludes(&near_far_corner));
        exclusion.mark_disc(&[0.0, 0.0], 2.0 * 2f64.sqrt() * side * (1.0 + 1e-6));
        assert!(exclusion.excludes(&near_far_corner));
    }
}
