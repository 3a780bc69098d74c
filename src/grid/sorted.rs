//! Points sorted by cell: a static index whose cells are runs of one slice, for queries that
//! walk whole cells at a time (sample elimination's neighbour rows).

use super::layout::GridLayout;
use crate::domain::Domain;
use crate::point::Point;
use std::ops::Range;

/// Points sorted by the cells of a layout (a stable sort, so the points of a cell keep the
/// order they were given in): each cell's points are one run of `points()`.
#[derive(Debug, Clone)]
pub(crate) struct SortedCells<const D: usize> {
    layout: GridLayout<D>,
    runs: Runs,
    /// The points in cell order.
    sorted: Vec<Point<D>>,
    /// Each sorted point's index among the points given.
    original: Vec<u32>,
}

/// Where each cell's run starts.
#[derive(Debug, Clone)]
enum Runs {
    /// By key, for every key of the layout, and the end of the last run.
    Dense(Vec<u32>),
    /// For the occupied keys only (in order), with the end of the last run: for layouts
    /// with far more cells than points (points on a surface in a 3D box).
    Sparse { keys: Vec<u64>, starts: Vec<u32> },
}

/// `items` in the order of their buckets (`bucket(item) < buckets`), those of one bucket in the
/// order given (a stable counting sort), and where each bucket's run starts (`buckets + 1`
/// entries, the last the count).
fn counting_sort(
    items: &[u32],
    buckets: usize,
    bucket: impl Fn(u32) -> usize,
) -> (Vec<u32>, Vec<u32>) {
    let mut starts = vec![0u32; buckets + 1];
    for &item in items {
        starts[bucket(item) + 1] += 1;
    }
    for b in 0..buckets {
        starts[b + 1] += starts[b];
    }
    let mut next = starts.clone();
    let mut sorted = vec![0u32; items.len()];
    for &item in items {
        let slot = &mut next[bucket(item)];
        sorted[*slot as usize] = item;
        *slot += 1;
    }
    (sorted, starts)
}

/// The bits of a key one pass of [`radix_sort_by_key`] sorts on: 2,048 counters, which stay in
/// the nearest cache while the items stream past.
const RADIX_BITS: u32 = 11;

/// Sorts `items` stably by `key(item)`, which must be below `2^bits`: a least-significant-digit
/// radix sort, one counting pass of [`RADIX_BITS`] per digit, through `scratch` (whose
/// contents are lost). The order is that of a stable comparison sort by the key; on a million
/// items of 22-bit keys it takes two streaming passes where a comparison sort takes about
/// twenty.
pub(crate) fn radix_sort_by_key<T: Copy>(
    items: &mut Vec<T>,
    scratch: &mut Vec<T>,
    bits: u32,
    key: impl Fn(&T) -> u64,
) {
    let Some(&first) = items.first() else { return };
    let mut counts = [0usize; 1 << RADIX_BITS];
    let mask = (1u64 << RADIX_BITS) - 1;
    let mut shift = 0;
    while shift < bits {
        counts.fill(0);
        for item in items.iter() {
            counts[(key(item) >> shift & mask) as usize] += 1;
        }
        let mut start = 0;
        for count in counts.iter_mut() {
            (*count, start) = (start, start + *count);
        }
        // Every place is written below; only a length that changed needs filling.
        if scratch.len() != items.len() {
            scratch.clear();
            scratch.resize(items.len(), first);
        }
        for item in items.iter() {
            let at = &mut counts[(key(item) >> shift & mask) as usize];
            scratch[*at] = *item;
            *at += 1;
        }
        std::mem::swap(items, scratch);
        shift += RADIX_BITS;
    }
}

/// A layout with more keys than this many per point is indexed sparsely.
const DENSE_KEYS_PER_POINT: u64 = 4;

impl<const D: usize> SortedCells<D> {
    /// Sorts the points `set` (indices into `points`, fewer than 2^32, all inside the
    /// layout's domain) by the cells of `layout`: a counting sort over all its keys when
    /// there are few enough, else a sort of the occupied keys.
    pub(crate) fn new(layout: GridLayout<D>, points: &[Point<D>], set: &[u32]) -> Self {
        let keys: Vec<u64> = set.iter().map(|&i| layout.key_near(&points[i as usize])).collect();
        let dense_keys = (set.len() as u64).saturating_mul(DENSE_KEYS_PER_POINT).max(1 << 16);
        if layout.key_count() > dense_keys {
            let mut order: Vec<u32> = (0..set.len() as u32).collect();
            order.sort_by_key(|&k| keys[k as usize]);
            let original: Vec<u32> = order.iter().map(|&k| set[k as usize]).collect();
            let mut occupied = Vec::new();
            let mut starts = Vec::new();
            for (at, &k) in order.iter().enumerate() {
                let key = keys[k as usize];
                if occupied.last() != Some(&key) {
                    occupied.push(key);
                    starts.push(at as u32);
                }
            }
            starts.push(set.len() as u32);
            let sorted = original.iter().map(|&i| points[i as usize]).collect();
            let runs = Runs::Sparse { keys: occupied, starts };
            return SortedCells { layout, runs, sorted, original };
        }
        let positions: Vec<u32> = (0..set.len() as u32).collect();
        let (order, starts) =
            counting_sort(&positions, layout.key_count() as usize, |k| keys[k as usize] as usize);
        let original: Vec<u32> = order.iter().map(|&k| set[k as usize]).collect();
        let sorted = original.iter().map(|&i| points[i as usize]).collect();
        SortedCells { layout, runs: Runs::Dense(starts), sorted, original }
    }

    /// The layout the points are sorted by.
    pub(crate) fn layout(&self) -> &GridLayout<D> {
        &self.layout
    }

    /// The points in cell order.
    pub(crate) fn points(&self) -> &[Point<D>] {
        &self.sorted
    }

    /// The index, among the points given, of the sorted point `k`.
    pub(crate) fn original(&self, k: usize) -> u32 {
        self.original[k]
    }

    /// The sorted points of cell `key`, as a range of [`points`](Self::points).
    #[inline]
    pub(crate) fn run(&self, key: u64) -> Range<usize> {
        match &self.runs {
            Runs::Dense(starts) => starts[key as usize] as usize..starts[key as usize + 1] as usize,
            Runs::Sparse { keys, starts } => match keys.binary_search(&key) {
                Ok(k) => starts[k] as usize..starts[k + 1] as usize,
                Err(_) => 0..0,
            },
        }
    }

    /// Cursors for walking the blocks around the occupied cells in key order
    /// ([`BlockCursors`]); `None` where [`run`](Self::run) is a direct look-up (a dense index)
    /// or keys wrap around (a torus).
    pub(crate) fn block_cursors(&self) -> Option<BlockCursors<'_>> {
        match &self.runs {
            Runs::Sparse { keys, starts } if !self.layout.domain().is_periodic() => {
                Some(BlockCursors { keys, starts, at: vec![0; 3usize.pow(D as u32)] })
            }
            _ => None,
        }
    }

    /// Every cell that holds points, in key order, with its run.
    pub(crate) fn occupied(&self) -> Box<dyn Iterator<Item = ([u64; D], Range<usize>)> + '_> {
        match &self.runs {
            Runs::Dense(_) => Box::new((0..self.layout.key_count()).filter_map(move |key| {
                let run = self.run(key);
                (!run.is_empty()).then(|| (self.layout.cell_of_key(key), run))
            })),
            Runs::Sparse { keys, starts } => {
                Box::new(keys.iter().enumerate().map(move |(k, &key)| {
                    (self.layout.cell_of_key(key), starts[k] as usize..starts[k + 1] as usize)
                }))
            }
        }
    }
}

/// The runs of a sparse grid's cells at each place of the blocks around its occupied cells,
/// for a walk over the occupied cells in key order: in a closed box the key at a given
/// place of the block grows with the centre cell's key, so one cursor per place only moves
/// forward, a step or two per cell, where [`SortedCells::run`] binary-searches all the
/// occupied keys for each cell of each block. The runs are the same.
pub(crate) struct BlockCursors<'a> {
    keys: &'a [u64],
    starts: &'a [u32],
    /// For each place of the block, the first occupied key not below its last key asked.
    at: Vec<usize>,
}

impl BlockCursors<'_> {
    /// The run of cell `key`, at `place` of the block around the next occupied cell in key
    /// order (after the last look-up at this place).
    #[inline]
    pub(crate) fn run(&mut self, place: usize, key: u64) -> Range<usize> {
        let mut at = self.at[place];
        while at < self.keys.len() && self.keys[at] < key {
            at += 1;
        }
        self.at[place] = at;
        match self.keys.get(at) {
            Some(&found) if found == key => self.starts[at] as usize..self.starts[at + 1] as usize,
            _ => 0..0,
        }
    }
}

/// Cells are at least this much wider than the reach, so that rounding in a cell index never
/// puts two points closer than the reach two cells apart.
const CELL_MARGIN: f64 = 1.0 + 1.0 / (1u64 << 20) as f64;

/// The closest pair `(i, j, distance)`, `i < j`, among the pairs of `points` closer than
/// `reach` (toroidally in a periodic domain), by the library's grid: cells at least `reach`
/// wide, each point compared with the points of the 3^D cells around its own. `None` when no
/// pair is closer than `reach` (or there are fewer than two points). Exact: every pair closer
/// than `reach` is compared. Points must lie in the domain's box.
///
/// ```
/// use poisson_nd::grid::closest_pair_within;
/// use poisson_nd::Domain;
/// let torus = Domain::<2>::unit().periodic();
/// let points = [[0.02, 0.5], [0.5, 0.5], [0.97, 0.5]];
/// let (i, j, d) = closest_pair_within(&torus, &points, 0.1).expect("a close pair");
/// assert_eq!((i, j), (0, 2));
/// assert!((d - 0.05).abs() < 1e-12);
/// assert_eq!(closest_pair_within(&Domain::<2>::unit(), &points, 0.1), None);
/// ```
pub fn closest_pair_within<const D: usize>(
    domain: &Domain<D>,
    points: &[Point<D>],
    reach: f64,
) -> Option<(usize, usize, f64)> {
    if points.len() < 2 || points.len() > u32::MAX as usize || reach.is_nan() || reach <= 0.0 {
        return None;
    }
    let extent = domain.extent();
    // At most about as many cells as points, whatever the reach.
    let mut budget = points.len() as f64;
    let counts = std::array::from_fn(|i| {
        let along = (extent[i] / (reach * CELL_MARGIN)).floor().clamp(1.0, budget.max(1.0));
        budget /= along;
        along as u64
    });
    let set: Vec<u32> = (0..points.len() as u32).collect();
    let grid = SortedCells::new(GridLayout::tiling(domain, counts, reach), points, &set);
    let sorted = grid.points();
    let mut best: Option<(usize, usize, f64)> = None;
    let mut smallest = reach * reach;
    for (cell, run) in grid.occupied() {
        grid.layout().block_around(&cell).any(|key| {
            for j in grid.run(key) {
                for k in run.clone().filter(|&k| k < j) {
                    let d2 = domain.distance_squared(&sorted[k], &sorted[j]);
                    if d2 < smallest {
                        smallest = d2;
                        let (a, b) = (grid.original(k) as usize, grid.original(j) as usize);
                        best = Some((a.min(b), a.max(b), d2));
                    }
                }
            }
            false
        });
    }
    best.map(|(i, j, d2)| (i, j, d2.sqrt()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from_seed;

    /// The radix sort orders as a stable comparison sort does, for keys of 0 to 40 bits
    /// (one, two, three and four passes), with many equal keys, and leaves an empty list be.
    #[test]
    fn radix_sort_is_a_stable_sort_by_key() {
        use rand::Rng;
        let mut rng = rng_from_seed(11);
        let mut scratch = Vec::new();
        for bits in [0u32, 1, 5, 11, 12, 22, 23, 33, 40] {
            for len in [0usize, 1, 2, 100, 5_000] {
                let items: Vec<(u64, usize)> = (0..len)
                    .map(|i| {
                        let key = if bits == 0 { 0 } else { rng.next_u64() >> (64 - bits) };
                        // Few distinct keys in every other list: long runs of ties.
                        (if len % 2 == 0 { key % 7 } else { key }, i)
                    })
                    .collect();
                let mut expected = items.clone();
                expected.sort_by_key(|&(key, _)| key);
                let mut sorted = items;
                radix_sort_by_key(&mut sorted, &mut scratch, bits, |&(key, _)| key);
                assert_eq!(sorted, expected, "{bits} bits, {len} items");
            }
        }
    }

    /// The closest pair closer than the reach, by brute force, in closed and periodic boxes
    /// of one to four dimensions, from 2 to 400 points, for reaches from tiny to wider than
    /// the box (one cell per axis, two cells: every wrap-around case).
    fn agrees_with_brute_force<const D: usize>() {
        let mut rng = rng_from_seed(D as u64);
        let closed = Domain::<D>::from_origin_and_extent(
            [-0.3; D],
            std::array::from_fn(|i| 1.0 + 0.2 * i as f64),
        )
        .unwrap();
        for domain in [closed, closed.periodic()] {
            for n in [2usize, 3, 17, 400] {
                let points: Vec<Point<D>> =
                    (0..n).map(|_| domain.uniform_point(&mut rng)).collect();
                for reach in [1e-3, 0.05, 0.3, 0.45, 0.7, 5.0] {
                    let mut best: Option<(usize, usize, f64)> = None;
                    for i in 0..n {
                        for j in i + 1..n {
                            let d2 = domain.distance_squared(&points[i], &points[j]);
                            if d2 < reach * reach && best.is_none_or(|b| d2 < b.2) {
                                best = Some((i, j, d2));
                            }
                        }
                    }
                    let expected = best.map(|(i, j, d2)| (i, j, d2.sqrt()));
                    let got = closest_pair_within(&domain, &points, reach);
                    assert_eq!(got, expected, "{D}D n {n} reach {reach} {domain:?}");
                }
            }
        }
    }

    #[test]
    fn the_closest_pair_is_the_brute_force_one() {
        agrees_with_brute_force::<1>();
        agrees_with_brute_force::<2>();
        agrees_with_brute_force::<3>();
        agrees_with_brute_force::<4>();
    }
}
