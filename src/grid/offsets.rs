//! Neighbour offsets: which cells around a point's cell a query must read for a reach, in
//! which order (nearest first, or the walk order of the keys), as key offsets and as runs of
//! consecutive keys, with each cell's lower bound on the distance.

/// The longest run of cells one occupancy read covers (an 8-byte read shifted by up to 7).
pub(super) const MAX_ROW: i64 = 57;

/// A run of neighbour cells with consecutive keys: `len` cells from `start` (a key offset).
/// The scan starts at cell `turn` of the run, the one in line with the centre along the last
/// axis (the nearest of the run), goes up to the end and then wraps round to the start.
#[derive(Debug, Clone, Copy)]
pub(super) struct Row {
    pub(super) start: u64,
    pub(super) len: u32,
    pub(super) turn: u32,
}

/// What a query with a per-candidate reach needs to know of a run of cells: its cells'
/// `B(d)` is `prefix + last_gaps[|first + along|]` for the cell `along` steps from the run's
/// start, and `min` is the smallest of them.
#[derive(Debug, Clone, Copy)]
pub(super) struct RowGap {
    pub(super) prefix: f64,
    pub(super) first: i64,
    pub(super) min: f64,
}

/// `(|d| − 1)⁺ · side`: how far apart, at least, two points are along an axis when their
/// cells are `d` apart.
pub(super) fn axis_gap(d: i64, side: f64) -> f64 {
    (d.abs() - 1).max(0) as f64 * side
}

/// `B(d) = Σ ((|d_i| − 1)⁺ · side_i)²`, computed as `sort_nearest_first` computes it.
pub(super) fn gap_squared<const D: usize>(offset: &[i64; D], side: &[f64; D]) -> f64 {
    (0..D).map(|i| axis_gap(offset[i], side[i]).powi(2)).sum()
}

/// The difference of linear keys that an offset in cells makes (wrapping: negative offsets
/// become large keys that wrap back when added to a cell's key).
pub(super) fn key_offset<const D: usize>(offset: &[i64; D], strides: &[u64; D]) -> u64 {
    (0..D).fold(0u64, |k, i| k.wrapping_add((offset[i] as u64).wrapping_mul(strides[i])))
}

/// Groups offsets (sorted nearest first) into runs along the last axis. For fixed leading
/// coordinates the bound grows with |d_last|, so each group is one interval of d_last; groups
/// keep the order of their nearest member.
pub(super) fn rows_of<const D: usize>(
    offsets: &[[i64; D]],
    strides: &[u64; D],
    side: &[f64; D],
) -> (Vec<Row>, Vec<RowGap>) {
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
    let mut gaps = Vec::new();
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
            let last = first + len - 1;
            let nearest = if first <= 0 && 0 <= last { 0 } else { first.abs().min(last.abs()) };
            let mut leading = prefix;
            leading[D - 1] = 0;
            let prefix_gap = gap_squared(&leading, side);
            let min = prefix_gap + axis_gap(nearest, side[D - 1]).powi(2);
            gaps.push(RowGap { prefix: prefix_gap, first, min });
            first += len;
        }
    }
    (rows, gaps)
}

/// How many runs of cells [`Grid::warm_around`](super::Grid::warm_around) reads per active
/// point. Measured at 10^6 points in 3D (25 runs: 1.16–1.22× faster) and 2·10^5 in 4D (27
/// runs: 1.10×; all 125 runs within reach: 1.01×, and 5% slower at 2·10^4): past a few
/// dozen, the reads cost what they save.
pub(super) const WARM_RUNS: usize = 27;

/// The offsets of the cell in line with the centre (last axis offset 0) of each run of
/// cells that can hold a candidate, i.e. a point within 2r of a point of the centre cell:
/// prefixes of up to ⌈2r / side⌉ cells along each leading axis, nearest first, at most
/// [`WARM_RUNS`] of them.
pub(super) fn warm_runs<const D: usize>(
    side: &[f64; D],
    radius: f64,
    cells: &[u64; D],
) -> Vec<[i64; D]> {
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
            // Never past the grid (a tiling's cells can be far narrower than the radius).
            let reach = (2.0 * radius / side[i]).ceil().min(i64::MAX as f64) as i64;
            reach.min(cells[i].min(i64::MAX as u64) as i64)
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

/// In what order a query meets the neighbour cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// Nearest first: by the lower bound `B(d)` below, then by the distance between the
    /// cells' centres (a conflict, when there is one, is found soonest).
    NearestFirst,
    /// By `B(d)`, then in *walk order*: axis 0 most significant, and along each axis the
    /// offsets 0, −1, +1, −2, +2, …, so that the 3^D block of cells at least as wide as the
    /// reach is walked centre first, then below, then above, along each axis in turn: the
    /// order in which maximal sampling meets close points and sample elimination sums its
    /// weights, which their value pins rest on.
    Walk,
}

/// The neighbour offsets, in cells, that can hold a point closer than `radius` (a rule's
/// reach) to a point of the centre cell, in `order`.
///
/// Along an axis, points of cells `d` apart are at least `(|d| − 1)·side` apart (0 for
/// adjacent cells), so an offset is needed exactly when `Σ ((|d_i| − 1)⁺ · side_i)² < r²`.
/// With `side = r/√D` this reaches ⌈√D⌉ cells along each axis. Cells whose bound is r² up to
/// rounding are left out: they could only hide a pair whose distance is r to within 1e-15
/// relative, below what the distance computation itself resolves. No offset passes `cells`
/// along its axis; in a `periodic` domain, offsets that land on the same cell after wrapping
/// are kept once.
pub(crate) fn neighbour_offsets<const D: usize>(
    side: &[f64; D],
    radius: f64,
    cells: &[u64; D],
    periodic: bool,
    order: Order,
) -> Vec<[i64; D]> {
    // No offset goes past the number of cells along its axis: in a closed box it would land
    // outside the grid, on a torus on a cell that a shorter offset with a smaller bound
    // already reaches (and would be dropped below). A radius far beyond the box would
    // otherwise enumerate (2r/side)^D offsets.
    let reach: [i64; D] = std::array::from_fn(|i| {
        let reach = (radius / side[i]).ceil().min(i64::MAX as f64) as i64;
        reach.min(cells[i].min(i64::MAX as u64) as i64)
    });
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
    match order {
        Order::NearestFirst => sort_nearest_first(&mut offsets, side),
        Order::Walk => sort_by_gap_then_walk(&mut offsets, side),
    }
    if periodic {
        let mut seen = std::collections::HashSet::new();
        offsets.retain(|o| {
            let wrapped: [i64; D] = std::array::from_fn(|i| o[i].rem_euclid(cells[i] as i64));
            seen.insert(wrapped)
        });
    }
    offsets
}

/// Sorts cell offsets by their lower bound `B(d)`, then in walk order (see
/// [`neighbour_offsets`]).
pub(super) fn sort_by_gap_then_walk<const D: usize>(offsets: &mut [[i64; D]], side: &[f64; D]) {
    // Along one axis: 0, −1, +1, −2, +2, …
    let walk = |d: i64| 2 * d.unsigned_abs() - u64::from(d < 0);
    offsets.sort_by(|a, b| {
        gap_squared(a, side)
            .total_cmp(&gap_squared(b, side))
            .then_with(|| a.map(walk).cmp(&b.map(walk)))
    });
}

/// Sorts cell offsets nearest first: by the lower bound on the squared distance between points
/// of the centre cell and of the offset cell, `Σ ((|d_i| − 1)⁺ · side_i)²`, then by the squared
/// distance between the cells' centres, then lexicographically (so the order is total).
pub(super) fn sort_nearest_first<const D: usize>(offsets: &mut [[i64; D]], side: &[f64; D]) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// On a torus, the offsets are those of the plane with the wrapped duplicates dropped,
    /// in the same order, however far the radius reaches past the box; a radius of 1e16 in
    /// a box of one cell gives that one cell.
    #[test]
    fn torus_offsets_never_pass_the_cells() {
        let side = [0.3, 0.25];
        for cells in [[1u64, 1], [3, 5], [4, 2]] {
            for radius in [0.2, 0.7, 1.3, 2.9] {
                for order in [Order::NearestFirst, Order::Walk] {
                    let mut plane = neighbour_offsets(&side, radius, &[u64::MAX; 2], false, order);
                    let mut seen = std::collections::HashSet::new();
                    plane.retain(|o| {
                        seen.insert([
                            o[0].rem_euclid(cells[0] as i64),
                            o[1].rem_euclid(cells[1] as i64),
                        ])
                    });
                    let torus = neighbour_offsets(&side, radius, &cells, true, order);
                    assert_eq!(torus, plane, "cells {cells:?} radius {radius} {order:?}");
                }
            }
        }
        let far = neighbour_offsets(&[1.0, 1.0, 1.0], 1e16, &[1, 1, 1], true, Order::Walk);
        assert_eq!(far, vec![[0, 0, 0]]);
        let closed = neighbour_offsets(&[1.0], 1e16, &[3], false, Order::Walk);
        assert_eq!(closed, vec![[0], [-1], [1], [-2], [2], [-3], [3]]);
    }

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
            let offsets =
                neighbour_offsets::<D>(&[side; D], 1.0, &[u64::MAX; D], false, Order::NearestFirst);
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
            neighbour_offsets::<D>(&[side; D], 1.0, &[u64::MAX; D], false, Order::NearestFirst)
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
        let all_2d = warm_runs::<2>(&[1.0; 2], 1.0, &[u64::MAX; 2]);
        assert_eq!(all_2d, vec![[0, 0], [-1, 0], [1, 0], [-2, 0], [2, 0]]);
        let all_3d = warm_runs::<3>(&[1.0; 3], 1.0, &[u64::MAX; 3]);
        assert_eq!(all_3d.len(), 25);
        assert_eq!(all_3d[0], [0, 0, 0]);
        assert!(all_3d.iter().all(|o| o[2] == 0 && o[0].abs() <= 2 && o[1].abs() <= 2));
        // From 4D on, the budget is spent on the 3^(D-1) runs next to the centre.
        for runs in [
            warm_runs::<4>(&[1.0; 4], 1.0, &[u64::MAX; 4]).len(),
            warm_runs::<8>(&[1.0; 8], 1.0, &[u64::MAX; 8]).len(),
        ] {
            assert_eq!(runs, WARM_RUNS);
        }
        assert!(
            warm_runs::<8>(&[1.0; 8], 1.0, &[u64::MAX; 8])
                .iter()
                .all(|o| o.iter().all(|d| d.abs() <= 1))
        );
        // Fine cells in 3D reach four cells; the nearest 27 of the 81 runs are kept, and no
        // kept run is farther (by its lower bound) than a dropped one.
        let side = [1.0 / 3f64.sqrt(); 3];
        let fine = warm_runs::<3>(&side, 1.0, &[u64::MAX; 3]);
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
        let offsets =
            neighbour_offsets::<3>(&[side; 3], 1.0, &[u64::MAX; 3], false, Order::NearestFirst);
        assert_eq!(offsets[0], [0, 0, 0]);
        let bound = |o: &[i64; 3]| -> f64 {
            o.iter().map(|d| ((d.abs() - 1).max(0) as f64 * side).powi(2)).sum()
        };
        assert!(offsets.windows(2).all(|w| bound(&w[0]) <= bound(&w[1])));
    }

    #[test]
    fn periodic_offsets_visit_each_cell_once() {
        let offsets = neighbour_offsets::<2>(&[0.5; 2], 1.0, &[2, 2], true, Order::NearestFirst);
        assert_eq!(offsets.len(), 4);
    }
}
