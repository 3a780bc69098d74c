//! Bridson's algorithm chunk by chunk, on all cores, with the same points for every thread
//! count.

use super::cells::{CellKey, Cells, check_chunk_side, whole_chunks};
use super::engine::{CellPoints, Engine};
use super::fill::RunSettings;
use super::{chunks_in, default_chunk_side, min_chunk_side};
use crate::config::{Builder, Capabilities, Config};
use crate::domain::Domain;
use crate::error::Error;
use crate::sampler::{FillSampler, PointSet, Sampler, StopReason, Watch};
use rand::Rng;

/// Poisson-disk sampling of a box by the chunk engine of [`chunked`](crate::chunked): the box
/// is cut into chunks and the cells around them (chunk interiors, then face slabs, …, corner
/// boxes) are each filled by Bridson's algorithm given the cells of lower strata next to
/// them. Cells of one stratum never conflict, so they are filled in parallel (feature
/// `rayon`; [`with_threads`](ChunkedBridsonBuilder::with_threads) picks the thread count,
/// default all cores), and since each cell's generator is seeded from the run's seed and the
/// cell alone, the points are bit-identical for every thread count.
///
/// Every pair keeps the radius (closed or periodic box). A run draws one `u64` from the
/// generator it is given as its seed. The points come cell by cell, cells in key order;
/// [`sample`](Sampler::sample) with `n` below the fill keeps the first `n` of them (a part of
/// the box, not a thinner cover).
///
/// ```
/// use poisson_nd::{ChunkedBridson, Domain, FillSampler};
/// let sampler = ChunkedBridson::builder(Domain::<2>::unit(), 0.01).with_threads(2).build()?;
/// let one = ChunkedBridson::builder(Domain::<2>::unit(), 0.01).with_threads(1).build()?;
/// assert_eq!(sampler.fill_seeded(7).points, one.fill_seeded(7).points);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ChunkedBridson<const D: usize> {
    domain: Domain<D>,
    settings: RunSettings,
    cells: Cells<D>,
    /// Chunks along each axis.
    chunks: [i64; D],
    threads: Option<usize>,
    max_points: usize,
    watch: Option<Watch>,
    /// The options it was built with, for [`to_builder`](Self::to_builder).
    options: ChunkedBridsonOptions,
}

/// The chunked sampler's own options, beside the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ChunkedBridsonOptions {
    chunk_side: Option<f64>,
    threads: Option<usize>,
}

/// Settings of a [`ChunkedBridson`], made by [`ChunkedBridson::builder`]: the shared ones
/// ([`Builder`]: `k`, the point limit) and the chunk side and thread count.
pub type ChunkedBridsonBuilder<const D: usize> = Builder<D, ChunkedBridsonOptions>;

impl<const D: usize> Builder<D, ChunkedBridsonOptions> {
    /// Sets the chunk side (default [`default_chunk_side`]; at least [`min_chunk_side`]). In
    /// a periodic box the side is rounded up so that whole chunks tile it (a side that tiles
    /// it but for rounding stays), or down to half the box where that is more (a torus needs
    /// two chunks per axis, each at least [`min_chunk_side`]).
    #[must_use]
    pub fn with_chunk_side(mut self, side: f64) -> Self {
        self.options.chunk_side = Some(side);
        self
    }

    /// Runs on `threads` threads (default: rayon's global pool, all cores). The points do
    /// not depend on it. Without the `rayon` feature every run is on the calling thread.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.options.threads = Some(threads);
        self
    }

    /// Checks the settings. Errors: the radius (as [`Bridson`](crate::Bridson)'s), zero attempts, zero
    /// threads or points, a chunk side below [`min_chunk_side`], a periodic box with fewer
    /// than two chunks along an axis.
    pub fn build(self) -> Result<ChunkedBridson<D>, Error> {
        let checked = self.config.check("chunked-bridson", &ChunkedBridson::<D>::CAPABILITIES)?;
        checked.check_budget()?;
        let settings = RunSettings::new(checked.radius, checked.attempts);
        if self.options.threads == Some(0) {
            return Err(Error::ZeroCount("threads"));
        }
        let r = checked.radius;
        let target = self.options.chunk_side.unwrap_or_else(|| default_chunk_side(D, r));
        check_chunk_side::<D>(target, r)?;
        let min = min_chunk_side(D, r);
        let domain = checked.domain;
        let extent = domain.extent();
        let mut side = [target; D];
        let mut chunks = [0i64; D];
        for i in 0..D {
            if domain.is_periodic() {
                // Two chunks at least, as long as they are not below the smallest side.
                let n = whole_chunks(extent[i], target).max(2.0);
                if extent[i] / n < min {
                    return Err(Error::TorusNotTiled { axis: i, extent: extent[i], side: target });
                }
                side[i] = extent[i] / n;
                chunks[i] = n as i64;
            } else {
                chunks[i] = (extent[i] / target).ceil().max(1.0) as i64;
            }
        }
        // A torus's sides are its extent over whole chunks, longer than the target: each
        // passes the same check (a cell's grid must stay within 1e100).
        for &side in &side {
            check_chunk_side::<D>(side, r)?;
        }
        Ok(ChunkedBridson {
            cells: Cells::new(*domain.origin(), side, r),
            domain,
            settings,
            chunks,
            threads: self.options.threads,
            max_points: checked.max_points,
            watch: checked.watch,
            options: self.options,
        })
    }
}

impl<const D: usize> ChunkedBridson<D> {
    /// What the chunked sampler supports: a radius, closed and periodic boxes, `k`, every
    /// dimension. No radius field or region: the chunk engine decides each cell from the
    /// cells of lower strata next to it within a fixed reach of the one radius; regions and
    /// fields would need the engine's cells to carry them (not done yet).
    pub const CAPABILITIES: Capabilities = Capabilities {
        radius: true,
        field: false,
        region: false,
        periodic: true,
        attempts: true,
        grid: false,
        min_dimension: 1,
        max_dimension: usize::MAX,
    };

    /// The configuration this sampler was built from, to change and build again.
    pub fn to_builder(&self) -> ChunkedBridsonBuilder<D> {
        let mut config = Config::new(self.domain, Some(self.settings.radius));
        config.attempts = Some(self.settings.rules.attempts);
        config.max_points = self.max_points;
        config.watch = self.watch.clone();
        Builder { config, options: self.options }
    }

    /// A sampler of `domain` at `radius`, to be set up further.
    pub fn builder(domain: Domain<D>, radius: f64) -> ChunkedBridsonBuilder<D> {
        Builder::from_defaults(domain, Some(radius), ChunkedBridsonOptions::default())
    }

    /// A sampler of `domain` at `radius` with the default settings.
    pub fn new(domain: Domain<D>, radius: f64) -> Result<Self, Error> {
        Self::builder(domain, radius).build()
    }

    /// The radius.
    pub fn radius(&self) -> f64 {
        self.settings.radius
    }

    /// The chunk side along each axis.
    pub fn chunk_side(&self) -> &[f64; D] {
        self.cells.side()
    }

    /// The thread count asked for (`None`: all cores).
    pub fn threads(&self) -> Option<usize> {
        self.threads
    }

    /// Every cell of the box, decided with `seed`: the points, in key order, the attempts, and
    /// whether the progress hook stopped the run (the cells not decided then hold none).
    fn decide_all(&self, seed: u64) -> (Vec<crate::point::Point<D>>, u64, bool) {
        let periodic = self.domain.is_periodic();
        let engine = Engine {
            cells: self.cells.clone(),
            settings: self.settings,
            clip: (!periodic).then_some(self.domain),
            torus: periodic.then(|| self.chunks.map(|n| 2 * n)),
            seed,
        };
        // Keys 0 ..= 2n in a closed box (the outer planes' slabs hold the points near the
        // faces), 0 .. 2n on a torus.
        let hi: CellKey<D> = self.chunks.map(|n| if periodic { 2 * n } else { 2 * n + 1 });
        let keys = chunks_in([0; D], hi);
        // A cell of a closed box whose bounding box misses the box keeps no point (a cell
        // keeps only points inside the box), so it is known to be empty rather than decided:
        // the same points, and the engine does not walk the dependencies of the cells past
        // the faces outward (up to (2n + 1 + 2D)^D keys: 13 s in 6D and over ten minutes in
        // 7D for a box of one chunk), nor decide the 3^D − 2^D cells of a box much smaller
        // than its one chunk that lie beyond its upper faces.
        let (origin, extent) = (self.domain.origin(), self.domain.extent());
        let misses_the_box = |key: &CellKey<D>| {
            let shape = self.cells.shape(key);
            (0..D).any(|i| {
                shape.outer_high[i] < origin[i] || shape.outer_low[i] >= origin[i] + extent[i]
            })
        };
        let empty = CellPoints::<D>::default();
        let known = |key: &CellKey<D>| (!periodic && misses_the_box(key)).then(|| empty.clone());
        let (decided, attempts, cancelled) =
            engine.decide(keys.iter().copied(), known, self.watch.as_ref());
        let mut points = Vec::with_capacity(decided.values().map(|p| p.len()).sum());
        for key in &keys {
            for p in decided.get(key).into_iter().flat_map(|points| points.iter()) {
                match self.domain.wrap(p) {
                    Some(q) => points.push(q),
                    None => continue,
                }
            }
        }
        (points, attempts, cancelled)
    }
}

impl<const D: usize> Sampler<D> for ChunkedBridson<D> {
    fn name(&self) -> &'static str {
        "chunked-bridson"
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn min_distance(&self) -> Option<f64> {
        Some(self.radius())
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let seed = super::world_seed(rng);
        let (mut points, attempts, cancelled) = match self.threads {
            #[cfg(feature = "rayon")]
            Some(threads) => match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) => pool.install(|| self.decide_all(seed)),
                Err(_) => self.decide_all(seed),
            },
            _ => self.decide_all(seed),
        };
        let target = n.min(self.max_points);
        let stop = if cancelled {
            points.truncate(target);
            StopReason::Cancelled
        } else if points.len() > target {
            points.truncate(target);
            if target < n { StopReason::PointLimit } else { StopReason::TargetReached }
        } else {
            StopReason::Exhausted
        };
        PointSet::new(points, self.domain, stop, attempts)
    }

    fn try_fill<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<PointSet<D>> {
        Some(self.fill(rng))
    }
}

impl<const D: usize> FillSampler<D> for ChunkedBridson<D> {
    fn fill<R: Rng + ?Sized>(&self, rng: &mut R) -> PointSet<D> {
        self.sample(usize::MAX, rng)
    }
}
