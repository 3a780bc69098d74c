//! A live Poisson-disk set: points added, removed and refilled in place.
//!
//! [`PoissonSet`] keeps its grid and its active front between calls. Points come in by
//! [`insert`](PoissonSet::insert) (accepted only if they keep the minimum distance) and by
//! [`fill`](PoissonSet::fill) (Bridson's algorithm continued from the current front inside
//! an area, with a restart scan that leaves no uncovered place); they go by
//! [`remove`](PoissonSet::remove), which re-activates the neighbours that can reach the freed
//! space. Ids are stable and never reused. With the `serde` feature a set saves and loads
//! ([`Snapshot`]) and continues exactly as if it had never been saved.
//!
//! The invariants, and why they hold, are in docs/algorithms.md ("Live sets").
//!
//! ```
//! use poisson_nd::live::PoissonSet;
//! use poisson_nd::region::Ball;
//! use poisson_nd::rng::rng_from_seed;
//! use poisson_nd::{Domain, StopReason};
//!
//! let mut rng = rng_from_seed(1);
//! let mut set = PoissonSet::new(Domain::<2>::unit(), 0.05)?;
//! let first = set.insert([0.5, 0.5]).expect("the set is empty");
//! // Too close to the first point: refused, naming it.
//! assert_eq!(set.insert([0.52, 0.5]).unwrap_err().conflicting(), Some(first));
//! let report = set.fill_all(&mut rng)?;
//! assert_eq!(report.stop, StopReason::Exhausted);
//!
//! // Cut a hole, then fill it again: the points outside it stay where they were.
//! let hole = Ball::new([0.3, 0.3], 0.15)?;
//! let inside: Vec<_> = set.within(&[0.3, 0.3], 0.15);
//! for id in &inside {
//!     set.remove(*id);
//! }
//! assert!(set.within(&[0.3, 0.3], 0.15).is_empty());
//! let kept: Vec<_> = set.iter().map(|(id, p)| (id, *p)).collect();
//! let refill = set.fill(&hole, &mut rng)?;
//! assert!(refill.added > 0);
//! assert!(kept.iter().all(|(id, p)| set.get(*id) == Some(p)));
//! assert!(set.nearest(&[0.3, 0.3]).is_some_and(|(_, d)| d < 0.1));
//! # Ok::<(), poisson_nd::Error>(())
//! ```

mod snapshot;

pub use snapshot::Snapshot;

use crate::config::{Builder, Capabilities};
use crate::domain::Domain;
use crate::engine::front::{self, FrontOrder, Grown, Rules, Space, Verdict};
use crate::engine::scan::{Scan, ScanRules};
use crate::engine::shell::FineShell;
use crate::error::Error;
use crate::field::{FieldSetup, PairRule, RadiusField};
use crate::grid::slots::{Member, Slots};
use crate::point::Point;
use crate::region::{BoxClass, Region, WholeDomain};
use crate::sampler::{Progress, StopReason, Watch};
use rand::Rng;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// The stable name of a point in a [`PoissonSet`]: ids are handed out in increasing order and
/// never reused, so an id removed stays unknown for ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PointId(u64);

impl PointId {
    /// The id as a number (the order in which points entered the set).
    pub fn get(self) -> u64 {
        self.0
    }
}

impl std::fmt::Display for PointId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Why [`PoissonSet::insert`] refused a point.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum InsertError {
    /// The point lies outside a closed box (or has a coordinate that is not finite).
    #[error("the point lies outside the domain")]
    OutsideDomain,
    /// A stored point is closer than the minimum distance (the pair rule's with a field): the
    /// nearest such point (the smaller id on a tie) and its distance.
    #[error("point {id} is {distance} away, closer than the minimum distance")]
    Conflict {
        /// The nearest conflicting point.
        id: PointId,
        /// Its distance (toroidal in a periodic box).
        distance: f64,
    },
    /// The radius field gave an invalid value at the point (NaN, not positive or outside its
    /// declared bounds); nothing was stored.
    #[error("{0}")]
    InvalidField(Error),
    /// The set holds its point limit.
    #[error("the set holds its point limit")]
    PointLimit,
}

impl InsertError {
    /// The conflicting point's id, for [`InsertError::Conflict`].
    pub fn conflicting(&self) -> Option<PointId> {
        match self {
            InsertError::Conflict { id, .. } => Some(*id),
            _ => None,
        }
    }
}

/// What one [`PoissonSet::fill`] did.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FillReport {
    /// Points added.
    pub added: usize,
    /// Candidates drawn (around active points, and the restart scan's darts and seeds).
    pub attempts: u64,
    /// Why it stopped: [`StopReason::Exhausted`] when the area is filled (the front died and
    /// the restart scan found no uncovered place), [`StopReason::PointLimit`] or
    /// [`StopReason::InvalidField`] (see [`field_error`](Self::field_error)) or
    /// [`StopReason::Cancelled`] (the progress hook, [`PoissonSet::set_progress`]) otherwise.
    pub stop: StopReason,
    /// The radius field's invalid value that stopped the fill, if one did.
    pub field_error: Option<Error>,
}

/// A stored point.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Entry<const D: usize> {
    point: Point<D>,
    radius: f64,
    /// Whether the id is in the active list (once).
    active: bool,
}

/// A mutable Poisson-disk set in a box (closed or periodic) that keeps its grid and active
/// front between calls: insert, remove, fill an area, query, save and load.
///
/// **Invariant.** No two stored points are closer than the minimum distance: `r` for one
/// radius; with a [`RadiusField`], the [`PairRule`]'s distance of their two radii (each point
/// keeps the radius the field gave where it was stored). Every operation keeps it: a point is
/// stored only after the grid shows no conflicting point.
///
/// - [`insert`](Self::insert) stores a given point (wrapped into a periodic box) or says
///   which point it conflicts with; stored points become active.
/// - [`remove`](Self::remove) frees the space of a point and re-activates every neighbour
///   whose shell of candidates can reach the freed space (docs/algorithms.md, "Live sets").
/// - [`fill`](Self::fill) continues Bridson's algorithm inside an area (any [`Region`], the
///   domain's box being the outer limit) from the active points whose shell reaches it, then
///   seeds every place left uncovered by a restart scan; existing points never move.
///   [`fill_all`](Self::fill_all) fills the whole box.
/// - Queries: [`nearest`](Self::nearest), [`within`](Self::within), [`get`](Self::get),
///   [`radius_of`](Self::radius_of), [`iter`](Self::iter) (by increasing id).
/// - [`snapshot`](Self::snapshot) and [`from_snapshot`](Self::from_snapshot) save and restore
///   the whole state (with the `serde` feature, serialisable).
///
/// **Determinism.** The same operations with the same generators give the same set: the
/// same ids, points and order. No result depends on the order in which the grid's hash map
/// happens to hold its cells.
///
/// ```
/// use poisson_nd::live::PoissonSet;
/// use poisson_nd::region::BoxRegion;
/// use poisson_nd::rng::rng_from_seed;
/// use poisson_nd::Domain;
///
/// let domain = Domain::from_origin_and_extent([0.0, 0.0], [4.0, 1.0])?.periodic();
/// let mut set = PoissonSet::new(domain, 0.1)?;
/// let mut rng = rng_from_seed(5);
/// // Load the world piece by piece: the left half, then the right half.
/// set.fill(&BoxRegion::new([0.0, 0.0], [2.0, 1.0])?, &mut rng)?;
/// let left = set.len();
/// set.fill(&BoxRegion::new([2.0, 0.0], [4.0, 1.0])?, &mut rng)?;
/// assert!(set.len() > left);
/// // Every pair keeps the distance, across the seam too.
/// let points: Vec<_> = set.iter().map(|(_, p)| *p).collect();
/// for (i, p) in points.iter().enumerate() {
///     for q in &points[i + 1..] {
///         assert!(domain.distance_squared(p, q) >= 0.1 * 0.1);
///     }
/// }
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct PoissonSet<const D: usize> {
    domain: Domain<D>,
    /// The one radius, or the field's rmin.
    radius: f64,
    /// The one radius, or the field's rmax.
    rmax: f64,
    field: Option<FieldSetup<D>>,
    attempts: u32,
    max_points: usize,
    /// The progress hook of fills (not saved).
    watch: Option<Watch>,
    entries: BTreeMap<u64, Entry<D>>,
    grid: Slots<D>,
    /// Active ids, in the order the fill draws them from; may hold ids of removed points
    /// (skipped, and dropped at the next fill or compaction).
    active: Vec<u64>,
    /// Stored points that are active.
    active_count: usize,
    next_id: u64,
}

/// A live set's own options: none beyond the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PoissonSetOptions;

/// The configuration of a [`PoissonSet`] before it is checked: the shared settings
/// ([`Builder`]: a radius or a radius field with its pair rule, `k`, the point limit);
/// setters cannot fail and [`build`](Builder::build) validates the whole.
pub type PoissonSetBuilder<const D: usize> = Builder<D, PoissonSetOptions>;

impl<const D: usize> Builder<D, PoissonSetOptions> {
    /// Checks the configuration and makes an empty set.
    ///
    /// Errors: a radius that is not finite and positive ([`Error::InvalidRadius`]); `k = 0`
    /// or a point limit of 0 ([`Error::ZeroCount`]) or above 2147483647; with a field, bounds
    /// that are not `0 < rmin ≤ rmax < ∞` ([`Error::InvalidRadiusBounds`]) or so far apart
    /// that a conflict query would visit too many cells ([`Error::RadiusRatioTooLarge`]); a
    /// grid with more cells than can be numbered ([`Error::GridTooLarge`]). A live set is
    /// filled area by area, so its point limit is not checked against the whole box.
    pub fn build(self) -> Result<PoissonSet<D>, Error> {
        let checked = self.config.check("live set", &PoissonSet::<D>::CAPABILITIES)?;
        let (radius, rmax) = checked.radius_bounds();
        let mut set = PoissonSet::empty(
            checked.domain,
            radius,
            rmax,
            checked.field,
            checked.attempts,
            checked.max_points,
        )?;
        set.watch = checked.watch;
        Ok(set)
    }
}

/// The grid's smallest cell side, relative to the conflict reach it is laid out for: a hair
/// more than the reach, so that the 3^D block around a point's cell holds every point closer
/// than the reach despite rounding (docs/algorithms.md, "Live sets").
const CELL_MARGIN: f64 = 1.0 + 1e-6;

/// The most cells a conflict query may walk (as the samplers' radius-field limit).
const QUERY_CELL_LIMIT: usize = 1 << 22;

/// The most cells a restart scan may walk over one area.
const SCAN_CELL_LIMIT: f64 = (1u64 << 48) as f64;

impl<const D: usize> PoissonSet<D> {
    /// What a live set supports: a radius or a radius field, closed and periodic boxes, `k`,
    /// every dimension. Regions are the areas given to each fill.
    pub const CAPABILITIES: Capabilities = Capabilities {
        radius: true,
        field: true,
        region: false,
        periodic: true,
        attempts: true,
        grid: false,
        min_dimension: 1,
        max_dimension: usize::MAX,
    };

    /// The configuration of a live set in `domain` with minimum distance `radius` and every
    /// default; set what you need, then [`build`](PoissonSetBuilder::build).
    pub fn builder(domain: Domain<D>, radius: f64) -> PoissonSetBuilder<D> {
        Builder::from_defaults(domain, Some(radius), PoissonSetOptions)
    }

    /// The configuration of a live set in `domain` with a radius field (see
    /// [`PoissonSetBuilder::with_radius_field`]) and every other default.
    ///
    /// ```
    /// use poisson_nd::live::PoissonSet;
    /// use poisson_nd::field::{FnField, PairRule};
    /// use poisson_nd::Domain;
    /// let field = FnField::new(|p: &[f64; 2]| 0.02 + 0.04 * p[0], 0.02, 0.06)?;
    /// let mut set = PoissonSet::builder_with_field(Domain::unit(), field)
    ///     .with_pair_rule(PairRule::Mean)
    ///     .build()?;
    /// let id = set.insert([0.5, 0.5]).expect("empty set");
    /// assert_eq!(set.radius_of(id), Some(0.04));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn builder_with_field(
        domain: Domain<D>,
        field: impl RadiusField<D> + 'static,
    ) -> PoissonSetBuilder<D> {
        let (rmin, _) = field.bounds();
        Self::builder(domain, rmin).with_radius_field(field)
    }

    /// An empty live set with every default: `PoissonSet::builder(domain, radius).build()`.
    /// Errors as [`PoissonSetBuilder::build`].
    pub fn new(domain: Domain<D>, radius: f64) -> Result<Self, Error> {
        Self::builder(domain, radius).build()
    }

    /// An empty set with checked settings: lays out the grid.
    fn empty(
        domain: Domain<D>,
        radius: f64,
        rmax: f64,
        field: Option<FieldSetup<D>>,
        attempts: u32,
        max_points: usize,
    ) -> Result<Self, Error> {
        // One radius: cells of side r (and a hair), a 3^D block. A field: cells from
        // √(rmin·rmax) as the samplers' grid, reaching rmax.
        let length = match &field {
            None => radius,
            Some(_) => (radius * rmax).sqrt(),
        } * CELL_MARGIN;
        if field.is_some() {
            let per_axis = 2.0 * (rmax / length).ceil() + 1.0;
            let cells = per_axis.powi(D as i32);
            if cells > QUERY_CELL_LIMIT as f64 {
                return Err(Error::RadiusRatioTooLarge {
                    ratio: rmax / radius,
                    cells,
                    limit: QUERY_CELL_LIMIT,
                });
            }
        }
        let grid = Slots::new(&domain, length)?;
        Ok(PoissonSet {
            domain,
            radius,
            rmax,
            field,
            attempts,
            max_points,
            watch: None,
            entries: BTreeMap::new(),
            grid,
            active: Vec::new(),
            active_count: 0,
            next_id: 0,
        })
    }

    /// The box the points live in (its metric measures every distance).
    pub fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    /// The minimum distance: the one radius, or a field's lower bound rmin (which every pair
    /// keeps under every rule).
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The radius bounds `(rmin, rmax)`: `(r, r)` for one radius.
    pub fn radius_bounds(&self) -> (f64, f64) {
        (self.radius, self.rmax)
    }

    /// The radius field, `None` for one radius (a constant field is one radius).
    pub fn radius_field(&self) -> Option<&dyn RadiusField<D>> {
        self.field.as_ref().map(|setup| &*setup.field)
    }

    /// The pair rule ([`PairRule::Max`] for one radius).
    pub fn pair_rule(&self) -> PairRule {
        self.field.as_ref().map_or(PairRule::default(), |setup| setup.rule)
    }

    /// Candidates per active point, `k`.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// The point limit.
    pub fn max_points(&self) -> usize {
        self.max_points
    }

    /// Number of stored points.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no point is stored.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of active points: those around which a fill may still try candidates.
    pub fn active_len(&self) -> usize {
        self.active_count
    }

    /// Whether `id` is stored and active.
    pub fn is_active(&self, id: PointId) -> bool {
        self.entries.get(&id.0).is_some_and(|e| e.active)
    }

    /// The id the next stored point will get.
    pub fn next_id(&self) -> PointId {
        PointId(self.next_id)
    }

    /// Shows the progress of later fills to `hook` (every
    /// [`PROGRESS_EVERY`](crate::sampler::PROGRESS_EVERY) points of the set), which can stop
    /// a fill: it then ends with [`StopReason::Cancelled`], keeping the points it added. The
    /// builder's [`with_progress`](crate::Builder::with_progress) sets the same hook; a set
    /// restored from a [`Snapshot`] has none until this sets it.
    pub fn set_progress(
        &mut self,
        hook: impl Fn(Progress) -> std::ops::ControlFlow<()> + Send + Sync + 'static,
    ) {
        self.watch = Some(Watch::new(hook));
    }

    /// The id whose number ([`PointId::get`]) is `number`, if that point is stored: for
    /// code that keeps ids as numbers (a file, another language's binding).
    pub fn id(&self, number: u64) -> Option<PointId> {
        self.entries.contains_key(&number).then_some(PointId(number))
    }

    /// The point `id`, if it is stored.
    pub fn get(&self, id: PointId) -> Option<&Point<D>> {
        self.entries.get(&id.0).map(|e| &e.point)
    }

    /// The radius of point `id` (the one radius, or the field's value where it was stored),
    /// if it is stored.
    pub fn radius_of(&self, id: PointId) -> Option<f64> {
        self.entries.get(&id.0).map(|e| e.radius)
    }

    /// Every stored point with its id, by increasing id (the order they entered the set).
    pub fn iter(&self) -> impl Iterator<Item = (PointId, &Point<D>)> + '_ {
        self.entries.iter().map(|(&id, e)| (PointId(id), &e.point))
    }

    /// The stored points by increasing id, as a vector.
    pub fn points(&self) -> Vec<Point<D>> {
        self.entries.values().map(|e| e.point).collect()
    }

    /// The distance two points with radii `ri` and `rj` keep.
    #[inline]
    fn pair_distance(&self, ri: f64, rj: f64) -> f64 {
        match &self.field {
            None => self.radius,
            Some(setup) => setup.rule.distance(ri, rj),
        }
    }

    /// The radius a point stored at `p` takes, or the field's error there.
    #[inline]
    fn radius_at(&self, p: &Point<D>) -> Result<f64, Error> {
        match &self.field {
            None => Ok(self.radius),
            Some(setup) => setup.radius_at(p),
        }
    }

    /// Whether a point at `p` (in the box) with radius `r` would conflict with a stored one.
    #[inline]
    fn has_conflict(&self, p: &Point<D>, r: f64) -> bool {
        let reach = self.pair_distance(r, self.rmax);
        self.grid.visit(p, reach, |m| {
            let d = self.pair_distance(r, m.radius);
            self.domain.distance_squared(p, &m.point) < d * d
        })
    }

    /// The nearest stored point that a point at `p` with radius `r` would conflict with (the
    /// smaller id on a tie), and its squared distance.
    fn closest_conflict(&self, p: &Point<D>, r: f64) -> Option<(u64, f64)> {
        let reach = self.pair_distance(r, self.rmax);
        let mut best: Option<(u64, f64)> = None;
        self.grid.visit(p, reach, |m| {
            let d = self.pair_distance(r, m.radius);
            let d2 = self.domain.distance_squared(p, &m.point);
            if d2 < d * d && best.is_none_or(|(id, b)| (d2, m.id) < (b, id)) {
                best = Some((m.id, d2));
            }
            false
        });
        best
    }

    /// Stores a point known to keep the distance, active or not; returns its id. The caller
    /// puts an active id in a list.
    fn store(&mut self, point: Point<D>, radius: f64, active: bool) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.entries.insert(id, Entry { point, radius, active });
        self.grid.insert(Member { id, point, radius });
        if active {
            self.active_count += 1;
        }
        id
    }

    /// Stores `p` if it keeps the minimum distance to every stored point; it becomes active.
    /// In a periodic box `p` is wrapped into the box first (the stored point is the wrapped
    /// one); with a radius field it takes the field's radius there.
    ///
    /// Errors: [`InsertError::OutsideDomain`] outside a closed box or for a coordinate that
    /// is not finite; [`InsertError::Conflict`] with the nearest conflicting point;
    /// [`InsertError::InvalidField`]; [`InsertError::PointLimit`].
    pub fn insert(&mut self, p: Point<D>) -> Result<PointId, InsertError> {
        if self.len() >= self.max_points {
            return Err(InsertError::PointLimit);
        }
        let (p, r) = self.admissible(&p)?;
        let id = self.store(p, r, true);
        self.active.push(id);
        Ok(PointId(id))
    }

    /// What [`insert`](Self::insert) would say of `p`, without storing it: `Ok` when it
    /// would be stored (the point limit aside), its errors otherwise.
    pub fn check(&self, p: &Point<D>) -> Result<(), InsertError> {
        self.admissible(p).map(|_| ())
    }

    /// `p` as it would be stored (wrapped) with its radius, or why it cannot be.
    fn admissible(&self, p: &Point<D>) -> Result<(Point<D>, f64), InsertError> {
        let p = self.domain.wrap_into_box(p).ok_or(InsertError::OutsideDomain)?;
        let r = self.radius_at(&p).map_err(InsertError::InvalidField)?;
        if let Some((id, d2)) = self.closest_conflict(&p, r) {
            return Err(InsertError::Conflict { id: PointId(id), distance: d2.sqrt() });
        }
        Ok((p, r))
    }

    /// Removes point `id` and returns where it was; `None` (and nothing changes) when no
    /// point has that id, now or ever.
    ///
    /// Every stored point `q` whose shell of candidates (within `2·r_q` of it) can reach space
    /// the removal freed becomes active again: those with `|q − x| < 2·r_q + rule(rmax, r_x)`
    /// for the removed point `x` (`3r` for one radius); docs/algorithms.md ("Live sets")
    /// says why these and no others. They join the active list by increasing id.
    pub fn remove(&mut self, id: PointId) -> Option<Point<D>> {
        let entry = self.entries.remove(&id.0)?;
        self.grid.remove(id.0, &entry.point);
        if entry.active {
            self.active_count -= 1;
        }
        let x = entry.point;
        let freed = self.pair_distance(self.rmax, entry.radius);
        let reach = 2.0 * self.rmax + freed;
        let mut woken = Vec::new();
        self.grid.visit(&x, reach * CELL_MARGIN, |m| {
            let limit = (2.0 * m.radius + freed) * CELL_MARGIN;
            if self.domain.distance_squared(&x, &m.point) < limit * limit {
                woken.push(m.id);
            }
            false
        });
        woken.sort_unstable();
        for q in woken {
            if let Some(e) = self.entries.get_mut(&q)
                && !e.active
            {
                e.active = true;
                self.active_count += 1;
                self.active.push(q);
            }
        }
        // Ids of removed points linger in the active list until a fill; drop them when
        // they outnumber the live ones.
        if self.active.len() > 2 * self.active_count + 64 {
            let entries = &self.entries;
            self.active.retain(|q| entries.get(q).is_some_and(|e| e.active));
        }
        Some(x)
    }

    /// The stored point nearest to `p` (toroidally on a torus; `p` is wrapped first) and
    /// its distance; the smaller id on a tie. `None` for an empty set or a coordinate that is
    /// not finite.
    pub fn nearest(&self, p: &Point<D>) -> Option<(PointId, f64)> {
        if self.is_empty() || !p.iter().all(|x| x.is_finite()) {
            return None;
        }
        let p = self.domain.wrap(p)?;
        // A reach that grows until it holds a point: every point within the reach is seen,
        // so the nearest seen within it is the nearest of all. A point seen beyond the reach
        // bounds the answer: one more walk out to it settles it.
        let mut reach = self.radius;
        loop {
            let mut best: Option<(u64, f64)> = None;
            self.grid.visit(&p, reach, |m| {
                let d2 = self.domain.distance_squared(&p, &m.point);
                if best.is_none_or(|(id, b)| (d2, m.id) < (b, id)) {
                    best = Some((m.id, d2));
                }
                false
            });
            match best {
                Some((id, d2)) if d2 <= reach * reach => return Some((PointId(id), d2.sqrt())),
                Some((_, d2)) => reach = d2.sqrt() * (1.0 + 1e-9),
                None => reach *= 2.0,
            }
        }
    }

    /// The ids of the stored points at distance at most `distance` from `p` (toroidally on a
    /// torus; `p` is wrapped first), by increasing id. Empty for a distance that is negative
    /// or NaN, or a coordinate that is not finite.
    pub fn within(&self, p: &Point<D>, distance: f64) -> Vec<PointId> {
        if distance.is_nan() || distance < 0.0 || !p.iter().all(|x| x.is_finite()) {
            return Vec::new();
        }
        let Some(p) = self.domain.wrap(p) else { return Vec::new() };
        let d2 = distance * distance;
        let mut ids = Vec::new();
        self.grid.visit(&p, distance, |m| {
            if self.domain.distance_squared(&p, &m.point) <= d2 {
                ids.push(PointId(m.id));
            }
            false
        });
        ids.sort_unstable();
        ids
    }

    /// [`fill`](Self::fill) over the whole box.
    ///
    /// Errors as [`fill`](Self::fill).
    pub fn fill_all<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Result<FillReport, Error> {
        let whole = WholeDomain::new(self.domain);
        self.fill(&whole, rng)
    }

    /// Continues Bridson's algorithm inside `area` and fills it: existing points never move,
    /// and only points of `area` (inside the domain's box) are added.
    ///
    /// 1. The front: every active point whose shell (the ball of radius `2r` around it)
    ///    meets the area's bounding box takes part, in the active list's order; the others
    ///    wait for a later fill. Candidates are drawn uniformly by volume in the shell
    ///    `[r, 2r]` around a randomly chosen one, wrapped into a periodic box, and rejected
    ///    outside the box, outside the area, or closer than the minimum distance to a stored
    ///    point; the first accepted of `k` is stored and active. When all `k` fail the
    ///    point retires, unless one of them failed only for lying outside the area: then the
    ///    point stays active for a fill elsewhere.
    /// 2. The restart scan: when the front dies, cells of side at most `rmin/√D` over the
    ///    area's box are walked in a fixed order (axis 0 fastest); a cell's witness (its
    ///    centre when the area holds the whole cell, else the first of a lattice of probes
    ///    that the area holds) that no stored point covers (a point there would conflict)
    ///    seeds the front again, by a uniform dart in the cell or the witness itself.
    ///
    /// **Coverage.** When the fill ends with [`StopReason::Exhausted`], every witness is
    /// closer than the pair rule's distance to a stored point; hence every point `x` of the
    /// area in a cell with a witness is closer than `rmin + rmax` to a stored point (`2r` for
    /// one radius), and every `x` whose ball of radius `rmin/(2m)` lies in the area (`m` probes
    /// per axis: 4 up to 2D, 3 in 3D, 2 beyond) closer than `rmin·(1 + 1/(2m)) + rmax`
    /// (docs/algorithms.md, "Live sets").
    ///
    /// The area is tested on points of the box: on a torus, an area that crosses the box's
    /// faces is given as its pieces inside the box (a union).
    ///
    /// Errors: an area whose bounding box has a NaN corner ([`Error::NonFinite`]); a scan of
    /// more than 2^48 cells ([`Error::GridTooLarge`]). An area that misses the box adds
    /// nothing.
    pub fn fill<G: Region<D> + ?Sized, R: Rng + ?Sized>(
        &mut self,
        area: &G,
        rng: &mut R,
    ) -> Result<FillReport, Error> {
        let mut report =
            FillReport { added: 0, attempts: 0, stop: StopReason::Exhausted, field_error: None };
        let Some((lower, upper)) = self.scan_box(area)? else { return Ok(report) };
        let mut working = Vec::new();
        let mut parked = Vec::new();
        for id in std::mem::take(&mut self.active) {
            let Some(e) = self.entries.get(&id).filter(|e| e.active) else { continue };
            if self.ball_meets_box(&e.point, 2.0 * e.radius, &lower, &upper) {
                working.push(id);
            } else {
                parked.push(id);
            }
        }
        let extent = std::array::from_fn(|i| upper[i] - lower[i]);
        let scan = Scan::new(lower, extent, self.radius, ScanRules::LIVE);
        let outcome =
            self.fill_front_and_scan(area, scan, &mut working, &mut parked, &mut report, rng);
        if let Err(stop) = outcome {
            report.stop = stop;
        }
        parked.append(&mut working);
        self.active = parked;
        Ok(report)
    }

    /// The box the restart scan walks: `area`'s bounding box ∩ the domain's box, or `None`
    /// when they do not meet.
    fn scan_box<G: Region<D> + ?Sized>(
        &self,
        area: &G,
    ) -> Result<Option<(Point<D>, Point<D>)>, Error> {
        let (lower, upper) = area.bounding_box();
        let origin = self.domain.origin();
        let extent = self.domain.extent();
        let mut low = [0.0; D];
        let mut high = [0.0; D];
        for i in 0..D {
            for (k, value) in [lower[i], upper[i]].into_iter().enumerate() {
                if value.is_nan() {
                    return Err(Error::NonFinite {
                        what: "area bounding box coordinate",
                        index: k * D + i,
                        value,
                    });
                }
            }
            low[i] = lower[i].max(origin[i]);
            high[i] = upper[i].min(origin[i] + extent[i]);
            if low[i] >= high[i] {
                return Ok(None);
            }
        }
        let target = Scan::<D>::cell_side(self.radius);
        let mut total = 1.0f64;
        for i in 0..D {
            total *= ((high[i] - low[i]) / target).ceil().max(1.0);
            if total.is_nan() || total > SCAN_CELL_LIMIT {
                return Err(Error::GridTooLarge { cells: total });
            }
        }
        Ok(Some((low, high)))
    }

    /// Whether the ball of radius `radius` around `p` meets the box `[lower, upper]`
    /// (toroidally on a torus), with a hair of slack.
    fn ball_meets_box(
        &self,
        p: &Point<D>,
        radius: f64,
        lower: &Point<D>,
        upper: &Point<D>,
    ) -> bool {
        let extent = self.domain.extent();
        let mut sum = 0.0;
        for i in 0..D {
            let gap = |x: f64| (lower[i] - x).max(x - upper[i]).max(0.0);
            let mut g = gap(p[i]);
            if self.domain.is_periodic() {
                g = g.min(gap(p[i] - extent[i])).min(gap(p[i] + extent[i]));
            }
            sum += g * g;
        }
        let reach = radius * CELL_MARGIN;
        sum <= reach * reach
    }

    /// The front, then the restart scan's seeds each followed by the front again, until the
    /// scan is over (`Ok`) or a stop (`Err`).
    fn fill_front_and_scan<G: Region<D> + ?Sized, R: Rng + ?Sized>(
        &mut self,
        area: &G,
        mut scan: Scan<D>,
        working: &mut Vec<u64>,
        parked: &mut Vec<u64>,
        report: &mut FillReport,
        rng: &mut R,
    ) -> Result<(), StopReason> {
        let rules = Rules {
            attempts: self.attempts,
            shell: FineShell::default(),
            order: FrontOrder::Uniform,
        };
        let limit = self.max_points;
        let watch = self.watch.clone();
        let within = InBox { domain: self.domain, area };
        let outcome = loop {
            let mut space = LiveSpace { set: self, area, parked, added: 0 };
            let grown = front::grow(
                &mut space,
                working,
                &rules,
                limit,
                watch.as_ref(),
                &mut report.attempts,
                rng,
            );
            report.added += space.added;
            match grown {
                Err(error) => break Err(Self::field_failure(report, error)),
                // At the point limit with points still active.
                Ok(Grown::AtLimit) if !working.is_empty() => break Err(StopReason::PointLimit),
                Ok(Grown::Cancelled) => break Err(StopReason::Cancelled),
                Ok(_) => {}
            }
            let failure = RefCell::new(None);
            let seed = scan.next_seed(
                &within,
                |p| match self.uncovered(p) {
                    Ok(free) => free.is_none(),
                    Err(error) => {
                        failure.borrow_mut().get_or_insert(error);
                        true
                    }
                },
                rng,
            );
            if let Some(error) = failure.into_inner() {
                break Err(Self::field_failure(report, error));
            }
            let Some(point) = seed else { break Ok(()) };
            if self.len() >= self.max_points {
                break Err(StopReason::PointLimit);
            }
            let radius = match self.radius_at(&point) {
                Ok(r) => r,
                Err(error) => break Err(Self::field_failure(report, error)),
            };
            working.push(self.store(point, radius, true));
            report.added += 1;
        };
        report.attempts += scan.attempts();
        outcome
    }

    /// Records a field error in the report: the fill stops.
    fn field_failure(report: &mut FillReport, error: Error) -> StopReason {
        report.field_error = Some(error);
        StopReason::InvalidField
    }

    /// The radius at `p` if no stored point covers it (a point there would keep the distance),
    /// `None` if covered; the field's error where it has no valid value.
    fn uncovered(&self, p: &Point<D>) -> Result<Option<f64>, Error> {
        let r = self.radius_at(p)?;
        Ok((!self.has_conflict(p, r)).then_some(r))
    }
}

/// A fill's area as the restart scan sees it: the points of the area inside the domain's box.
struct InBox<'a, const D: usize, G: ?Sized> {
    domain: Domain<D>,
    area: &'a G,
}

impl<const D: usize, G: Region<D> + ?Sized> Region<D> for InBox<'_, D, G> {
    fn contains(&self, p: &Point<D>) -> bool {
        self.domain.contains(p) && self.area.contains(p)
    }

    fn bounding_box(&self) -> (Point<D>, Point<D>) {
        self.area.bounding_box()
    }

    fn classify_box(&self, lower: &Point<D>, upper: &Point<D>) -> BoxClass {
        self.area.classify_box(lower, upper)
    }
}

/// A live set as the front grows it inside an area: candidates wrap into the box, must lie in
/// the area and keep the pair rule's distance; a point whose candidates failed, one of them
/// only for leaving the area, is parked for a fill elsewhere instead of retiring.
struct LiveSpace<'a, const D: usize, G: ?Sized> {
    set: &'a mut PoissonSet<D>,
    area: &'a G,
    parked: &'a mut Vec<u64>,
    /// Points stored so far.
    added: usize,
}

impl<const D: usize, G: Region<D> + ?Sized> Space for LiveSpace<'_, D, G> {
    type Point = Point<D>;
    type Id = u64;
    type Around = ();
    type Error = Error;

    fn len(&self) -> usize {
        self.set.len()
    }

    fn get(&self, id: u64) -> Option<(Point<D>, f64)> {
        self.set.entries.get(&id).map(|e| (e.point, e.radius))
    }

    fn around(&self, _: &Point<D>) {}

    fn test(&self, _: &(), candidate: &Point<D>) -> Result<Verdict<Point<D>>, Error> {
        let set = &*self.set;
        let Some(p) = set.domain.wrap_into_box(candidate) else { return Ok(Verdict::Reject) };
        if !self.area.contains(&p) {
            return Ok(Verdict::Outside);
        }
        // A conflict at the smallest radius is one at any (every pair rule grows with the
        // radius), found without evaluating the field.
        if set.field.is_some() && set.has_conflict(&p, set.radius) {
            return Ok(Verdict::Reject);
        }
        Ok(match set.uncovered(&p)? {
            Some(r) => Verdict::Accept(p, r),
            None => Verdict::Reject,
        })
    }

    fn store(&mut self, p: Point<D>, radius: f64) -> u64 {
        self.added += 1;
        self.set.store(p, radius, true)
    }

    fn retire(&mut self, id: u64, outside: bool) {
        if outside {
            self.parked.push(id);
        } else if let Some(e) = self.set.entries.get_mut(&id) {
            e.active = false;
            self.set.active_count -= 1;
        }
    }
}
