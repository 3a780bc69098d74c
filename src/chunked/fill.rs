//! Deciding one cell: Bridson's algorithm inside the cell, around the points of the cells of
//! lower strata next to it, then a scan that seeds whatever part of the cell is still
//! uncovered.
//!
//! - A chunk's interior (stratum 0) runs from one uniform dart over its box grown by
//!   [`RUN_MARGIN`] radii past its walls, and keeps the points that fall in the cell.
//! - A seam cell (stratum 1 or more) starts with every point next door within 2r of it active,
//!   so the neighbours' fronts grow on into it; then the scan throws [`SEAM_DARTS`] darts in
//!   each of its cells and seeds any witness still uncovered.
//!
//! Both choices keep the density across a seam that of the interiors (docs/algorithms.md,
//! "Chunked worlds", has the profiles and the periodogram at the chunk frequency).

use super::cells::{CellKey, CellShape, Cells, stratum};
use crate::domain::Domain;
use crate::engine::front::{self, Space};
use crate::engine::front::{FrontOrder, Rules};
use crate::engine::scan::{Scan, ScanRules};
use crate::engine::shell::PairedShell;
use crate::engine::space::DiskSpace;
use crate::grid::GridResolution;
use crate::grid::{CellHeads, ConstantRadius, Grid, GridLayout, StoredGrid, with_storage};
use crate::point::Point;
use crate::region::Region;
use crate::region::shape::ShellRegion;
use crate::rng::{rng_from_seed, uniform01};
use rand::Rng;
use std::convert::Infallible;
use std::sync::Arc;

/// How far, in radii, a chunk interior's run reaches past the cell's walls.
const RUN_MARGIN: f64 = 1.0;

/// Darts thrown in every scan cell of a seam cell (a cell of stratum 1 or more), covered or
/// not, after the fronts from next door have died: they bring the seams' density up to the
/// interiors' (with fewer, the seams are sparser and the periodogram shows a line at the
/// chunk frequency; with many more, denser; docs/algorithms.md, "Chunked worlds").
const SEAM_DARTS: usize = 3;

/// Uniform darts for the first point of a chunk's interior before the scan takes over.
const FIRST_DARTS: usize = 64;

/// A cell as the Bridson loop sees it: a region (the cell, cut to the world's box) whose
/// candidates are tested against the cell's shape, and whose deep centres skip the test.
#[derive(Debug)]
pub(crate) struct CellRegion<const D: usize> {
    shape: CellShape<D>,
    clip: Option<Domain<D>>,
    /// Whether the whole cell lies inside the clip box (or there is none).
    unclipped: bool,
    /// How far candidates reach from their centre, with room for rounding.
    reach: f64,
    /// For a chunk's interior, the larger box its run fills (the cell's box grown past its
    /// walls, cut to the clip box); only the points in the cell are kept.
    run_box: Option<(Point<D>, Point<D>)>,
}

impl<const D: usize> CellRegion<D> {
    fn new(shape: CellShape<D>, clip: Option<Domain<D>>, reach: f64) -> Self {
        let unclipped = clip.is_none_or(|clip| {
            let (o, e) = (clip.origin(), clip.extent());
            (0..D).all(|i| o[i] < shape.outer_low[i] && shape.outer_high[i] < o[i] + e[i])
        });
        CellRegion { shape, clip, unclipped, reach: reach * (1.0 + 1e-9), run_box: None }
    }

    /// Lets the run fill the cell's box grown by `margin` (cut to the clip box), so that
    /// the cell's own points near its walls are placed as in an unbounded run.
    fn with_run_margin(mut self, margin: f64) -> Self {
        if margin > 0.0 {
            let (low, high) = (
                std::array::from_fn(|i| self.shape.outer_low[i] - margin),
                std::array::from_fn(|i| self.shape.outer_high[i] + margin),
            );
            self.run_box = Some(clip_box(low, high, self.clip.as_ref()));
        }
        self
    }

    /// Whether `p` is one of the cell's own points (in the cell and the clip box).
    #[inline]
    fn in_cell(&self, p: &Point<D>) -> bool {
        self.shape.contains(p) && (self.unclipped || self.clip.is_none_or(|c| c.contains(p)))
    }

    /// The part of the cell's bounding box inside the clip box; `None` if empty.
    fn bounds(&self) -> Option<(Point<D>, Point<D>)> {
        let (low, high) = match self.run_box {
            Some(run) => run,
            None => clip_box(self.shape.outer_low, self.shape.outer_high, self.clip.as_ref()),
        };
        (0..D).all(|i| low[i] < high[i]).then_some((low, high))
    }
}

/// The box `[low, high]` cut to `clip`, if any.
fn clip_box<const D: usize>(
    mut low: Point<D>,
    mut high: Point<D>,
    clip: Option<&Domain<D>>,
) -> (Point<D>, Point<D>) {
    if let Some(clip) = clip {
        for i in 0..D {
            low[i] = low[i].max(clip.origin()[i]);
            high[i] = high[i].min(clip.origin()[i] + clip.extent()[i]);
        }
    }
    (low, high)
}

impl<const D: usize> Region<D> for CellRegion<D> {
    #[inline]
    fn contains(&self, p: &Point<D>) -> bool {
        match &self.run_box {
            None => self.in_cell(p),
            Some((low, high)) => (0..D).all(|i| low[i] <= p[i] && p[i] < high[i]),
        }
    }

    fn bounding_box(&self) -> (Point<D>, Point<D>) {
        (self.shape.outer_low, self.shape.outer_high)
    }

    /// The cell's own test: the domain the loop passes (the grid's box) plays no part.
    #[inline]
    fn admit(&self, _: &Domain<D>, p: &Point<D>) -> Option<Point<D>> {
        self.contains(p).then_some(*p)
    }
}

impl<const D: usize> ShellRegion<D> for CellRegion<D> {
    #[inline(always)]
    fn holds_shell(&self, centre: &Point<D>) -> bool {
        match &self.run_box {
            None => self.unclipped && self.shape.holds_ball(centre, self.reach),
            Some((low, high)) => {
                (0..D).all(|i| low[i] + self.reach <= centre[i] && centre[i] + self.reach < high[i])
            }
        }
    }
}

/// The settings every cell's run takes: the one radius, Bridson's front (`k` and the shell
/// draw) and the grid.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunSettings {
    pub(crate) radius: f64,
    pub(crate) rules: Rules<PairedShell>,
    pub(crate) resolution: GridResolution,
    pub(crate) dense_grid_limit: usize,
}

impl RunSettings {
    /// Runs at `radius` with `attempts` candidates per active point, Bridson's default
    /// candidate spread, the default grid.
    pub(crate) fn new(radius: f64, attempts: u32) -> Self {
        RunSettings {
            radius,
            rules: Rules { attempts, shell: PairedShell::default(), order: FrontOrder::Uniform },
            resolution: GridResolution::default(),
            dense_grid_limit: crate::grid::Tuning::default().dense_grid_limit(),
        }
    }
}

/// What deciding a cell needs besides its neighbours: the cells' geometry, the run's
/// settings and the world's box.
#[derive(Debug)]
pub(crate) struct CellFiller<'a, const D: usize> {
    pub(crate) cells: &'a Cells<D>,
    pub(crate) settings: RunSettings,
    pub(crate) clip: Option<Domain<D>>,
}

impl<const D: usize> CellFiller<'_, D> {
    /// The region cell `key`'s run fills.
    fn region(&self, key: &CellKey<D>) -> CellRegion<D> {
        let r = self.settings.radius;
        let region = CellRegion::new(self.cells.shape(key), self.clip, 2.0 * r);
        if stratum(key) == 0 { region.with_run_margin(RUN_MARGIN * r) } else { region }
    }

    /// The box `[low, high]` grown by the radius: the run's grid, which holds every point
    /// that can conflict with one inside it.
    fn grown(&self, low: Point<D>, high: Point<D>) -> (Point<D>, Point<D>) {
        let reach = self.settings.radius * (1.0 + 1e-9);
        // No point lies beyond the coordinates' limit, so the box stops there: a cell at the
        // edge of a box that reaches it still gets a grid (it got none, and no points).
        let limit = crate::limits::MAX_LENGTH;
        (
            std::array::from_fn(|i| (low[i] - reach).max(-limit)),
            std::array::from_fn(|i| (high[i] + reach).min(limit)),
        )
    }

    /// The closed box outside which no point of a neighbour plays any part in cell `key`'s
    /// run (`fill` drops those points first); `None` when the cell is empty (outside the
    /// world's box).
    pub(crate) fn context_box(&self, key: &CellKey<D>) -> Option<(Point<D>, Point<D>)> {
        let (low, high) = self.region(key).bounds()?;
        Some(self.grown(low, high))
    }

    /// The points of cell `key`, decided with the generator seeded by `seed`, given every
    /// point of the lower-stratum cells around it (`context`, in the cell's own frame).
    pub(crate) fn fill(
        &self,
        key: &CellKey<D>,
        context: impl Iterator<Item = Point<D>>,
        seed: u64,
    ) -> (Vec<Point<D>>, u64) {
        let r = self.settings.radius;
        let interior = stratum(key) == 0;
        let region = self.region(key);
        let Some((low, high)) = region.bounds() else { return (Vec::new(), 0) };
        let (grid_low, grid_high) = self.grown(low, high);
        let Ok(domain) = Domain::from_corners(grid_low, grid_high) else {
            return (Vec::new(), 0);
        };
        let rule = ConstantRadius::new(r);
        let (resolution, limit) = (self.settings.resolution, self.settings.dense_grid_limit);
        let Ok(layout) = GridLayout::for_rule(&domain, &rule, resolution, limit) else {
            return (Vec::new(), 0);
        };
        let near = |p: &Point<D>| (0..D).all(|i| grid_low[i] <= p[i] && p[i] <= grid_high[i]);
        let context: Vec<Point<D>> = context.filter(|p| near(p)).collect();
        let mut rng = rng_from_seed(seed);
        let run = CellRun { settings: self.settings, region: &region, low, high, interior };
        let grid = StoredGrid::new(Arc::new(layout), rule, context.len() + 64);
        with_storage!(grid, grid => run.run(grid, &context, &mut rng))
    }
}

/// One cell's run, compiled for the grid's storage.
struct CellRun<'a, const D: usize> {
    settings: RunSettings,
    region: &'a CellRegion<D>,
    low: Point<D>,
    high: Point<D>,
    /// A chunk's interior (stratum 0), rather than a seam.
    interior: bool,
}

impl<const D: usize> CellRun<'_, D> {
    fn run<H: CellHeads, R: Rng>(
        &self,
        mut grid: Grid<D, H, ConstantRadius>,
        context: &[Point<D>],
        rng: &mut R,
    ) -> (Vec<Point<D>>, u64) {
        for p in context {
            grid.insert(*p, ());
        }
        let mut active = Vec::new();
        let mut attempts = 0u64;
        let region = self.region;
        let RunSettings { radius: r, rules, .. } = self.settings;
        let (low, high) = (self.low, self.high);
        // The loop's region admits by itself: the domain it is handed plays no part.
        let domain = Domain::unit();
        let mut space = DiskSpace { grid: &mut grid, region, domain, radius: r };
        if self.interior {
            // A chunk's interior grows from one uniform dart, as a plain run does, over a box
            // larger than the cell, so that the points it keeps near the cell's walls are
            // placed as in an unbounded run (a wall would pile them up against it).
            let Ok(_) = front::seed_by_darts(
                &mut space,
                &mut active,
                FIRST_DARTS,
                &mut attempts,
                rng,
                |rng| std::array::from_fn(|i| low[i] + (high[i] - low[i]) * uniform01(rng)),
                |space, p| {
                    let free = space.region.contains(p) && !space.grid.has_conflict(p, ());
                    Ok::<_, Infallible>(free.then_some(r))
                },
            );
        } else {
            // A seam: the fronts of the cells next door go on into it.
            let reach = 2.0 * r;
            for (index, p) in context.iter().enumerate() {
                let gap2: f64 =
                    (0..D).map(|i| (low[i] - p[i]).max(p[i] - high[i]).max(0.0).powi(2)).sum();
                if gap2 < reach * reach {
                    active.push(index as u32);
                }
            }
        }
        let Ok(_) =
            front::grow(&mut space, &mut active, &rules, usize::MAX, None, &mut attempts, rng);
        // Then every part of the cell the fronts left uncovered is seeded (see
        // `ScanRules::chunk_cell`), and the front grows from each seed.
        let extent = std::array::from_fn(|i| high[i] - low[i]);
        let mut scan = Scan::new(low, extent, r, ScanRules::chunk_cell(self.interior, SEAM_DARTS));
        while let Some(seed) = scan.next_seed(region, |p| space.grid.has_conflict(p, ()), rng) {
            active.push(space.store(seed, r));
            let Ok(_) =
                front::grow(&mut space, &mut active, &rules, usize::MAX, None, &mut attempts, rng);
        }
        attempts += scan.attempts();
        let mut points = grid.into_points();
        points.drain(..context.len());
        points.retain(|p| region.in_cell(p));
        (points, attempts)
    }
}
