//! A grid of inside/outside cells with counts over any sub-block: what masks and voxel grids
//! share. Which cell a point falls in is the caller's business (a mask counts rows from the
//! top); this answers "is cell k inside" and "how many cells of a block are inside".

use super::BoxClass;
use crate::error::Error;

/// Inside/outside cells in C order (the last axis fastest), with a table of prefix counts
/// so that the inside cells of any block are counted with 2^D look-ups.
#[derive(Debug, Clone)]
pub(crate) struct Cells<const D: usize> {
    shape: [usize; D],
    strides: [usize; D],
    inside: Vec<bool>,
    /// `prefix[k]` = inside cells with every index below `k` (shape + 1 along each axis).
    prefix: Vec<u32>,
    prefix_strides: [usize; D],
    /// Whether some cell is inside.
    any_inside: bool,
}

impl<const D: usize> Cells<D> {
    /// Cells of the given shape from their inside flags in C order. `what` names the grid in
    /// errors. Errors: a zero side (an empty region), a flag count that does not match the
    /// shape, or more cells than the counts can index (2^32 − 1).
    pub(crate) fn new(what: &str, shape: [usize; D], inside: Vec<bool>) -> Result<Self, Error> {
        if shape.contains(&0) {
            // No cell at all: nothing can be inside.
            return Err(Error::EmptyRegion(format!("the {what} of shape {shape:?} has no cells")));
        }
        let cells = shape.iter().try_fold(1usize, |n, &s| n.checked_mul(s));
        let too_large = || Error::GridTooLarge { cells: shape.iter().map(|&s| s as f64).product() };
        let cells = cells.ok_or_else(too_large)?;
        if cells > u32::MAX as usize {
            return Err(too_large());
        }
        if inside.len() != cells {
            return Err(Error::ShapeMismatch {
                what: format!("{what} of shape {shape:?}"),
                expected: cells,
                got: inside.len(),
            });
        }
        let mut strides = [0; D];
        let mut prefix_strides = [0; D];
        let (mut n, mut m) = (1usize, 1usize);
        for i in (0..D).rev() {
            strides[i] = n;
            prefix_strides[i] = m;
            n *= shape[i];
            m *= shape[i] + 1;
        }
        let mut prefix = vec![0u32; m];
        // Each inside cell counts at its upper corner; then a running sum along each axis.
        for (k, _) in inside.iter().enumerate().filter(|(_, inside)| **inside) {
            let mut rest = k;
            let mut at = 0;
            for i in 0..D {
                at += (rest / strides[i] + 1) * prefix_strides[i];
                rest %= strides[i];
            }
            prefix[at] = 1;
        }
        for axis in 0..D {
            let stride = prefix_strides[axis];
            for k in 0..m {
                if (k / stride) % (shape[axis] + 1) != 0 {
                    prefix[k] += prefix[k - stride];
                }
            }
        }
        let any_inside = inside.iter().any(|&b| b);
        Ok(Cells { shape, strides, inside, prefix, prefix_strides, any_inside })
    }

    /// The shape.
    pub(crate) fn shape(&self) -> &[usize; D] {
        &self.shape
    }

    /// Whether some cell is inside.
    pub(crate) fn any_inside(&self) -> bool {
        self.any_inside
    }

    /// Whether cell `index` (in range) is inside.
    #[inline]
    pub(crate) fn get(&self, index: &[usize; D]) -> bool {
        let key: usize = (0..D).map(|i| index[i] * self.strides[i]).sum();
        self.inside[key]
    }

    /// The inside cells with indices in `[lo, hi)` along every axis (in range, lo ≤ hi).
    fn count(&self, lo: &[usize; D], hi: &[usize; D]) -> u64 {
        let mut total = 0i64;
        for corner in 0..1usize << D {
            let mut at = 0;
            let mut sign = 1i64;
            for i in 0..D {
                if corner >> i & 1 == 1 {
                    at += hi[i] * self.prefix_strides[i];
                } else {
                    at += lo[i] * self.prefix_strides[i];
                    sign = -sign;
                }
            }
            total += sign * i64::from(self.prefix[at]);
        }
        // Inclusion–exclusion: each lower corner taken flips the sign.
        total as u64
    }

    /// How the block of cells with indices `lo[i]..=hi[i]` lies, where indices may reach
    /// outside the grid (those parts are outside the region): `Inside` when every cell is in
    /// the grid and inside, `Outside` when none is inside, else `Straddling`.
    pub(crate) fn class(&self, lo: &[i64; D], hi: &[i64; D]) -> BoxClass {
        let mut beyond = false;
        let mut from = [0usize; D];
        let mut to = [0usize; D];
        let mut volume = 1u64;
        for i in 0..D {
            let n = self.shape[i] as i64;
            if hi[i] < 0 || lo[i] >= n || hi[i] < lo[i] {
                return BoxClass::Outside;
            }
            beyond |= lo[i] < 0 || hi[i] >= n;
            from[i] = lo[i].max(0) as usize;
            to[i] = (hi[i].min(n - 1) + 1) as usize;
            volume *= (to[i] - from[i]) as u64;
        }
        // A block of at most 2^D cells is read cell by cell, stopping as soon as it has seen
        // both kinds (a part past the grid counts as outside): never more look-ups than the
        // count's 2^D, and mostly far fewer (a sampler's scan asks about cells that span one
        // or two voxels per axis, and the faces of a full mask straddle at their first cell).
        if volume <= 1 << D {
            let (mut any_inside, mut any_outside) = (false, beyond);
            let mut at = from;
            'cells: loop {
                if self.get(&at) {
                    any_inside = true;
                } else {
                    any_outside = true;
                }
                if any_inside && any_outside {
                    return BoxClass::Straddling;
                }
                for i in 0..D {
                    at[i] += 1;
                    if at[i] < to[i] {
                        continue 'cells;
                    }
                    at[i] = from[i];
                }
                break;
            }
            return if any_inside { BoxClass::Inside } else { BoxClass::Outside };
        }
        match self.count(&from, &to) {
            0 => BoxClass::Outside,
            c if c == volume && !beyond => BoxClass::Inside,
            _ => BoxClass::Straddling,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_counts_match_brute_force() {
        let shape = [4, 3, 5];
        let inside: Vec<bool> = (0..60).map(|k| (k * 7 + k / 3) % 5 < 2).collect();
        let cells = Cells::new("test", shape, inside.clone()).unwrap();
        for lo0 in 0..4 {
            for hi0 in lo0..=4 {
                for lo2 in 0..5 {
                    for hi2 in lo2..=5 {
                        let (lo, hi) = ([lo0, 1, lo2], [hi0, 3, hi2]);
                        let mut brute = 0;
                        for a in lo[0]..hi[0] {
                            for b in lo[1]..hi[1] {
                                for c in lo[2]..hi[2] {
                                    brute += u64::from(inside[a * 15 + b * 5 + c]);
                                }
                            }
                        }
                        assert_eq!(cells.count(&lo, &hi), brute, "{lo:?} {hi:?}");
                    }
                }
            }
        }
    }

    /// `class` against a brute-force classification, for every block of a 3D grid including
    /// blocks that reach past it, on a mixed mask, a full one and an empty one: both of its
    /// ways (cell by cell up to 2^D cells, by counts beyond).
    #[test]
    fn block_classes_match_brute_force() {
        let shape = [4usize, 3, 5];
        let masks: [Vec<bool>; 3] =
            [(0..60).map(|k| (k * 7 + k / 3) % 5 < 3).collect(), vec![true; 60], vec![false; 60]];
        for (m, inside) in masks.into_iter().enumerate() {
            let cells = Cells::new("test", shape, inside.clone()).unwrap();
            let ranges = |n: usize| {
                let n = n as i64;
                (-1..=n).flat_map(move |lo| (lo..=n).map(move |hi| (lo, hi)))
            };
            for (lo0, hi0) in ranges(4) {
                for (lo1, hi1) in ranges(3) {
                    for (lo2, hi2) in ranges(5) {
                        let (lo, hi) = ([lo0, lo1, lo2], [hi0, hi1, hi2]);
                        let (mut seen_in, mut seen_out) = (false, false);
                        for a in lo0..=hi0 {
                            for b in lo1..=hi1 {
                                for c in lo2..=hi2 {
                                    let in_grid = (0..4).contains(&a)
                                        && (0..3).contains(&b)
                                        && (0..5).contains(&c);
                                    let k = (a * 15 + b * 5 + c) as usize;
                                    if in_grid && inside[k] {
                                        seen_in = true;
                                    } else {
                                        seen_out = true;
                                    }
                                }
                            }
                        }
                        let expected = match (seen_in, seen_out) {
                            (true, false) => BoxClass::Inside,
                            (true, true) => BoxClass::Straddling,
                            _ => BoxClass::Outside,
                        };
                        assert_eq!(cells.class(&lo, &hi), expected, "mask {m}: {lo:?} {hi:?}");
                    }
                }
            }
        }
    }
}
