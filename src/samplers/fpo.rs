//! Farthest-point optimisation (Schlömer, Heck and Deussen 2011), exact, in a 2D box.

use crate::config::{Builder, Capabilities};
use crate::defaults;
use crate::domain::Domain;
use crate::error::Error;
use crate::geometry::delaunay2::{Circle, Frame, Replicated, Widen};
use crate::point::Point;
use crate::sampler::{PointSet, Sampler, StopReason};
use crate::samplers::white_noise::uniform_start;
use rand::Rng;

/// Farthest-point optimisation (Schlömer, Heck and Deussen 2011, "Farthest-point optimized
/// point sets with maximized minimum distance", HPG): `n` white-noise points moved, one at a
/// time, to the centre of the largest empty circle near them, until their spacing is
/// nearly that of a hexagonal lattice — blue noise with a very large minimum distance
/// (relative radius δX ≈ 0.93 after many iterations, where 1 is the hexagonal packing).
///
/// The paper's main (local) algorithm, on an exact Delaunay triangulation: points are visited
/// in index order; point `i` is removed from the triangulation, and among the triangles
/// incident to its former Delaunay neighbours (after the removal, so including those that
/// fill the hole) the one with the largest circumcircle is found; `i` moves to its centre and
/// is inserted again. One iteration is `n` such moves. The moved point's nearest neighbour is
/// then exactly at the circumradius `R`, and `R` is at least its old nearest distance (the
/// old position lay in one of the hole's triangles, whose circumradius bounds the distance to
/// that triangle's nearest vertex): **the minimum distance of the set never decreases**.
///
/// Both kinds of box: in a periodic one the triangulation is the torus's (translated
/// replicas around the box); in a closed one the points are mirrored across the faces, so the
/// largest empty circles may be centred on a face or a corner, where points then go (a point
/// placed on an upper face is kept one float inside, the box being half-open). The replicas
/// lie in a band around the box that is widened whenever a circle too large for it is met, so
/// every move is the one the infinite periodic or mirrored set gives (the argument is in the
/// triangulation's module docs; tests compare every move with a brute-force search). Work is
/// done in unit coordinates, so any box from 1e-100 to 1e100 works; its longest side may be at
/// most 16 times its shortest.
///
/// Two dimensions only (other `D` are refused by `build`), no region (the method is defined
/// on the box). Exactly `n` points (up to the point limit), in the half-open box, the same for
/// the same seed bit for bit. Fewer than two points are returned as drawn (a single point has
/// no neighbour to move away from). Cost: O(n) per iteration in expectation (each move
/// removes and inserts a point and its replicas and reads a few dozen circumcircles); 4096
/// points with the default [`defaults::FPO_ITERATIONS`] (100) take about 1.4 s on one core.
/// Convergence from white noise (1024 points, periodic, mean of 5 seeds): δX 0.62 / 0.72 /
/// 0.84 / 0.90 / 0.92 after 1 / 2 / 8 / 32 / 63 iterations, the mean nearest-neighbour
/// distance over the hexagonal one 0.85 / 0.90 / 0.92 / 0.930 / 0.931. To optimise a set of
/// your own, or to stop after any number of moves, use [`FpoOptimizer`].
///
/// This is the paper's local variant: the paper's main algorithm moves each point to the
/// largest empty circle of the whole set (a priority queue over all triangles), which fills
/// the largest holes of a random start first, so its minimum distance rises sooner (the
/// paper's Figure 1: δX 0.77 after one iteration); both converge to the same sets.
///
/// ```
/// use poisson_nd::{Domain, Fpo, Sampler};
/// let domain = Domain::<2>::unit().periodic();
/// let set = Fpo::builder(domain).with_iterations(20).build()?.sample_seeded(256, 7);
/// assert_eq!(set.len(), 256);
/// // The relative radius: the minimum distance over that of the hexagonal packing.
/// let mut dmin = f64::INFINITY;
/// for (i, p) in set.points.iter().enumerate() {
///     for q in &set.points[..i] {
///         dmin = dmin.min(domain.distance_squared(p, q).sqrt());
///     }
/// }
/// let hexagonal = (2.0 / (3f64.sqrt() * 256.0)).sqrt();
/// assert!(dmin / hexagonal > 0.85);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Fpo<const D: usize> {
    domain: Domain<D>,
    iterations: u32,
    max_points: usize,
}

/// Farthest-point optimisation's own options, beside the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FpoOptions {
    iterations: u32,
}

impl Default for FpoOptions {
    fn default() -> Self {
        FpoOptions { iterations: defaults::FPO_ITERATIONS }
    }
}

/// The configuration of an [`Fpo`] sampler before it is checked: the point limit and the
/// number of iterations.
pub type FpoBuilder<const D: usize> = Builder<D, FpoOptions>;

impl<const D: usize> Builder<D, FpoOptions> {
    /// Sets the number of iterations, each moving every point once (default
    /// [`defaults::FPO_ITERATIONS`]); 0 gives the white-noise start.
    #[must_use]
    pub fn with_iterations(mut self, iterations: u32) -> Self {
        self.options.iterations = iterations;
        self
    }

    /// Checks the configuration. Errors: a dimension other than 2; a box whose longest side
    /// is more than 16 times its shortest; a region; a point limit of 0 or above
    /// 2147483647.
    pub fn build(self) -> Result<Fpo<D>, Error> {
        let checked = self.config.check("fpo", &Fpo::<D>::CAPABILITIES)?;
        Frame::new(&checked.domain, "dimension (FPO)")?;
        Ok(Fpo {
            domain: checked.domain,
            iterations: self.options.iterations,
            max_points: checked.max_points,
        })
    }
}

impl<const D: usize> Fpo<D> {
    /// What farthest-point optimisation supports: closed and periodic 2D boxes, no region.
    pub const CAPABILITIES: Capabilities = Capabilities {
        min_dimension: 2,
        max_dimension: 2,
        region: false,
        ..Capabilities::COUNT_DRIVEN
    };

    /// Farthest-point optimisation in `domain` with every default. Errors as
    /// [`build`](Builder::build).
    pub fn new(domain: Domain<D>) -> Result<Self, Error> {
        Self::builder(domain).build()
    }

    /// The configuration of farthest-point optimisation in `domain`; set what you need, then
    /// [`build`](Builder::build).
    pub fn builder(domain: Domain<D>) -> FpoBuilder<D> {
        Builder::from_defaults(domain, None, FpoOptions::default())
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> FpoBuilder<D> {
        Self::builder(self.domain).with_max_points(self.max_points).with_iterations(self.iterations)
    }

    /// The number of iterations.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }
}

impl<const D: usize> Sampler<D> for Fpo<D> {
    fn name(&self) -> &'static str {
        "fpo"
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let (points, stop) = uniform_start(&self.domain, n, self.max_points, rng);
        let Ok(mut optimizer) = FpoOptimizer::new(self.domain, points.clone()) else {
            // Not reached: `build` checked the box and the points are in it.
            return PointSet::new_unrejected(points, self.domain, stop);
        };
        optimizer.run_iterations(u64::from(self.iterations));
        PointSet::new_unrejected(optimizer.points, self.domain, stop)
    }
}

/// One move of farthest-point optimisation: which point went where, and the radius of the
/// empty circle it was moved to the centre of.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct FpoMove<const D: usize> {
    /// The point's index.
    pub index: usize,
    /// Its position before the move.
    pub from: Point<D>,
    /// Its position after the move (in the half-open box).
    pub to: Point<D>,
    /// The radius of the empty circle it moved to the centre of: its distance to its nearest
    /// other point now (toroidal in a periodic box), up to rounding; 0 in the degenerate case
    /// of a point with no triangle near it, which then stays where it was.
    pub radius: f64,
}

/// Farthest-point optimisation of a set of your own, move by move: the state behind [`Fpo`].
///
/// Points are moved in index order, one per [`step`](Self::step), wrapping around; an
/// iteration is as many moves as there are points. The points may start anywhere in the
/// half-open box — coincident ones too (they share a vertex until moved apart) — and the
/// minimum distance never decreases from one move to the next. Deterministic: the same points
/// give the same moves, bit for bit.
///
/// ```
/// use poisson_nd::{Domain, FpoOptimizer, Sampler, WhiteNoise};
/// let domain = Domain::from_origin_and_extent([0.0, 0.0], [2.0, 1.0])?;
/// let start = WhiteNoise::new(domain).sample_seeded(100, 1).points;
/// let mut optimizer = FpoOptimizer::new(domain, start)?;
/// let first = optimizer.step().expect("two points or more move");
/// assert_eq!(first.index, 0);
/// optimizer.run_iterations(3);
/// assert_eq!(optimizer.moves(), 301);
/// let set = optimizer.into_point_set();
/// assert!(set.points.iter().all(|p| domain.contains(p)));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug)]
pub struct FpoOptimizer<const D: usize> {
    domain: Domain<D>,
    set: Replicated,
    points: Vec<Point<D>>,
    next: usize,
    moves: u64,
    neighbours: Vec<u32>,
    circles: Vec<Circle>,
}

impl<const D: usize> FpoOptimizer<D> {
    /// An optimiser of `points` in `domain`. Errors: a dimension other than 2; a box whose
    /// longest side is more than 16 times its shortest; a coordinate that is not finite or
    /// a point outside the half-open box; more than 2147483647 points.
    pub fn new(domain: Domain<D>, points: Vec<Point<D>>) -> Result<Self, Error> {
        let frame = Frame::new(&domain, "dimension (FPO)")?;
        let unit = frame.unit_points(&points)?;
        Ok(FpoOptimizer {
            domain,
            set: Replicated::new(frame, unit),
            points,
            next: 0,
            moves: 0,
            neighbours: Vec::new(),
            circles: Vec::new(),
        })
    }

    /// The points now.
    pub fn points(&self) -> &[Point<D>] {
        &self.points
    }

    /// The domain.
    pub fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    /// The moves made so far.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The index of the point the next move moves.
    pub fn next_index(&self) -> usize {
        self.next
    }

    /// The points as a set (one attempt per point, [`StopReason::TargetReached`]).
    pub fn into_point_set(self) -> PointSet<D> {
        PointSet::new_unrejected(self.points, self.domain, StopReason::TargetReached)
    }

    /// Runs `k` moves.
    pub fn run_moves(&mut self, k: u64) {
        if self.points.len() < 2 {
            return;
        }
        for _ in 0..k {
            self.step();
        }
    }

    /// Runs `k` iterations: `k` times as many moves as there are points.
    pub fn run_iterations(&mut self, k: u64) {
        self.run_moves(k.saturating_mul(self.points.len() as u64));
    }

    /// Moves the next point (in index order, wrapping around) and says how; `None` when there
    /// are fewer than two points (nothing moves).
    pub fn step(&mut self) -> Option<FpoMove<D>> {
        let n = self.points.len();
        if n < 2 {
            return None;
        }
        if self.next == 0 && self.set.band() > self.set.frame.initial_band(n) {
            // A new iteration: the holes of the start set are gone, try the narrow band again.
            self.set.set_band(0.0);
        }
        let i = self.next;
        self.next = (i + 1) % n;
        self.moves += 1;
        loop {
            match self.try_move(i) {
                Ok(done) => return Some(done),
                // The triangulation is rebuilt from the positions, where `i` has not moved.
                Err(Widen) => self.set.widen(),
            }
        }
    }

    /// Moves point `i`, or says the band is too narrow to know where to (having possibly
    /// removed `i` from the triangulation: the caller rebuilds it).
    fn try_move(&mut self, i: usize) -> Result<FpoMove<D>, Widen> {
        let from = self.points[i];
        let old = self.set.positions()[i];
        let holder = self.set.hand_over(i);
        self.neighbours.clear();
        if holder != i {
            // Another point stays at i's position: it is a neighbour of the hole-less removal.
            self.neighbours.push(holder as u32);
        }
        self.set.neighbours(i, &mut self.neighbours)?;
        if holder == i {
            self.set.remove(i);
        }
        let mut best: Option<(Circle, usize)> = None;
        for k in 0..self.neighbours.len() {
            let j = self.neighbours[k] as usize;
            self.circles.clear();
            self.set.star_of(j, &mut self.circles)?;
            for circle in &self.circles {
                if best.is_none_or(|(b, _)| circle.r2 > b.r2) {
                    best = Some((*circle, j));
                }
            }
        }
        let Some((circle, j)) = best.filter(|(c, _)| c.r2.is_finite()) else {
            // Only with the widest band and no triangle at all: stay.
            let hint = self.neighbours.first().and_then(|&j| self.set.hint(j as usize));
            self.set.insert(i, old, hint);
            return Ok(FpoMove { index: i, from, to: from, radius: 0.0 });
        };
        let unit_of = self.set.frame.in_box(circle.centre);
        let hint = self.set.hint(j);
        self.set.insert(i, unit_of, hint);
        let to = self.set.frame.user_of(unit_of);
        self.points[i] = to;
        Ok(FpoMove { index: i, from, to, radius: self.set.frame.user_length(circle.r2.sqrt()) })
    }
}
