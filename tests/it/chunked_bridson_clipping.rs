//! `ChunkedBridson` in closed boxes that miss most of their cells (a box smaller than one
//! chunk, a box whose faces fall between planes): the sampler leaves out the cells whose
//! bounding box misses the box, and must give exactly the points of a world clipped to that
//! box, which decides every cell the chunks need.

use poisson_nd::chunked::{World, default_chunk_side, world_seed};
use poisson_nd::rng::rng_from_seed;
use poisson_nd::{ChunkedBridson, Domain, Point, Sampler};
use testkit::domains::awkward_box;

/// The sampler's fill and the union of the world's chunks over the box, each sorted.
fn sampler_and_world<const D: usize>(domain: Domain<D>, r: f64, side: f64, seed: u64) {
    let sampler = ChunkedBridson::builder(domain, r).with_chunk_side(side).build().unwrap();
    let run_seed = world_seed(&mut rng_from_seed(seed));
    let mut from_sampler = sampler.sample(usize::MAX, &mut rng_from_seed(seed)).points;
    let mut world = World::<D>::builder(r, run_seed)
        .with_box(domain)
        .with_chunk_side(side)
        .with_cache_cells(1 << 20)
        .build()
        .unwrap();
    let upper: Point<D> = std::array::from_fn(|i| domain.origin()[i] + domain.extent()[i]);
    let lo = world.chunk_of(domain.origin());
    let hi = world.chunk_of(&upper).map(|c| c + 1);
    let mut from_world: Vec<Point<D>> =
        world.range(lo, hi).unwrap().into_iter().flat_map(|(_, points)| points).collect();
    let order = |a: &Point<D>, b: &Point<D>| {
        (0..D)
            .map(|i| a[i].total_cmp(&b[i]))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    };
    from_sampler.sort_by(order);
    from_world.sort_by(order);
    assert!(from_sampler.len() > 50, "{D}D: {} points", from_sampler.len());
    assert_eq!(from_sampler, from_world, "{D}D, r = {r}, chunk side {side}");
}

#[test]
fn boxes_smaller_than_a_chunk_give_the_worlds_points() {
    // One chunk of the default side (32 r) holds the whole box: of the 3^D cells, those
    // past the upper faces are left out.
    sampler_and_world(awkward_box::<1>(), 0.005, default_chunk_side(1, 0.005), 1);
    sampler_and_world(awkward_box::<2>(), 0.02, default_chunk_side(2, 0.02), 2);
    sampler_and_world(awkward_box::<3>(), 0.08, default_chunk_side(3, 0.08), 3);
    sampler_and_world(awkward_box::<4>(), 0.15, default_chunk_side(4, 0.15), 4);
}

#[test]
fn faces_between_planes_give_the_worlds_points() {
    // Chunks that do not divide the box: the slabs of the last planes and the chunks past
    // them reach beyond the upper faces.
    sampler_and_world(awkward_box::<2>(), 0.01, 0.23, 5);
    sampler_and_world(awkward_box::<3>(), 0.04, 0.45, 6);
}
