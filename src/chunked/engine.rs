//! Deciding a set of cells: the cells asked for and, below them, every cell of a lower
//! stratum they depend on, stratum by stratum, the cells of one stratum in parallel.

use super::cells::{CellKey, Cells, stratum};
use super::fill::CellFiller;
use super::fill::RunSettings;
use crate::domain::Domain;
use crate::point::Point;
use crate::rng::derive_seed;
use crate::sampler::{Progress, Watch};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The points of a decided cell, in the order they were placed.
pub(crate) type CellPoints<const D: usize> = Arc<Vec<Point<D>>>;

/// Everything that decides the points of a cell: geometry, settings, world box, seed.
#[derive(Debug, Clone)]
pub(crate) struct Engine<const D: usize> {
    pub(crate) cells: Cells<D>,
    /// Radius, attempts, candidate spread and grid of every cell's run.
    pub(crate) settings: RunSettings,
    /// A closed world box: nothing is placed outside it.
    pub(crate) clip: Option<Domain<D>>,
    /// On a torus, the number of keys along each axis (twice the chunks).
    pub(crate) torus: Option<[i64; D]>,
    pub(crate) seed: u64,
}

impl<const D: usize> Engine<D> {
    /// The key a possibly unwrapped key stands for on a torus, and how many periods it is
    /// away from it along each axis (the key itself and zeros elsewhere).
    #[inline]
    pub(crate) fn canonical(&self, key: &CellKey<D>) -> (CellKey<D>, [i64; D]) {
        match &self.torus {
            None => (*key, [0; D]),
            Some(keys) => {
                let canonical = std::array::from_fn(|i| key[i].rem_euclid(keys[i]));
                let periods = std::array::from_fn(|i| key[i].div_euclid(keys[i]));
                (canonical, periods)
            }
        }
    }

    /// The cells of lower strata next to `key` (unwrapped keys) whose points can reach its
    /// run: those near a plane only along axes along which `key` is near one too. A cell
    /// near a plane along an axis along which `key` lies inside its chunk holds points at
    /// least `a_{k+1} − a_{k−1} = √2 r` from `key`'s, outside the box its run looks at
    /// (docs/algorithms.md, "Chunked worlds"), so leaving it out changes no point and keeps
    /// a chunk's cone to the `5^D` keys around it.
    pub(crate) fn dependencies(&self, key: &CellKey<D>) -> Vec<CellKey<D>> {
        let k = stratum(key);
        let mut out = Vec::new();
        if k == 0 {
            return out;
        }
        let mut offset = [-1i64; D];
        loop {
            let other: CellKey<D> = std::array::from_fn(|i| key[i] + offset[i]);
            let reaches = (0..D).all(|i| other[i] & 1 == 1 || key[i] & 1 == 0);
            if reaches && stratum(&other) < k {
                out.push(other);
            }
            let mut i = 0;
            loop {
                if i == D {
                    return out;
                }
                offset[i] += 1;
                if offset[i] <= 1 {
                    break;
                }
                offset[i] = -1;
                i += 1;
            }
        }
    }

    /// The generator seed of a (canonical) cell: a fixed function of the world's seed and
    /// the key alone.
    fn cell_seed(&self, key: &CellKey<D>) -> u64 {
        key.iter().fold(self.seed, |seed, &m| derive_seed(seed, m as u64))
    }

    /// The extent of the torus along each axis (zeros without one).
    fn period(&self) -> [f64; D] {
        match &self.torus {
            None => [0.0; D],
            Some(keys) => std::array::from_fn(|i| (keys[i] / 2) as f64 * self.cells.side()[i]),
        }
    }

    /// Decides the (canonical) cells `wanted` and every cell they depend on that `known`
    /// does not already hold; returns all of them, those from `known` included, by key.
    /// `known` is asked once per cell at most. Also returns the candidates drawn.
    ///
    /// `watch` is shown the progress after every decided cell; when it asks to stop, the
    /// cells not yet decided are left out and the last value returned is `true`.
    pub(crate) fn decide(
        &self,
        wanted: impl IntoIterator<Item = CellKey<D>>,
        mut known: impl FnMut(&CellKey<D>) -> Option<CellPoints<D>>,
        watch: Option<&Watch>,
    ) -> (HashMap<CellKey<D>, CellPoints<D>>, u64, bool) {
        let mut attempts = 0;
        let mut have: HashMap<CellKey<D>, CellPoints<D>> = HashMap::new();
        let mut needed: Vec<HashSet<CellKey<D>>> = vec![HashSet::new(); D + 1];
        let mut stack: Vec<CellKey<D>> = wanted.into_iter().map(|k| self.canonical(&k).0).collect();
        while let Some(key) = stack.pop() {
            let k = stratum(&key);
            if have.contains_key(&key) || needed[k].contains(&key) {
                continue;
            }
            if let Some(points) = known(&key) {
                have.insert(key, points);
                continue;
            }
            needed[k].insert(key);
            stack.extend(self.dependencies(&key).iter().map(|d| self.canonical(d).0));
        }
        let total = needed.iter().map(HashSet::len).sum::<usize>().max(1);
        let progress = Tally::new(total, watch);
        for level in needed {
            if progress.cancelled.load(Ordering::Relaxed) {
                break;
            }
            let mut keys: Vec<CellKey<D>> = level.into_iter().collect();
            keys.sort_unstable();
            let decided = self.decide_cells(&keys, &have, &progress);
            for (key, (points, drawn)) in keys.into_iter().zip(decided) {
                attempts += drawn;
                have.insert(key, points);
            }
        }
        (have, attempts, progress.cancelled.into_inner())
    }

    /// Decides the (canonical) cells `keys`, all of one stratum, each given the points of
    /// its dependencies in `have` (a dependency missing from it counts as empty): the
    /// points and the candidates drawn of each, in the order of `keys`.
    pub(crate) fn decide_cells(
        &self,
        keys: &[CellKey<D>],
        have: &HashMap<CellKey<D>, CellPoints<D>>,
        progress: &Tally<'_>,
    ) -> Vec<(CellPoints<D>, u64)> {
        let filler = self.filler();
        let decide_one = |key: &CellKey<D>| {
            if progress.cancelled.load(Ordering::Relaxed) {
                return (Arc::default(), 0);
            }
            let context = self.dependencies(key).into_iter().flat_map(|dependency| {
                let (canonical, periods) = self.canonical(&dependency);
                let shift = self.shift(&periods);
                let points = have.get(&canonical).map(Arc::clone).unwrap_or_default();
                (0..points.len()).map(move |j| {
                    let p = points[j];
                    if periods.iter().all(|&n| n == 0) {
                        p
                    } else {
                        std::array::from_fn(|i| p[i] + shift[i])
                    }
                })
            });
            let (points, attempts) = filler.fill(key, context, self.cell_seed(key));
            progress.count(points.len());
            (Arc::new(points), attempts)
        };
        parallel_map(keys, decide_one)
    }

    /// What decides one cell given its neighbours.
    pub(crate) fn filler(&self) -> CellFiller<'_, D> {
        CellFiller { cells: &self.cells, settings: self.settings, clip: self.clip }
    }

    /// The shift that moves the points of the canonical cell of `dependency` to where
    /// `dependency` lies (zero off a torus).
    pub(crate) fn shift(&self, periods: &[i64; D]) -> [f64; D] {
        let period = self.period();
        std::array::from_fn(|i| periods[i] as f64 * period[i])
    }
}

/// Cells decided so far in one request, shown to its progress hook.
#[derive(Default)]
pub(crate) struct Tally<'a> {
    /// The cells the request decides in all.
    total: usize,
    watch: Option<&'a Watch>,
    done: AtomicUsize,
    placed: AtomicUsize,
    /// Set when the hook asks to stop: the cells not yet decided are left empty.
    pub(crate) cancelled: AtomicBool,
}

impl<'a> Tally<'a> {
    /// A request of `total` cells, shown to `watch`.
    pub(crate) fn new(total: usize, watch: Option<&'a Watch>) -> Self {
        Tally { total, watch, ..Tally::default() }
    }

    /// One more cell decided, with `points` points.
    fn count(&self, points: usize) {
        let Some(watch) = self.watch else { return };
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        let points = self.placed.fetch_add(points, Ordering::Relaxed) + points;
        let fraction = Some(done as f64 / self.total.max(1) as f64);
        if watch.stop(Progress { points, fraction }) {
            self.cancelled.store(true, Ordering::Relaxed);
        }
    }
}

/// `f` over `items`, on the current rayon pool when the `rayon` feature is on; the results
/// in the order of `items` either way.
fn parallel_map<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> U + Sync + Send) -> Vec<U> {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        // One item per job: rayon otherwise runs a range it split but nobody stole as one
        // job, and a core that runs dry at a stage's end cannot take a cell from it (3D at
        // 10^6 points, 64 interiors: the interiors' stage ran 1.83× faster on 2 threads, now
        // 1.99×).
        items.par_iter().with_max_len(1).map(f).collect()
    }
    #[cfg(not(feature = "rayon"))]
    {
        items.iter().map(f).collect()
    }
}
