//! Exact neighbour queries on a point set, Euclidean in a closed box and on the torus
//! (minimum-image convention) in a periodic one, backed by a k-d tree.

use kiddo::{ImmutableKdTree, SquaredEuclidean};
use poisson_nd::{Domain, Point};
use std::cmp::Ordering::Equal;
use std::num::NonZeroUsize;

/// Relative slack added to radii handed to the k-d tree, so that rounding in its own
/// distance arithmetic can never drop a candidate; every candidate is then re-measured with
/// [`Domain::distance_squared`] and filtered exactly.
const SLACK: f64 = 1e-9;

/// A k-d tree over a point set that answers nearest-neighbour and fixed-radius queries
/// exactly in the set's domain.
///
/// In a periodic domain a query is made at the point and at those of its periodic images
/// (shifts by `-1`, `0` or `+1` box sides along each axis) that can hold a closer point than
/// the best found so far; every candidate is re-measured with [`Domain::distance_squared`],
/// so the answer is the minimum-image (toroidal) one. Points of a periodic set that lie
/// outside the box are wrapped into it first.
///
/// ```
/// use experiments::metrics::NeighbourIndex;
/// use poisson_nd::Domain;
/// let torus = Domain::<2>::unit().periodic();
/// let points = [[0.05, 0.5], [0.95, 0.5], [0.5, 0.5]];
/// let index = NeighbourIndex::new(&points, &torus);
/// let (j, d) = index.nearest_other(0).unwrap();
/// assert_eq!(j, 1);
/// assert!((d - 0.1).abs() < 1e-12);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub struct NeighbourIndex<const D: usize> {
    points: Vec<Point<D>>,
    domain: Domain<D>,
    /// The distinct locations ("sites"), in order of their first point.
    sites: Vec<Point<D>>,
    /// The site of every point.
    site_of: Vec<u32>,
    /// The points of site `s` are `members[starts[s]..starts[s + 1]]`, in increasing order.
    starts: Vec<u32>,
    members: Vec<u32>,
    /// Over the sites: identical points are one entry, so that neither a tree query nor a
    /// pair count ever walks a pile of copies one by one.
    tree: Option<ImmutableKdTree<f64, D>>,
}

impl<const D: usize> std::fmt::Debug for NeighbourIndex<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NeighbourIndex")
            .field("points", &self.points.len())
            .field("domain", &self.domain)
            .finish_non_exhaustive()
    }
}

impl<const D: usize> NeighbourIndex<D> {
    /// Builds the index. Panics if the set has more than `u32::MAX` points or a
    /// non-finite coordinate.
    pub fn new(points: &[Point<D>], domain: &Domain<D>) -> Self {
        let points: Vec<Point<D>> = if domain.is_periodic() {
            points.iter().map(|p| domain.wrap(p).expect("finite coordinates")).collect()
        } else {
            points.to_vec()
        };
        assert!(u32::try_from(points.len()).is_ok(), "at most u32::MAX points");
        assert!(points.iter().flatten().all(|x| x.is_finite()), "non-finite coordinate");
        // Group identical points: sort by coordinates (`+ 0.0` makes -0 and +0 one key), the
        // stable sort keeping each group in increasing index order.
        let key = |i: &u32| points[*i as usize].map(|x| x + 0.0);
        let mut order: Vec<u32> = (0..points.len() as u32).collect();
        order.sort_by(|a, b| {
            let (a, b) = (key(a), key(b));
            a.iter().zip(&b).map(|(x, y)| x.total_cmp(y)).find(|o| o.is_ne()).unwrap_or(Equal)
        });
        let mut groups: Vec<&[u32]> = order.chunk_by(|a, b| key(a) == key(b)).collect();
        groups.sort_unstable_by_key(|g| g[0]);
        let mut sites = Vec::with_capacity(groups.len());
        let mut site_of = vec![0u32; points.len()];
        let mut starts = Vec::with_capacity(groups.len() + 1);
        starts.push(0u32);
        for (s, group) in groups.iter().enumerate() {
            sites.push(points[group[0] as usize]);
            for &i in *group {
                site_of[i as usize] = s as u32;
            }
            starts.push(starts[s] + group.len() as u32);
        }
        let members = groups.concat();
        let tree = if sites.is_empty() {
            None
        } else {
            Some(ImmutableKdTree::new_from_slice(&sites).expect("k-d tree construction"))
        };
        NeighbourIndex { points, domain: *domain, sites, site_of, starts, members, tree }
    }

    /// The indexed points (wrapped into the box when the domain is periodic).
    pub fn points(&self) -> &[Point<D>] {
        &self.points
    }

    /// The domain distances are measured in.
    pub fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The distinct locations of the set ("sites"), in order of their first point:
    /// identical points share one site.
    pub fn sites(&self) -> &[Point<D>] {
        &self.sites
    }

    /// The site of point `i`.
    pub fn site_of(&self, i: usize) -> usize {
        self.site_of[i] as usize
    }

    /// The points at site `s`, in increasing order.
    pub fn members(&self, s: usize) -> &[u32] {
        &self.members[self.starts[s] as usize..self.starts[s + 1] as usize]
    }

    /// Calls `visit(shifted_query, lower_bound²)` for the query's periodic images whose
    /// distance to the box is at most `sqrt(bound2)`, the unshifted query first; `bound2` is
    /// re-read before each image so the caller can shrink it. A closed domain has only the
    /// query itself.
    fn for_each_image(
        &self,
        q: &Point<D>,
        bound2: &dyn Fn() -> f64,
        visit: &mut dyn FnMut(&Point<D>),
    ) {
        visit(q);
        if !self.domain.is_periodic() {
            return;
        }
        let origin = self.domain.origin();
        let extent = self.domain.extent();
        // Per axis: the shift (in box sides) and the gap between the shifted query and the box.
        let mut options: Vec<[(f64, f64); 3]> = Vec::with_capacity(D);
        let mut counts = [0usize; D];
        let limit = bound2() * (1.0 + SLACK);
        for axis in 0..D {
            let below = q[axis] - origin[axis]; // gap after shifting up by one side
            let above = origin[axis] + extent[axis] - q[axis]; // gap after shifting down
            let mut row = [(0.0, 0.0); 3];
            let mut count = 1;
            if below * below <= limit {
                row[count] = (1.0, below * below);
                count += 1;
            }
            if above * above <= limit {
                row[count] = (-1.0, above * above);
                count += 1;
            }
            options.push(row);
            counts[axis] = count;
        }
        // Mixed-radix counter over the options, skipping the all-zero shift (done above).
        let mut digit = [0usize; D];
        loop {
            let mut axis = 0;
            while axis < D {
                digit[axis] += 1;
                if digit[axis] < counts[axis] {
                    break;
                }
                digit[axis] = 0;
                axis += 1;
            }
            if axis == D {
                return;
            }
            let mut gap2 = 0.0;
            let mut shifted = *q;
            for a in 0..D {
                let (shift, g) = options[a][digit[a]];
                gap2 += g;
                shifted[a] += shift * extent[a];
            }
            if gap2 <= bound2() * (1.0 + SLACK) {
                visit(&shifted);
            }
        }
    }

    /// The point nearest to `q` (any location in the domain), as (index, distance), or
    /// `None` for an empty set. Of identical points, the first.
    pub fn nearest(&self, q: &Point<D>) -> Option<(usize, f64)> {
        self.nearest_site(q, usize::MAX).map(|(s, d)| (self.members(s)[0] as usize, d))
    }

    /// The point nearest to point `i` other than `i` itself, as (index, distance), or `None`
    /// when the set has fewer than two points. Duplicates of `i` count (at distance 0): the
    /// first of them is returned.
    pub fn nearest_other(&self, i: usize) -> Option<(usize, f64)> {
        let s = self.site_of(i);
        if let Some(&j) = self.members(s).iter().find(|&&j| j as usize != i) {
            return Some((j as usize, 0.0));
        }
        self.nearest_site(&self.points[i], s).map(|(t, d)| (self.members(t)[0] as usize, d))
    }

    /// The site nearest to `q` other than site `exclude`, as (site, distance).
    fn nearest_site(&self, q: &Point<D>, exclude: usize) -> Option<(usize, f64)> {
        let tree = self.tree.as_ref()?;
        let two = NonZeroUsize::new(2).expect("2 > 0");
        let best = std::cell::Cell::new((usize::MAX, f64::INFINITY));
        let bound = || best.get().1;
        self.for_each_image(q, &bound, &mut |shifted| {
            let limit = best.get().1;
            let found = if limit.is_finite() {
                // An image only matters if it holds a point closer than the best so far.
                let reach = limit * (1.0 + SLACK) + f64::MIN_POSITIVE;
                tree.query(shifted).nearest_n::<SquaredEuclidean<f64>>(two).within(reach).execute()
            } else {
                tree.query(shifted).nearest_n::<SquaredEuclidean<f64>>(two).execute()
            };
            for item in found {
                let t = item.item as usize;
                if t == exclude {
                    continue;
                }
                let d2 = self.domain.distance_squared(q, &self.sites[t]);
                if d2 < best.get().1 {
                    best.set((t, d2));
                }
                break;
            }
        });
        let (t, d2) = best.get();
        (t != usize::MAX).then(|| (t, d2.sqrt()))
    }

    /// Calls `visit(j, distance²)` once for every point `j` strictly closer than `r` to `q`
    /// (toroidal distance in a periodic domain), in no particular order.
    pub fn for_each_within(&self, q: &Point<D>, r: f64, mut visit: impl FnMut(usize, f64)) {
        self.for_each_site_within(q, r, |s, d2| {
            for &j in self.members(s) {
                visit(j as usize, d2);
            }
        });
    }

    /// Calls `visit(s, distance²)` once for every site `s` strictly closer than `r` to `q`
    /// (toroidal distance in a periodic domain), in no particular order.
    pub fn for_each_site_within(&self, q: &Point<D>, r: f64, visit: impl FnMut(usize, f64)) {
        self.for_each_site_within_from(q, r, 0, visit);
    }

    /// [`Self::for_each_site_within`] for the sites `s ≥ first` only: the others are dropped
    /// before their distance is measured.
    fn for_each_site_within_from(
        &self,
        q: &Point<D>,
        r: f64,
        first: usize,
        mut visit: impl FnMut(usize, f64),
    ) {
        let Some(tree) = self.tree.as_ref() else { return };
        if r.is_nan() || r <= 0.0 {
            return;
        }
        let r2 = r * r;
        let query_r2 = r2 * (1.0 + SLACK) + f64::MIN_POSITIVE;
        let mut candidates: Vec<u32> = Vec::new();
        let mut images = 0;
        self.for_each_image(q, &|| r2, &mut |shifted| {
            images += 1;
            let found =
                tree.query(shifted).within::<SquaredEuclidean<f64>>(query_r2).unsorted().execute();
            candidates.extend(found.iter().map(|item| item.item).filter(|&s| s as usize >= first));
        });
        if images > 1 {
            // A site can be within reach of several images when r exceeds half a side.
            candidates.sort_unstable();
            candidates.dedup();
        }
        for s in candidates {
            let s = s as usize;
            let d2 = self.domain.distance_squared(q, &self.sites[s]);
            if d2 < r2 {
                visit(s, d2);
            }
        }
    }

    /// Calls `visit(a, b, distance², pairs)` once for every unordered pair of sites `a ≤ b`
    /// strictly closer than `r`, `pairs` being the number of pairs of points it stands for:
    /// `m_a · m_b` for two sites, `m_a (m_a − 1) / 2` for a site with itself (distance 0,
    /// visited when it holds two points or more and `r > 0`). The work grows with the pairs
    /// of sites, not of points: a pile of copies costs one visit.
    pub fn for_each_pair_within(&self, r: f64, mut visit: impl FnMut(usize, usize, f64, u64)) {
        for a in 0..self.sites.len() {
            let m_a = self.members(a).len() as u64;
            self.for_each_site_within_from(&self.sites[a], r, a, |b, d2| {
                if b == a && m_a >= 2 {
                    visit(a, a, d2, m_a * (m_a - 1) / 2);
                } else if b > a {
                    visit(a, b, d2, m_a * self.members(b).len() as u64);
                }
            });
        }
    }

    /// The numbers of pairs closer than `r`, of sites (`a < b`) and of points, or `None` as
    /// soon as the pairs of sites pass `limit`: the cost of [`Self::for_each_pair_within`]
    /// known before paying it, at a cost of at most `limit` pairs plus one query.
    pub fn pairs_within_up_to(&self, r: f64, limit: u64) -> Option<PairCounts> {
        let mut counts = PairCounts { sites: 0, points: 0 };
        for a in 0..self.sites.len() {
            let m_a = self.members(a).len() as u64;
            self.for_each_site_within_from(&self.sites[a], r, a, |b, _| {
                if b == a {
                    counts.points += m_a * (m_a - 1) / 2;
                } else if b > a {
                    counts.sites += 1;
                    counts.points += m_a * self.members(b).len() as u64;
                }
            });
            if counts.sites > limit {
                return None;
            }
        }
        Some(counts)
    }

    /// The distance from every point to its nearest other point, in input order
    /// (`f64::INFINITY` for the single point of a one-point set).
    pub fn nearest_neighbour_distances(&self) -> Vec<f64> {
        (0..self.points.len())
            .map(|i| self.nearest_other(i).map_or(f64::INFINITY, |(_, d)| d))
            .collect()
    }
}

/// Pairs closer than a distance, counted by [`NeighbourIndex::pairs_within_up_to`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairCounts {
    /// Pairs of distinct sites (locations).
    pub sites: u64,
    /// Pairs of points, identical ones included.
    pub points: u64,
}
