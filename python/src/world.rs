//! `World`: the deterministic chunked world of `experiments world`, chunk by chunk or block
//! by block, for any dimension behind one Python class.

use crate::arrays::points_array;
use crate::stages::{AnyStages, Block, WorldStages, block_arrays, on_pool};
use crate::{Interrupt, dim_error, value_error, whole};
use experiments::with_dim;
use experiments::world::{ChunkRequest, SettingNames, WorldSettings, check_reach};
use numpy::PyArray2;
use poisson_nd::chunked::{ChunkPoints, World as Chunked};
use poisson_nd::{Error, Point};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use std::sync::Arc;

/// What errors call the settings: the constructor's parameters.
const NAMES: SettingNames = SettingNames {
    radius: "radius",
    k: "k",
    chunk_side: "chunk_side",
    extent: "l_bounds/u_bounds",
    periodic: "periodic",
    max_points: "max_points",
};

/// One dimension's world with the origin of its chunk lattice and the threads its requests
/// run on.
struct Inner<const D: usize> {
    world: Chunked<D>,
    origin: Point<D>,
    pool: Option<Arc<rayon::ThreadPool>>,
}

/// Chunk coordinates from Python, `D` of them.
fn chunk<const D: usize>(c: &[i64], what: &str) -> PyResult<[i64; D]> {
    c.try_into()
        .map_err(|_| value_error(format!("{what} must have {D} coordinates, got {}", c.len())))
}

trait AnyWorld: Send + Sync {
    fn dim(&self) -> usize;
    fn chunks<'py>(
        &mut self,
        py: Python<'py>,
        stop: &Interrupt,
        list: &[Vec<i64>],
    ) -> PyResult<Vec<Bound<'py, PyArray2<f64>>>>;
    fn block<'py>(
        &mut self,
        py: Python<'py>,
        stop: &Interrupt,
        lo: &[i64],
        hi: &[i64],
    ) -> PyResult<Block<'py>>;
    fn chunk_of(&self, p: &[f64]) -> PyResult<Vec<i64>>;
    fn stages(&self, lo: &[i64], hi: &[i64], block: &[i64]) -> PyResult<Box<dyn AnyStages>>;
    fn chunk_side(&self) -> Vec<f64>;
    fn torus_chunks(&self) -> Option<Vec<i64>>;
    fn stats(&self) -> (u64, u64, usize);
    fn clear_cache(&mut self);
}

/// The library's error for a request: a cancelled one is Ctrl-C's.
fn request_error(e: Error) -> PyErr {
    match e {
        Error::Cancelled => PyKeyboardInterrupt::new_err("the request was interrupted"),
        other => value_error(other),
    }
}

impl<const D: usize> Inner<D> {
    /// The chunks of `request` with their points, as `experiments world` checks and
    /// decides them, on a worker thread that Ctrl-C stops.
    fn request(
        &mut self,
        py: Python<'_>,
        stop: &Interrupt,
        request: ChunkRequest<D>,
    ) -> PyResult<Vec<ChunkPoints<D>>> {
        if self.world.torus_chunks().is_none() {
            check_reach(&self.world, &self.origin, &request).map_err(value_error)?;
        }
        let (world, pool) = (&mut self.world, self.pool.as_deref());
        let decided = crate::interruptible(py, &[stop], || {
            on_pool(pool, || match &request {
                ChunkRequest::List(list) => {
                    world.chunks(list).map(|points| list.iter().copied().zip(points).collect())
                }
                ChunkRequest::Range { lo, hi } => world.range(*lo, *hi),
            })
        })?;
        decided.map_err(request_error)
    }
}

impl<const D: usize> AnyWorld for Inner<D> {
    fn dim(&self) -> usize {
        D
    }

    fn chunks<'py>(
        &mut self,
        py: Python<'py>,
        stop: &Interrupt,
        list: &[Vec<i64>],
    ) -> PyResult<Vec<Bound<'py, PyArray2<f64>>>> {
        let list: Vec<[i64; D]> =
            list.iter().map(|c| chunk::<D>(c, "a chunk")).collect::<PyResult<_>>()?;
        let chunks = self.request(py, stop, ChunkRequest::List(list))?;
        chunks.into_iter().map(|(_, p)| points_array(py, p)).collect()
    }

    fn block<'py>(
        &mut self,
        py: Python<'py>,
        stop: &Interrupt,
        lo: &[i64],
        hi: &[i64],
    ) -> PyResult<Block<'py>> {
        let (lo, hi) = (chunk::<D>(lo, "lo")?, chunk::<D>(hi, "hi")?);
        if let Some(i) = (0..D).find(|&i| lo[i] >= hi[i]) {
            return Err(value_error(format!(
                "the block {lo:?}..{hi:?} is empty along axis {i} (hi is excluded)"
            )));
        }
        let chunks = self.request(py, stop, ChunkRequest::Range { lo, hi })?;
        block_arrays(py, chunks)
    }

    fn stages(&self, lo: &[i64], hi: &[i64], block: &[i64]) -> PyResult<Box<dyn AnyStages>> {
        let (lo, hi) = (chunk::<D>(lo, "lo")?, chunk::<D>(hi, "hi")?);
        let block = chunk::<D>(block, "block")?;
        if self.world.torus_chunks().is_none() {
            let request = ChunkRequest::Range { lo, hi };
            check_reach(&self.world, &self.origin, &request).map_err(value_error)?;
        }
        Ok(Box::new(self.world.stages(lo, hi, block).map_err(value_error)?))
    }

    fn chunk_of(&self, p: &[f64]) -> PyResult<Vec<i64>> {
        let point = crate::arrays::point::<D>(p, "point")?;
        // Where the world's chunks can be asked for (`check_reach`): a point beyond, or not
        // a number, has no chunk to name (its index would saturate).
        let limit = experiments::world::REACH_IN_RADII * self.world.radius();
        if let Some(i) = (0..D).find(|&i| !point[i].is_finite() || point[i].abs() > limit) {
            return Err(value_error(format!(
                "point: coordinate {i} is {}, not within 10^8 radii ({}) of 0, where the \
                 world's chunks lie",
                poisson_nd::error::Short::of(&point[i]),
                experiments::format::short(limit)
            )));
        }
        Ok(self.world.chunk_of(&point).to_vec())
    }

    fn chunk_side(&self) -> Vec<f64> {
        self.world.chunk_side().to_vec()
    }

    fn torus_chunks(&self) -> Option<Vec<i64>> {
        self.world.torus_chunks().map(|c| c.to_vec())
    }

    fn stats(&self) -> (u64, u64, usize) {
        let s = self.world.stats();
        (s.cells_decided, s.cache_hits, s.cached_cells)
    }

    fn clear_cache(&mut self) {
        self.world.clear_cache();
    }
}

/// An endless (or boxed) Poisson-disk world decided chunk by chunk: the same settings give
/// the same points in every chunk, whatever is asked first, and exactly the points
/// `experiments world` writes for them.
#[pyclass(module = "poisson_nd")]
pub struct World {
    inner: Box<dyn AnyWorld>,
    settings: WorldSettings,
    interrupt: Interrupt,
    /// The threads the world's requests run on (`None`: all cores).
    threads: Option<usize>,
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World").field("settings", &self.settings).finish_non_exhaustive()
    }
}

impl World {
    /// Runs a request: a Ctrl-C or a failed request is raised.
    fn finish<T>(&self, result: PyResult<T>) -> PyResult<T> {
        self.interrupt.take();
        result
    }
}

#[pymethods]
impl World {
    /// The world of dimension `d`, minimum distance `radius` and `seed`, with Bridson's `k`
    /// and the chunk side `chunk_side` (defaults as `experiments world`). Confined to the box
    /// `[l_bounds, u_bounds)` when given (periodic: a torus tiled by whole chunks), otherwise
    /// endless with chunk 0 starting at `origin`. A chunk may hold at most `max_points`.
    /// Requests run on `threads` threads (default all cores); the points do not depend on it.
    #[new]
    #[pyo3(signature = (d, radius, seed = 0, *, k = None, chunk_side = None, l_bounds = None, u_bounds = None, origin = None, periodic = false, max_points = None, threads = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        d: i128,
        radius: f64,
        seed: i128,
        k: Option<i128>,
        chunk_side: Option<f64>,
        l_bounds: Option<Vec<f64>>,
        u_bounds: Option<Vec<f64>>,
        origin: Option<Vec<f64>>,
        periodic: bool,
        max_points: Option<i128>,
        threads: Option<i128>,
    ) -> PyResult<World> {
        let d: usize = whole(d, "d")?;
        let threads: Option<usize> = threads.map(|t| whole(t, "threads")).transpose()?;
        let pool = match threads {
            Some(0) => return Err(value_error("threads must be at least 1, got 0")),
            Some(t) => Some(Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| value_error(format!("cannot start {t} threads: {e}")))?,
            )),
            None => None,
        };
        let seed: u64 = whole(seed, "seed")?;
        let k: Option<u32> = k.map(|k| whole(k, "k")).transpose()?;
        let max_points: Option<usize> = max_points.map(|m| whole(m, "max_points")).transpose()?;
        let extent = match (&l_bounds, &u_bounds) {
            (Some(lo), Some(hi)) => {
                if origin.is_some() {
                    return Err(value_error(
                        "give origin or l_bounds, not both: a box's chunks start at l_bounds",
                    ));
                }
                if lo.len() != d || hi.len() != d {
                    return Err(value_error(format!(
                        "l_bounds and u_bounds must have {d} coordinates"
                    )));
                }
                Some(lo.iter().zip(hi).map(|(l, h)| h - l).collect::<Vec<f64>>())
            }
            (None, None) => None,
            _ => return Err(value_error("give both l_bounds and u_bounds, or neither")),
        };
        let settings = WorldSettings {
            dim: d,
            radius,
            seed,
            k,
            chunk_side,
            extent,
            origin: l_bounds.or(origin),
            periodic,
            max_points,
        };
        let interrupt = Interrupt::default();
        let inner: Box<dyn AnyWorld> = with_dim!(d, D => {
            let (world, origin) = settings.build::<D>(interrupt.hook(), &NAMES).map_err(value_error)?;
            Box::new(Inner { world, origin, pool: pool.clone() })
        }, else return Err(dim_error(d)));
        Ok(World { inner, settings, interrupt, threads, pool })
    }

    /// The points of chunk `c` (d integers), shape (n, d).
    fn chunk<'py>(&mut self, py: Python<'py>, c: Vec<i64>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let result = self.inner.chunks(py, &self.interrupt, &[c]).map(|mut v| v.remove(0));
        self.finish(result)
    }

    /// The points of each chunk of `chunks`, in order (decided together, so that shared
    /// neighbours are decided once).
    fn chunks<'py>(
        &mut self,
        py: Python<'py>,
        chunks: Vec<Vec<i64>>,
    ) -> PyResult<Vec<Bound<'py, PyArray2<f64>>>> {
        let result = self.inner.chunks(py, &self.interrupt, &chunks);
        self.finish(result)
    }

    /// The points of the chunks `lo ≤ c < hi` (on every axis) and the chunk of each, as
    /// `(points (n, d), chunks (n, d) int64)`, chunk by chunk in lexicographic order (last
    /// axis fastest): the rows of `experiments world --range lo:hi`.
    fn block<'py>(&mut self, py: Python<'py>, lo: Vec<i64>, hi: Vec<i64>) -> PyResult<Block<'py>> {
        let result = self.inner.block(py, &self.interrupt, &lo, &hi);
        self.finish(result)
    }

    /// The staged plan of the chunks `lo ≤ c < hi` in blocks of `block` chunks along each
    /// axis (an int, or one per axis), for an engine that decides the strata as stages
    /// (`poisson_nd.dask`); its stages run on the world's threads.
    fn stages(
        &self,
        lo: Vec<i64>,
        hi: Vec<i64>,
        block: &Bound<'_, PyAny>,
    ) -> PyResult<WorldStages> {
        let d = self.inner.dim();
        let block: Vec<i64> = match block.extract::<i64>() {
            Ok(b) => vec![b; d],
            Err(_) => block.extract().map_err(|_| {
                value_error("block must be an int or a sequence of ints, one per axis")
            })?,
        };
        let inner = self.inner.stages(&lo, &hi, &block)?;
        Ok(WorldStages { inner, pool: self.pool.clone() })
    }

    /// The constructor's arguments, as a dict: `World(**world.settings)` is the same world.
    #[getter]
    fn settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let s = &self.settings;
        let out = pyo3::types::PyDict::new(py);
        out.set_item("d", s.dim)?;
        out.set_item("radius", s.radius)?;
        out.set_item("seed", s.seed)?;
        out.set_item("k", s.k)?;
        out.set_item("chunk_side", s.chunk_side)?;
        match &s.extent {
            Some(extent) => {
                let lo = s.origin.clone().unwrap_or_else(|| vec![0.0; s.dim]);
                let hi: Vec<f64> = lo.iter().zip(extent).map(|(l, e)| l + e).collect();
                out.set_item("l_bounds", lo)?;
                out.set_item("u_bounds", hi)?;
                out.set_item("periodic", s.periodic)?;
            }
            None => out.set_item("origin", s.origin.clone())?,
        }
        out.set_item("max_points", s.max_points)?;
        out.set_item("threads", self.threads)?;
        Ok(out)
    }

    /// The chunk holding `point`.
    fn chunk_of(&self, point: Vec<f64>) -> PyResult<Vec<i64>> {
        self.inner.chunk_of(&point)
    }

    /// The chunk's side along each axis.
    #[getter]
    fn chunk_side(&self) -> Vec<f64> {
        self.inner.chunk_side()
    }

    /// The number of chunks along each axis of a periodic box; None otherwise.
    #[getter]
    fn torus_chunks(&self) -> Option<Vec<i64>> {
        self.inner.torus_chunks()
    }

    /// The dimension.
    #[getter]
    fn d(&self) -> usize {
        self.inner.dim()
    }

    /// The minimum distance.
    #[getter]
    fn radius(&self) -> f64 {
        self.settings.radius
    }

    /// The seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.settings.seed
    }

    /// Work so far: cells decided, cache hits, cells in the cache.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let (decided, hits, cached) = self.inner.stats();
        let stats = pyo3::types::PyDict::new(py);
        stats.set_item("cells_decided", decided)?;
        stats.set_item("cache_hits", hits)?;
        stats.set_item("cached_cells", cached)?;
        Ok(stats)
    }

    /// Forgets every decided cell (the points stay the same: they are decided again).
    fn clear_cache(&mut self) {
        self.inner.clear_cache();
    }

    fn __repr__(&self) -> String {
        let s = &self.settings;
        let mut text = format!("World(d={}, radius={}, seed={}", s.dim, s.radius, s.seed);
        if let Some(k) = s.k {
            text += &format!(", k={k}");
        }
        text += &format!(", chunk_side={}", self.inner.chunk_side()[0]);
        match (&s.extent, &s.origin) {
            (Some(extent), origin) => {
                let lo = origin.clone().unwrap_or_else(|| vec![0.0; s.dim]);
                let hi: Vec<f64> = lo.iter().zip(extent).map(|(l, e)| l + e).collect();
                text += &format!(", l_bounds={lo:?}, u_bounds={hi:?}");
                if s.periodic {
                    text += ", periodic=True";
                }
            }
            (None, Some(origin)) => text += &format!(", origin={origin:?}"),
            (None, None) => {}
        }
        text + ")"
    }
}

/// The world seed of a `ChunkedBridson` run with engine seed `seed`: its points are the
/// chunks of `World(seed=chunked_world_seed(seed), l_bounds=…, u_bounds=…)` over its box.
#[pyfunction]
pub fn chunked_world_seed(seed: i128) -> PyResult<u64> {
    let seed: u64 = whole(seed, "seed")?;
    Ok(poisson_nd::chunked::world_seed(&mut poisson_nd::rng::rng_from_seed(seed)))
}
