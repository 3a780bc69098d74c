//! Dart throwing: the naive Poisson-disk baseline, and the same process sped up by a grid.

use crate::domain::Domain;
use crate::error::Error;
use crate::grid::{CellHeads, DenseHeads, Grid, GridLayout, GridResolution, HashedHeads};
use crate::packing::{check_max_points, check_radius, max_points_estimate};
use crate::point::{Point, distance_squared, toroidal_distance_squared};
use crate::sampler::{DEFAULT_MAX_POINTS, PointSet, Sampler, StopReason};
use crate::samplers::bridson::DEFAULT_DENSE_GRID_LIMIT;
use rand::Rng;

/// Default number of consecutive rejected darts after which dart throwing gives up.
///
/// When a run stops this way, the darts that still could have landed (the uncovered part of
/// the domain) are likely a small fraction of it: if that fraction were `f`, `m` misses in a
/// row would happen with probability `(1 − f)^m`, below 5 % for `f ≥ 3/m`. With the default
/// the uncovered fraction is below 0.03 % at 95 % confidence.
pub const DEFAULT_MAX_MISSES: u64 = 10_000;

/// Dart throwing (Cook 1986, "Stochastic sampling in computer graphics"; the random
/// sequential adsorption of physics): uniform candidates ("darts") anywhere in the domain,
/// each accepted when no accepted point is closer than `r`.
///
/// The run stops at `n` points ([`StopReason::TargetReached`]), at the point limit
/// ([`StopReason::PointLimit`]), or after `max_misses` rejections in a row
/// ([`StopReason::Exhausted`]; default [`DEFAULT_MAX_MISSES`]).
/// [`PointSet::attempts`] counts every dart, accepted or rejected.
///
/// Guarantees: every pair of points is at least `r` apart (toroidally in a periodic domain),
/// every point lies in the domain, and the run ends after at most
/// `(N_max + 1) · max_misses` darts, where `N_max` is the densest-packing bound that the
/// constructor checks against the point limit. The set is not guaranteed to be maximal; the
/// more misses are allowed, the closer it gets (see [`DEFAULT_MAX_MISSES`]).
///
/// Two ways to run the same process, with bit-identical output for the same seed (the same
/// darts, the same decisions):
/// - by default each dart is checked against **every** accepted point: O(N) per dart, O(A·N)
///   for A darts. This is the naive baseline, quadratic on purpose; its name is
///   `"dart-throwing"`.
/// - [`with_grid`](Self::with_grid) looks darts up in the background grid that Bridson's
///   algorithm uses: O(1) expected per dart for a fixed D, O(A) in all. Its name is
///   `"dart-throwing-grid"`; with a large `max_misses` it makes nearly maximal sets
///   (random sequential adsorption close to saturation) at moderate N.
///
/// ```
/// use poisson_nd::{DartThrowing, Domain, GridResolution, Sampler};
/// let domain = Domain::<2>::unit()?;
/// let naive = DartThrowing::new(domain, 0.05)?.with_max_misses(2_000)?;
/// let set = naive.sample_seeded(usize::MAX, 42);
/// assert!(set.len() > 200);
/// // The grid gives the same points, faster.
/// let fast = naive.clone().with_grid(GridResolution::Fine)?;
/// assert_eq!(fast.sample_seeded(usize::MAX, 42).points, set.points);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DartThrowing<const D: usize> {
    domain: Domain<D>,
    radius: f64,
    max_misses: u64,
    max_points: usize,
    /// The grid layout when accelerated, `None` for the naive search.
    grid: Option<(GridResolution, GridLayout<D>)>,
}

impl<const D: usize> DartThrowing<D> {
    /// Naive dart throwing in `domain` with minimum distance `radius`, at most
    /// [`DEFAULT_MAX_MISSES`] misses in a row and the point limit [`DEFAULT_MAX_POINTS`].
    ///
    /// Errors: `D = 0`, a radius that is not finite and positive, or a radius so small for
    /// the box that the densest packing would pass the point limit.
    pub fn new(domain: Domain<D>, radius: f64) -> Result<Self, Error> {
        check_radius(&domain, radius, DEFAULT_MAX_POINTS)?;
        Ok(DartThrowing {
            domain,
            radius,
            max_misses: DEFAULT_MAX_MISSES,
            max_points: DEFAULT_MAX_POINTS,
            grid: None,
        })
    }

    /// Sets how many darts in a row may miss before the run ends with
    /// [`StopReason::Exhausted`] (default [`DEFAULT_MAX_MISSES`]). Errors when it is 0.
    pub fn with_max_misses(mut self, max_misses: u64) -> Result<Self, Error> {
        if max_misses == 0 {
            return Err(Error::ZeroCount("max_misses"));
        }
        self.max_misses = max_misses;
        Ok(self)
    }

    /// Sets the point limit. Errors when it is 0, above 2147483647, or when the densest
    /// packing of the box at this radius would still pass it.
    pub fn with_max_points(mut self, max_points: usize) -> Result<Self, Error> {
        check_max_points(&self.domain, self.radius, max_points)?;
        self.max_points = max_points;
        Ok(self)
    }

    /// Looks darts up in a background grid of the given resolution instead of testing every
    /// accepted point (see [`GridResolution`]; [`GridResolution::default`] is the usual
    /// choice). The points stay bit-identical; the name becomes `"dart-throwing-grid"`.
    /// Errors when the grid would have too many cells to index.
    pub fn with_grid(mut self, resolution: GridResolution) -> Result<Self, Error> {
        let layout =
            GridLayout::new(&self.domain, self.radius, resolution, DEFAULT_DENSE_GRID_LIMIT)?;
        self.grid = Some((resolution, layout));
        Ok(self)
    }

    /// The minimum distance.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Rejections in a row that end a run.
    pub fn max_misses(&self) -> u64 {
        self.max_misses
    }

    /// The grid resolution when grid-accelerated, `None` for the naive search.
    pub fn grid_resolution(&self) -> Option<GridResolution> {
        self.grid.as_ref().map(|(resolution, _)| *resolution)
    }

    /// The dart-throwing loop, shared by both searches so that they make the same decisions.
    /// Stops with `TargetReached` at `target` points or `Exhausted` after too many misses.
    fn throw<R: Rng + ?Sized, A: AcceptedPoints<D>>(
        &self,
        mut accepted: A,
        target: usize,
        rng: &mut R,
    ) -> (Vec<Point<D>>, StopReason, u64) {
        let mut attempts = 0u64;
        let mut misses = 0u64;
        while accepted.len() < target {
            let dart = self.domain.uniform_point(rng);
            attempts += 1;
            if accepted.has_point_within_radius(&dart) {
                misses += 1;
                if misses >= self.max_misses {
                    return (accepted.into_points(), StopReason::Exhausted, attempts);
                }
            } else {
                accepted.insert(dart);
                misses = 0;
            }
        }
        (accepted.into_points(), StopReason::TargetReached, attempts)
    }
}

/// The accepted points of one run, as the dart loop needs them.
trait AcceptedPoints<const D: usize> {
    fn len(&self) -> usize;
    /// Whether an accepted point is closer than r to `p` (toroidally when periodic).
    fn has_point_within_radius(&self, p: &Point<D>) -> bool;
    fn insert(&mut self, p: Point<D>);
    fn into_points(self) -> Vec<Point<D>>;
}

/// The naive search: every accepted point, in a plain list.
struct EveryPoint<const D: usize> {
    points: Vec<Point<D>>,
    radius_squared: f64,
    /// Side lengths of a periodic domain, `None` for a closed one.
    torus: Option<[f64; D]>,
}

impl<const D: usize> AcceptedPoints<D> for EveryPoint<D> {
    fn len(&self) -> usize {
        self.points.len()
    }
    #[inline]
    fn has_point_within_radius(&self, p: &Point<D>) -> bool {
        // The same distance functions, argument order and comparison as the grid's search.
        match &self.torus {
            Some(extent) => self
                .points
                .iter()
                .any(|q| toroidal_distance_squared(p, q, extent) < self.radius_squared),
            None => self.points.iter().any(|q| distance_squared(p, q) < self.radius_squared),
        }
    }
    fn insert(&mut self, p: Point<D>) {
        self.points.push(p);
    }
    fn into_points(self) -> Vec<Point<D>> {
        self.points
    }
}

impl<const D: usize, H: CellHeads> AcceptedPoints<D> for Grid<'_, D, H> {
    fn len(&self) -> usize {
        self.points().len()
    }
    #[inline]
    fn has_point_within_radius(&self, p: &Point<D>) -> bool {
        Grid::has_point_within_radius(self, p)
    }
    fn insert(&mut self, p: Point<D>) {
        Grid::insert(self, p);
    }
    fn into_points(self) -> Vec<Point<D>> {
        Grid::into_points(self)
    }
}

impl<const D: usize> Sampler<D> for DartThrowing<D> {
    fn name(&self) -> &'static str {
        if self.grid.is_some() { "dart-throwing-grid" } else { "dart-throwing" }
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn min_distance(&self) -> Option<f64> {
        Some(self.radius)
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let target = n.min(self.max_points);
        let capacity = target.min(max_points_estimate(&self.domain, self.radius) as usize);
        let capacity = capacity.min(1 << 20);
        let (points, stop, attempts) = match &self.grid {
            Some((_, layout)) if layout.is_dense() => {
                self.throw(Grid::<D, DenseHeads>::new(layout, capacity), target, rng)
            }
            Some((_, layout)) => {
                self.throw(Grid::<D, HashedHeads>::new(layout, capacity), target, rng)
            }
            None => {
                let accepted = EveryPoint {
                    points: Vec::with_capacity(capacity),
                    radius_squared: self.radius * self.radius,
                    torus: self.domain.is_periodic().then_some(*self.domain.extent()),
                };
                self.throw(accepted, target, rng)
            }
        };
        let stop = if stop == StopReason::TargetReached && target < n {
            StopReason::PointLimit
        } else {
            stop
        };
        PointSet { points, domain: self.domain, stop, attempts }
    }
}
