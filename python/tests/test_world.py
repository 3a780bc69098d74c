"""World: the same points as `experiments world`, chunk-order independence, boxes, errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import poisson_nd as pnd
from conftest import closest_pair, in_box


def read_world_csv(path, d):
    lines = path.read_text().splitlines()
    header = [f"x{k}" for k in range(d)] + [f"c{k}" for k in range(d)]
    assert lines[0].split(",") == header
    points, chunks = [], []
    for line in lines[1:]:
        fields = line.split(",")
        assert len(fields) == 2 * d
        points.append([float(v) for v in fields[:d]])
        chunks.append([int(v) for v in fields[d:]])  # integers, never "-3.0"
    return (np.array(points, dtype=np.float64).reshape(-1, d),
            np.array(chunks, dtype=np.int64).reshape(-1, d))


def _csv_range(lo, hi):
    return ",".join(map(str, lo)) + ":" + ",".join(map(str, hi))


@pytest.mark.parametrize("d,radius,seed,lo,hi,extra,kwargs", [
    (1, 0.01, 3, [-2], [3], [], {}),
    (2, 0.1, 3, [-1, -1], [1, 1], [], {}),
    (2, 0.05, 11, [0, -2], [2, 1], ["--chunk-side", 1.5, "--k", 12], {"chunk_side": 1.5, "k": 12}),
    (2, 0.1, 5, [-1, 0], [1, 2], ["--origin", "-3.5,2"], {"origin": [-3.5, 2.0]}),
    (3, 0.2, 7, [-1, -1, 0], [1, 1, 1], ["--chunk-side", 1.5], {"chunk_side": 1.5}),
    (4, 0.4, 1, [0, 0, 0, 0], [1, 1, 1, 2], ["--chunk-side", 2.5], {"chunk_side": 2.5}),
])
def test_block_equals_cli(run_cli, tmp_path, d, radius, seed, lo, hi, extra, kwargs):
    out = tmp_path / "world.csv"
    run_cli("world", "--dim", d, "--radius", radius, "--seed", seed, "--range", _csv_range(lo, hi),
            *extra, "--out", out)
    expected_points, expected_chunks = read_world_csv(out, d)
    world = pnd.World(d, radius, seed, **kwargs)
    points, chunks = world.block(lo, hi)
    assert points.shape == expected_points.shape and len(points) > 0
    assert np.array_equal(points, expected_points)
    assert chunks.dtype == np.int64
    assert np.array_equal(chunks, expected_chunks)
    # Chunks in lexicographic order, last axis fastest, and each point in its chunk.
    order = [tuple(c) for c in itertools.product(*[range(a, b) for a, b in zip(lo, hi)])]
    seen = list(dict.fromkeys(map(tuple, chunks)))
    assert seen == [c for c in order if c in set(seen)]
    for p, c in zip(points[:: max(1, len(points) // 200)], chunks[:: max(1, len(points) // 200)]):
        assert world.chunk_of(list(p)) == list(c)
    assert closest_pair(points) >= radius


def test_chunks_list_equals_cli(run_cli, tmp_path):
    chunks = [[0, 0], [-3, 7], [1, 0], [0, 1]]
    out = tmp_path / "w.csv"
    run_cli("world", "--dim", 2, "--radius", 0.1, "--seed", 9,
            "--chunks", ";".join(",".join(map(str, c)) for c in chunks), "--out", out)
    expected_points, expected_chunks = read_world_csv(out, 2)
    got = pnd.World(2, 0.1, 9).chunks(chunks)
    assert len(got) == len(chunks)
    for c, points in zip(chunks, got):
        mask = np.all(expected_chunks == c, axis=1)
        assert np.array_equal(points, expected_points[mask])


def test_chunk_order_independence():
    wanted = [[0, 0], [1, 0], [-1, 2], [5, -4], [0, 1]]
    first = pnd.World(2, 0.08, 4)
    together = first.chunks(wanted)
    second = pnd.World(2, 0.08, 4)
    alone = {tuple(c): second.chunk(c) for c in reversed(wanted)}
    third = pnd.World(2, 0.08, 4)
    third.chunk([3, 3])
    third.block([-2, -2], [2, 2])
    third.clear_cache()
    for c, points in zip(wanted, together):
        assert len(points) > 0
        assert np.array_equal(points, alone[tuple(c)])
        assert np.array_equal(points, third.chunk(c))
    # Neighbouring chunks keep the radius across their seam.
    a, b = first.block([0, 0], [2, 1])
    assert closest_pair(a) >= 0.08
    stats = first.stats()
    assert set(stats) == {"cells_decided", "cache_hits", "cached_cells"}
    assert stats["cells_decided"] > 0


def test_seeds_differ_and_repeat():
    a = pnd.World(2, 0.1, 1).chunk([0, 0])
    b = pnd.World(2, 0.1, 2).chunk([0, 0])
    assert not np.array_equal(a, b)
    assert np.array_equal(a, pnd.World(2, 0.1, 1).chunk([0, 0]))


def test_attributes():
    world = pnd.World(3, 0.2, 17)
    assert world.d == 3 and world.radius == 0.2 and world.seed == 17
    assert world.chunk_side == [0.2 * 32] * 3
    assert world.torus_chunks is None
    assert pnd.World(2, 0.1).chunk_side == [0.1 * 64] * 2
    assert "World(d=3" in repr(world)
    assert world.chunk_of([-0.1, 0.0, 6.5]) == [-1, 0, 1]


def test_closed_box_world(run_cli, tmp_path):
    world = pnd.World(2, 0.05, 2, l_bounds=[-1, 0], u_bounds=[1, 1], chunk_side=0.5)
    points, chunks = world.block([-1, -1], [5, 4])
    assert len(points) > 100
    assert in_box(points, [-1, 0], [1, 1])
    assert closest_pair(points) >= 0.05
    out = tmp_path / "w.csv"
    run_cli("world", "--dim", 2, "--radius", 0.05, "--seed", 2, "--box", "2,1", "--origin", "-1,0",
            "--chunk-side", 0.5, "--range", "-1,-1:5,4", "--out", out)
    expected_points, expected_chunks = read_world_csv(out, 2)
    assert np.array_equal(points, expected_points)
    assert np.array_equal(chunks, expected_chunks)


def test_periodic_box_world(run_cli, tmp_path):
    lower, upper = [0.0, -1.0, 2.0], [2.0, 1.0, 4.0]
    world = pnd.World(3, 0.1, 1, l_bounds=lower, u_bounds=upper, periodic=True, chunk_side=0.5)
    assert world.torus_chunks == [4, 4, 4]
    points, chunks = world.block([0, 0, 0], [4, 4, 4])
    assert len(points) > 500
    assert in_box(points, lower, upper)
    assert closest_pair(points, lower, upper, periodic=True) >= 0.1
    out = tmp_path / "w.csv"
    run_cli("world", "--dim", 3, "--radius", 0.1, "--seed", 1, "--box", "2,2,2", "--origin", "0,-1,2",
            "--periodic", "--chunk-side", 0.5, "--range", "0,0,0:4,4,4", "--out", out)
    expected_points, expected_chunks = read_world_csv(out, 3)
    assert np.array_equal(points, expected_points)
    assert np.array_equal(chunks, expected_chunks)
    with pytest.raises(ValueError, match="outside the torus"):
        world.chunk([4, 0, 0])
    with pytest.raises(ValueError, match="outside the torus"):
        world.chunk([-1, 0, 0])


@pytest.mark.parametrize("make,fragment", [
    (lambda: pnd.World(0, 0.1), "d must be between 1 and 8"),
    (lambda: pnd.World(9, 0.1), "d must be between 1 and 8"),
    (lambda: pnd.World(2, -0.1), "radius must be finite and > 0"),
    (lambda: pnd.World(2, float("nan")), "radius must be finite and > 0"),
    (lambda: pnd.World(2, float("inf")), "radius must be finite and > 0"),
    (lambda: pnd.World(2, 0.1, k=0), "k must be at least 1"),
    (lambda: pnd.World(2, 0.1, chunk_side=0.1), "too small for radius"),
    (lambda: pnd.World(2, 0.1, periodic=True), "periodic"),
    (lambda: pnd.World(2, 0.1, l_bounds=[0, 0], u_bounds=[1, 1], periodic=True, chunk_side=0.4),
     "tiled by at least two whole chunks"),
    (lambda: pnd.World(2, 0.1, l_bounds=[0, 0], u_bounds=[1, 1], origin=[0, 0]), "not both"),
    (lambda: pnd.World(2, 0.1, l_bounds=[0, 0]), "give both l_bounds and u_bounds"),
    (lambda: pnd.World(2, 0.1, l_bounds=[0], u_bounds=[1]), "must have 2 coordinates"),
    (lambda: pnd.World(2, 0.1, l_bounds=[0, 0], u_bounds=[1, -1]), "must be finite and > 0"),
    (lambda: pnd.World(2, 0.001, max_points=10), "over the limit of 10 points"),
    (lambda: pnd.World(2, 0.1).block([0, 0], [0, 1]), "empty along axis 0"),
    (lambda: pnd.World(2, 0.1).block([0], [1]), "lo must have 2 coordinates"),
    (lambda: pnd.World(2, 0.1).chunk([0, 0, 0]), "must have 2 coordinates"),
    (lambda: pnd.World(2, 0.1).chunk([10**9, 0]), "(10^8 radii"),
    (lambda: pnd.World(2, 0.1).chunk_of([1.0]), "point must have 2 coordinates"),
])
def test_world_errors(make, fragment):
    with pytest.raises(ValueError) as info:
        make()
    assert fragment in str(info.value)


def test_world_negative_seed_is_a_value_error():
    # A negative seed is an invalid parameter: ValueError (as the engines' rng=-1 gives),
    # not an OverflowError from the int conversion.
    with pytest.raises(ValueError, match="seed"):
        pnd.World(2, 0.1, -1)


def test_world_errors_name_python_parameters():
    # The messages are the Python API's: they name k, chunk_side, l_bounds/u_bounds,
    # max_points, not the command line's flags (--k, --chunk-side, --box, --max-points).
    for make in (lambda: pnd.World(2, 0.1, k=0),
                 lambda: pnd.World(2, 0.1, chunk_side=0.1),
                 lambda: pnd.World(2, 0.1, periodic=True),
                 lambda: pnd.World(2, 0.001, max_points=10)):
        with pytest.raises(ValueError) as info:
            make()
        assert "--" not in str(info.value), str(info.value)
