//! The multi-class sampler: classes in priority order, each a Bridson fill with a restart
//! scan over its allowed area, tested against its own points and every earlier class's.
//!
//! Each class has a grid of its own (cells from `√(rmin·rmax)`), laid out with the largest
//! distance any query will ask of it: its own `rmax` and the distance of every later class to
//! it. A candidate is tested against its own grid first (most conflicts are there: it was drawn
//! in the shell of one of its own points), then against each earlier class's grid, each query
//! cut at the distance this candidate can conflict at (`Grid::has_conflict_reaching`). Before
//! any grid, the class's `Exclusion` bitmap turns down candidates deep inside the discs of
//! the points already placed, and lets the restart scan pass over covered cells. The
//! loop is compiled once per cell storage (all grids dense, or all hashed); the class's
//! radius, rules and region are read through plain branches, with no allocation per candidate.

use super::{BaseRadius, ClassPoints, Scatter, ScatterBuilder, ScatterPoints};
use crate::config::{check_point_budget, check_point_limit};
use crate::domain::Domain;
use crate::engine::front::{self, FrontOrder, Grown, Rules, Space, Verdict};
use crate::engine::scan::Scan;
use crate::engine::shell::SingleShell;
use crate::error::Error;
use crate::field::PairRule;
use crate::grid::conflict::{ConflictRule, PRUNE_SLACK, field_cell_length};
use crate::grid::{
    CellHeads, FIELD_NEIGHBOURHOOD_LIMIT, Grid, GridLayout, GridResolution, StorageRun, Tuning,
    run_in_storage,
};
use crate::point::Point;
use crate::region::shape::Shape;
use crate::region::{BoxClass, Region};
use crate::rng::{PortableRng, derive_seed, rng_from_seed};
use std::cell::RefCell;
use std::sync::Arc;

use super::exclusion::Exclusion;
use super::ground::Ground;
use super::rules::PlacementRules;
use super::terrain::Surface;

/// What a class's run needs, fixed when the scatter is built.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    /// The smallest and largest radius after slope growth.
    rmin: f64,
    rmax: f64,
    /// The grid's layout: cells from `√(rmin·rmax)`, offsets reaching `reach`.
    layout: Arc<GridLayout<2>>,
    cell_length: f64,
    reach: f64,
}

/// Plans every class: bounds, point limit, grid layout.
pub(crate) fn plan(
    builder: &ScatterBuilder,
    domain: &Domain<2>,
    order: &[usize],
    overrides: &[Option<f64>],
) -> Result<Vec<Plan>, Error> {
    let n = builder.classes.len();
    let bounds: Vec<(f64, f64)> = builder.classes.iter().map(|c| c.effective_bounds()).collect();
    let mut plans = Vec::with_capacity(n);
    for (c, class) in builder.classes.iter().enumerate() {
        let in_class =
            |error| Error::InClass { class: class.name.clone(), source: Box::new(error) };
        let (rmin, rmax) = bounds[c];
        crate::field::check_bounds(rmin, rmax).map_err(in_class)?;
        check_point_limit(builder.max_points).map_err(in_class)?;
        check_point_budget(domain, rmin, builder.max_points).map_err(in_class)?;
        // A region that misses the terrain, or holds no point of it, is a mistake to name,
        // not a class to leave empty (unlike rules that no ground happens to meet).
        if let Some(region) = &class.region {
            Shape::new(Arc::clone(region), domain).map_err(in_class)?;
        }
        // Its own pairs, and every class placed after it, query this grid.
        let position = order.iter().position(|&o| o == c).unwrap_or(0);
        let mut reach = builder.rule.distance(rmax, rmax);
        for &later in &order[position + 1..] {
            let d = overrides[later * n + c]
                .unwrap_or_else(|| builder.rule.distance(bounds[later].1, rmax));
            reach = reach.max(d);
        }
        let cell_length = field_cell_length(rmin, rmax);
        let cells = crate::packing::unit_ball_volume(2) * (reach / cell_length + 1.0).powi(2);
        if cells > FIELD_NEIGHBOURHOOD_LIMIT as f64 {
            return Err(in_class(Error::RadiusRatioTooLarge {
                ratio: reach / rmin,
                cells,
                limit: FIELD_NEIGHBOURHOOD_LIMIT,
            }));
        }
        let rule = ClassRule::new(cell_length, reach);
        let layout = GridLayout::for_rule(
            domain,
            &rule,
            GridResolution::Coarse,
            Tuning::default().dense_grid_limit(),
        )
        .map_err(in_class)?;
        plans.push(Plan { rmin, rmax, layout: Arc::new(layout), cell_length, reach });
    }
    Ok(plans)
}

/// What a candidate asks of a stored point.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Probe {
    /// Keep `rule(radius, r_stored)`.
    Pair { radius: f64, rule: PairRule },
    /// Keep a constant distance (given squared).
    Fixed { distance_squared: f64 },
}

/// A class's grid rule: each stored point's radius, and the probes above.
#[derive(Debug, Clone)]
pub(crate) struct ClassRule {
    cell_length: f64,
    reach: f64,
    radii: Vec<f64>,
    /// The largest radius stored so far (0 before any).
    largest: f64,
}

impl ClassRule {
    fn new(cell_length: f64, reach: f64) -> Self {
        ClassRule { cell_length, reach, radii: Vec::new(), largest: 0.0 }
    }

    /// The squared distance (with the pruning slack) beyond which no stored point can
    /// conflict with `probe`.
    #[inline(always)]
    fn reach_squared(&self, probe: Probe) -> f64 {
        match probe {
            Probe::Pair { radius, rule } => {
                let s = rule.distance(radius, self.largest);
                s * s * PRUNE_SLACK
            }
            Probe::Fixed { distance_squared } => distance_squared * PRUNE_SLACK,
        }
    }
}

impl ConflictRule for ClassRule {
    type Spacing = Probe;

    fn cell_length(&self) -> f64 {
        self.cell_length
    }

    fn reach(&self) -> f64 {
        self.reach
    }

    #[inline(always)]
    fn conflicts(&self, probe: Probe, distance_squared: f64, index: u32) -> bool {
        match probe {
            Probe::Pair { radius, rule } => {
                let s = rule.distance(radius, self.radii[index as usize]);
                distance_squared < s * s
            }
            Probe::Fixed { distance_squared: d2 } => distance_squared < d2,
        }
    }

    #[inline]
    fn record(&mut self, _index: u32, _key: u64, probe: Probe) {
        if let Probe::Pair { radius, .. } = probe {
            self.radii.push(radius);
            self.largest = self.largest.max(radius);
        }
    }
}

/// Stores `p` with radius `r` in a class grid.
#[inline]
fn insert<H: CellHeads>(
    grid: &mut Grid<2, H, ClassRule>,
    p: Point<2>,
    r: f64,
    rule: PairRule,
) -> u32 {
    grid.insert(p, Probe::Pair { radius: r, rule })
}

/// Whether a query `probe` at `p` finds a conflict in `grid`.
#[inline(always)]
fn conflicts_in<H: CellHeads>(grid: &Grid<2, H, ClassRule>, p: &Point<2>, probe: Probe) -> bool {
    let reach_squared = grid.rule().reach_squared(probe);
    reach_squared > 0.0 && grid.has_conflict_reaching(p, probe, reach_squared)
}

/// A class's allowed area as a region: its own region (if any) and its placement rules, so
/// that the restart scan only looks for uncovered points where the class may stand.
struct ClassArea {
    ground: Arc<Ground>,
    rules: PlacementRules,
    unrestricted: bool,
    region: Option<Arc<dyn Region<2>>>,
}

impl Region<2> for ClassArea {
    fn contains(&self, p: &Point<2>) -> bool {
        self.region.as_ref().is_none_or(|r| r.contains(p))
            && ((self.unrestricted && self.ground.everywhere())
                || self
                    .ground
                    .surface(p[0], p[1])
                    .is_some_and(|s| self.unrestricted || self.rules.admits(&s)))
    }

    fn bounding_box(&self) -> (Point<2>, Point<2>) {
        match &self.region {
            Some(region) => region.bounding_box(),
            None => self.ground.rectangle(),
        }
    }

    fn classify_box(&self, lower: &Point<2>, upper: &Point<2>) -> BoxClass {
        let own = match &self.region {
            Some(region) => region.classify_box(lower, upper),
            None => BoxClass::Inside,
        };
        if own == BoxClass::Outside || (self.unrestricted && self.ground.everywhere()) {
            return own;
        }
        match self.ground.classify(&self.rules, lower, upper) {
            BoxClass::Outside => BoxClass::Outside,
            BoxClass::Inside => own,
            BoxClass::Straddling => BoxClass::Straddling,
        }
    }
}

/// One class's run: its settings, read in the hot loop without dynamic dispatch except for
/// a radius field or a region, which are only read when the class has them.
struct ClassRun<'a> {
    ground: &'a Ground,
    domain: &'a Domain<2>,
    radius: &'a BaseRadius,
    region: Option<&'a Arc<dyn Region<2>>>,
    rules: PlacementRules,
    unrestricted: bool,
    rule: PairRule,
    attempts: u32,
    rmin: f64,
    rmax: f64,
    /// For each earlier grid (in priority order): the override distance squared, if any.
    cross: Vec<Option<f64>>,
}

impl ClassRun<'_> {
    /// The radius at `p` where the terrain is `surface`: base radius times the slope factor.
    #[inline(always)]
    fn radius_at(&self, p: &Point<2>, surface: &Surface) -> Result<f64, Error> {
        let base = match self.radius {
            BaseRadius::Constant(r) => *r,
            BaseRadius::Field(field, rmin, rmax) => {
                let r = field.radius(p);
                // NaN fails both comparisons.
                if !(r >= *rmin && r <= *rmax) {
                    return Err(Error::FieldValueOutOfBounds {
                        point: p.to_vec(),
                        value: r,
                        rmin: *rmin,
                        rmax: *rmax,
                    });
                }
                r
            }
        };
        // Rounding must not carry a radius past the bounds the grids were laid out for.
        Ok((base * self.rules.radius_factor(surface.slope)).clamp(self.rmin, self.rmax))
    }

    /// Whether a point of this class may stand at `p` (in the ground rectangle, the region and
    /// the rule bands); its surface if so.
    #[inline(always)]
    fn admit(&self, p: &Point<2>) -> Option<Surface> {
        if !self.domain.contains(p) || self.region.is_some_and(|r| !r.contains(p)) {
            return None;
        }
        let surface = self.ground.surface(p[0], p[1])?;
        (self.unrestricted || self.rules.admits(&surface)).then_some(surface)
    }

    /// Whether a point with radius `r` at `p` conflicts with a stored point of this class
    /// or of an earlier one.
    #[inline(always)]
    fn blocked<H: CellHeads>(
        &self,
        own: &Grid<2, H, ClassRule>,
        earlier: &[Grid<2, H, ClassRule>],
        p: &Point<2>,
        r: f64,
    ) -> bool {
        let pair = Probe::Pair { radius: r, rule: self.rule };
        if conflicts_in(own, p, pair) {
            return true;
        }
        earlier.iter().zip(&self.cross).any(|(grid, cross)| {
            let probe = match cross {
                Some(d2) => Probe::Fixed { distance_squared: *d2 },
                None => pair,
            };
            conflicts_in(grid, p, probe)
        })
    }

    /// Whether a point at `p` conflicts at the class's smallest radius, hence at any: a bit
    /// of the bitmap settles most candidates (those deep inside the discs of the points
    /// already placed), the grids the rest.
    #[inline(always)]
    fn blocked_at_smallest<H: CellHeads>(
        &self,
        excluded: Option<&Exclusion>,
        own: &Grid<2, H, ClassRule>,
        earlier: &[Grid<2, H, ClassRule>],
        p: &Point<2>,
    ) -> bool {
        excluded.is_some_and(|excluded| excluded.excludes(p))
            || self.blocked(own, earlier, p, self.rmin)
    }

    /// Stores a point of this class at `p` with radius `radius`: in its grid, and in the
    /// bitmap, where it now excludes the class's later candidates (at the smallest radius).
    #[inline]
    fn store<H: CellHeads>(
        &self,
        own: &mut Grid<2, H, ClassRule>,
        excluded: &mut Option<Exclusion>,
        p: Point<2>,
        radius: f64,
    ) -> u32 {
        if let Some(excluded) = excluded {
            excluded.mark_disc(&p, self.rule.distance(self.rmin, radius));
        }
        insert(own, p, radius, self.rule)
    }

    /// Whether a seed at `p` (a point the restart scan looks at) is covered: it stands
    /// outside the class's area or a stored point keeps it out; an invalid field value is
    /// the error.
    #[inline]
    fn covered<H: CellHeads>(
        &self,
        own: &Grid<2, H, ClassRule>,
        earlier: &[Grid<2, H, ClassRule>],
        excluded: Option<&Exclusion>,
        p: &Point<2>,
    ) -> Result<bool, Error> {
        // As for candidates: a conflict at the smallest radius needs no terrain read.
        if self.blocked_at_smallest(excluded, own, earlier, p) {
            return Ok(true);
        }
        let Some(surface) = self.admit(p) else { return Ok(true) };
        let r = self.radius_at(p, &surface)?;
        Ok(r != self.rmin && self.blocked(own, earlier, p, r))
    }
}

/// A class's space for the front: its own grid and bitmap, the earlier classes' grids.
struct ClassSpace<'a, 'r, H> {
    run: &'a ClassRun<'r>,
    own: &'a mut Grid<2, H, ClassRule>,
    earlier: &'a [Grid<2, H, ClassRule>],
    excluded: &'a mut Option<Exclusion>,
}

impl<H: CellHeads> Space for ClassSpace<'_, '_, H> {
    type Point = Point<2>;
    type Id = u32;
    type Around = ();
    type Error = Error;

    #[inline(always)]
    fn len(&self) -> usize {
        self.own.points().len()
    }

    #[inline(always)]
    fn get(&self, id: u32) -> Option<(Point<2>, f64)> {
        Some((self.own.points()[id as usize], self.own.rule().radii[id as usize]))
    }

    /// The cells the candidates are about to test, prefetched at once so that their cache
    /// misses overlap (as Bridson's space does).
    #[inline(always)]
    fn around(&self, centre: &Point<2>) {
        self.own.warm_around(centre);
        for grid in self.earlier {
            grid.warm_around(centre);
        }
    }

    /// A candidate must stand in the class's area and keep every distance.
    #[inline(always)]
    fn test(&self, _: &(), candidate: &Point<2>) -> Result<Verdict<Point<2>>, Error> {
        let run = self.run;
        // Every pair rule grows with the candidate's radius: a conflict at the smallest
        // radius is one at any, and costs no terrain read.
        if !run.domain.contains(candidate)
            || run.blocked_at_smallest(self.excluded.as_ref(), self.own, self.earlier, candidate)
        {
            return Ok(Verdict::Reject);
        }
        let Some(surface) = run.admit(candidate) else { return Ok(Verdict::Reject) };
        let radius = run.radius_at(candidate, &surface)?;
        if radius == run.rmin || !run.blocked(self.own, self.earlier, candidate, radius) {
            Ok(Verdict::Accept(*candidate, radius))
        } else {
            Ok(Verdict::Reject)
        }
    }

    #[inline(always)]
    fn store(&mut self, p: Point<2>, radius: f64) -> u32 {
        self.run.store(self.own, self.excluded, p, radius)
    }
}

/// Places every class (see the module documentation).
pub(crate) fn sample(scatter: &Scatter, seed: u64) -> Result<ScatterPoints, Error> {
    struct Run<'a>(&'a Scatter, u64);
    impl StorageRun for Run<'_> {
        type Output = Result<ScatterPoints, Error>;
        fn run<H: CellHeads>(self) -> Self::Output {
            sample_in::<H>(self.0, self.1)
        }
    }
    run_in_storage(scatter.plans.iter().map(|plan| &*plan.layout), Run(scatter, seed))
}

/// [`sample`] with every grid in storage `H`.
fn sample_in<H: CellHeads>(scatter: &Scatter, seed: u64) -> Result<ScatterPoints, Error> {
    let n = scatter.classes.len();
    let mut grids: Vec<Grid<2, H, ClassRule>> = Vec::with_capacity(n);
    for (position, &c) in scatter.order.iter().enumerate() {
        let class = &scatter.classes[c];
        let plan = &scatter.plans[c];
        let area = scatter.domain.volume();
        let capacity = (area / (plan.rmin * plan.rmax)).min(1e7) as usize;
        let rule = ClassRule::new(plan.cell_length, plan.reach);
        let mut own = Grid::new(Arc::clone(&plan.layout), rule, capacity);
        let overrides: Vec<Option<f64>> =
            scatter.order[..position].iter().map(|&e| scatter.overrides[c * n + e]).collect();
        let cross = overrides.iter().map(|d| d.map(|d| d * d)).collect();
        let mut excluded = excluded_by(&grids, &overrides, scatter, plan.rmin);
        let run = ClassRun {
            ground: &scatter.ground,
            domain: &scatter.domain,
            radius: &class.radius,
            region: class.region.as_ref(),
            rules: class.rules,
            unrestricted: class.rules.admits_everything(),
            rule: scatter.rule,
            attempts: scatter.attempts,
            rmin: plan.rmin,
            rmax: plan.rmax,
            cross,
        };
        let mut rng = rng_from_seed(derive_seed(derive_seed(seed, c as u64), u64::MAX));
        fill_class(scatter, &run, &mut own, &grids, &mut excluded, &mut rng).map_err(|error| {
            match error {
                Error::Cancelled => error,
                _ => Error::InClass { class: class.name.clone(), source: Box::new(error) },
            }
        })?;
        grids.push(own);
    }
    let mut classes: Vec<Option<ClassPoints>> = vec![None; n];
    for (grid, &c) in grids.into_iter().zip(&scatter.order) {
        let (points, rule) = grid.into_points_and_rule();
        classes[c] =
            Some(ClassPoints { name: scatter.classes[c].name.clone(), points, radii: rule.radii });
    }
    Ok(ScatterPoints { classes: classes.into_iter().flatten().collect() })
}

/// The bitmap of where the classes already placed (`earlier`, with their cross distance
/// overrides) exclude a class whose smallest radius is `rmin`: each earlier point's disc of
/// the distance a candidate of radius `rmin` must keep from it. The class adds its own
/// points as it stores them.
fn excluded_by<H: CellHeads>(
    earlier: &[Grid<2, H, ClassRule>],
    overrides: &[Option<f64>],
    scatter: &Scatter,
    rmin: f64,
) -> Option<Exclusion> {
    let mut excluded = Exclusion::new(&scatter.domain, rmin)?;
    for (grid, distance) in earlier.iter().zip(overrides) {
        for (p, &r) in grid.points().iter().zip(&grid.rule().radii) {
            excluded.mark_disc(p, distance.unwrap_or_else(|| scatter.rule.distance(rmin, r)));
        }
    }
    Some(excluded)
}

/// One class's fill: the restart scan seeds each uncovered part of the class's area, and the
/// front grows from each seed until no point is active.
fn fill_class<H: CellHeads>(
    scatter: &Scatter,
    run: &ClassRun<'_>,
    own: &mut Grid<2, H, ClassRule>,
    earlier: &[Grid<2, H, ClassRule>],
    excluded: &mut Option<Exclusion>,
    rng: &mut PortableRng,
) -> Result<(), Error> {
    let area = ClassArea {
        ground: Arc::clone(&scatter.ground),
        rules: run.rules,
        unrestricted: run.unrestricted,
        region: run.region.cloned(),
    };
    let shape = match Shape::new(Arc::new(area), run.domain) {
        Ok(shape) => shape,
        // Nowhere to stand: the class places nothing.
        Err(Error::EmptyRegion(_) | Error::RegionOutsideDomain { .. }) => return Ok(()),
        Err(error) => return Err(error),
    };
    let mut scan = Scan::for_region(shape.sampling(), run.rmin);
    let rules =
        Rules { attempts: run.attempts, shell: SingleShell::default(), order: FrontOrder::Uniform };
    let mut space = ClassSpace { run, own, earlier, excluded };
    let mut active: Vec<u32> = Vec::new();
    let mut candidates = 0;
    loop {
        let watch = scatter.watch.as_ref();
        let grown =
            front::grow(&mut space, &mut active, &rules, usize::MAX, watch, &mut candidates, rng)?;
        if grown == Grown::Cancelled {
            return Err(Error::Cancelled);
        }
        let failure = RefCell::new(None);
        let seed = scan.next_seed_skipping(
            &shape,
            |lower, upper| space.excluded.as_ref().is_some_and(|e| e.excludes_box(lower, upper)),
            |p| match run.covered(space.own, space.earlier, space.excluded.as_ref(), p) {
                Ok(covered) => covered,
                Err(error) => {
                    failure.borrow_mut().get_or_insert(error);
                    true
                }
            },
            rng,
        );
        if let Some(error) = failure.into_inner() {
            return Err(error);
        }
        let Some(seed) = seed else { return Ok(()) };
        // The scan hands out only points it has just found uncovered: they stand in the
        // area and keep every distance.
        let Some(surface) = run.admit(&seed) else { continue };
        let radius = run.radius_at(&seed, &surface)?;
        debug_assert!(!run.blocked(space.own, space.earlier, &seed, radius));
        active.push(space.store(seed, radius));
    }
}
