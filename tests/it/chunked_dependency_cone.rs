//! What a chunked world decides for a request: exactly the dependency cone that the rule of
//! docs/algorithms.md ("Chunked worlds") names, found here by brute force over cell keys, and
//! the counts docs/algorithms.md and docs/scaling.md state (`5^D` cells for one chunk: 25 in 2D,
//! 125 in 3D, 625 in 4D; `(2b + 3)^D` for a block of `b^D` chunks).

use poisson_nd::chunked::{World, min_chunk_side};
use std::collections::HashSet;

/// The number of even coordinates of a cell key: its stratum.
fn stratum<const D: usize>(key: &[i64; D]) -> usize {
    key.iter().filter(|&&m| m.rem_euclid(2) == 0).count()
}

/// The cells a request for the chunks `lo ≤ c < hi` needs, by the rule alone: the cells over
/// those chunks (keys `2·lo … 2·hi` on every axis) and, again and again, the cells of lower
/// strata whose keys differ by at most 1 on every axis and that are near a plane only along
/// axes along which the cell asking is near one too.
fn rule_cone<const D: usize>(lo: [i64; D], hi: [i64; D]) -> HashSet<[i64; D]> {
    let mut stack = vec![[0i64; D]];
    for i in 0..D {
        stack = stack
            .into_iter()
            .flat_map(|key| {
                (2 * lo[i]..=2 * hi[i]).map(move |m| {
                    let mut key = key;
                    key[i] = m;
                    key
                })
            })
            .collect();
    }
    let mut seen = HashSet::new();
    while let Some(key) = stack.pop() {
        if !seen.insert(key) {
            continue;
        }
        for offset in 0..3i64.pow(D as u32) {
            let mut other = key;
            let mut rest = offset;
            for m in other.iter_mut() {
                *m += rest % 3 - 1;
                rest /= 3;
            }
            let reaches = (0..D).all(|i| other[i].rem_euclid(2) == 1 || key[i].rem_euclid(2) == 0);
            if reaches && stratum(&other) < stratum(&key) {
                stack.push(other);
            }
        }
    }
    seen
}

/// The cells a fresh world decides for the chunks `lo ≤ c < hi`.
fn decided<const D: usize>(lo: [i64; D], hi: [i64; D]) -> u64 {
    let r = 1.0;
    let side = min_chunk_side(D, r) * 1.3;
    let mut world =
        World::<D>::builder(r, 5).with_chunk_side(side).with_cache_cells(1 << 20).build().unwrap();
    world.range(lo, hi).unwrap();
    world.stats().cells_decided
}

fn check<const D: usize>(lo: [i64; D], hi: [i64; D]) -> usize {
    let expected = rule_cone(lo, hi).len();
    assert_eq!(decided(lo, hi), expected as u64, "{D}D, chunks {lo:?} to {hi:?}");
    expected
}

#[test]
fn a_request_decides_exactly_the_dependency_cone() {
    assert_eq!(check([0], [1]), 5);
    assert_eq!(check([-4], [3]), 2 * 7 + 3);
    assert_eq!(check([0, 0], [1, 1]), 25);
    assert_eq!(check([-5, 7], [-4, 8]), 25);
    assert_eq!(check([0, 0], [2, 2]), 49);
    check([-3, 1], [2, 3]);
    assert_eq!(check([0, 0, 0], [1, 1, 1]), 125);
    assert_eq!(check([2, -1, -6], [3, 0, -5]), 125);
    assert_eq!(check([0, 0, 0], [2, 2, 2]), 343);
    check([-1, 0, 3], [1, 3, 4]);
    assert_eq!(check([0, 0, 0, 0], [1, 1, 1, 1]), 625);
}

#[test]
fn a_chunk_cone_reaches_one_chunk_away() {
    // An odd key 2c + 1 is the inside of chunk c: the farthest insides the cone holds.
    let farthest = |keys: &HashSet<Vec<i64>>| {
        keys.iter()
            .flat_map(|key| key.iter().filter(|m| m.rem_euclid(2) == 1).map(|m| (m - 1) / 2))
            .map(i64::abs)
            .max()
            .unwrap()
    };
    let two: HashSet<Vec<i64>> = rule_cone([0, 0], [1, 1]).into_iter().map(Vec::from).collect();
    let three: HashSet<Vec<i64>> =
        rule_cone([0, 0, 0], [1, 1, 1]).into_iter().map(Vec::from).collect();
    assert_eq!(farthest(&two), 1);
    assert_eq!(farthest(&three), 1);
    // 27 chunk interiors in the 3D cone, 9 in the 2D one: the 3^D chunks around it.
    assert_eq!(three.iter().filter(|key| key.iter().all(|m| m.rem_euclid(2) == 1)).count(), 27);
    assert_eq!(two.iter().filter(|key| key.iter().all(|m| m.rem_euclid(2) == 1)).count(), 9);
}
