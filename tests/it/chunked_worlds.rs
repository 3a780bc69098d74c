//! Chunked worlds and `ChunkedBridson`: the minimum distance across chunk borders (brute
//! force, 1D–4D, closed boxes, tori and unbounded worlds), order and thread-count
//! independence, coverage, value pins and errors.

use poisson_nd::chunked::{World, min_chunk_side};
use poisson_nd::rng::{rng_from_seed, uniform_index};
use poisson_nd::{ChunkedBridson, Domain, Error, FillSampler, Point, Sampler};
use testkit::domains::awkward_box;
use testkit::oracle::close_pair;

/// A generator whose first `u64` is the given value: the seed a `ChunkedBridson` run takes.
struct SeedRng(u64);

impl rand::TryRng for SeedRng {
    type Error = std::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.0 as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.0)
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Self::Error> {
        dest.fill(0);
        Ok(())
    }
}

/// Every point of the box within `2r` of a sample: probes on a lattice and at random.
fn assert_covered<const D: usize>(domain: &Domain<D>, points: &[Point<D>], r: f64, probes: usize) {
    let mut rng = rng_from_seed(99);
    for _ in 0..probes {
        let p = domain.uniform_point(&mut rng);
        let nearest = points
            .iter()
            .map(|q| domain.distance_squared(&p, q))
            .fold(f64::INFINITY, f64::min)
            .sqrt();
        assert!(nearest < 2.0 * r, "{p:?} is {nearest} from the nearest sample (r = {r})");
    }
}

fn check_box<const D: usize>(domain: Domain<D>, r: f64, side_in_min: f64, seed: u64) -> usize {
    let side = min_chunk_side(D, r) * side_in_min;
    let sampler = ChunkedBridson::builder(domain, r).with_chunk_side(side).build().unwrap();
    let set = sampler.fill_seeded(seed);
    assert!(set.points.iter().all(|p| domain.contains(p)), "a point outside the box");
    if let Some((p, q, d)) = close_pair(&domain, &set.points, r) {
        panic!("{D}D: {p:?} and {q:?} are {d} apart (r = {r}, chunk side {side})");
    }
    assert_covered(&domain, &set.points, r, 2000);
    set.len()
}

#[test]
fn every_pair_keeps_the_radius_in_closed_boxes_and_tori() {
    for (side, seed) in [(1.0, 1), (1.7, 2)] {
        check_box(awkward_box::<1>(), 0.01, side, seed);
        check_box(awkward_box::<1>().periodic(), 0.01, side, seed);
        check_box(awkward_box::<2>(), 0.03, side, seed);
        check_box(awkward_box::<2>().periodic(), 0.03, side, seed);
        check_box(awkward_box::<3>(), 0.09, side, seed);
        check_box(awkward_box::<3>().periodic(), 0.09, side, seed);
    }
    // 4D: the box holds few chunks of the smallest side, every stratum present.
    check_box(awkward_box::<4>(), 0.17, 1.0, 3);
    let torus = Domain::from_origin_and_extent([-0.3; 4], [1.6; 4]).unwrap().periodic();
    check_box(torus, 0.12, 1.0, 3);
}

#[test]
fn the_points_are_the_same_on_every_thread_count() {
    let domain = awkward_box::<2>();
    let runs: Vec<Vec<Point<2>>> = [1, 2, 7]
        .iter()
        .map(|&t| {
            let sampler = ChunkedBridson::builder(domain, 0.01).with_threads(t).build().unwrap();
            sampler.fill_seeded(5).points
        })
        .collect();
    assert!(runs[0].len() > 5000);
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0], runs[2]);
    let cube = awkward_box::<3>().periodic();
    let one = ChunkedBridson::builder(cube, 0.03).with_threads(1).build().unwrap();
    let seven = ChunkedBridson::builder(cube, 0.03).with_threads(7).build().unwrap();
    assert_eq!(one.fill_seeded(8).points, seven.fill_seeded(8).points);
}

/// A world's chunks asked in many orders and groupings give the same points, and their
/// union keeps the radius across every border.
fn world_orders<const D: usize>(r: f64, side: f64, reach: i64, asked: usize) {
    let build = |cache| World::<D>::builder(r, 11).with_chunk_side(side).with_cache_cells(cache);
    let chunks: Vec<[i64; D]> = {
        let mut all = Vec::new();
        let n = (2 * reach) as usize;
        for k in 0..n.pow(D as u32) {
            let mut c = [0i64; D];
            let mut rest = k;
            for x in c.iter_mut() {
                *x = (rest % n) as i64 - reach;
                rest /= n;
            }
            all.push(c);
        }
        all
    };
    // All at once, as one range.
    let mut world = build(4096).build().unwrap();
    let block = world.range([-reach; D], [reach; D]).unwrap();
    assert_eq!(block.len(), chunks.len());
    let reference: std::collections::HashMap<[i64; D], Vec<Point<D>>> = block.into_iter().collect();
    // One by one in shuffled orders: with a cache; with a tiny one and without one (each
    // chunk then decides its whole neighbourhood again: a few chunks are enough).
    for (cache, seed, asked) in [(4096, 1, chunks.len()), (5, 2, asked), (0, 3, asked)] {
        let mut world = build(cache).build().unwrap();
        let mut order = chunks.clone();
        let mut rng = rng_from_seed(seed);
        for i in (1..order.len()).rev() {
            order.swap(i, uniform_index(&mut rng, i + 1));
        }
        for c in &order[..asked] {
            assert_eq!(&world.chunk(*c).unwrap(), &reference[c], "chunk {c:?}, cache {cache}");
        }
    }
    // The union: every point in its chunk, no close pair.
    let mut all = Vec::new();
    for (c, points) in &reference {
        for p in points {
            assert_eq!(
                World::<D>::builder(r, 11).with_chunk_side(side).build().unwrap().chunk_of(p),
                *c
            );
            all.push(*p);
        }
    }
    let far = Domain::from_origin_and_extent([-1e9; D], [2e9; D]).unwrap();
    if let Some((p, q, d)) = close_pair(&far, &all, r) {
        panic!("{D}D world: {p:?} and {q:?} are {d} apart");
    }
    // Probes further than 2r inside the block: a witness there is covered by a point of the
    // block.
    let inner = reach as f64 * side - 2.0 * r;
    let probe_box = Domain::from_origin_and_extent([-inner; D], [2.0 * inner; D]).unwrap();
    assert_covered(&probe_box, &all, r, 1000);
}

#[test]
fn world_chunks_do_not_depend_on_order_and_keep_the_radius_across_borders_1d_2d() {
    world_orders::<1>(0.5, 2.0, 4, 6);
    world_orders::<2>(0.5, 3.5, 3, 6);
}

#[test]
fn world_chunks_do_not_depend_on_order_and_keep_the_radius_across_borders_3d() {
    world_orders::<3>(0.5, 4.9, 2, 4);
}

#[test]
fn world_chunks_do_not_depend_on_order_and_keep_the_radius_across_borders_4d() {
    world_orders::<4>(1.0, 6.3, 1, 2);
}

#[test]
fn a_torus_world_wraps_and_its_chunks_join_across_the_seam() {
    let domain = Domain::from_origin_and_extent([0.0, -2.0], [12.0, 8.0]).unwrap().periodic();
    let mut world =
        World::<2>::builder(0.5, 4).with_box(domain).with_chunk_side(4.0).build().unwrap();
    assert_eq!(world.torus_chunks(), Some([3, 2]));
    let all: Vec<Point<2>> =
        world.range([0, 0], [3, 2]).unwrap().into_iter().flat_map(|(_, p)| p).collect();
    assert!(all.iter().all(|p| domain.contains(p)));
    assert!(close_pair(&domain, &all, 0.5).is_none());
    assert_covered(&domain, &all, 0.5, 2000);
    assert!(matches!(world.chunk([3, 0]), Err(Error::ChunkOutsideTorus { .. })));
}

#[test]
fn a_closed_box_world_keeps_inside_and_is_empty_past_it() {
    let domain = awkward_box::<2>();
    let mut world =
        World::<2>::builder(0.02, 4).with_box(domain).with_chunk_side(0.2).build().unwrap();
    let far = world.chunk([40, 40]).unwrap();
    assert!(far.is_empty());
    let all: Vec<Point<2>> =
        world.range([-1, -1], [8, 9]).unwrap().into_iter().flat_map(|(_, p)| p).collect();
    assert!(all.iter().all(|p| domain.contains(p)));
    assert!(close_pair(&domain, &all, 0.02).is_none());
    // The same points as the sampler's over that box with that chunk side and seed, as a set.
    let sampler = ChunkedBridson::builder(domain, 0.02).with_chunk_side(0.2).build().unwrap();
    let mut from_sampler = sampler.sample(usize::MAX, &mut SeedRng(4)).points;
    let mut from_world = all.clone();
    let order = |a: &Point<2>, b: &Point<2>| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1]));
    from_sampler.sort_by(order);
    from_world.sort_by(order);
    assert!(from_world.len() > 1000);
    assert_eq!(from_world, from_sampler);
}

#[test]
fn a_chunk_is_pinned() {
    let mut world = World::<2>::builder(0.5, 9).with_chunk_side(8.0).build().unwrap();
    let points = world.chunk([0, 0]).unwrap();
    let bits: Vec<[u64; 2]> = points.iter().take(3).map(|p| p.map(f64::to_bits)).collect();
    assert_eq!(points.len(), 159);
    assert_eq!(
        bits,
        [
            [4582772447218138112, 4596366965472248768],
            [4597231155892998016, 4611657024703957112],
            [4592173538927484672, 4604980217588748528]
        ]
    );
}

/// One tiling rule for a torus: a side that tiles it but for rounding (0.3 / 0.1 is
/// 2.9999999999999996 in floating point) counts its whole chunks, in a world and in
/// `ChunkedBridson` alike; a side that does not tile it is refused by the world and stretched
/// by the sampler.
#[test]
fn a_torus_counts_its_whole_chunks_the_same_way_everywhere() {
    let torus = Domain::<2>::from_origin_and_extent([0.0; 2], [0.3, 0.7]).unwrap().periodic();
    let world = World::<2>::builder(0.01, 1).with_box(torus).with_chunk_side(0.1).build().unwrap();
    assert!((world.chunk_side()[0] - 0.1).abs() < 1e-15, "{:?}", world.chunk_side());
    assert!((world.chunk_side()[1] - 0.1).abs() < 1e-15, "{:?}", world.chunk_side());
    let sampler = ChunkedBridson::builder(torus, 0.01).with_chunk_side(0.1).build().unwrap();
    assert_eq!(sampler.chunk_side(), world.chunk_side());
    // 0.3 / 0.13 = 2.3: the world refuses it, the sampler stretches two chunks to 0.15.
    assert!(matches!(
        World::<2>::builder(0.01, 1).with_box(torus).with_chunk_side(0.13).build(),
        Err(Error::TorusNotTiled { axis: 0, .. })
    ));
    let sampler = ChunkedBridson::builder(torus, 0.01).with_chunk_side(0.13).build().unwrap();
    assert_eq!(sampler.chunk_side()[0], 0.15);
}

#[test]
fn bad_settings_are_refused() {
    let min = min_chunk_side(2, 0.5);
    assert!(matches!(
        World::<2>::builder(0.5, 1).with_chunk_side(min * 0.99).build(),
        Err(Error::ChunkSideTooSmall { .. })
    ));
    assert!(matches!(World::<2>::builder(f64::NAN, 1).build(), Err(Error::InvalidRadius(_))));
    assert!(matches!(World::<2>::builder(-1.0, 1).build(), Err(Error::InvalidRadius(_))));
    let torus = Domain::<2>::unit().periodic();
    assert!(matches!(
        World::<2>::builder(0.01, 1).with_box(torus).with_chunk_side(0.3).build(),
        Err(Error::TorusNotTiled { .. })
    ));
    assert!(matches!(
        World::<2>::builder(0.01, 1).with_box(torus).with_chunk_side(0.6).build(),
        Err(Error::TorusNotTiled { .. })
    ));
    assert!(matches!(
        ChunkedBridson::builder(Domain::<2>::unit(), 0.01).with_chunk_side(0.01).build(),
        Err(Error::ChunkSideTooSmall { .. })
    ));
    assert!(matches!(
        ChunkedBridson::builder(torus, 0.2).build(),
        Err(Error::TorusNotTiled { .. })
    ));
    assert!(matches!(
        ChunkedBridson::builder(Domain::<2>::unit(), 0.01).with_threads(0).build(),
        Err(Error::ZeroCount("threads"))
    ));
}

#[test]
fn any_radius_builds_a_world_whose_chunks_keep_it() {
    // Tiny and huge radii (the settings once came from the unit box, which refused radii that
    // could place too many points in it). Points lie in their chunk and keep the radius.
    for r in [1e-9, 1e-5, 1e5] {
        let mut world = World::<2>::builder(r, 3).build().unwrap();
        let side = world.chunk_side()[0];
        let mut all = Vec::new();
        for c in [[0, 0], [1, 0], [-2, 5]] {
            let points = world.chunk(c).unwrap();
            assert!(points.len() > 100, "r = {r}: {} points in {c:?}", points.len());
            for p in &points {
                assert_eq!(world.chunk_of(p), c, "r = {r}");
                assert!((0..2).all(|i| p[i] >= c[i] as f64 * side));
            }
            all.extend(points);
        }
        let mut least = f64::INFINITY;
        for (i, p) in all.iter().enumerate() {
            for q in &all[i + 1..] {
                least = least.min(((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt());
            }
        }
        assert!(least >= r * (1.0 - 1e-12), "r = {r}: a pair {least} apart");
    }
}

/// At the limit of every coordinate (1e100) a box is filled to its faces, as plain Bridson
/// fills it: a cell whose grid would have passed the limit had no grid and no points (3 of 68
/// points at r = 1e99). Chunks whose cells would pass it are refused, not left empty.
#[test]
fn boxes_at_the_coordinate_limit_are_filled_to_their_faces() {
    for (origin, r) in [([0.0, 0.0], 1e99), ([-1e100, -1e100], 1e99), ([0.0, 0.0], 1e98)] {
        let domain = Domain::from_origin_and_extent(origin, [1e100, 1e100]).unwrap();
        let set = ChunkedBridson::new(domain, r).unwrap().fill_seeded(3);
        assert!(set.points.iter().all(|p| domain.contains(p)));
        assert!(close_pair(&domain, &set.points, r).is_none());
        assert_covered(&domain, &set.points, r, 2000);
        let mut world = World::<2>::builder(r, 3).with_box(domain).build().unwrap();
        let points: Vec<Point<2>> =
            world.range([-1, -1], [2, 2]).unwrap().into_iter().flat_map(|(_, p)| p).collect();
        assert_covered(&domain, &points, r, 2000);
    }
    // Without a box the cells of chunk 0 at r = 1e99 reach past 1e100.
    let mut world = World::<2>::builder(1e99, 1).build().unwrap();
    assert!(matches!(world.chunk([0, 0]), Err(Error::OutOfRange { .. })));
    // No chunk side fits a radius of 1e100.
    assert!(matches!(World::<2>::builder(1e100, 1).build(), Err(Error::InvalidParameter { .. })));
}
