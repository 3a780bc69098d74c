//! `Stages`: a range of chunks decided block by block, stratum by stratum, with only the
//! neighbours' exports crossing between blocks, gives exactly the chunks of one world, and
//! decides every cell of the range's cone once.

use poisson_nd::Domain;
use poisson_nd::chunked::{CellMap, ChunkPoints, Stages, World, WorldBuilder};

/// Runs the plan as a distributed engine would: each block sees its own cells and the
/// exports of its neighbours only, the blocks of a stage in reverse order. Returns the
/// chunks of every block in block order, the points exchanged and the cells decided.
fn run<const D: usize>(stages: &Stages<D>) -> (Vec<ChunkPoints<D>>, usize, usize) {
    let blocks = stages.blocks();
    let index = |b: &[i64; D]| blocks.iter().position(|x| x == b).unwrap();
    let mut owned: Vec<CellMap<D>> = vec![CellMap::new(); blocks.len()];
    let (mut exchanged, mut decided) = (0, 0);
    for k in 0..=D {
        let mut new = vec![CellMap::new(); blocks.len()];
        for (j, block) in blocks.iter().enumerate().rev() {
            let mut given = owned[j].clone();
            for other in stages.neighbours(*block) {
                let export = stages.export(&owned[index(&other)], *block);
                exchanged += export.values().map(Vec::len).sum::<usize>();
                given.extend(export);
            }
            new[j] = stages.decide(*block, k, given).unwrap();
            decided += new[j].len();
        }
        for (j, cells) in new.into_iter().enumerate() {
            owned[j].extend(cells);
        }
    }
    let mut out = Vec::new();
    for (j, block) in blocks.iter().enumerate() {
        let mut cells = owned[j].clone();
        for other in stages.chunk_senders(*block) {
            cells.extend(stages.overlap(&owned[index(&other)], *block));
        }
        out.extend(stages.chunks(*block, &cells).unwrap());
    }
    (out, exchanged, decided)
}

/// The staged run of `lo..hi` in blocks of `block` equals one world's chunks, and decides
/// as many cells as one world asked for the range (its cone, once).
fn agrees<const D: usize>(
    builder: WorldBuilder<D>,
    lo: [i64; D],
    hi: [i64; D],
    block: [i64; D],
) -> usize {
    let world = builder.clone().build().unwrap();
    let stages = world.stages(lo, hi, block).unwrap();
    let (mut staged, exchanged, decided) = run(&stages);
    let mut whole = builder.with_cache_cells(1 << 20).build().unwrap();
    let mut expected = Vec::new();
    for b in stages.blocks() {
        let (l, h) = stages.chunks_of(b);
        expected.extend(whole.range(l, h).unwrap());
    }
    let fresh = {
        let mut w = world;
        w.range(lo, hi).unwrap();
        w.stats().cells_decided as usize
    };
    assert_eq!(decided, fresh, "{D}D {lo:?}..{hi:?} by {block:?}: cells decided");
    let points: usize = expected.iter().map(|(_, p)| p.len()).sum();
    assert!(points > 20, "{D}D: {points} points");
    assert_eq!(staged.len(), expected.len());
    for ((c, got), (e, want)) in staged.drain(..).zip(expected) {
        assert_eq!(c, e);
        assert_eq!(got, want, "{D}D chunk {c:?}, blocks of {block:?}");
    }
    exchanged
}

#[test]
fn staged_blocks_give_the_worlds_chunks_in_1d_to_4d() {
    agrees(World::<1>::builder(0.5, 3).with_chunk_side(4.0), [-3], [6], [2]);
    agrees(World::<2>::builder(0.5, 9).with_chunk_side(4.0), [-2, -1], [3, 4], [2, 2]);
    agrees(World::<2>::builder(0.5, 9).with_chunk_side(4.0), [-2, -1], [3, 4], [1, 3]);
    agrees(World::<2>::builder(0.5, 9).with_chunk_side(4.0), [0, 0], [4, 4], [4, 4]);
    agrees(World::<3>::builder(0.5, 4).with_chunk_side(3.0), [-1, 0, 0], [2, 2, 3], [1, 2, 2]);
    agrees(World::<4>::builder(0.5, 5).with_chunk_side(3.5), [0, 0, 0, 0], [2, 2, 1, 2], [1; 4]);
}

#[test]
fn staged_blocks_agree_in_closed_boxes_and_on_tori() {
    let closed = Domain::from_origin_and_extent([0.3, -1.0], [13.0, 9.5]).unwrap();
    let builder = World::<2>::builder(0.5, 2).with_box(closed).with_chunk_side(4.0);
    agrees(builder, [-1, -1], [5, 4], [2, 2]);
    // A torus covered whole (no cells outside the range), in part, and all but one chunk
    // (a key outside the range on each side wraps onto the same cell).
    let torus = Domain::from_origin_and_extent([0.0; 2], [20.0, 16.0]).unwrap().periodic();
    let builder = World::<2>::builder(0.5, 6).with_box(torus).with_chunk_side(4.0);
    agrees(builder.clone(), [0, 0], [5, 4], [2, 3]);
    agrees(builder.clone(), [1, 0], [3, 2], [1, 1]);
    agrees(builder, [0, 1], [4, 4], [3, 2]);
    let torus = Domain::from_origin_and_extent([0.0; 3], [9.0; 3]).unwrap().periodic();
    agrees(
        World::<3>::builder(0.5, 8).with_box(torus).with_chunk_side(3.0),
        [0; 3],
        [3; 3],
        [2; 3],
    );
}

#[test]
fn blocks_exchange_only_points_near_their_faces() {
    // Large chunks: a block receives a band about r to 2r wide outside its lower faces,
    // far fewer points than the blocks hold.
    let builder = World::<2>::builder(1.0, 1).with_chunk_side(16.0);
    let exchanged = agrees(builder.clone(), [0, 0], [4, 4], [2, 2]);
    let mut world = builder.build().unwrap();
    let held: usize = world.range([0, 0], [4, 4]).unwrap().iter().map(|(_, p)| p.len()).sum();
    assert!(exchanged * 4 < held, "{exchanged} points exchanged for {held}");
}

#[test]
fn stages_refuse_what_they_cannot_do() {
    let world = World::<2>::builder(0.5, 1).with_chunk_side(4.0).build().unwrap();
    let message = |e: poisson_nd::Error| e.to_string();
    assert!(message(world.stages([0, 0], [0, 3], [1, 1]).unwrap_err()).contains("empty"));
    assert!(message(world.stages([0, 0], [2, 3], [1, 0]).unwrap_err()).contains("at least one"));
    let stages = world.stages([0, 0], [2, 2], [1, 1]).unwrap();
    assert_eq!(stages.shape(), [2, 2]);
    // Stage 1 of block (1, 1) reads cells that only block (0, 1) and its own stage 0 hold.
    let error = stages.decide([1, 1], 1, CellMap::new()).unwrap_err();
    assert!(message(error).contains("was not given"));
    assert!(message(stages.decide([2, 0], 0, CellMap::new()).unwrap_err()).contains("not in"));
    assert!(message(stages.decide([0, 0], 3, CellMap::new()).unwrap_err()).contains("stratum 3"));
    assert!(message(stages.chunks([0, 0], &CellMap::new()).unwrap_err()).contains("not given"));
    let torus = Domain::from_origin_and_extent([0.0; 2], [8.0; 2]).unwrap().periodic();
    let world = World::<2>::builder(0.5, 1).with_box(torus).with_chunk_side(4.0).build().unwrap();
    assert!(
        message(world.stages([0, 0], [3, 1], [1, 1]).unwrap_err()).contains("outside the torus")
    );
}
