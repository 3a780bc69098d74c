//! Gaussian blue noise: white noise relaxed by gradient descent on a sum of Gaussian kernels.

use crate::config::{Builder, Capabilities};
use crate::defaults;
use crate::domain::Domain;
use crate::error::Error;
use crate::grid::{GridLayout, SortedCells};
use crate::limits::power_of_two;
use crate::point::Point;
use crate::rng::{derive_seed, fraction_of};
use crate::sampler::{PointSet, Sampler, StopReason};
use crate::samplers::white_noise::uniform_start;
use rand::Rng;

/// The largest σ accepted, in units of the mean spacing.
const MAX_SIGMA: f64 = 2.0;

/// The first step factor τ (a point moves by `τ · Σ_j (x_i − x_j) · g_ij`, plus its
/// momentum): 0.25, the authors' step in 2D with σ equal to the spacing.
const FIRST_STEP: f64 = 0.25;

/// The step grows by this factor after an accepted step and halves after a rejected one.
const STEP_GROWTH: f64 = 1.1;

/// The share of its last accepted move a point keeps (heavy-ball momentum).
const MOMENTUM: f64 = 0.8;

/// Cells at least this much wider than half the reach: rounding in a cell index never hides
/// a pair closer than the reach.
const CELL_MARGIN: f64 = 1.0 + 1.0 / (1u64 << 20) as f64;

/// Gaussian blue noise (Ahmed, Ren and Wonka 2022, "Gaussian Blue Noise", ACM TOG 41(6),
/// SIGGRAPH Asia): `n` uniform points (white noise from the seed) moved by gradient descent
/// on the energy
///
/// `E = Σ_{i≠j} Σ_{images x_j' of x_j} [exp(−|x_i − x_j'|² / 2σ²) − exp(−c² / 2σ²)]⁺`
///
/// (plus, in a closed box, each point's own mirror images), every point repelled by the
/// Gaussians of its neighbours. The force on a point is `F_i = Σ (x_i − x_j') ·
/// exp(−|x_i − x_j'|² / 2σ²)`, the negative gradient of `E` up to the factor `2/σ²`.
///
/// - **σ** is a multiple ([`with_sigma`](Builder::with_sigma), default 0.85) of the mean
///   spacing `h = (V/N)^(1/D)`. The authors' published code takes σ in the same unit
///   (`N^(−1/D)` in the unit box) with a default of 1; measured here (periodic unit box,
///   4096 points, 300 iterations), 1 sits at the edge where neighbours merge into pairs
///   (at 1.1 in 2D and at 1 in 3D pairs collapse to one spot), while 0.85 gave the lowest
///   power at low frequencies in 2D and 3D without lattice peaks (below 0.8 the spectrum
///   grows the peaks of crystallites). Along an axis shorter than `h` there is no room for a
///   second row: `h` is then the spacing of the longer axes alone (the `h` with
///   `N = Π max(L_i / h, 1)`), so a thin slab is sampled as the lower-dimensional box it is.
/// - **Cutoff.** Pairs farther apart than `c = 4σ` do not interact; the kernel is lowered by
///   its value at `c`, `exp(−8) ≈ 3.4·10^-4` of its peak, so that the energy is continuous
///   (the force within `c` is the exact Gaussian one; at `c` it drops to 0 from
///   `4σ·exp(−8)`, 0.2 % of its largest value). The neighbours within `c` are found in the
///   library's grid (points sorted by cells of side at least `c/2`), so an iteration is O(N)
///   for a fixed D; when the 5^D cells around a cell would outnumber the points (few points
///   in high dimensions, where `c` spans the box) every pair is compared instead.
/// - **Step rule.** Every point moves at once by `m_i ← τ·F_i + 0.8·m_i` (gradient descent
///   with heavy-ball momentum, which reached in 300 iterations the spectrum plain descent
///   reached in 1200). The step `τ` starts at 0.25, the authors' step for σ equal to the
///   spacing in 2D, and adapts: a move is accepted only when the energy does not increase,
///   after which `τ` grows by 10 %; a move that would increase it is rejected (the points
///   stay, the momentum is dropped) and `τ` halves. The energy is therefore non-increasing
///   from one iteration to the next in every dimension, with no step to tune. An iteration is
///   one evaluation of the forces and the energy, accepted or not
///   ([`with_iterations`](Builder::with_iterations), default 300).
/// - **Periodic boxes** are exact: distances are toroidal, each pair interacting through the
///   nearest image of `x_j` along each axis and the next one on either side, those within
///   the cutoff (the minimum image alone whenever every side is at least `2c`); a point that
///   moves across a face comes back through the opposite one.
/// - **Closed boxes** reflect: each point also repels the mirror images of every point (its
///   own included) across the faces, so the set behaves as one period of a reflected
///   periodic set and its density stays uniform up to the faces (no pile-up against them,
///   no gap along them). A move that leaves the box is reflected back across the face it
///   crossed (the mirror image that entered) and then clamped into the half-open box
///   `[origin, origin + extent)`. Per axis the images are `x_j`, `−x_j` and `2L − x_j`:
///   exact whenever every side is at least `c`; along a shorter side the farther images are
///   left out. In six or more dimensions a pair interacts through at most 243 (3^5) image
///   combinations within the cutoff (only a box smaller than `c` along many axes has more).
/// - **Coincident points** have no gradient between them: such a pair is pushed apart along
///   a direction hashed from its indices (deterministic).
///
/// The work is done in coordinates normalised by the box's largest side (origin at 0), so
/// tiny and huge boxes behave alike; the points are mapped back into the box at the end. The
/// kernel's exponential is computed by additions and multiplications only, so the points are
/// bit-identical for a seed on every platform. Exactly `n` points (up to the point limit),
/// all inside the half-open box, in the order of their white-noise start. There is no
/// minimum distance, and no region ([`Capabilities::region`] is false). Bring a start set of
/// your own with [`optimise`](GaussianBlueNoise::optimise).
///
/// Cost: O(iterations · N · (c/h)^D · 2^D) time, O(N) memory, one thread. With the defaults,
/// 4096 points take about 0.5 s in 2D and 4 to 6 s in 3D (closed boxes the slower) on one
/// laptop-class core.
///
/// ```
/// use poisson_nd::{Domain, GaussianBlueNoise, Sampler};
/// let domain = Domain::<2>::unit().periodic();
/// let gbn = GaussianBlueNoise::builder(domain).with_iterations(100).build()?;
/// let set = gbn.sample_seeded(256, 7);
/// assert_eq!(set.len(), 256);
/// // Far more evenly spread than the white noise it started from: no two points closer than
/// // half the spacing of a hexagonal lattice of 256 points.
/// let closest = (0..256)
///     .flat_map(|i| (0..i).map(move |j| (i, j)))
///     .map(|(i, j)| domain.distance_squared(&set.points[i], &set.points[j]).sqrt())
///     .fold(f64::INFINITY, f64::min);
/// assert!(closest > 0.5 * (2.0 / (3f64.sqrt() * 256.0)).sqrt());
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct GaussianBlueNoise<const D: usize> {
    domain: Domain<D>,
    iterations: u32,
    sigma: f64,
    max_points: usize,
}

/// Gaussian blue noise's own options, beside the shared settings of its [`Builder`]: the
/// iterations and σ as a multiple of the mean spacing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GaussianBlueNoiseOptions {
    iterations: u32,
    sigma: f64,
}

impl Default for GaussianBlueNoiseOptions {
    fn default() -> Self {
        GaussianBlueNoiseOptions {
            iterations: defaults::GAUSSIAN_BLUE_NOISE_ITERATIONS,
            sigma: defaults::GAUSSIAN_BLUE_NOISE_SIGMA,
        }
    }
}

/// The configuration of [`GaussianBlueNoise`] before it is checked: the point limit, the
/// iterations and σ.
pub type GaussianBlueNoiseBuilder<const D: usize> = Builder<D, GaussianBlueNoiseOptions>;

impl<const D: usize> Builder<D, GaussianBlueNoiseOptions> {
    /// Sets the number of iterations (default [`defaults::GAUSSIAN_BLUE_NOISE_ITERATIONS`], 300): each one
    /// evaluates the forces and the energy once. 0 returns the start set unchanged.
    ///
    /// ```
    /// use poisson_nd::{Domain, GaussianBlueNoise, Sampler, WhiteNoise};
    /// let domain = Domain::<2>::unit();
    /// let none = GaussianBlueNoise::builder(domain).with_iterations(0).build()?;
    /// // No iteration: the white noise of the same seed.
    /// assert_eq!(none.sample_seeded(50, 3).points, WhiteNoise::new(domain).sample_seeded(50, 3).points);
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    #[must_use]
    pub fn with_iterations(mut self, iterations: u32) -> Self {
        self.options.iterations = iterations;
        self
    }

    /// Sets σ in units of the mean spacing `(V/N)^(1/D)` (default [`defaults::GAUSSIAN_BLUE_NOISE_SIGMA`], 0.85).
    /// Smaller kernels spread the points more evenly but grow lattice-like patches (their
    /// spectrum's peaks rise below about 0.8); larger ones cost about `σ^D` more per
    /// iteration and, from about 1, let neighbours merge into pairs. Must be finite and in
    /// `(0, 2]`, checked at [`build`](Self::build).
    ///
    /// ```
    /// use poisson_nd::{Domain, GaussianBlueNoise};
    /// let gbn = GaussianBlueNoise::builder(Domain::<3>::unit()).with_sigma(0.8).build()?;
    /// assert_eq!(gbn.sigma(), 0.8);
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    #[must_use]
    pub fn with_sigma(mut self, sigma: f64) -> Self {
        self.options.sigma = sigma;
        self
    }

    /// Checks the configuration. Errors: a region; a σ that is not finite or not in
    /// `(0, 2]`; a point limit of 0 or above 2147483647.
    ///
    /// ```
    /// use poisson_nd::region::Ball;
    /// use poisson_nd::{Domain, Error, GaussianBlueNoise};
    /// let domain = Domain::<2>::unit();
    /// let refused = GaussianBlueNoise::builder(domain).with_region(Ball::new([0.5, 0.5], 0.3)?).build();
    /// assert!(matches!(refused, Err(Error::Unsupported { sampler: "gaussian-blue-noise", .. })));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn build(self) -> Result<GaussianBlueNoise<D>, Error> {
        let checked =
            self.config.check("gaussian-blue-noise", &GaussianBlueNoise::<D>::CAPABILITIES)?;
        let sigma = self.options.sigma;
        if !(sigma.is_finite() && sigma > 0.0 && sigma <= MAX_SIGMA) {
            return Err(Error::InvalidParameter {
                name: "sigma (in units of the mean spacing)",
                expected: "in (0, 2]",
                value: sigma,
            });
        }
        Ok(GaussianBlueNoise {
            domain: checked.domain,
            iterations: self.options.iterations,
            sigma,
            max_points: checked.max_points,
        })
    }
}

impl<const D: usize> GaussianBlueNoise<D> {
    /// The kernel is cut off at this many σ: `exp(−4²/2) = exp(−8) ≈ 3.4·10^-4` of its peak.
    pub const CUTOFF_SIGMAS: f64 = 4.0;

    /// What Gaussian blue noise supports: a count of points, closed and periodic boxes, every
    /// dimension; no region.
    pub const CAPABILITIES: Capabilities =
        Capabilities { region: false, ..Capabilities::COUNT_DRIVEN };

    /// Gaussian blue noise in `domain` with every default.
    ///
    /// ```
    /// use poisson_nd::{Domain, GaussianBlueNoise, Sampler};
    /// let set = GaussianBlueNoise::new(Domain::<3>::unit()).sample_seeded(100, 1);
    /// assert_eq!(set.len(), 100);
    /// ```
    pub fn new(domain: Domain<D>) -> Self {
        GaussianBlueNoise {
            domain,
            iterations: defaults::GAUSSIAN_BLUE_NOISE_ITERATIONS,
            sigma: defaults::GAUSSIAN_BLUE_NOISE_SIGMA,
            max_points: defaults::MAX_POINTS,
        }
    }

    /// The configuration of Gaussian blue noise in `domain`; set what you need, then
    /// [`build`](Builder::build).
    ///
    /// ```
    /// use poisson_nd::{Domain, GaussianBlueNoise};
    /// let gbn = GaussianBlueNoise::builder(Domain::<2>::unit()).with_iterations(50).build()?;
    /// assert_eq!(gbn.iterations(), 50);
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn builder(domain: Domain<D>) -> GaussianBlueNoiseBuilder<D> {
        Builder::from_defaults(domain, None, GaussianBlueNoiseOptions::default())
    }

    /// This sampler's configuration, to change and build again.
    ///
    /// ```
    /// use poisson_nd::{Domain, GaussianBlueNoise};
    /// let gbn = GaussianBlueNoise::new(Domain::<2>::unit());
    /// let longer = gbn.to_builder().with_iterations(2000).build()?;
    /// assert_eq!((longer.iterations(), longer.sigma()), (2000, gbn.sigma()));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn to_builder(&self) -> GaussianBlueNoiseBuilder<D> {
        Self::builder(self.domain)
            .with_max_points(self.max_points)
            .with_iterations(self.iterations)
            .with_sigma(self.sigma)
    }

    /// The number of iterations.
    ///
    /// ```
    /// use poisson_nd::{Domain, GaussianBlueNoise};
    /// assert_eq!(GaussianBlueNoise::new(Domain::<2>::unit()).iterations(), 300);
    /// ```
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// σ in units of the mean spacing.
    ///
    /// ```
    /// use poisson_nd::{Domain, GaussianBlueNoise};
    /// assert_eq!(GaussianBlueNoise::new(Domain::<2>::unit()).sigma(), 0.85);
    /// ```
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// The point limit.
    ///
    /// ```
    /// use poisson_nd::{Domain, GaussianBlueNoise};
    /// let gbn = GaussianBlueNoise::builder(Domain::<1>::unit()).with_max_points(10).build()?;
    /// assert_eq!(gbn.max_points(), 10);
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn max_points(&self) -> usize {
        self.max_points
    }

    /// σ, in the domain's units, for `n` points: [`sigma`](Self::sigma) times the mean
    /// spacing (the `h` with `n = Π max(L_i / h, 1)`, which is `(V/n)^(1/D)` when every side
    /// is at least `h`). The cutoff is [`CUTOFF_SIGMAS`](Self::CUTOFF_SIGMAS) times it. `None`
    /// for `n = 0`.
    ///
    /// ```
    /// use poisson_nd::{Domain, GaussianBlueNoise};
    /// let gbn = GaussianBlueNoise::new(Domain::from_origin_and_extent([0.0, 0.0], [2.0, 0.5])?);
    /// // 100 points in a 2 × 0.5 box: spacing 0.1.
    /// let sigma = gbn.kernel_sigma(100).unwrap();
    /// assert!((sigma - 0.085).abs() < 1e-12);
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn kernel_sigma(&self, n: usize) -> Option<f64> {
        let scale = largest_side(&self.domain);
        let sides = normalised_sides(&self.domain, scale);
        (n > 0).then(|| self.sigma * mean_spacing(&sides, n) * scale)
    }

    /// Relaxes the points `points` (inside the box; on a torus too) by the same gradient
    /// descent as [`sample`](Sampler::sample) and returns them, in the same order, as a
    /// [`PointSet`] with [`StopReason::TargetReached`]. Coincident points are pushed apart.
    ///
    /// Errors: a coordinate that is NaN or infinite ([`Error::NonFinite`], with its flat
    /// index `point · D + axis`); a point outside the half-open box ([`Error::OutOfRange`]);
    /// more points than the point limit ([`Error::InvalidParameter`]).
    ///
    /// ```
    /// use poisson_nd::{Domain, Error, GaussianBlueNoise};
    /// let gbn = GaussianBlueNoise::builder(Domain::<2>::unit()).with_iterations(100).build()?;
    /// // Four points on one spot move apart.
    /// let set = gbn.optimise(vec![[0.5, 0.5]; 4])?;
    /// assert!(set.points.iter().all(|p| *p != [0.5, 0.5]));
    /// assert!(matches!(gbn.optimise(vec![[f64::NAN, 0.5]]), Err(Error::NonFinite { .. })));
    /// assert!(matches!(gbn.optimise(vec![[1.0, 0.5]]), Err(Error::OutOfRange { .. })));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn optimise(&self, points: Vec<Point<D>>) -> Result<PointSet<D>, Error> {
        self.check_points(&points)?;
        Ok(PointSet::new_unrejected(
            self.relax(points, self.iterations),
            self.domain,
            StopReason::TargetReached,
        ))
    }

    /// The energy `E` of `points` (see the type's documentation), in the box's units: the
    /// quantity each iteration does not increase. The same errors as
    /// [`optimise`](Self::optimise); 0 for fewer than two points in a periodic box.
    ///
    /// ```
    /// use poisson_nd::{Domain, GaussianBlueNoise, Sampler, WhiteNoise};
    /// let domain = Domain::<2>::unit().periodic();
    /// let gbn = GaussianBlueNoise::builder(domain).with_iterations(100).build()?;
    /// let start = WhiteNoise::new(domain).sample_seeded(200, 5).points;
    /// let relaxed = gbn.optimise(start.clone())?.points;
    /// assert!(gbn.energy(&relaxed)? < gbn.energy(&start)?);
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn energy(&self, points: &[Point<D>]) -> Result<f64, Error> {
        self.check_points(points)?;
        if points.is_empty() {
            return Ok(0.0);
        }
        let scale = largest_side(&self.domain);
        let sides = normalised_sides(&self.domain, scale);
        let unit: Vec<Point<D>> =
            points.iter().map(|p| normalise(&self.domain, p, scale)).collect();
        let space = Space::new(&sides, self.domain.is_periodic(), self.sigma, unit.len());
        let mut forces = vec![[0.0; D]; unit.len()];
        Ok(space.evaluate(&unit, &mut forces))
    }

    /// Checks points given by the user: at most the point limit, finite, inside the box.
    fn check_points(&self, points: &[Point<D>]) -> Result<(), Error> {
        if points.len() > self.max_points {
            return Err(Error::InvalidParameter {
                name: "number of start points",
                expected: "at most the point limit",
                value: points.len() as f64,
            });
        }
        let (origin, extent) = (self.domain.origin(), self.domain.extent());
        for (k, p) in points.iter().enumerate() {
            for (axis, &x) in p.iter().enumerate() {
                if !x.is_finite() {
                    return Err(Error::NonFinite {
                        what: "start point coordinate",
                        index: k * D + axis,
                        value: x,
                    });
                }
                if !(x >= origin[axis] && x < origin[axis] + extent[axis]) {
                    return Err(Error::OutOfRange {
                        name: "a start point coordinate",
                        value: x,
                        range: "inside the half-open box [origin, origin + extent)",
                    });
                }
            }
        }
        Ok(())
    }

    /// Relaxes `points` (inside the box) for `iterations`.
    fn relax(&self, points: Vec<Point<D>>, iterations: u32) -> Vec<Point<D>> {
        let n = points.len();
        if n == 0 || iterations == 0 {
            return points;
        }
        let scale = largest_side(&self.domain);
        let sides = normalised_sides(&self.domain, scale);
        let space = Space::new(&sides, self.domain.is_periodic(), self.sigma, n);
        let mut unit: Vec<Point<D>> =
            points.iter().map(|p| normalise(&self.domain, p, scale)).collect();
        let mut forces = vec![[0.0; D]; n];
        let mut energy = space.evaluate(&unit, &mut forces);
        // The last accepted move of each point (the momentum) and the trial's state.
        let mut moves = vec![[0.0; D]; n];
        let mut trial = unit.clone();
        let mut trial_forces = vec![[0.0; D]; n];
        let mut trial_moves = vec![[0.0; D]; n];
        let mut tau = FIRST_STEP;
        for _ in 0..iterations {
            for k in 0..n {
                trial_moves[k] =
                    std::array::from_fn(|i| tau * forces[k][i] + MOMENTUM * moves[k][i]);
                trial[k] = space.moved(&unit[k], &trial_moves[k]);
            }
            let trial_energy = space.evaluate(&trial, &mut trial_forces);
            if trial_energy <= energy {
                std::mem::swap(&mut unit, &mut trial);
                std::mem::swap(&mut forces, &mut trial_forces);
                std::mem::swap(&mut moves, &mut trial_moves);
                energy = trial_energy;
                tau *= STEP_GROWTH;
            } else {
                // Rejected: the points stay, the momentum is dropped and the step halves.
                tau *= 0.5;
                moves.iter_mut().for_each(|m| *m = [0.0; D]);
            }
        }
        unit.iter().map(|u| denormalise(&self.domain, u, scale)).collect()
    }
}

impl<const D: usize> Sampler<D> for GaussianBlueNoise<D> {
    fn name(&self) -> &'static str {
        "gaussian-blue-noise"
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let (start, stop) = uniform_start(&self.domain, n, self.max_points, rng);
        let points = self.relax(start, self.iterations);
        PointSet::new_unrejected(points, self.domain, stop)
    }
}

/// The largest side of the box: the unit of the normalised coordinates.
fn largest_side<const D: usize>(domain: &Domain<D>) -> f64 {
    domain.extent().iter().copied().fold(0.0, f64::max)
}

/// The sides of the box in normalised units (the largest is 1).
fn normalised_sides<const D: usize>(domain: &Domain<D>, scale: f64) -> [f64; D] {
    domain.extent().map(|e| e / scale)
}

/// A point of the box in normalised coordinates, in `[0, side)` along each axis.
fn normalise<const D: usize>(domain: &Domain<D>, p: &Point<D>, scale: f64) -> Point<D> {
    let sides = normalised_sides(domain, scale);
    std::array::from_fn(|i| {
        let u = (p[i] - domain.origin()[i]) / scale;
        if u >= sides[i] { below(sides[i]) } else { u.max(0.0) }
    })
}

/// A normalised point mapped back into the half-open box.
fn denormalise<const D: usize>(domain: &Domain<D>, u: &Point<D>, scale: f64) -> Point<D> {
    std::array::from_fn(|i| {
        let lower = domain.origin()[i];
        let upper = lower + domain.extent()[i];
        let x = lower + u[i] * scale;
        if x >= upper { below(upper).max(lower) } else { x.max(lower) }
    })
}

/// The largest float below `x`.
fn below(x: f64) -> f64 {
    x.next_down()
}

/// The mean spacing of `n ≥ 1` points in a box of sides `sides`: the `h` with
/// `n = Π max(sides_i / h, 1)`, computed with logarithms (a product of many small sides
/// underflows).
fn mean_spacing<const D: usize>(sides: &[f64; D], n: usize) -> f64 {
    let mut sorted = *sides;
    sorted.sort_by(|a, b| b.total_cmp(a));
    let log_n = (n.max(1) as f64).ln();
    let mut log_volume = 0.0;
    let mut spacing = sorted[0] / n.max(1) as f64;
    for (m, &side) in sorted.iter().enumerate() {
        log_volume += side.ln();
        let h = ((log_volume - log_n) / (m + 1) as f64).exp();
        if side >= h {
            spacing = h;
        } else {
            break;
        }
    }
    spacing
}

/// The normalised box, the kernel and the neighbour grid's layout.
struct Space<const D: usize> {
    sides: [f64; D],
    periodic: bool,
    /// `−1 / 2σ²`.
    exponent: f64,
    /// The cutoff `c` and its square.
    reach: f64,
    reach_squared: f64,
    /// `exp(−c²/2σ²)`: the kernel's value at the cutoff, subtracted so that E is continuous.
    floor: f64,
    sigma: f64,
    layout: GridLayout<D>,
    /// Every pair is compared (one cell, no neighbour offsets): when the 5^D cells around a
    /// cell would outnumber the points (high dimensions), where the grid saves nothing.
    all_pairs: bool,
}

impl<const D: usize> Space<D> {
    fn new(sides: &[f64; D], periodic: bool, sigma_in_spacings: f64, n: usize) -> Self {
        let sigma = sigma_in_spacings * mean_spacing(sides, n);
        let cutoff = GaussianBlueNoise::<D>::CUTOFF_SIGMAS;
        let reach = cutoff * sigma;
        let domain = normalised_domain(sides, periodic);
        // Cells of side at least c/2 (the 5^D cells around a point's hold every point within
        // c), at most about as many as points.
        let all_pairs = 5f64.powi(D.min(1000) as i32) > n as f64;
        let mut budget = n.max(1) as f64;
        let counts = std::array::from_fn(|i| {
            let along =
                (sides[i] / (0.5 * reach * CELL_MARGIN)).floor().clamp(1.0, budget.max(1.0));
            budget /= along;
            if all_pairs { 1 } else { along as u64 }
        });
        let layout = if all_pairs {
            // One cell and no offsets: the caller compares every pair itself.
            GridLayout::tiling(&domain, counts, 0.0)
        } else {
            GridLayout::tiling(&domain, counts, reach)
        };
        Space {
            sides: *sides,
            periodic,
            exponent: -0.5 / (sigma * sigma),
            reach,
            reach_squared: reach * reach,
            floor: (-0.5 * cutoff * cutoff).exp(),
            sigma,
            layout,
            all_pairs,
        }
    }

    /// A point moved by `displacement`, brought back into the box: wrapped on a torus,
    /// reflected across the face it crossed in a closed box (then clamped).
    fn moved(&self, p: &Point<D>, displacement: &[f64; D]) -> Point<D> {
        std::array::from_fn(|i| {
            let side = self.sides[i];
            let x = p[i] + displacement[i];
            if x >= 0.0 && x < side {
                return x;
            }
            if !x.is_finite() {
                return p[i];
            }
            if self.periodic {
                let wrapped = x - side * (x / side).floor();
                if wrapped >= 0.0 && wrapped < side { wrapped } else { 0.0 }
            } else {
                let reflected = if x < 0.0 { -x } else { 2.0 * side - x };
                if reflected >= side { below(side) } else { reflected.max(0.0) }
            }
        })
    }

    /// The energy of `points` (normalised) and each point's force, written to `forces`.
    fn evaluate(&self, points: &[Point<D>], forces: &mut [[f64; D]]) -> f64 {
        if self.periodic {
            self.evaluate_in::<true>(points, forces)
        } else {
            self.evaluate_in::<false>(points, forces)
        }
    }

    /// [`evaluate`](Self::evaluate) in a periodic box or a closed one.
    fn evaluate_in<const PERIODIC: bool>(
        &self,
        points: &[Point<D>],
        forces: &mut [[f64; D]],
    ) -> f64 {
        let n = points.len();
        let set: Vec<u32> = (0..n as u32).collect();
        let grid = SortedCells::new(self.layout.clone(), points, &set);
        let sorted = grid.points();
        let originals: Vec<u32> = (0..n).map(|k| grid.original(k)).collect();
        let mut force = vec![[0.0; D]; n];
        let mut energy = 0.0;
        // Which faces each point is within the cutoff of (low and high, a bit per axis; axes
        // past 63 share bit 63): a pair interacts through a mirror image only across a face
        // both points are near. On a torus every pair may interact through more than the
        // nearest image when a side is shorter than twice the cutoff.
        let near: Vec<(u64, u64)> = if PERIODIC {
            let thin = self.sides.iter().any(|&s| s < 2.0 * self.reach);
            vec![if thin { (u64::MAX, u64::MAX) } else { (0, 0) }; n]
        } else {
            sorted.iter().map(|p| self.near_faces(p)).collect()
        };
        let half = self.sides.map(|s| 0.5 * s);
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for (cell, run) in grid.occupied() {
            runs.clear();
            if self.all_pairs {
                runs.push((0, n));
            }
            self.layout.any_key_around(&cell, |key| {
                let r = grid.run(key);
                if !r.is_empty() {
                    runs.push((r.start, r.end));
                }
                false
            });
            for k in run {
                let p = sorted[k];
                let near_k = near[k];
                if !PERIODIC && near_k != (0, 0) {
                    energy += self.self_images(&p, &mut force[k]);
                }
                let mut own = [0.0; D];
                let mut pairs = 0.0;
                for &(from, to) in &runs {
                    for j in from.max(k + 1)..to {
                        let q = &sorted[j];
                        let mut d = [0.0; D];
                        let mut d2 = 0.0;
                        for i in 0..D {
                            let mut delta = p[i] - q[i];
                            if PERIODIC {
                                // The nearest image.
                                if delta > half[i] {
                                    delta -= self.sides[i];
                                } else if delta < -half[i] {
                                    delta += self.sides[i];
                                }
                            }
                            d[i] = delta;
                            d2 += delta * delta;
                        }
                        // Every other image is at least as far as this one.
                        if d2 >= self.reach_squared {
                            continue;
                        }
                        let near_j = near[j];
                        if (near_k.0 & near_j.0) | (near_k.1 & near_j.1) != 0 {
                            pairs += self.pair_images(
                                &p,
                                q,
                                (originals[k], originals[j]),
                                &mut own,
                                &mut force[j],
                            );
                            continue;
                        }
                        if d2 == 0.0 {
                            d = self.apart(originals[k], originals[j]);
                        }
                        let g = kernel_exp(d2 * self.exponent);
                        pairs += g - self.floor;
                        let other = &mut force[j];
                        for i in 0..D {
                            own[i] += d[i] * g;
                            other[i] -= d[i] * g;
                        }
                    }
                }
                energy += 2.0 * pairs;
                for i in 0..D {
                    force[k][i] += own[i];
                }
            }
        }
        for (k, f) in force.into_iter().enumerate() {
            forces[originals[k] as usize] = f;
        }
        energy
    }

    /// The displacement along axis `i` wrapped to the nearest image, in `[−L/2, L/2]`.
    #[inline]
    fn minimum_image(&self, delta: f64, i: usize) -> f64 {
        let side = self.sides[i];
        if delta > 0.5 * side {
            delta - side
        } else if delta < -0.5 * side {
            delta + side
        } else {
            delta
        }
    }

    /// The faces of a closed box a point is within the cutoff of: bit `min(i, 63)` of the
    /// first mask for the lower face of axis `i`, of the second for the upper one.
    fn near_faces(&self, p: &Point<D>) -> (u64, u64) {
        let (mut low, mut high) = (0u64, 0u64);
        for i in 0..D {
            let bit = 1u64 << i.min(63);
            if p[i] < self.reach {
                low |= bit;
            }
            if self.sides[i] - p[i] < self.reach {
                high |= bit;
            }
        }
        (low, high)
    }

    /// A push apart for two coincident points `a` and `b` (original indices), in place of
    /// their displacement: a direction hashed from the pair (each coordinate uniform in
    /// `[−1, 1)`, so that no two points of a coincident cluster get the same net push) of
    /// length up to σ/10, for `a`; its opposite for `b`.
    fn apart(&self, a: u32, b: u32) -> [f64; D] {
        let (lo, hi) = (a.min(b), a.max(b));
        let key = derive_seed(u64::from(lo), u64::from(hi));
        let length = 0.1 * self.sigma / (D as f64).sqrt();
        let sign = if a < b { length } else { -length };
        std::array::from_fn(|i| sign * (2.0 * fraction_of(derive_seed(key, i as u64)) - 1.0))
    }

    /// The per-axis images of `q` as seen from `p` within the cutoff: displacements `p − q'`
    /// and whether `q'` is a mirror image along that axis (its own mirror images' force
    /// along the axis turns with it).
    fn axis_images(&self, u: f64, v: f64, i: usize) -> ([(f64, bool); 3], usize) {
        let side = self.sides[i];
        let mut out = [(0.0, false); 3];
        let mut len = 0;
        let mut add = |delta: f64, mirror: bool| {
            if delta.abs() < self.reach {
                out[len] = (delta, mirror);
                len += 1;
            }
        };
        if self.periodic {
            let delta = self.minimum_image(u - v, i);
            add(delta, false);
            add(if delta >= 0.0 { delta - side } else { delta + side }, false);
            let other = if delta >= 0.0 { delta + side } else { delta - side };
            add(other, false);
        } else {
            add(u - v, false);
            add(u + v, true);
            add(u + v - 2.0 * side, true);
        }
        (out, len)
    }

    /// The interactions of the pair `p`, `q` (original indices `ids`) through every image
    /// within the cutoff, added to the forces on `p` (`own`) and on `q` (`other`); the sum of
    /// their kernels (the energy counts each pair twice).
    fn pair_images(
        &self,
        p: &Point<D>,
        q: &Point<D>,
        ids: (u32, u32),
        own: &mut [f64; D],
        other: &mut [f64; D],
    ) -> f64 {
        let mut lists = [([(0.0, false); 3], 0usize); D];
        for i in 0..D {
            lists[i] = self.axis_images(p[i], q[i], i);
            if lists[i].1 == 0 {
                return 0.0;
            }
        }
        let deltas = lists.map(|(images, _)| images.map(|(delta, _)| delta));
        let lens = lists.map(|(_, len)| len);
        let mut energy = 0.0;
        visit_images(&deltas, &lens, self.reach_squared, |at, d2| {
            let g = kernel_exp(d2 * self.exponent);
            energy += g - self.floor;
            let direct = (0..D).all(|i| !lists[i].0[at[i]].1);
            let push = if d2 == 0.0 && direct { Some(self.apart(ids.0, ids.1)) } else { None };
            for i in 0..D {
                let (delta, mirror) = lists[i].0[at[i]];
                let delta = push.map_or(delta, |a| a[i]);
                own[i] += delta * g;
                // Seen from q, a mirror image's displacement is the same, a translated one's
                // the opposite.
                other[i] += if mirror { delta * g } else { -delta * g };
            }
        });
        energy
    }

    /// The interactions of a point of a closed box with its own mirror images within the
    /// cutoff (not with itself); their energy.
    fn self_images(&self, p: &Point<D>, force: &mut [f64; D]) -> f64 {
        let mut lists = [([0.0f64; 3], 0usize); D];
        for i in 0..D {
            let side = self.sides[i];
            let mut len = 1;
            for delta in [2.0 * p[i], 2.0 * p[i] - 2.0 * side] {
                if delta.abs() < self.reach {
                    lists[i].0[len] = delta;
                    len += 1;
                }
            }
            lists[i].1 = len;
        }
        let deltas = lists.map(|(images, _)| images);
        let lens = lists.map(|(_, len)| len);
        let mut energy = 0.0;
        visit_images(&deltas, &lens, self.reach_squared, |at, d2| {
            // Not the point itself (every axis direct).
            if at.iter().any(|&a| a > 0) {
                let g = kernel_exp(d2 * self.exponent);
                energy += g - self.floor;
                for i in 0..D {
                    force[i] += deltas[i][at[i]] * g;
                }
            }
        });
        energy
    }
}

/// The most image combinations [`visit_images`] visits for one pair: 3^5, every one up to
/// five dimensions.
const MAX_IMAGES: usize = 243;

/// Calls `visit(at, d²)` for the combinations of per-axis images (`deltas[i][at[i]]`,
/// `at[i] < lens[i]`) whose squared length `d²` is below `reach_squared`, depth first with
/// axis 0 outermost, leaving out every combination whose first axes are already that far;
/// stops after [`MAX_IMAGES`] of them (only in six or more dimensions, where a box smaller
/// than the cutoff along many axes puts up to 3^D images within it).
fn visit_images<const D: usize>(
    deltas: &[[f64; 3]; D],
    lens: &[usize; D],
    reach_squared: f64,
    mut visit: impl FnMut(&[usize; D], f64),
) {
    if lens.contains(&0) {
        return;
    }
    let mut at = [0usize; D];
    // partial[i]: the squared length over axes 0..=i.
    let mut partial = [0.0f64; D];
    let mut axis = 0;
    let mut visited = 0;
    loop {
        let below = if axis == 0 { 0.0 } else { partial[axis - 1] };
        let d2 = below + deltas[axis][at[axis]] * deltas[axis][at[axis]];
        if d2 < reach_squared {
            if axis + 1 == D {
                visit(&at, d2);
                visited += 1;
                if visited >= MAX_IMAGES {
                    return;
                }
            } else {
                partial[axis] = d2;
                axis += 1;
                at[axis] = 0;
                continue;
            }
        }
        // The next image along this axis, or back to an earlier axis.
        loop {
            at[axis] += 1;
            if at[axis] < lens[axis] {
                break;
            }
            if axis == 0 {
                return;
            }
            axis -= 1;
        }
    }
}

/// The normalised box: origin 0, sides `sides`.
fn normalised_domain<const D: usize>(sides: &[f64; D], periodic: bool) -> Domain<D> {
    // Normalised sides are at most 1 and at least 1e-200 (the library's lengths are within
    // 1e-100..1e100), which every box accepts.
    let domain =
        Domain::from_origin_and_extent([0.0; D], *sides).unwrap_or_else(|_| Domain::unit());
    if periodic { domain.periodic() } else { domain }
}

/// `exp(x)` for `−700 ≤ x ≤ 0` (the kernel's arguments lie in `(−8, 0]`), to within a few units in the last place, from
/// additions and multiplications only: the same bits on every platform (unlike the system's
/// `exp`), and inlined into the pair loop. `x = k·ln 2 + r` with `|r| ≤ ln 2 / 2`, `e^r` by
/// its Taylor series to degree 12 (truncation below 2·10^-16), times `2^k`.
#[inline(always)]
fn kernel_exp(x: f64) -> f64 {
    // Round to nearest by adding and removing 1.5·2^52.
    const ROUND: f64 = (3u64 << 51) as f64;
    const LN2_HI: f64 = 0.693_147_180_369_123_8;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    debug_assert!((-700.0..=0.0).contains(&x));
    let k = (x * std::f64::consts::LOG2_E + ROUND) - ROUND;
    let r = (x - k * LN2_HI) - k * LN2_LO;
    // Horner's rule on the Taylor coefficients 1/m!, m = 12 down to 0.
    let mut p = INVERSE_FACTORIALS[12];
    for m in (0..12).rev() {
        p = p * r + INVERSE_FACTORIALS[m];
    }
    // 2^k for −1010 ≤ k ≤ 0: a normal number.
    p * power_of_two(k as i32)
}

/// `1/m!` for `m = 0..=12`.
const INVERSE_FACTORIALS: [f64; 13] = [
    1.0,
    1.0,
    1.0 / 2.0,
    1.0 / 6.0,
    1.0 / 24.0,
    1.0 / 120.0,
    1.0 / 720.0,
    1.0 / 5040.0,
    1.0 / 40320.0,
    1.0 / 362_880.0,
    1.0 / 3_628_800.0,
    1.0 / 39_916_800.0,
    1.0 / 479_001_600.0,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The portable exponential agrees with the system's to a few units in the last place
    /// over the kernel's range.
    #[test]
    fn kernel_exp_is_accurate() {
        let mut worst = 0.0f64;
        for k in 0..=80_000 {
            let x = -8.0 * k as f64 / 80_000.0;
            let (ours, system) = (kernel_exp(x), x.exp());
            worst = worst.max(((ours - system) / system).abs());
        }
        assert!(worst < 1e-15, "relative error {worst}");
        assert_eq!(kernel_exp(0.0), 1.0);
    }

    /// The spacing of a thin slab is that of its longer sides.
    #[test]
    fn mean_spacing_of_slabs() {
        assert!((mean_spacing(&[1.0, 1.0], 100) - 0.1).abs() < 1e-15);
        assert!((mean_spacing(&[1.0, 1e-3], 100) - 0.01).abs() < 1e-15);
        assert!((mean_spacing(&[1.0, 1e-200, 1e-200], 10) - 0.1).abs() < 1e-15);
        assert!((mean_spacing(&[0.5], 1) - 0.5).abs() < 1e-15);
    }
}
