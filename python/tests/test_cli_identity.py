"""Bit-identity with `experiments sample`: the engine's first run with rng=S equals the
command line's --seed S, array for array (np.array_equal, no tolerance)."""

from __future__ import annotations

import numpy as np
import pytest

import poisson_nd as pnd

CASES = [
    # (CLI args, the engine's points)
    (["bridson", "--dim", 2, "--radius", 0.03, "--seed", 5],
     lambda: pnd.Bridson(2, 0.03, rng=5).fill_space()),
    (["bridson", "--dim", 2, "--radius", 0.03, "--seed", 6],
     lambda: pnd.Bridson(2, 0.03, rng=6).fill_space()),
    (["bridson", "--dim", 3, "--radius", 0.08, "--seed", 7],
     lambda: pnd.Bridson(3, 0.08, rng=7).fill_space()),
    (["bridson", "--dim", 3, "--radius", 0.1, "--seed", 8, "--periodic"],
     lambda: pnd.Bridson(3, 0.1, rng=8, periodic=True).fill_space()),
    (["bridson", "--dim", 2, "--radius", 0.05, "--seed", 9, "--box", "5,0.5", "--origin", "-2,1"],
     lambda: pnd.Bridson(2, 0.05, rng=9, l_bounds=[-2, 1], u_bounds=[3, 1.5]).fill_space()),
    (["bridson", "--dim", 2, "--radius", 0.03, "--seed", 10, "--k", 5, "--grid", "fine"],
     lambda: pnd.Bridson(2, 0.03, rng=10, k=5, grid="fine").fill_space()),
    (["bridson", "--dim", 2, "--radius", 0.03, "--seed", 3, "--n", 20],
     lambda: pnd.Bridson(2, 0.03, rng=3).random(20)),
    (["bridson", "--dim", 5, "--radius", 0.3, "--seed", 3],
     lambda: pnd.Bridson(5, 0.3, rng=3).fill_space()),
    (["chunked-bridson", "--dim", 2, "--radius", 0.01, "--seed", 7, "--threads", 1],
     lambda: pnd.ChunkedBridson(2, 0.01, rng=7, threads=2).fill_space()),
    (["chunked-bridson", "--dim", 2, "--radius", 0.01, "--seed", 7, "--threads", 2],
     lambda: pnd.ChunkedBridson(2, 0.01, rng=7, threads=2).fill_space()),
    (["chunked-bridson", "--dim", 2, "--radius", 0.01, "--seed", 4, "--threads", 1, "--periodic"],
     lambda: pnd.ChunkedBridson(2, 0.01, rng=4, threads=2, periodic=True).fill_space()),
    (["chunked-bridson", "--dim", 3, "--radius", 0.05, "--seed", 2, "--threads", 1,
      "--box", "1,2,1", "--origin", "-1,0,5"],
     lambda: pnd.ChunkedBridson(3, 0.05, rng=2, threads=2, l_bounds=[-1, 0, 5],
                                u_bounds=[0, 2, 6]).fill_space()),
    (["bridson-recent", "--dim", 3, "--radius", 0.08, "--seed", 5],
     lambda: pnd.Bridson(3, 0.08, front="recent", rng=5).fill_space()),
    (["dart-throwing", "--dim", 2, "--radius", 0.05, "--seed", 8],
     lambda: pnd.DartThrowing(2, 0.05, rng=8).fill_space()),
    (["dart-throwing", "--dim", 3, "--radius", 0.1, "--seed", 8, "--periodic"],
     lambda: pnd.DartThrowing(3, 0.1, rng=8, periodic=True).fill_space()),
    (["dart-throwing-grid", "--dim", 2, "--radius", 0.05, "--seed", 8],
     lambda: pnd.DartThrowing(2, 0.05, grid=True, rng=8).fill_space()),
    (["maximal", "--dim", 2, "--radius", 0.05, "--seed", 9],
     lambda: pnd.Maximal(2, 0.05, rng=9).fill_space()),
    (["maximal", "--dim", 3, "--radius", 0.1, "--seed", 9, "--box", "1,0.5,2", "--origin", "0,-1,1"],
     lambda: pnd.Maximal(3, 0.1, rng=9, l_bounds=[0, -1, 1], u_bounds=[1, -0.5, 3]).fill_space()),
    (["sample-elimination", "--dim", 2, "--n", 300, "--seed", 9],
     lambda: pnd.SampleElimination(2, rng=9).random(300)),
    (["sample-elimination", "--dim", 3, "--n", 200, "--seed", 1, "--periodic"],
     lambda: pnd.SampleElimination(3, rng=1, periodic=True).random(200)),
    (["best-candidate", "--dim", 3, "--n", 300, "--seed", 9],
     lambda: pnd.BestCandidate(3, rng=9).random(300)),
    (["halton", "--dim", 4, "--n", 300, "--seed", 9],
     lambda: pnd.Halton(4, rng=9).random(300)),
    (["halton", "--dim", 2, "--n", 50, "--box", "4,2", "--origin", "-1,-1"],
     lambda: pnd.Halton(2, l_bounds=[-1, -1], u_bounds=[3, 1]).random(50)),
    (["halton-randomized", "--dim", 4, "--n", 300, "--seed", 9],
     lambda: pnd.Halton(4, randomized=True, rng=9).random(300)),
    (["jittered-grid", "--dim", 2, "--n", 300, "--seed", 9],
     lambda: pnd.JitteredGrid(2, rng=9).random(300)),
    (["jittered-grid", "--dim", 3, "--n", 125, "--seed", 4],
     lambda: pnd.JitteredGrid(3, rng=4).random(125)),
    (["white-noise", "--dim", 5, "--n", 300, "--seed", 9],
     lambda: pnd.WhiteNoise(5, rng=9).random(300)),
    (["white-noise", "--dim", 8, "--n", 100, "--seed", 12345678901234567],
     lambda: pnd.WhiteNoise(8, rng=12345678901234567).random(100)),
]


@pytest.mark.parametrize("args,make", CASES, ids=[f"{c[0][0]}-{i}" for i, c in enumerate(CASES)])
def test_sample_bit_identical_to_cli(run_cli, tmp_path, args, make):
    out = tmp_path / "points.npy"
    run_cli("sample", *args, "--out", out)
    expected = np.load(out)
    points = make()
    assert points.dtype == expected.dtype == np.float64
    assert points.shape == expected.shape
    assert len(points) > 0
    assert np.array_equal(points, expected)


def test_second_run_is_the_next_seed(run_cli, tmp_path):
    engine = pnd.Bridson(2, 0.05, rng=41)
    engine.fill_space()
    second = engine.fill_space()
    out = tmp_path / "p.npy"
    run_cli("sample", "bridson", "--dim", 2, "--radius", 0.05, "--seed", 42, "--out", out)
    assert np.array_equal(second, np.load(out))


def test_cli_csv_round_trip(run_cli, tmp_path):
    # The CSV writes the shortest round-trip form: parsing gives the same bits.
    out = tmp_path / "p.csv"
    run_cli("sample", "dart-throwing", "--dim", 3, "--radius", 0.1, "--seed", 2, "--out", out)
    lines = out.read_text().splitlines()
    assert lines[0] == "x0,x1,x2"
    parsed = np.array([[float(v) for v in line.split(",")] for line in lines[1:]])
    assert np.array_equal(parsed, pnd.DartThrowing(3, 0.1, rng=2).fill_space())
