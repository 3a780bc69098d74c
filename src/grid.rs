//! The background grid that answers "is any accepted point closer than r to this one?".
//!
//! [`GridLayout`] is the immutable geometry (cell sides, neighbour offsets), built and validated
//! once per sampler; [`Grid`] holds the points of one run. Cells keep the index of their newest
//! point and points chain to the previous point of the same cell, so one structure serves
//! both fine cells (side ≤ r/√D, in practice one point each) and coarse cells (several points).
//! The correctness argument for the neighbourhood is in docs/algorithms.md.

use crate::domain::Domain;
use crate::error::Error;
use crate::point::{Point, distance_squared};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// How finely the background grid divides space, relative to the radius `r`.
///
/// Both answer "is a point closer than r?" exactly, so a sampler's output is bit-identical
/// with either; only speed and memory differ. [`Coarse`](Self::Coarse) is the default: with
/// the occupancy bitmap scanned row by row it was the faster of the two in every dimension
/// measured (2D to 6D, docs/design.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GridResolution {
    /// Cells of side at most r/√D: a cell holds one point (two only if they are r apart
    /// to rounding, on opposite corners), and the search reaches
    /// ⌈√D⌉ cells along each axis (pruned to the cells that can hold a point closer than r:
    /// 21 in 2D, 117 in 3D, 3,903 in 5D). Few distance tests, many cells.
    Fine,
    /// Cells of side at most r: a cell may hold several points, and the search covers the
    /// 3^D cells around the candidate. Fewer, denser cells: less memory traffic.
    #[default]
    Coarse,
}

/// Marks "no point" in cell heads and chains.
const NONE: u32 = u32::MAX;

/// Set in a link (a cell head or a chain entry) when the cell holds a further, older point:
/// the chain is read only then, which spares one memory access for most cells.
const MORE: u32 = 1 << 31;

/// The largest number of points a grid can index (a link is a 31-bit index and [`MORE`]; one
/// value is NONE).
pub(crate) const MAX_GRID_POINTS: usize = (MORE - 1) as usize;

/// Validates the point limit of a sampler whose points live in a grid: at least 1 and no more
/// than [`MAX_GRID_POINTS`].
pub(crate) fn check_grid_point_limit(max_points: usize) -> Result<(), Error> {
    if max_points == 0 {
        return Err(Error::ZeroCount("max_points"));
    }
    if max_points > MAX_GRID_POINTS {
        return Err(Error::InvalidParameter {
            name: "max_points",
            expected: "at most 2147483647",
            value: max_points as f64,
        });
    }
    Ok(())
}

/// The geometry of a background grid over a domain, for a given radius.
#[derive(Debug, Clone)]
pub(crate) struct GridLayout<const D: usize> {
    domain: Domain<D>,
    radius_squared: f64,
    /// Cells per unit length along each axis.
    inverse_side: [f64; D],
    /// Cells along each axis.
    cells: [u64; D],
    /// The cell a rounded index of `cells[i]` stands for: cell 0 on a torus (the seam), the
    /// last cell in a closed box (reached only if rounding misbehaves).
    seam: [u64; D],
    /// The key of cell (0, …, 0): empty cells are added on both sides of each axis of a
    /// closed domain, so that every neighbour offset stays inside the (virtual) index space
    /// without bounds checks.
    key_base: u64,
    /// Strides of the linear cell key.
    strides: [u64; D],
    /// Neighbour offsets in cells, nearest first (periodic: one per distinct wrapped cell).
    offsets: Vec<[i64; D]>,
    /// The same offsets as differences of linear keys (closed domains).
    key_offsets: Vec<u64>,
    /// The same offsets grouped into runs of consecutive keys along the last axis, nearest
    /// run first (closed domains): one occupancy test covers a whole run.
    rows: Vec<Row>,
    /// Key offsets of the runs of cells that [`Grid::warm_around`] reads (closed domains).
    warm_offsets: Vec<u64>,
    /// Whether cell heads live in a dense array rather than a hash map.
    dense: bool,
    /// Number of keys of the (padded) index space.
    key_count: u64,
}

impl<const D: usize> GridLayout<D> {
    /// Lays out a grid of the given resolution over `domain` for minimum distance `radius`.
    /// Cell heads are stored densely when that takes at most `dense_limit_bytes`, otherwise
    /// in a hash map whose size follows the number of points.
    pub(crate) fn new(
        domain: &Domain<D>,
        radius: f64,
        resolution: GridResolution,
        dense_limit_bytes: usize,
    ) -> Result<Self, Error> {
        let target_side = match resolution {
            GridResolution::Fine => radius / (D as f64).sqrt(),
            GridResolution::Coarse => radius,
        };
        let extent = domain.extent();
        let mut cells = [1u64; D];
        let mut side = [0.0; D];
        let mut inverse_side = [0.0; D];
        let mut total_cells = 1.0f64;
        for i in 0..D {
            let count = (extent[i] / target_side).ceil().max(1.0);
            if domain.is_periodic() {
                // Equal cells that tile the torus exactly, each no larger than the target
                // side, so that the gap argument holds across the seam too.
                side[i] = extent[i] / count;
                inverse_side[i] = count / extent[i];
                cells[i] = count as u64;
            } else {
                // The target side. Cells are centred on multiples of it (see `cell_of`), so
                // the first and last cells are partial; they are never between two other
                // cells, so the gaps the search relies on are all whole cells.
                side[i] = target_side;
                inverse_side[i] = 1.0 / target_side;
                cells[i] = count as u64 + 1;
            }
            total_cells *= cells[i] as f64;
            if count > (1u64 << 40) as f64 {
                return Err(Error::GridTooLarge { cells: total_cells });
            }
        }
        let seam = std::array::from_fn(|i| if domain.is_periodic() { 0 } else { cells[i] - 1 });

        let offsets = neighbour_offsets(&side, radius, domain.is_periodic().then_some(&cells));

        let mut padding = [0u64; D];
        if !domain.is_periodic() {
            for o in &offsets {
                for i in 0..D {
                    padding[i] = padding[i].max(o[i].unsigned_abs());
                }
            }
        }
        let mut strides = [0u64; D];
        let mut key_count: u64 = 1;
        for i in (0..D).rev() {
            strides[i] = key_count;
            key_count = (cells[i] + 2 * padding[i])
                .checked_mul(key_count)
                .ok_or(Error::GridTooLarge { cells: total_cells })?;
        }
        let key_base = (0..D).map(|i| padding[i] * strides[i]).sum();
        let key_offsets = offsets.iter().map(|o| key_offset(o, &strides)).collect();
        let rows = if domain.is_periodic() { Vec::new() } else { rows_of(&offsets, &strides) };
        let warm_offsets = if domain.is_periodic() {
            Vec::new()
        } else {
            warm_runs(&side, radius).iter().map(|o| key_offset(o, &strides)).collect()
        };
        let dense = key_count
            .checked_mul(std::mem::size_of::<u32>() as u64)
            .is_some_and(|bytes| bytes <= dense_limit_bytes as u64);

        Ok(GridLayout {
            domain: *domain,
            radius_squared: radius * radius,
            inverse_side,
            cells,
            seam,
            key_base,
            strides,
            offsets,
            key_offsets,
            rows,
            warm_offsets,
            dense,
            key_count,
        })
    }

    /// Number of neighbour cells searched per query.
    pub(crate) fn neighbourhood_len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether cell heads are stored densely.
    pub(crate) fn is_dense(&self) -> bool {
        self.dense
    }

    /// The cell of a point inside the domain.
    ///
    /// Cell `c` along an axis holds the points whose offset from the origin, in cells,
    /// rounds to `c`: the interval [c − ½, c + ½] (ends included or not by the ties-to-even
    /// rule, the same for every call). Rounding to nearest is one addition, where the floor
    /// would be a saturating float-to-integer conversion and two clamps.
    #[inline]
    fn cell_of(&self, p: &Point<D>) -> [u64; D] {
        // For 0 ≤ t < 2^51, t + 2^52 is the integer nearest t, plus 2^52, and the low bits of
        // its representation are that integer.
        const ROUND: f64 = (1u64 << 52) as f64;
        let origin = self.domain.origin();
        std::array::from_fn(|i| {
            let t = (p[i] - origin[i]) * self.inverse_side[i];
            let c = (t + ROUND).to_bits().wrapping_sub(ROUND.to_bits());
            if c < self.cells[i] { c } else { self.seam[i] }
        })
    }

    #[inline]
    fn key_of(&self, cell: &[u64; D]) -> u64 {
        (0..D).fold(self.key_base, |key, i| key + cell[i] * self.strides[i])
    }
}

/// The longest run of cells one occupancy read covers (an 8-byte read shifted by up to 7).
const MAX_ROW: i64 = 57;

/// A run of neighbour cells with consecutive keys: `len` cells from `start` (a key offset).
/// The scan starts at cell `turn` of the run, the one in line with the centre along the last
/// axis (the nearest of the run), goes up to the end and then wraps round to the start.
#[derive(Debug, Clone, Copy)]
struct Row {
    start: u64,
    len: u32,
    turn: u32,
}

/// The difference of linear keys that an offset in cells makes (wrapping: negative offsets
/// become large keys that wrap back when added to a cell's key).
fn key_offset<const D: usize>(offset: &[i64; D], strides: &[u64; D]) -> u64 {
    (0..D).fold(0u64, |k, i| k.wrapping_add((offset[i] as u64).wrapping_mul(strides[i])))
}

/// Groups offsets (sorted nearest first) into runs along the last axis. For fixed leading
/// coordinates the bound grows with |d_last|, so each group is one interval of d_last; groups
/// keep the order of their nearest member.
fn rows_of<const D: usize>(offsets: &[[i64; D]], strides: &[u64; D]) -> Vec<Row> {
    let mut groups: Vec<([i64; D], i64, i64)> = Vec::new();
    for o in offsets {
        let mut prefix = *o;
        prefix[D - 1] = 0;
        match groups.iter_mut().find(|g| g.0 == prefix) {
            Some(group) => {
                group.1 = group.1.min(o[D - 1]);
                group.2 = group.2.max(o[D - 1]);
            }
            None => groups.push((prefix, o[D - 1], o[D - 1])),
        }
    }
    let mut rows = Vec::new();
    for (mut prefix, low, high) in groups {
        // Runs longer than one occupancy read (only in very high dimensions) are split.
        let mut first = low;
        while first <= high {
            prefix[D - 1] = first;
            let len = (high - first + 1).min(MAX_ROW);
            let turn = if (first..first + len).contains(&0) { -first } else { 0 };
            rows.push(Row {
                start: key_offset(&prefix, strides),
                len: len as u32,
                turn: turn as u32,
            });
            first += len;
        }
    }
    rows
}

/// How many runs of cells [`Grid::warm_around`] reads per active point. Measured at 10^6
/// points in 3D (25 runs: 1.16–1.22× faster) and 2·10^5 in 4D (27 runs: 1.10×; all 125 runs
/// within reach: 1.01×, and 5% slower at 2·10^4): past a few dozen, the reads cost what they
/// save.
const WARM_RUNS: usize = 27;

/// The offsets of the cell in line with the centre (last axis offset 0) of each run of
/// cells that can hold a candidate, i.e. a point within 2r of a point of the centre cell:
/// prefixes of up to ⌈2r / side⌉ cells along each leading axis, nearest first, at most
/// [`WARM_RUNS`] of them.
fn warm_runs<const D: usize>(side: &[f64; D], radius: f64) -> Vec<[i64; D]> {
    // Side ≤ r, so every leading axis reaches at least 2 cells. Prefixes within one cell of
    // the centre are all at gap 0 and come first: when there are enough of them, the others
    // need not be listed at all (this keeps 8D at 3^7 prefixes instead of 13^7).
    let near_enough = 3usize.checked_pow(D as u32 - 1).is_none_or(|n| n >= WARM_RUNS);
    let reach: [i64; D] = std::array::from_fn(|i| {
        if i + 1 == D {
            0
        } else if near_enough {
            1
        } else {
            (2.0 * radius / side[i]).ceil() as i64
        }
    });
    let mut prefixes = Vec::new();
    let mut at = reach.map(|r| -r);
    'next: loop {
        prefixes.push(at);
        for i in (0..D).rev() {
            if at[i] < reach[i] {
                at[i] += 1;
                continue 'next;
            }
            at[i] = -reach[i];
        }
        break;
    }
    sort_nearest_first(&mut prefixes, side);
    prefixes.truncate(WARM_RUNS);
    prefixes
}

/// Cells per axis for about `count` cells as near to cubes as the box allows, and the side
/// `s` of those cubes. Axes shorter than `s` get one cell; on the others the ideal counts
/// `L_i / s` multiply to `count` and each gets `⌊L_i / s⌋` (at least 1), so the total never
/// exceeds `count` (up to rounding in `s`). `count` must be at least 1.
pub(crate) fn cubic_cells<const D: usize>(extent: &[f64; D], count: usize) -> ([usize; D], f64) {
    let mut single = [false; D];
    loop {
        let free = single.iter().filter(|s| !**s).count();
        if free == 0 {
            return ([1; D], f64::INFINITY);
        }
        // In logarithms, so that no product of sides can overflow.
        let log_volume: f64 = (0..D).filter(|&i| !single[i]).map(|i| extent[i].ln()).sum();
        let side = ((log_volume - (count.max(1) as f64).ln()) / free as f64).exp();
        let mut changed = false;
        for i in 0..D {
            if !single[i] && extent[i] < side {
                single[i] = true;
                changed = true;
            }
        }
        if !changed {
            let cells = std::array::from_fn(|i| {
                // The nudge keeps an ideal count such as 9.999999999999998 at 10.
                let ideal = extent[i] / side * (1.0 + 1e-12);
                if single[i] { 1 } else { (ideal as usize).clamp(1, count.max(1)) }
            });
            return (cells, side);
        }
    }
}

/// The neighbour offsets, in cells, that can hold a point closer than `radius` to a point of
/// the centre cell, nearest first.
///
/// Along an axis, points of cells `d` apart are at least `(|d| − 1)·side` apart (0 for
/// adjacent cells), so an offset is needed exactly when `Σ ((|d_i| − 1)⁺ · side_i)² < r²`.
/// With `side = r/√D` this reaches ⌈√D⌉ cells along each axis. Cells whose bound is r² up to
/// rounding are left out: they could only hide a pair whose distance is r to within 1e-15
/// relative, below what the distance computation itself resolves. With `wrap_cells` (a periodic
/// domain) offsets that land on the same cell after wrapping are kept once.
pub(crate) fn neighbour_offsets<const D: usize>(
    side: &[f64; D],
    radius: f64,
    wrap_cells: Option<&[u64; D]>,
) -> Vec<[i64; D]> {
    let reach: [i64; D] = std::array::from_fn(|i| (radius / side[i]).ceil() as i64);
    let gap = |d: i64, i: usize| (d.abs() - 1).max(0) as f64 * side[i];
    // A cell whose bound equals r² (up to rounding) cannot hold a point closer than r, so
    // it is left out; the tolerance keeps rounding in the bound from adding it back.
    let limit = radius * radius * (1.0 - 8.0 * f64::EPSILON);
    let mut offsets: Vec<[i64; D]> = Vec::new();
    // Depth-first over axes, abandoning a prefix as soon as its lower bound reaches r².
    let mut stack: Vec<([i64; D], usize, f64)> = vec![([0; D], 0, 0.0)];
    while let Some((offset, axis, bound)) = stack.pop() {
        if axis == D {
            offsets.push(offset);
            continue;
        }
        for d in -reach[axis]..=reach[axis] {
            let b = bound + gap(d, axis).powi(2);
            if b < limit {
                let mut next = offset;
                next[axis] = d;
                stack.push((next, axis + 1, b));
            }
        }
    }
    sort_nearest_first(&mut offsets, side);
    if let Some(cells) = wrap_cells {
        let mut seen = std::collections::HashSet::new();
        offsets.retain(|o| {
            let wrapped: [i64; D] = std::array::from_fn(|i| o[i].rem_euclid(cells[i] as i64));
            seen.insert(wrapped)
        });
    }
    offsets
}

/// Sorts cell offsets nearest first: by the lower bound on the squared distance between points
/// of the centre cell and of the offset cell, `Σ ((|d_i| − 1)⁺ · side_i)²`, then by the squared
/// distance between the cells' centres, then lexicographically (so the order is total).
fn sort_nearest_first<const D: usize>(offsets: &mut [[i64; D]], side: &[f64; D]) {
    let nearness = |o: &[i64; D]| {
        let gap: f64 = (0..D).map(|i| ((o[i].abs() - 1).max(0) as f64 * side[i]).powi(2)).sum();
        let centre: f64 = (0..D).map(|i| (o[i] as f64 * side[i]).powi(2)).sum();
        (gap, centre)
    };
    let mut keyed: Vec<((f64, f64), [i64; D])> =
        offsets.iter().map(|o| (nearness(o), *o)).collect();
    keyed.sort_by(|(a, a_offset), (b, b_offset)| {
        a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a_offset.cmp(b_offset))
    });
    for (slot, (_, offset)) in offsets.iter_mut().zip(keyed) {
        *slot = offset;
    }
}

/// A fast hasher for cell keys (multiplicative hashing with a final fold).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct CellKeyHasher(u64);

impl Hasher for CellKeyHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = (self.0.rotate_left(5) ^ key).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Where a grid keeps the newest point of each cell. The two implementations are separate
/// types, not an enum, so that the sampling loop is compiled once for each and the lookup in
/// its innermost loop has no branch on the storage kind.
pub(crate) trait CellHeads {
    /// Empty storage for `layout`, ready for about `capacity` points.
    fn for_layout<const D: usize>(layout: &GridLayout<D>, capacity: usize) -> Self;
    /// The newest point of cell `key`, or NONE.
    fn head(&self, key: u64) -> u32;
    /// The slot for cell `key`'s newest point (created empty if missing).
    fn head_mut(&mut self, key: u64) -> &mut u32;
    /// Reads the heads at `base` plus each of the layout's warm offsets and folds them into
    /// one value (see [`Grid::warm_around`]); storage where that would cost more than it
    /// saves reads nothing.
    fn warm<const D: usize>(&self, layout: &GridLayout<D>, base: u64) -> u32;
    /// Calls `visit` with the newest point of each occupied neighbour cell of cell `base` in
    /// a closed domain, nearest first, until it returns true; returns whether it did.
    fn any_neighbour<const D: usize>(
        &self,
        layout: &GridLayout<D>,
        base: u64,
        visit: impl FnMut(u32) -> bool,
    ) -> bool;
}

/// Cell heads in an array over the whole (padded) index space, with an occupancy bitmap.
///
/// The bitmap (one bit per cell) stays in cache where the heads do not, and one read of it
/// tests a whole run of neighbour cells: most neighbour cells are empty (nine in ten for fine
/// cells in 3D), and they now cost neither a memory access nor a branch each.
#[derive(Debug)]
pub(crate) struct DenseHeads {
    heads: Vec<u32>,
    /// Bit `key % 8` of byte `key / 8` is set when cell `key` holds a point.
    occupied: Vec<u8>,
}

impl DenseHeads {
    /// The occupancy bits of `len` (≤ [`MAX_ROW`]) cells from `key` on, lowest bit first:
    /// one unaligned 8-byte read from the byte that holds the first bit.
    #[inline(always)]
    fn occupancy(&self, key: u64, len: u32) -> u64 {
        let byte = (key >> 3) as usize;
        // The bitmap has 8 spare bytes at the end, so the slice is always in range and
        // always 8 bytes long (the fallback is never taken).
        let word = self.occupied[byte..byte + 8].try_into().map_or(0, u64::from_le_bytes);
        (word >> (key & 7)) & (u64::MAX >> (64 - len))
    }
}

impl CellHeads for DenseHeads {
    fn for_layout<const D: usize>(layout: &GridLayout<D>, _capacity: usize) -> Self {
        let cells = layout.key_count as usize;
        DenseHeads { heads: vec![NONE; cells], occupied: vec![0; cells / 8 + 9] }
    }
    #[inline(always)]
    fn head(&self, key: u64) -> u32 {
        self.heads[key as usize]
    }
    #[inline(always)]
    fn warm<const D: usize>(&self, layout: &GridLayout<D>, base: u64) -> u32 {
        // Offsets past the padding can leave the array near the faces: those reads are
        // skipped (`get`), the others fold into the result.
        layout.warm_offsets.iter().fold(0, |folded, &offset| {
            folded ^ self.heads.get(base.wrapping_add(offset) as usize).copied().unwrap_or(0)
        })
    }
    #[inline(always)]
    fn head_mut(&mut self, key: u64) -> &mut u32 {
        self.occupied[(key >> 3) as usize] |= 1 << (key & 7);
        &mut self.heads[key as usize]
    }
    #[inline(always)]
    fn any_neighbour<const D: usize>(
        &self,
        layout: &GridLayout<D>,
        base: u64,
        mut visit: impl FnMut(u32) -> bool,
    ) -> bool {
        for row in &layout.rows {
            let first = base.wrapping_add(row.start);
            // Rotated so that the scan starts with the cell in line with the centre: it is
            // the likeliest to hold a conflict (in the centre row, the candidate's own cell).
            let mut bits = self.occupancy(first, row.len).rotate_right(row.turn);
            while bits != 0 {
                let along = (bits.trailing_zeros() + row.turn) & 63;
                if visit(self.heads[(first + along as u64) as usize]) {
                    return true;
                }
                bits &= bits - 1;
            }
        }
        false
    }
}

/// Cell heads in a hash map: memory follows the number of points, not the box volume.
#[derive(Debug)]
pub(crate) struct HashedHeads(HashMap<u64, u32, BuildHasherDefault<CellKeyHasher>>);

impl CellHeads for HashedHeads {
    fn for_layout<const D: usize>(_layout: &GridLayout<D>, capacity: usize) -> Self {
        let mut map = HashMap::default();
        map.reserve(capacity);
        HashedHeads(map)
    }
    #[inline(always)]
    fn head(&self, key: u64) -> u32 {
        self.0.get(&key).copied().unwrap_or(NONE)
    }
    fn warm<const D: usize>(&self, _layout: &GridLayout<D>, _base: u64) -> u32 {
        // A hashed lookup per run would cost what it saves.
        0
    }
    #[inline(always)]
    fn head_mut(&mut self, key: u64) -> &mut u32 {
        self.0.entry(key).or_insert(NONE)
    }
    #[inline(always)]
    fn any_neighbour<const D: usize>(
        &self,
        layout: &GridLayout<D>,
        base: u64,
        mut visit: impl FnMut(u32) -> bool,
    ) -> bool {
        layout.key_offsets.iter().any(|&delta| match self.0.get(&base.wrapping_add(delta)) {
            Some(&head) => visit(head),
            None => false,
        })
    }
}

/// The points of one sampling run, bucketed by cell.
#[derive(Debug)]
pub(crate) struct Grid<'a, const D: usize, H> {
    layout: &'a GridLayout<D>,
    heads: H,
    /// For each point, the link to the previous point of its cell (or NONE), read only when
    /// the point's own link carries [`MORE`].
    previous: Vec<u32>,
    points: Vec<Point<D>>,
}

impl<'a, const D: usize, H: CellHeads> Grid<'a, D, H> {
    /// An empty grid; `capacity` points are reserved up front.
    pub(crate) fn new(layout: &'a GridLayout<D>, capacity: usize) -> Self {
        Grid {
            layout,
            heads: H::for_layout(layout, capacity),
            previous: Vec::with_capacity(capacity),
            points: Vec::with_capacity(capacity),
        }
    }

    /// The accepted points, in insertion order.
    pub(crate) fn points(&self) -> &[Point<D>] {
        &self.points
    }

    /// Gives up the grid, keeping its points.
    pub(crate) fn into_points(self) -> Vec<Point<D>> {
        self.points
    }

    /// Whether any stored point is closer than r to `p` (toroidally in a periodic domain).
    /// `p` must lie inside the domain.
    #[inline]
    pub(crate) fn has_point_within_radius(&self, p: &Point<D>) -> bool {
        let layout = self.layout;
        let cell = layout.cell_of(p);
        if layout.domain.is_periodic() {
            let toroidal = |a: &Point<D>, b: &Point<D>| layout.domain.distance_squared(a, b);
            layout.offsets.iter().any(|offset| {
                let mut key = 0;
                for i in 0..D {
                    let n = layout.cells[i] as i64;
                    key += (cell[i] as i64 + offset[i]).rem_euclid(n) as u64 * layout.strides[i];
                }
                let head = self.heads.head(key);
                head != NONE && self.chain_has_point_within_radius(head, p, toroidal)
            })
        } else {
            self.heads.any_neighbour(layout, layout.key_of(&cell), |head| {
                self.chain_has_point_within_radius(head, p, distance_squared)
            })
        }
    }

    /// Reads the cell heads that the candidates around `centre` (an active point) are about to
    /// test, all at once, so that their cache misses overlap instead of each stalling one
    /// candidate's test in turn. The value means nothing; the loads are the point (the caller
    /// passes it to `black_box` so that they are kept). Closed domains only; elsewhere it
    /// reads nothing.
    #[inline]
    pub(crate) fn warm_around(&self, centre: &Point<D>) -> u32 {
        let layout = self.layout;
        if layout.warm_offsets.is_empty() {
            return 0;
        }
        self.heads.warm(layout, layout.key_of(&layout.cell_of(centre)))
    }

    /// Whether the point of link `head` or an older point of its cell is closer than r to
    /// `p`.
    #[inline(always)]
    fn chain_has_point_within_radius(
        &self,
        head: u32,
        p: &Point<D>,
        distance_squared: impl Fn(&Point<D>, &Point<D>) -> f64,
    ) -> bool {
        let mut link = head;
        loop {
            let index = (link & !MORE) as usize;
            if distance_squared(p, &self.points[index]) < self.layout.radius_squared {
                return true;
            }
            // Fine cells are walked too: two points exactly r apart (to rounding) may share
            // one, since cells are closed at one end or both (see `cell_of`).
            if link & MORE == 0 {
                return false;
            }
            link = self.previous[index];
        }
    }

    /// Stores `p` (inside the domain) without checking distances; returns its index.
    #[inline]
    pub(crate) fn insert(&mut self, p: Point<D>) -> u32 {
        let key = self.layout.key_of(&self.layout.cell_of(&p));
        let index = self.points.len() as u32;
        let slot = self.heads.head_mut(key);
        self.previous.push(*slot);
        *slot = if *slot == NONE { index } else { index | MORE };
        self.points.push(p);
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force in exact integer arithmetic: the offsets in a generous box around the
    /// centre whose cells of side r/√D can hold a pair closer than r, i.e.
    /// Σ ((|d_i| − 1)⁺)² · r²/D < r²  ⇔  Σ ((|d_i| − 1)⁺)² < D.
    fn brute_force_count<const D: usize>() -> usize {
        let reach = D as i64; // far more than needed
        let width = (2 * reach + 1) as usize;
        (0..width.pow(D as u32))
            .filter(|&code| {
                let mut c = code;
                let mut bound = 0;
                for _ in 0..D {
                    let d = (c % width) as i64 - reach;
                    c /= width;
                    bound += (d.abs() - 1).max(0).pow(2);
                }
                bound < D as i64
            })
            .count()
    }

    #[test]
    fn fine_neighbourhood_sizes_match_brute_force() {
        fn check<const D: usize>(expected: usize) {
            let side = 1.0 / (D as f64).sqrt();
            let offsets = neighbour_offsets::<D>(&[side; D], 1.0, None);
            assert_eq!(offsets.len(), expected, "D = {D}");
            assert_eq!(offsets.len(), brute_force_count::<D>(), "D = {D}");
        }
        check::<1>(3);
        check::<2>(21);
        check::<3>(117);
        check::<4>(609);
        check::<5>(3903);
    }

    #[test]
    fn fine_neighbourhood_reaches_ceil_sqrt_d_cells() {
        fn reach<const D: usize>() -> i64 {
            let side = 1.0 / (D as f64).sqrt();
            neighbour_offsets::<D>(&[side; D], 1.0, None)
                .iter()
                .flat_map(|o| o.iter().map(|d| d.abs()).collect::<Vec<_>>())
                .max()
                .unwrap_or(0)
        }
        assert_eq!(reach::<2>(), 2);
        assert_eq!(reach::<4>(), 2);
        // 5D needs cells three away: a 5^D (reach 2) neighbourhood misses close pairs.
        assert_eq!(reach::<5>(), 3);
        assert_eq!(reach::<8>(), 3);
    }

    #[test]
    fn warm_runs_cover_the_candidates_cells_nearest_first() {
        // Coarse cells (side r): candidates are at most 2r from the centre, two cells away.
        let all_2d = warm_runs::<2>(&[1.0; 2], 1.0);
        assert_eq!(all_2d, vec![[0, 0], [-1, 0], [1, 0], [-2, 0], [2, 0]]);
        let all_3d = warm_runs::<3>(&[1.0; 3], 1.0);
        assert_eq!(all_3d.len(), 25);
        assert_eq!(all_3d[0], [0, 0, 0]);
        assert!(all_3d.iter().all(|o| o[2] == 0 && o[0].abs() <= 2 && o[1].abs() <= 2));
        // From 4D on, the budget is spent on the 3^(D-1) runs next to the centre.
        for runs in [warm_runs::<4>(&[1.0; 4], 1.0).len(), warm_runs::<8>(&[1.0; 8], 1.0).len()] {
            assert_eq!(runs, WARM_RUNS);
        }
        assert!(warm_runs::<8>(&[1.0; 8], 1.0).iter().all(|o| o.iter().all(|d| d.abs() <= 1)));
        // Fine cells in 3D reach four cells; the nearest 27 of the 81 runs are kept, and no
        // kept run is farther (by its lower bound) than a dropped one.
        let side = [1.0 / 3f64.sqrt(); 3];
        let fine = warm_runs::<3>(&side, 1.0);
        assert_eq!(fine.len(), WARM_RUNS);
        let gap = |o: &[i64; 3]| (0..3).map(|i| ((o[i].abs() - 1).max(0)).pow(2)).sum::<i64>();
        let widest_kept = fine.iter().map(gap).max().unwrap_or(0);
        let nearest_dropped = (-4..=4i64)
            .flat_map(|a| (-4..=4i64).map(move |b| [a, b, 0]))
            .filter(|o| !fine.contains(o))
            .map(|o| gap(&o))
            .min()
            .unwrap_or(i64::MAX);
        assert!(widest_kept <= nearest_dropped, "{widest_kept} > {nearest_dropped}");
    }

    #[test]
    fn offsets_are_sorted_nearest_first_and_start_at_the_centre() {
        let side = 1.0 / 3f64.sqrt();
        let offsets = neighbour_offsets::<3>(&[side; 3], 1.0, None);
        assert_eq!(offsets[0], [0, 0, 0]);
        let bound = |o: &[i64; 3]| -> f64 {
            o.iter().map(|d| ((d.abs() - 1).max(0) as f64 * side).powi(2)).sum()
        };
        assert!(offsets.windows(2).all(|w| bound(&w[0]) <= bound(&w[1])));
    }

    #[test]
    fn a_close_point_three_fine_cells_away_is_found_in_5d() {
        let domain = Domain::<5>::unit().unwrap();
        let r = 0.1;
        let side = r / 5f64.sqrt();
        let layout = GridLayout::new(&domain, r, GridResolution::Fine, usize::MAX).unwrap();
        let mut grid = Grid::<5, DenseHeads>::new(&layout, 2);
        let p = [10.45 * side, 0.5, 0.5, 0.5, 0.5];
        let q = [p[0] + 0.95 * r, 0.5, 0.5, 0.5, 0.5];
        assert_eq!(layout.cell_of(&q)[0] - layout.cell_of(&p)[0], 3);
        grid.insert(p);
        assert!(grid.has_point_within_radius(&q), "a 5^D search would miss this pair");
        // And just beyond r it is not reported.
        let far = [p[0] + 1.0001 * r, 0.5, 0.5, 0.5, 0.5];
        assert!(!grid.has_point_within_radius(&far));
    }

    #[test]
    fn cubic_cells_never_exceed_the_count() {
        assert_eq!(cubic_cells(&[1.0, 1.0], 100).0, [10, 10]);
        assert_eq!(cubic_cells(&[1e6, 1e-6], 100).0, [100, 1]);
        assert_eq!(cubic_cells(&[1.0, 1.0, 1.0], 1).0, [1, 1, 1]);
        assert_eq!(cubic_cells(&[1e300, 1e300], 4).0, [2, 2]);
        for n in [1usize, 2, 3, 7, 100, 12345] {
            let cells = cubic_cells(&[1.0, 2.5, 0.3], n).0;
            assert!(cells.iter().product::<usize>() <= n, "{n}: {cells:?}");
        }
    }

    #[test]
    fn periodic_offsets_visit_each_cell_once() {
        let offsets = neighbour_offsets::<2>(&[0.5; 2], 1.0, Some(&[2, 2]));
        assert_eq!(offsets.len(), 4);
    }
}
