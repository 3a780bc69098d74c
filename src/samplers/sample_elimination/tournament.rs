//! Sample elimination's queue: a tournament tree over the candidates in cell order, whose
//! root is the heaviest (the next to remove) and whose leaves are lowered in batches as the
//! removed candidates' neighbours lose weight.

/// Scratch space of [`Tournament::decrease_many`]: the nodes of one level to repair, and
/// those of the next.
#[derive(Debug, Default)]
pub(super) struct Repairs {
    nodes: Vec<usize>,
    above: Vec<usize>,
}

/// The first of the heaviest of a node's (weight, item) pairs, by rounds of neighbouring
/// pairs: the later of two only where strictly heavier.
#[inline]
fn knockout(mut c: [(f64, u32); FAN_OUT]) -> (f64, u32) {
    let mut n = FAN_OUT;
    while n > 1 {
        n /= 2;
        for i in 0..n {
            let (a, b) = (c[2 * i], c[2 * i + 1]);
            c[i] = std::hint::select_unpredictable(b.0 > a.0, b, a);
        }
    }
    c[0]
}

/// The first of the heaviest of (weight, item) pairs, one after another (a node's last,
/// short run of children); at least one pair.
fn first_heaviest(mut pairs: impl Iterator<Item = (f64, u32)>) -> (f64, u32) {
    let first = pairs.next().unwrap_or((f64::NEG_INFINITY, 0));
    pairs.fold(first, |best, c| std::hint::select_unpredictable(c.0 > best.0, c, best))
}

/// Children of a tournament node: 8 entries of 16 bytes are two cache lines, and a tree of
/// 5·10^6 leaves is 8 levels high instead of 23.
const FAN_OUT: usize = 8;

/// A tournament tree over items 0..m in sorted (cell) order: each node holds the heaviest
/// (weight, item) of its children (ties: the lower index first). Neighbours are near in cell
/// order, so their leaves share ancestors and cache lines, unlike positions in a binary heap;
/// and a lighter weight only climbs while the item was its parent's heaviest, which is rare.
pub(super) struct Tournament {
    /// The leaves: each item's weight, −∞ once popped (the item is the index, so 8 leaves
    /// fill one cache line).
    pub(super) leaf: Vec<f64>,
    /// Node i of `level[0]` is the heaviest of `leaf[FAN_OUT·i..FAN_OUT·(i + 1)]`, node i of
    /// `level[l]` the heaviest of `level[l - 1][FAN_OUT·i..FAN_OUT·(i + 1)]`; the last level
    /// is the root alone.
    level: Vec<Vec<(f64, u32)>>,
}

impl Tournament {
    pub(super) fn build(leaf: Vec<f64>) -> Self {
        let mut level: Vec<Vec<(f64, u32)>> = vec![
            (0..leaf.len().div_ceil(FAN_OUT)).map(|i| Self::heaviest_leaf(&leaf, i)).collect(),
        ];
        while let Some(below) = level.last().filter(|below| below.len() > 1) {
            let above = below.chunks(FAN_OUT).map(Self::heaviest).collect();
            level.push(above);
        }
        Tournament { leaf, level }
    }

    /// The heaviest of a node's children. Their items grow from child to child (each covers
    /// a later run of leaves), so keeping the first of equal weights keeps the lower index,
    /// as the order asks. Chosen as a knockout, neighbours first and then the winners, each
    /// later one taken only if strictly heavier, so still the first of the heaviest; each
    /// choice a select, not a branch (which way a weight compares is a coin flip to
    /// predict), and three rounds deep instead of seven in a row.
    #[inline]
    fn heaviest(children: &[(f64, u32)]) -> (f64, u32) {
        match <&[(f64, u32); FAN_OUT]>::try_from(children) {
            Ok(full) => knockout(*full),
            Err(_) => first_heaviest(children.iter().copied()),
        }
    }

    /// The heaviest leaf under node `parent` of `level[0]` (the first of equal weights, the
    /// lower index).
    #[inline]
    fn heaviest_leaf(leaf: &[f64], parent: usize) -> (f64, u32) {
        let first = parent * FAN_OUT;
        match leaf.get(first..first + FAN_OUT) {
            Some(full) => knockout(std::array::from_fn(|i| (full[i], (first + i) as u32))),
            None => first_heaviest((first..leaf.len()).map(|k| (leaf[k], k as u32))),
        }
    }

    /// The heaviest item, left in place.
    pub(super) fn peek(&self) -> Option<usize> {
        let &(w, top) = self.level.last()?.first()?;
        (w != f64::NEG_INFINITY).then_some(top as usize)
    }

    /// Removes and returns the heaviest item.
    pub(super) fn pop(&mut self) -> Option<usize> {
        let top = self.peek()?;
        self.set(top, f64::NEG_INFINITY);
        Some(top)
    }

    /// Lowers each item's weight by its amount (finite, ≥ 0; popped items stay −∞), then
    /// repairs the tree level by level, each node whose champion was lowered once: the
    /// neighbours of one removed candidate share leaves' nodes and ancestors, which a repair
    /// per item would climb again and again. The tree ends as lowering one item after another
    /// with [`set`](Self::set) leaves it (each node the heaviest of its children), so the
    /// same items come out in the same order.
    pub(super) fn decrease_many(
        &mut self,
        changes: impl ExactSizeIterator<Item = (usize, f64)>,
        repairs: &mut Repairs,
    ) {
        let Repairs { nodes, above } = repairs;
        // Without a branch (whether a neighbour is gone, or its node's champion, is hard to
        // predict): a popped leaf stays −∞ (−∞ less a finite amount), and every changed
        // leaf's node is written at `len`, which moves on only for a champion. A popped
        // champion (its node all popped) is repaired to the same node.
        nodes.clear();
        nodes.resize(changes.len(), 0);
        let mut len = 0;
        for (item, amount) in changes {
            self.leaf[item] -= amount;
            let at = item / FAN_OUT;
            nodes[len] = at;
            len += usize::from(self.level[0][at].1 == item as u32);
        }
        nodes.truncate(len);
        for l in 0..self.level.len() {
            if nodes.is_empty() {
                return;
            }
            nodes.sort_unstable();
            nodes.dedup();
            above.clear();
            let (below, rest) = self.level.split_at_mut(l);
            let Some((here, higher)) = rest.split_first_mut() else { return };
            for &at in nodes.iter() {
                let old = here[at].1;
                here[at] = match below.last() {
                    None => Self::heaviest_leaf(&self.leaf, at),
                    Some(children) => {
                        let first = at * FAN_OUT;
                        Self::heaviest(&children[first..children.len().min(first + FAN_OUT)])
                    }
                };
                // The parent holds the old champion only if it was the parent's too.
                if higher.first().is_some_and(|parents| parents[at / FAN_OUT].1 == old) {
                    above.push(at / FAN_OUT);
                }
            }
            std::mem::swap(nodes, above);
        }
    }

    /// Whether the item has not been popped.
    pub(super) fn alive(&self, item: usize) -> bool {
        self.leaf[item] != f64::NEG_INFINITY
    }

    /// Sets a lower weight and climbs while the item was its parent's heaviest.
    #[inline]
    pub(super) fn set(&mut self, item: usize, weight: f64) {
        self.leaf[item] = weight;
        let mut at = item / FAN_OUT;
        if self.level[0][at].1 != item as u32 {
            return;
        }
        self.level[0][at] = Self::heaviest_leaf(&self.leaf, at);
        for l in 1..self.level.len() {
            let parent = at / FAN_OUT;
            let (below, above) = self.level.split_at_mut(l);
            if above[0][parent].1 != item as u32 {
                break;
            }
            let below = &below[l - 1];
            let first = parent * FAN_OUT;
            above[0][parent] = Self::heaviest(&below[first..below.len().min(first + FAN_OUT)]);
            at = parent;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, uniform01};

    /// A node's champion, by knockout for full nodes and by a scan for the last, short
    /// one, is the first of its heaviest children, as a plain scan finds it: weights drawn
    /// from a handful of values (ties everywhere, −∞ for popped leaves, both zeros).
    #[test]
    fn champions_are_the_first_of_the_heaviest() {
        let values = [f64::NEG_INFINITY, -0.0, 0.0, 0.25, 0.5, 1.0];
        let mut rng = rng_from_seed(7);
        for round in 0..20_000usize {
            let len = 1 + round % 20;
            let leaf: Vec<f64> = (0..len)
                .map(|_| values[(uniform01(&mut rng) * values.len() as f64) as usize])
                .collect();
            for parent in 0..len.div_ceil(FAN_OUT) {
                let first = parent * FAN_OUT;
                let children = first..len.min(first + FAN_OUT);
                let scan = children.clone().fold((leaf[first], first as u32), |best, k| {
                    if leaf[k] > best.0 { (leaf[k], k as u32) } else { best }
                });
                let found = Tournament::heaviest_leaf(&leaf, parent);
                assert_eq!((found.0.to_bits(), found.1), (scan.0.to_bits(), scan.1));
                let pairs: Vec<(f64, u32)> = children.map(|k| (leaf[k], k as u32)).collect();
                let found = Tournament::heaviest(&pairs);
                assert_eq!((found.0.to_bits(), found.1), (scan.0.to_bits(), scan.1));
            }
        }
    }
}
