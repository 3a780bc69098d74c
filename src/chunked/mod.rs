//! Deterministic chunked worlds: Poisson-disk points decided chunk by chunk, so that the points
//! of a chunk are a pure function of the seed, the settings and the chunk's coordinates.
//!
//! Space is cut into chunks of side `L`; around the chunk planes it is split into cells of
//! `D + 1` strata (chunk interiors, face slabs, …, corner boxes; see src/chunked/cells.rs and
//! docs/algorithms.md, "Chunked worlds"). Cells of one stratum never conflict, and a cell is
//! decided by Bridson's algorithm given the cells of lower strata next to it. A chunk's points
//! are those of the cells that overlap it, so they depend on nothing but a bounded
//! neighbourhood (the chunks around it), whatever was generated before and in whatever order;
//! the union of any chunks keeps the minimum distance across their borders.
//!
//! - [`World`]: chunks on request, unbounded or inside a box (closed, or a torus tiled by
//!   whole chunks), with a bounded cache of decided cells for streaming;
//! - [`ChunkedBridson`]: a sampler that fills a finite box with the
//!   same engine, the cells of each stratum on all cores (feature `rayon`), with the same
//!   points for every thread count.

pub(crate) mod cells;
pub(crate) mod engine;
pub(crate) mod fill;
mod sampler;
mod stages;

pub use cells::min_chunk_side;
pub use sampler::{ChunkedBridson, ChunkedBridsonBuilder, ChunkedBridsonOptions};
pub use stages::{CellMap, Stages};

use crate::domain::Domain;
use crate::error::Error;
use crate::point::Point;
use crate::sampler::{Progress, Watch};
use cells::{CellKey, Cells};
use engine::{CellPoints, Engine};
use fill::RunSettings;
use std::collections::HashMap;

/// The chunk side used when none is given: 64 radii in 1D and 2D, 32 radii from 3D on, or
/// the smallest side allowed when that is more (from 22D on). Larger chunks spend less on
/// seams (the interiors' runs past their walls and the seams' fronts) but leave fewer chunks
/// for the cores. A 2D point is cheap, so there the seams weigh most: at 10^6 points one
/// thread costs 1.33× plain Bridson with 32 r and 1.21× with 64 r; in 3D 32 r costs 1.1×
/// already, and larger chunks would leave a 10^6-point cube too few (docs/performance.md).
/// Short enough, where the smallest side allows, that a cell's grid (its chunk grown by 2.5
/// radii) stays within 1e100, the longest length (radii above 1.5e98).
pub fn default_chunk_side(dim: usize, radius: f64) -> f64 {
    let radii = if dim <= 2 { 64.0 } else { 32.0 };
    let most = crate::limits::MAX_LENGTH - cells::CELL_GROWTH * radius;
    (radii * radius).min(most).max(min_chunk_side(dim, radius))
}

/// The seed of the world whose cells a [`ChunkedBridson`] run with `rng` decides (the
/// generator's first word): the run's points are those of a [`World`] with this seed, the
/// run's box ([`WorldBuilder::with_box`]) and chunk side, over the chunks of the box.
pub fn world_seed<R: rand::Rng + ?Sized>(rng: &mut R) -> u64 {
    rng.next_u64()
}

/// A chunk's coordinates and its points.
pub type ChunkPoints<const D: usize> = ([i64; D], Vec<Point<D>>);

/// What a [`World`] has done so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WorldStats {
    /// Cells decided (Bridson runs), including those decided again after eviction.
    pub cells_decided: u64,
    /// Cells taken from the cache instead of being decided.
    pub cache_hits: u64,
    /// Cells in the cache now.
    pub cached_cells: usize,
}

/// Settings of a [`World`], made by [`World::builder`].
#[derive(Debug, Clone)]
pub struct WorldBuilder<const D: usize> {
    radius: f64,
    seed: u64,
    chunk_side: Option<f64>,
    attempts: u32,
    origin: Point<D>,
    bounds: Option<Domain<D>>,
    cache_cells: usize,
    max_points: usize,
    watch: Option<Watch>,
}

impl<const D: usize> WorldBuilder<D> {
    /// Sets the most points one chunk may hold (default
    /// [`defaults::MAX_POINTS`](crate::defaults::MAX_POINTS)): `build` refuses a radius whose
    /// densest packing of one chunk could pass it ([`Error::TooManyPoints`], with the points
    /// and bytes it would take), so that no request starts on more than that per chunk.
    #[must_use]
    pub fn with_max_points(mut self, max_points: usize) -> Self {
        self.max_points = max_points;
        self
    }

    /// Sets the chunk side (default [`default_chunk_side`]); it must be at least
    /// [`min_chunk_side`] and at most 1e100 (a length, [`Error::OutOfRange`] past it).
    #[must_use]
    pub fn with_chunk_side(mut self, side: f64) -> Self {
        self.chunk_side = Some(side);
        self
    }

    /// Sets Bridson's candidates per active point (default
    /// [`defaults::ATTEMPTS`](crate::defaults::ATTEMPTS)).
    #[must_use]
    pub fn with_attempts(mut self, k: u32) -> Self {
        self.attempts = k;
        self
    }

    /// Moves the chunk lattice: chunk `c` covers `[origin + c·L, origin + (c+1)·L)` (default
    /// the zero point). A box ([`with_box`](Self::with_box)) sets it to the box's origin.
    #[must_use]
    pub fn with_origin(mut self, origin: Point<D>) -> Self {
        self.origin = origin;
        self
    }

    /// Confines the world to a box, its chunks starting at the box's origin. A closed box
    /// holds points inside it only (chunks past it are empty); a periodic box is a torus,
    /// which whole chunks must tile, at least two along every axis (its chunks are the
    /// `0 ≤ c < n`, and distances wrap).
    #[must_use]
    pub fn with_box(mut self, domain: Domain<D>) -> Self {
        self.origin = *domain.origin();
        self.bounds = Some(domain);
        self
    }

    /// Calls `hook` after every cell a request decides, with the share of the request done
    /// ([`Watch`]); when it asks to stop, the request is [`Error::Cancelled`] and keeps
    /// nothing it decided.
    #[must_use]
    pub fn with_progress(
        mut self,
        hook: impl Fn(Progress) -> std::ops::ControlFlow<()> + Send + Sync + 'static,
    ) -> Self {
        self.watch = Some(Watch::new(hook));
        self
    }

    /// Sets how many decided cells the world keeps (default [`defaults::WORLD_CACHE_CELLS`](crate::defaults::WORLD_CACHE_CELLS)); the
    /// least recently used go first. 0 keeps none: every request decides all it needs.
    #[must_use]
    pub fn with_cache_cells(mut self, cells: usize) -> Self {
        self.cache_cells = cells;
        self
    }

    /// Checks the settings. Errors: a radius that is not finite and positive, zero attempts,
    /// a chunk side below [`min_chunk_side`] (or not finite) or above 1e100, a non-finite
    /// origin, a periodic box that whole chunks (two or more per axis) do not tile.
    pub fn build(self) -> Result<World<D>, Error> {
        let radius = self.radius;
        crate::limits::check_radius(radius)?;
        crate::limits::check_length("the radius", radius)?;
        if self.attempts == 0 {
            return Err(Error::ZeroCount("attempts"));
        }
        for (axis, &value) in self.origin.iter().enumerate() {
            if !value.is_finite() {
                return Err(Error::InvalidOrigin { axis, value });
            }
            crate::limits::check_coordinate("the world's origin", value)?;
            crate::limits::check_radius_for_scale("the radius", radius, value.abs())?;
        }
        let side = self.chunk_side.unwrap_or_else(|| default_chunk_side(D, radius));
        cells::check_chunk_side::<D>(side, radius)?;
        // One chunk at the densest packing must fit the point limit.
        crate::config::check_point_limit(self.max_points)?;
        let chunk = Domain::from_origin_and_extent([0.0; D], [side; D])?;
        crate::config::check_point_budget(&chunk, radius, self.max_points)?;
        let mut sides = [side; D];
        let mut torus = None;
        let mut clip = None;
        if let Some(domain) = self.bounds {
            if domain.is_periodic() {
                let mut keys = [0i64; D];
                for i in 0..D {
                    let extent = domain.extent()[i];
                    let n = cells::whole_chunks(extent, side);
                    if n < 2.0 || (n * side - extent).abs() > cells::TILING_SLACK * extent {
                        return Err(Error::TorusNotTiled { axis: i, extent, side });
                    }
                    sides[i] = extent / n;
                    keys[i] = 2 * n as i64;
                }
                torus = Some(keys);
            } else {
                clip = Some(domain);
            }
        }
        let engine = Engine {
            cells: Cells::new(self.origin, sides, radius),
            settings: RunSettings::new(radius, self.attempts),
            clip,
            torus,
            seed: self.seed,
        };
        Ok(World {
            engine,
            bounds: self.bounds,
            cache: HashMap::new(),
            cache_cells: self.cache_cells,
            tick: 0,
            stats: WorldStats::default(),
            watch: self.watch,
        })
    }
}

/// A deterministic chunked Poisson-disk world.
///
/// The points of chunk `c` (the half-open box `[o + c·L, o + (c+1)·L)`) depend only on the
/// seed, the settings and `c`: asked alone or after any other chunks, in any order, in one
/// call or many, on any machine and thread count, they are bit-identical. The union of any
/// chunks keeps the radius across chunk borders. Decided cells are cached (bounded, least
/// recently used out), so a viewer walking through the world pays about the chunks it shows.
///
/// ```
/// use poisson_nd::chunked::World;
/// let mut world = World::<2>::builder(0.5, 9).with_chunk_side(8.0).build()?;
/// let far = world.chunk([-3, 7])?;
/// let origin = world.chunk([0, 0])?;
/// // A fresh world asked in the other order gives the same points.
/// let mut again = World::<2>::builder(0.5, 9).with_chunk_side(8.0).build()?;
/// assert_eq!(again.chunk([0, 0])?, origin);
/// assert_eq!(again.chunk([-3, 7])?, far);
/// assert!(origin.iter().all(|p| (0.0..8.0).contains(&p[0]) && (0.0..8.0).contains(&p[1])));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug)]
pub struct World<const D: usize> {
    engine: Engine<D>,
    bounds: Option<Domain<D>>,
    cache: HashMap<CellKey<D>, (CellPoints<D>, u64)>,
    cache_cells: usize,
    tick: u64,
    stats: WorldStats,
    watch: Option<Watch>,
}

impl<const D: usize> World<D> {
    /// A world of Poisson-disk radius `radius` seeded with `seed`, to be set up further.
    pub fn builder(radius: f64, seed: u64) -> WorldBuilder<D> {
        WorldBuilder {
            radius,
            seed,
            chunk_side: None,
            attempts: crate::defaults::ATTEMPTS,
            origin: [0.0; D],
            bounds: None,
            cache_cells: crate::defaults::WORLD_CACHE_CELLS,
            max_points: crate::defaults::MAX_POINTS,
            watch: None,
        }
    }

    /// The chunk side along each axis (on a torus, the box's side over its chunk count).
    pub fn chunk_side(&self) -> &[f64; D] {
        self.engine.cells.side()
    }

    /// The Poisson-disk radius.
    pub fn radius(&self) -> f64 {
        self.engine.settings.radius
    }

    /// The chunk holding `p` (not wrapped on a torus).
    pub fn chunk_of(&self, p: &Point<D>) -> [i64; D] {
        self.engine.cells.chunk_of(p)
    }

    /// The chunks along each axis of a torus; `None` for other worlds.
    pub fn torus_chunks(&self) -> Option<[i64; D]> {
        self.engine.torus.map(|keys| keys.map(|k| k / 2))
    }

    /// What the world has done so far.
    pub fn stats(&self) -> WorldStats {
        WorldStats { cached_cells: self.cache.len(), ..self.stats }
    }

    /// Forgets every decided cell (the points asked for later are the same).
    pub fn clear_cache(&mut self) {
        self.cache.clear();
    }

    /// The points of chunk `c`, in a fixed order. Errors: on a torus, a chunk outside it.
    pub fn chunk(&mut self, c: [i64; D]) -> Result<Vec<Point<D>>, Error> {
        Ok(self.chunks(&[c])?.pop().unwrap_or_default())
    }

    /// The points of each chunk of `chunks`, in that order, decided together (the cells
    /// of each stratum in parallel with the `rayon` feature).
    pub fn chunks(&mut self, chunks: &[[i64; D]]) -> Result<Vec<Vec<Point<D>>>, Error> {
        if let Some(n) = self.torus_chunks()
            && let Some(c) = chunks.iter().find(|c| (0..D).any(|i| c[i] < 0 || c[i] >= n[i]))
        {
            return Err(Error::ChunkOutsideTorus { chunk: c.to_vec(), chunks: n.to_vec() });
        }
        // Without a box, the cells a chunk's points come from (those over it and the seams
        // around, each grown by the radius) must lie within the limit of every coordinate:
        // the chunk grown by a chunk side and 2.5 radii on each side. (With a box every cell
        // is cut to the box.)
        if self.bounds.is_none() {
            let side = self.engine.cells.side();
            let reach = |i: usize| side[i] + cells::CELL_GROWTH * self.radius();
            for c in chunks {
                let (low, high) = self.engine.cells.chunk_bounds(c);
                for i in 0..D {
                    let name = "a requested chunk's cells (the chunk grown by a chunk side)";
                    crate::limits::check_coordinate(name, low[i] - reach(i))?;
                    crate::limits::check_coordinate(name, high[i] + reach(i))?;
                }
            }
        }
        let wanted: Vec<CellKey<D>> = chunks.iter().flat_map(cells_over).collect();
        self.tick += 1;
        let tick = self.tick;
        let (cache, stats) = (&mut self.cache, &mut self.stats);
        let known = |key: &CellKey<D>| {
            let (points, used) = cache.get_mut(key)?;
            *used = tick;
            stats.cache_hits += 1;
            Some(CellPoints::clone(points))
        };
        let (mut decided, _, cancelled) = self.engine.decide(wanted, known, self.watch.as_ref());
        if cancelled {
            return Err(Error::Cancelled);
        }
        let lookup = |key: &CellKey<D>| decided.get(key).map(|points| points.as_slice());
        let out = chunks
            .iter()
            .map(|c| points_of_chunk(&self.engine, self.bounds.as_ref(), c, lookup))
            .collect();
        // Keep what was decided, then drop the least recently used beyond the capacity.
        for (key, points) in decided.drain() {
            if let std::collections::hash_map::Entry::Vacant(slot) = self.cache.entry(key) {
                self.stats.cells_decided += 1;
                slot.insert((points, tick));
            }
        }
        self.evict();
        Ok(out)
    }

    /// The chunks `lo ≤ c < hi` (on every axis), in lexicographic order (last axis fastest),
    /// each with its points.
    pub fn range(&mut self, lo: [i64; D], hi: [i64; D]) -> Result<Vec<ChunkPoints<D>>, Error> {
        let chunks = chunks_in(lo, hi);
        let points = self.chunks(&chunks)?;
        Ok(chunks.into_iter().zip(points).collect())
    }

    /// Drops the least recently used cells beyond the capacity.
    fn evict(&mut self) {
        if self.cache.len() <= self.cache_cells {
            return;
        }
        let mut ages: Vec<(u64, CellKey<D>)> =
            self.cache.iter().map(|(key, (_, used))| (*used, *key)).collect();
        ages.sort_unstable();
        let excess = self.cache.len() - self.cache_cells;
        for (_, key) in ages.into_iter().take(excess) {
            self.cache.remove(&key);
        }
    }
}

/// Chunk `c`'s points among decided cells (`lookup` finds a canonical cell's points): those
/// of the cells over it that lie in it (wrapped on a torus), cell by cell in key order.
fn points_of_chunk<'a, const D: usize>(
    engine: &Engine<D>,
    bounds: Option<&Domain<D>>,
    c: &[i64; D],
    lookup: impl Fn(&CellKey<D>) -> Option<&'a [Point<D>]>,
) -> Vec<Point<D>> {
    let mut out = Vec::new();
    for key in cells_over(c) {
        let Some(points) = lookup(&engine.canonical(&key).0) else { continue };
        for p in points {
            let p = match bounds {
                Some(domain) if domain.is_periodic() => match domain.wrap(p) {
                    Some(q) => q,
                    None => continue,
                },
                _ => *p,
            };
            if engine.cells.chunk_of(&p) == *c {
                out.push(p);
            }
        }
    }
    out
}

/// The keys of the cells that overlap chunk `c`: `2c_i`, `2c_i + 1`, `2c_i + 2` per axis, in
/// lexicographic order.
pub(crate) fn cells_over<const D: usize>(c: &[i64; D]) -> Vec<CellKey<D>> {
    let lo: [i64; D] = std::array::from_fn(|i| 2 * c[i]);
    let hi: [i64; D] = std::array::from_fn(|i| 2 * c[i] + 3);
    chunks_in(lo, hi)
}

/// The integer points `lo ≤ c < hi`, in lexicographic order (last axis fastest).
pub(crate) fn chunks_in<const D: usize>(lo: [i64; D], hi: [i64; D]) -> Vec<[i64; D]> {
    if (0..D).any(|i| lo[i] >= hi[i]) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut c = lo;
    loop {
        out.push(c);
        let mut i = D;
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            c[i] += 1;
            if c[i] < hi[i] {
                break;
            }
            c[i] = lo[i];
        }
    }
}
