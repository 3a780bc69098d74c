//! A bounding-volume hierarchy over boxes (a mesh's triangles): the index behind the mesh
//! region's ray and box queries and of the nearest point of a surface.

/// A binary tree of axis-aligned boxes, built by median splits of the items' centres along
/// the widest axis, with up to [`LEAF`] items a leaf. Flattened depth first: a node's left
/// child follows it, its right child is at `right`.
#[derive(Debug, Clone)]
pub(crate) struct Bvh {
    nodes: Vec<Node>,
    /// Item indices, leaf by leaf.
    order: Vec<u32>,
}

/// Items per leaf.
const LEAF: usize = 4;

#[derive(Debug, Clone, Copy)]
struct Node {
    lower: [f64; 3],
    upper: [f64; 3],
    /// Leaf: the first item in `order`; inner node: the right child's index.
    first_or_right: u32,
    /// Leaf: the number of items (≥ 1); inner node: 0.
    count: u32,
}

impl Bvh {
    /// A hierarchy over items given by their boxes.
    pub(crate) fn new(boxes: &[([f64; 3], [f64; 3])]) -> Self {
        let mut order: Vec<u32> = (0..boxes.len() as u32).collect();
        let mut nodes = Vec::with_capacity(2 * boxes.len() / LEAF + 1);
        if !boxes.is_empty() {
            build(boxes, &mut order, 0, &mut nodes);
        }
        Bvh { nodes, order }
    }

    /// Calls `visit` on every item in a leaf whose node boxes all pass `overlaps` (given a
    /// node's lower and upper corners), until it returns true; returns whether it did.
    #[inline]
    pub(crate) fn any(
        &self,
        overlaps: impl Fn(&[f64; 3], &[f64; 3]) -> bool,
        mut visit: impl FnMut(u32) -> bool,
    ) -> bool {
        if self.nodes.is_empty() {
            return false;
        }
        // Median splits keep the depth below 33 for any u32 count of items, and a depth-first
        // walk holds at most depth + 1 nodes.
        let mut stack = [0u32; 64];
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let at = stack[len];
            let node = &self.nodes[at as usize];
            if !overlaps(&node.lower, &node.upper) {
                continue;
            }
            if node.count > 0 {
                let first = node.first_or_right as usize;
                for &item in &self.order[first..first + node.count as usize] {
                    if visit(item) {
                        return true;
                    }
                }
            } else {
                // The left child follows its parent; the right one is stored.
                stack[len] = node.first_or_right;
                stack[len + 1] = at + 1;
                len += 2;
            }
        }
        false
    }

    /// Calls `visit` on the items of every leaf whose node boxes are all within `bound()` by
    /// `distance` (given a node's lower and upper corners; a lower bound on its items'
    /// distances), the nearer child of each node first, so that a shrinking `bound` (the
    /// nearest item found so far) passes over most of the tree.
    pub(crate) fn nearest_first(
        &self,
        distance: impl Fn(&[f64; 3], &[f64; 3]) -> f64,
        bound: impl Fn() -> f64,
        mut visit: impl FnMut(u32),
    ) {
        let Some(root) = self.nodes.first() else {
            return;
        };
        // As in `any`, at most depth + 1 nodes wait, each with its box's distance.
        let mut stack = [(0u32, 0.0f64); 64];
        stack[0] = (0, distance(&root.lower, &root.upper));
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let (at, gap) = stack[len];
            if gap > bound() {
                continue;
            }
            let node = &self.nodes[at as usize];
            if node.count > 0 {
                let first = node.first_or_right as usize;
                self.order[first..first + node.count as usize].iter().for_each(|&item| visit(item));
            } else {
                let children = [at + 1, node.first_or_right].map(|child| {
                    let n = &self.nodes[child as usize];
                    (child, distance(&n.lower, &n.upper))
                });
                // The farther waits below the nearer, which is taken next.
                let [near, far] = if children[1].1 < children[0].1 {
                    [children[1], children[0]]
                } else {
                    children
                };
                stack[len] = far;
                stack[len + 1] = near;
                len += 2;
            }
        }
    }
}

/// The lower and upper corners of a triangle's box: the item box the hierarchies over mesh
/// faces are built from.
pub(crate) fn triangle_box(corners: [[f64; 3]; 3]) -> ([f64; 3], [f64; 3]) {
    let [a, b, c] = corners;
    (
        std::array::from_fn(|i| a[i].min(b[i]).min(c[i])),
        std::array::from_fn(|i| a[i].max(b[i]).max(c[i])),
    )
}

/// Builds the subtree over `order` (whose first item is `offset` in the full order) and
/// returns its root's index.
fn build(
    boxes: &[([f64; 3], [f64; 3])],
    order: &mut [u32],
    offset: usize,
    nodes: &mut Vec<Node>,
) -> u32 {
    let mut lower = [f64::INFINITY; 3];
    let mut upper = [f64::NEG_INFINITY; 3];
    for &item in order.iter() {
        let (lo, hi) = &boxes[item as usize];
        for i in 0..3 {
            lower[i] = lower[i].min(lo[i]);
            upper[i] = upper[i].max(hi[i]);
        }
    }
    let index = nodes.len() as u32;
    if order.len() <= LEAF {
        nodes.push(Node { lower, upper, first_or_right: offset as u32, count: order.len() as u32 });
        return index;
    }
    nodes.push(Node { lower, upper, first_or_right: 0, count: 0 });
    let axis = (0..3)
        .max_by(|&a, &b| (upper[a] - lower[a]).total_cmp(&(upper[b] - lower[b])))
        .unwrap_or(0);
    let centre = |item: &u32| {
        let (lo, hi) = &boxes[*item as usize];
        lo[axis] + hi[axis]
    };
    let middle = order.len() / 2;
    order.select_nth_unstable_by(middle, |a, b| centre(a).total_cmp(&centre(b)));
    let (left, right) = order.split_at_mut(middle);
    build(boxes, left, offset, nodes);
    let right_index = build(boxes, right, offset + middle, nodes);
    nodes[index as usize].first_or_right = right_index;
    index
}
