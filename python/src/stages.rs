//! `WorldStages`: the staged plan of a range of a `World` (`poisson_nd::chunked::Stages`),
//! for engines that decide the strata as stages and pass only border points between blocks
//! (`poisson_nd.dask`). Cells cross the boundary as three arrays: keys `(m, d)` int64,
//! point counts `(m,)` int64 and points `(n, d)` float64, cell after cell; several such
//! triples given together are one set of cells.

use crate::arrays::points_array;
use crate::value_error;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use poisson_nd::chunked::{CellMap, ChunkPoints, Stages};
use pyo3::prelude::*;
use std::sync::Arc;

/// Cells as numpy arrays: keys, counts, points.
pub(crate) type CellArrays<'py> =
    (Bound<'py, PyArray2<i64>>, Bound<'py, PyArray1<i64>>, Bound<'py, PyArray2<f64>>);

/// Cells as they come from Python (arrays this module made, possibly unpickled).
pub(crate) type CellParts<'py> =
    (PyReadonlyArray2<'py, i64>, PyReadonlyArray1<'py, i64>, PyReadonlyArray2<'py, f64>);

/// A block's chunk lo/hi from Python.
fn index<const D: usize>(block: &[i64], what: &str) -> PyResult<[i64; D]> {
    block
        .try_into()
        .map_err(|_| value_error(format!("{what} must have {D} coordinates, got {}", block.len())))
}

/// One set of cells from any number of triples.
fn read_cells<const D: usize>(parts: &[CellParts<'_>]) -> PyResult<CellMap<D>> {
    let mut out = CellMap::new();
    for (keys, counts, points) in parts {
        let (keys, counts, points) = (keys.as_array(), counts.as_array(), points.as_array());
        let total: i64 = counts.iter().sum();
        if keys.ncols() != D
            || points.ncols() != D
            || keys.nrows() != counts.len()
            || counts.iter().any(|&c| c < 0)
            || total != points.nrows() as i64
        {
            return Err(value_error(format!(
                "cells must be keys (m, {D}), counts (m,) and points (sum of counts, {D}); \
                 got keys {:?}, counts {:?} summing to {total}, points {:?}",
                keys.shape(),
                counts.shape(),
                points.shape()
            )));
        }
        let mut start = 0;
        for (row, &count) in keys.rows().into_iter().zip(counts.iter()) {
            let key: [i64; D] = std::array::from_fn(|i| row[i]);
            let end = start + count as usize;
            let cell = (start..end).map(|j| std::array::from_fn(|i| points[[j, i]])).collect();
            start = end;
            if out.insert(key, cell).is_some() {
                return Err(value_error(format!("cell {key:?} is given twice")));
            }
        }
    }
    Ok(out)
}

/// Cells as numpy arrays.
fn write_cells<'py, const D: usize>(
    py: Python<'py>,
    cells: CellMap<D>,
) -> PyResult<CellArrays<'py>> {
    let m = cells.len();
    let mut keys = Vec::with_capacity(m * D);
    let mut counts = Vec::with_capacity(m);
    let mut points = Vec::with_capacity(cells.values().map(Vec::len).sum());
    for (key, cell) in cells {
        keys.extend_from_slice(&key);
        counts.push(cell.len() as i64);
        points.extend(cell);
    }
    Ok((keys.into_pyarray(py).reshape([m, D])?, counts.into_pyarray(py), points_array(py, points)?))
}

/// Another block's cells cut for `block` by `how` (an export or an overlap), without the GIL.
fn cut<'py, const D: usize>(
    py: Python<'py>,
    cells: &[CellParts<'py>],
    block: &[i64],
    how: impl Fn(&CellMap<D>, [i64; D]) -> CellMap<D> + Send + Sync,
) -> PyResult<CellArrays<'py>> {
    let (cells, block) = (read_cells::<D>(cells)?, index::<D>(block, "block")?);
    let cut = py.detach(|| how(&cells, block));
    write_cells(py, cut)
}

/// Chunks' points and their chunk coordinates, as [`block_arrays`] gives them.
pub(crate) type Block<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray2<i64>>);

/// `work` on `pool`'s threads when one is given, otherwise on rayon's global pool (all
/// cores).
pub(crate) fn on_pool<T: Send>(
    pool: Option<&rayon::ThreadPool>,
    work: impl FnOnce() -> T + Send,
) -> T {
    match pool {
        Some(pool) => pool.install(work),
        None => work(),
    }
}

/// Chunks with their points as `(points (n, d), chunks (n, d) int64)`, chunk after chunk.
pub(crate) fn block_arrays<const D: usize>(
    py: Python<'_>,
    chunks: Vec<ChunkPoints<D>>,
) -> PyResult<Block<'_>> {
    let total: usize = chunks.iter().map(|(_, p)| p.len()).sum();
    let mut points = Vec::with_capacity(total);
    let mut coordinates = Vec::with_capacity(total * D);
    for (c, p) in chunks {
        for _ in 0..p.len() {
            coordinates.extend_from_slice(&c);
        }
        points.extend(p);
    }
    let coordinates = coordinates.into_pyarray(py).reshape([total, D])?;
    Ok((points_array(py, points)?, coordinates))
}

/// The plan of one dimension behind the Python class.
pub(crate) trait AnyStages: Send + Sync {
    fn shape(&self) -> Vec<i64>;
    fn chunks_of(&self, block: &[i64]) -> PyResult<(Vec<i64>, Vec<i64>)>;
    fn cells<'py>(
        &self,
        py: Python<'py>,
        block: &[i64],
        stratum: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray2<i64>>>;
    fn neighbours(&self, block: &[i64]) -> PyResult<Vec<Vec<i64>>>;
    fn chunk_senders(&self, block: &[i64]) -> PyResult<Vec<Vec<i64>>>;
    fn decide<'py>(
        &self,
        py: Python<'py>,
        block: &[i64],
        stratum: usize,
        given: &[CellParts<'py>],
        pool: Option<&rayon::ThreadPool>,
    ) -> PyResult<CellArrays<'py>>;
    fn export<'py>(
        &self,
        py: Python<'py>,
        cells: &[CellParts<'py>],
        block: &[i64],
    ) -> PyResult<CellArrays<'py>>;
    fn overlap<'py>(
        &self,
        py: Python<'py>,
        cells: &[CellParts<'py>],
        block: &[i64],
    ) -> PyResult<CellArrays<'py>>;
    fn chunks<'py>(
        &self,
        py: Python<'py>,
        block: &[i64],
        cells: &[CellParts<'py>],
    ) -> PyResult<Block<'py>>;
}

impl<const D: usize> AnyStages for Stages<D> {
    fn shape(&self) -> Vec<i64> {
        Stages::shape(self).to_vec()
    }

    fn chunks_of(&self, block: &[i64]) -> PyResult<(Vec<i64>, Vec<i64>)> {
        let (lo, hi) = Stages::chunks_of(self, index::<D>(block, "block")?);
        Ok((lo.to_vec(), hi.to_vec()))
    }

    fn cells<'py>(
        &self,
        py: Python<'py>,
        block: &[i64],
        stratum: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let keys = Stages::cells(self, index::<D>(block, "block")?, stratum);
        let m = keys.len();
        keys.into_flattened().into_pyarray(py).reshape([m, D])
    }

    fn neighbours(&self, block: &[i64]) -> PyResult<Vec<Vec<i64>>> {
        let blocks = Stages::neighbours(self, index::<D>(block, "block")?);
        Ok(blocks.iter().map(|b| b.to_vec()).collect())
    }

    fn chunk_senders(&self, block: &[i64]) -> PyResult<Vec<Vec<i64>>> {
        let blocks = Stages::chunk_senders(self, index::<D>(block, "block")?);
        Ok(blocks.iter().map(|b| b.to_vec()).collect())
    }

    fn decide<'py>(
        &self,
        py: Python<'py>,
        block: &[i64],
        stratum: usize,
        given: &[CellParts<'py>],
        pool: Option<&rayon::ThreadPool>,
    ) -> PyResult<CellArrays<'py>> {
        let block = index::<D>(block, "block")?;
        let given = read_cells::<D>(given)?;
        let decided = py.detach(|| on_pool(pool, || Stages::decide(self, block, stratum, given)));
        write_cells(py, decided.map_err(value_error)?)
    }

    fn export<'py>(
        &self,
        py: Python<'py>,
        cells: &[CellParts<'py>],
        block: &[i64],
    ) -> PyResult<CellArrays<'py>> {
        cut(py, cells, block, |cells, block| Stages::export(self, cells, block))
    }

    fn overlap<'py>(
        &self,
        py: Python<'py>,
        cells: &[CellParts<'py>],
        block: &[i64],
    ) -> PyResult<CellArrays<'py>> {
        cut(py, cells, block, |cells, block| Stages::overlap(self, cells, block))
    }

    fn chunks<'py>(
        &self,
        py: Python<'py>,
        block: &[i64],
        cells: &[CellParts<'py>],
    ) -> PyResult<Block<'py>> {
        let (block, cells) = (index::<D>(block, "block")?, read_cells::<D>(cells)?);
        let chunks = py.detach(|| Stages::chunks(self, block, &cells)).map_err(value_error)?;
        block_arrays(py, chunks)
    }
}

/// The staged plan of the chunks `lo ≤ c < hi` of a `World`, split into blocks (made by
/// `World.stages`). Blocks are named by their index along each axis; each stage of each
/// block decides the block's cells of one stratum from its own cells of lower strata and
/// its neighbours' exports; then each block makes its chunks from its cells and the
/// overlaps of the blocks around it: exactly the world's chunks.
#[pyclass(module = "poisson_nd")]
pub struct WorldStages {
    pub(crate) inner: Box<dyn AnyStages>,
    pub(crate) pool: Option<Arc<rayon::ThreadPool>>,
}

impl std::fmt::Debug for WorldStages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorldStages").field("shape", &self.inner.shape()).finish_non_exhaustive()
    }
}

#[pymethods]
impl WorldStages {
    /// The number of blocks along each axis.
    #[getter]
    fn shape(&self) -> Vec<i64> {
        self.inner.shape()
    }

    /// The chunks `lo ≤ c < hi` of block `block`.
    fn chunks_of(&self, block: Vec<i64>) -> PyResult<(Vec<i64>, Vec<i64>)> {
        self.inner.chunks_of(&block)
    }

    /// The keys `(m, d)` of the cells block `block` owns, of one stratum or all.
    #[pyo3(signature = (block, stratum = None))]
    fn cells<'py>(
        &self,
        py: Python<'py>,
        block: Vec<i64>,
        stratum: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        self.inner.cells(py, &block, stratum)
    }

    /// The other blocks whose exports block `block`'s stages read.
    fn neighbours(&self, block: Vec<i64>) -> PyResult<Vec<Vec<i64>>> {
        self.inner.neighbours(&block)
    }

    /// The other blocks whose overlaps block `block`'s chunks need.
    fn chunk_senders(&self, block: Vec<i64>) -> PyResult<Vec<Vec<i64>>> {
        self.inner.chunk_senders(&block)
    }

    /// Block `block`'s cells of stratum `stratum`, decided from `given` (a list of cell
    /// triples: its own cells of lower strata and its neighbours' exports).
    fn decide<'py>(
        &self,
        py: Python<'py>,
        block: Vec<i64>,
        stratum: usize,
        given: Vec<CellParts<'py>>,
    ) -> PyResult<CellArrays<'py>> {
        self.inner.decide(py, &block, stratum, &given, self.pool.as_deref())
    }

    /// What block `block`'s stages read of `cells` (another block's cells, a list of
    /// triples): the cells they depend on, cut to the points near them.
    fn export<'py>(
        &self,
        py: Python<'py>,
        cells: Vec<CellParts<'py>>,
        block: Vec<i64>,
    ) -> PyResult<CellArrays<'py>> {
        self.inner.export(py, &cells, &block)
    }

    /// The points of `cells` (another block's cells) that lie in block `block`'s chunks.
    fn overlap<'py>(
        &self,
        py: Python<'py>,
        cells: Vec<CellParts<'py>>,
        block: Vec<i64>,
    ) -> PyResult<CellArrays<'py>> {
        self.inner.overlap(py, &cells, &block)
    }

    /// Block `block`'s chunks from `cells` (its own and the overlaps), as
    /// `World.block(lo, hi)` gives them: `(points (n, d), chunks (n, d) int64)`.
    fn chunks<'py>(
        &self,
        py: Python<'py>,
        block: Vec<i64>,
        cells: Vec<CellParts<'py>>,
    ) -> PyResult<Block<'py>> {
        self.inner.chunks(py, &block, &cells)
    }

    fn __repr__(&self) -> String {
        format!("WorldStages(shape={:?})", self.inner.shape())
    }
}
