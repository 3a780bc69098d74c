"""Every engine against independent oracles: the minimum distance (cKDTree), the box, the
counts, the array layout (zero copy) and scipy.stats.qmc compatibility."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree
from scipy.stats import qmc

import poisson_nd as pnd
from conftest import assert_zero_copy, brute_closest_pair, closest_pair, in_box

# Radii that give a few hundred to ~2000 points in the unit cube.
RADIUS = {1: 0.002, 2: 0.03, 3: 0.08, 4: 0.18, 5: 0.28, 6: 0.4, 7: 0.45, 8: 0.55}
# Maximal sampling refines uncovered cells: slower in high D, so larger radii there.
MAXIMAL_RADIUS = {1: 0.002, 2: 0.03, 3: 0.08, 4: 0.2, 5: 0.35, 6: 0.65}

RADIUS_ENGINES = {
    "bridson": lambda d, r, **kw: pnd.Bridson(d, r, **kw),
    "bridson-fine": lambda d, r, **kw: pnd.Bridson(d, r, grid="fine", **kw),
    "bridson-recent": lambda d, r, **kw: pnd.Bridson(d, r, front="recent", **kw),
    "chunked-bridson": lambda d, r, **kw: pnd.ChunkedBridson(d, r, threads=2, **kw),
    "dart-throwing": lambda d, r, **kw: pnd.DartThrowing(d, r, **kw),
    "dart-throwing-grid": lambda d, r, **kw: pnd.DartThrowing(d, r, grid=True, **kw),
}


def _radius_cases():
    for name in RADIUS_ENGINES:
        # The fine grid (cells of side r/sqrt(d)) visits ~(2*ceil(sqrt(d)) + 1)^d cells per
        # candidate: minutes in 8D, so it is exercised up to 6D (where the docs measure it).
        for d in range(1, 7 if name == "bridson-fine" else 9):
            yield pytest.param(name, d, RADIUS[d], id=f"{name}-{d}d")
    for d in range(1, 7):
        yield pytest.param("maximal", d, MAXIMAL_RADIUS[d], id=f"maximal-{d}d")


def _make(name, d, r, **kw):
    if name == "maximal":
        return pnd.Maximal(d, r, **kw)
    return RADIUS_ENGINES[name](d, r, **kw)


@pytest.mark.parametrize("name,d,r", list(_radius_cases()))
def test_radius_driven_unit_cube(name, d, r):
    points = _make(name, d, r, rng=11).fill_space()
    assert points.shape[1] == d
    assert len(points) >= 2
    assert in_box(points, [0.0] * d, [1.0] * d)
    assert closest_pair(points) >= r


def _box(d):
    # [-2, 3] x [1, 1.5] x [0.25, 1.25] ...: sides of 5, 0.5, 1, ...
    lower = [-2.0, 1.0] + [0.25 * k for k in range(1, d - 1)]
    upper = [3.0, 1.5] + [0.25 * k + 1.0 for k in range(1, d - 1)]
    return lower[:d], upper[:d]


@pytest.mark.parametrize("name,d,r", [p for p in _radius_cases() if p.values[1] <= 4])
def test_radius_driven_non_unit_box(name, d, r):
    lower, upper = _box(d)
    points = _make(name, d, r, rng=5, l_bounds=lower, u_bounds=upper).fill_space()
    assert len(points) >= 2
    assert in_box(points, lower, upper)
    assert closest_pair(points) >= r
    # The box is filled along every axis, not only the unit cube's part of it.
    extent = np.asarray(upper) - np.asarray(lower)
    assert np.all(points.max(axis=0) - points.min(axis=0) > 0.5 * extent)


PERIODIC_CASES = [
    ("bridson", 1, 0.002), ("bridson", 2, 0.03), ("bridson", 3, 0.08), ("bridson", 4, 0.18),
    ("bridson", 6, 0.4), ("bridson", 8, 0.55),
    ("dart-throwing", 2, 0.03), ("dart-throwing", 3, 0.08), ("dart-throwing-grid", 2, 0.03),
    ("dart-throwing-grid", 5, 0.28), ("maximal", 2, 0.03), ("maximal", 3, 0.08),
    ("chunked-bridson", 1, 0.002), ("chunked-bridson", 2, 0.01), ("chunked-bridson", 3, 0.04),
]


@pytest.mark.parametrize("name,d,r", PERIODIC_CASES)
def test_radius_driven_periodic(name, d, r):
    lower = [-2.0] + [1.0] * (d - 1)
    upper = [-1.0] + [2.0] * (d - 1)
    if d == 2:
        upper = [-1.0, 3.0]  # a 1 x 2 torus
    points = _make(name, d, r, rng=3, l_bounds=lower, u_bounds=upper, periodic=True).fill_space()
    assert len(points) >= 2
    assert in_box(points, lower, upper)
    assert closest_pair(points, lower, upper, periodic=True) >= r


def test_periodic_wraps_distances():
    # On the torus the points near opposite faces keep the radius across the seam; the
    # closed-box closest pair is then not smaller than the torus one.
    r = 0.05
    points = pnd.Bridson(2, r, rng=2, periodic=True).fill_space()
    torus = closest_pair(points, [0, 0], [1, 1], periodic=True)
    assert torus >= r
    assert closest_pair(points) >= torus
    near_left = points[points[:, 0] < r / 2]
    near_right = points[points[:, 0] > 1 - r / 2]
    assert len(near_left) and len(near_right)


@pytest.mark.parametrize("d,r", [(2, 0.05), (3, 0.12)])
def test_maximal_is_saturated(d, r):
    # Maximal: no point of the box is farther than r from the set (no disk could be added).
    points = pnd.Maximal(d, r, rng=4).fill_space()
    probes = np.random.default_rng(0).random((20000, d))
    distances, _ = cKDTree(points).query(probes)
    assert distances.max() < r
    assert closest_pair(points) >= r


def test_brute_force_agrees_with_tree_on_small_sets():
    points = pnd.DartThrowing(3, 0.2, rng=8).fill_space()
    assert 20 < len(points) < 400
    assert brute_closest_pair(points) == pytest.approx(closest_pair(points), rel=0, abs=1e-15)
    assert brute_closest_pair(points) >= 0.2


def test_dart_throwing_grid_equals_plain():
    for d, r in ((2, 0.05), (3, 0.12)):
        a = pnd.DartThrowing(d, r, rng=6).fill_space()
        b = pnd.DartThrowing(d, r, grid=True, rng=6).fill_space()
        assert np.array_equal(a, b)


def test_chunked_bridson_same_for_every_thread_count():
    runs = [pnd.ChunkedBridson(2, 0.01, threads=t, rng=9).fill_space() for t in (1, 2, 3)]
    assert np.array_equal(runs[0], runs[1])
    assert np.array_equal(runs[0], runs[2])


def test_bridson_grid_changes_only_speed():
    a = pnd.Bridson(3, 0.1, rng=4).fill_space()
    b = pnd.Bridson(3, 0.1, grid="fine", rng=4).fill_space()
    assert np.array_equal(a, b)


# Count-driven samplers: exact counts, in the box.

COUNT_ENGINES = {
    "sample-elimination": lambda d, **kw: pnd.SampleElimination(d, **kw),
    "sample-elimination-progressive": lambda d, **kw: pnd.SampleElimination(d, progressive=True, ratio=3, **kw),
    "best-candidate": lambda d, **kw: pnd.BestCandidate(d, **kw),
    "best-candidate-growing": lambda d, **kw: pnd.BestCandidate(d, growing_candidates=True, candidates=2, **kw),
    "halton": lambda d, **kw: pnd.Halton(d, **kw),
    "halton-randomized": lambda d, **kw: pnd.Halton(d, randomized=True, **kw),
    "sobol": lambda d, **kw: pnd.Sobol(d, scramble=False, **kw),
    "sobol-owen": lambda d, **kw: pnd.Sobol(d, **kw),
    "white-noise": lambda d, **kw: pnd.WhiteNoise(d, **kw),
}


@pytest.mark.parametrize("name", list(COUNT_ENGINES))
@pytest.mark.parametrize("d", range(1, 9))
def test_count_driven_exact_count(name, d):
    for n in (0, 1, 7, 300):
        points = COUNT_ENGINES[name](d, rng=2).random(n)
        assert points.shape == (n, d)
        assert in_box(points, [0.0] * d, [1.0] * d)
    lower, upper = [-2.0] * d, [3.0] * d
    lower[0], upper[0] = 1.0, 1.5
    points = COUNT_ENGINES[name](d, rng=2, l_bounds=lower, u_bounds=upper).random(250)
    assert points.shape == (250, d)
    assert in_box(points, lower, upper)
    assert len(np.unique(points, axis=0)) == 250


@pytest.mark.parametrize("d", range(1, 9))
def test_jittered_grid_counts(d):
    for n in (1, 5, 20, 100, 300):
        points = pnd.JitteredGrid(d, rng=1).random(n)
        assert 1 <= len(points) <= n
        assert points.shape[1] == d
        assert in_box(points, [0.0] * d, [1.0] * d)
    for m in (1, 2, 3) if d >= 5 else (2, 3, 5):
        n = m ** d
        points = pnd.JitteredGrid(d, rng=1).random(n)
        assert points.shape == (n, d)
        # One point in each cell of the m^d grid.
        cells = np.floor(points * m).astype(np.int64)
        assert len(np.unique(cells, axis=0)) == n
    assert len(pnd.JitteredGrid(d, rng=1).random(0)) == 0


def test_jittered_grid_near_cubic():
    # The largest grid of at most n cells whose sides differ by at most one.
    for d, n, expected in ((2, 27, 25), (2, 7, 6), (3, 9, 8), (3, 30, 27), (1, 13, 13)):
        assert len(pnd.JitteredGrid(d, rng=0).random(n)) == expected


@pytest.mark.parametrize("name", list(RADIUS_ENGINES) + ["maximal"])
def test_radius_driven_random_n_is_a_cap(name):
    engine = _make(name, 2, 0.03, rng=4)
    full = len(engine.fill_space())
    assert full > 200
    for n in (0, 1, 50, full + 100):
        engine.reset()
        points = engine.random(n)
        assert len(points) <= n
        assert len(points) == min(n, full)
        assert closest_pair(points) >= 0.03
    assert engine.random().shape[0] <= 1


def test_sample_returns_metadata():
    s = pnd.Bridson(2, 0.05, rng=13).sample()
    assert isinstance(s, pnd.Sample)
    assert s.seed == 13
    assert s.radii is None
    assert s.stop == "exhausted"
    assert s.attempts >= len(s.points) > 0
    assert s.attempts == pnd.Bridson(2, 0.05, rng=13).sample().attempts
    capped = pnd.Bridson(2, 0.05, rng=13).sample(10)
    assert len(capped.points) == 10
    assert capped.stop != "exhausted"
    assert np.array_equal(capped.points, s.points[:10])


def test_max_points_caps_radius_driven_by_refusing():
    with pytest.raises(ValueError, match="limit of 50 points"):
        pnd.Bridson(2, 0.05, max_points=50)
    points = pnd.Bridson(2, 0.05, max_points=10_000, rng=1).fill_space()
    assert 0 < len(points) <= 10_000


# Zero copy: the arrays wrap the Rust buffer.

ZERO_COPY_CASES = {
    "bridson": lambda: pnd.Bridson(2, 0.05, rng=1).fill_space(),
    "chunked": lambda: pnd.ChunkedBridson(3, 0.1, rng=1).fill_space(),
    "dart": lambda: pnd.DartThrowing(2, 0.05, rng=1).fill_space(),
    "maximal": lambda: pnd.Maximal(2, 0.05, rng=1).fill_space(),
    "elimination": lambda: pnd.SampleElimination(3, rng=1).random(50),
    "best": lambda: pnd.BestCandidate(2, rng=1).random(50),
    "halton": lambda: pnd.Halton(4).random(50),
    "jittered": lambda: pnd.JitteredGrid(2, rng=1).random(49),
    "white": lambda: pnd.WhiteNoise(5, rng=1).random(50),
    "empty": lambda: pnd.WhiteNoise(2, rng=1).random(0),
    "sample": lambda: pnd.Bridson(1, 0.01, rng=1).sample().points,
    "set": lambda: _filled_set().points,
    "world-chunk": lambda: pnd.World(2, 0.1, 1).chunk([0, 0]),
    "world-block": lambda: pnd.World(2, 0.1, 1).block([0, 0], [2, 1])[0],
    "scatter": lambda: pnd.scatter(str(_scene()))["position"],
}


def _filled_set():
    s = pnd.PoissonSet([0, 0], [1, 1], 0.05, seed=1)
    s.fill()
    return s


def _scene():
    from conftest import EXAMPLES
    return EXAMPLES / "scatter" / "scene.toml"


@pytest.mark.parametrize("case", list(ZERO_COPY_CASES))
def test_zero_copy_arrays(case):
    array = ZERO_COPY_CASES[case]()
    assert_zero_copy(array)
    before = array.copy()
    if len(array):
        array[0, 0] += 1.0  # writable, and the write lands in the wrapped buffer
        assert array[0, 0] == before[0, 0] + 1.0


def test_zero_copy_radii():
    s = pnd.Bridson(2, field=pnd.Field.radius(np.full((2, 2), 0.05)), rng=1).sample()
    assert s.radii.dtype == np.float64
    assert s.radii.shape == (len(s.points),)
    assert not s.radii.flags.owndata and s.radii.base is not None
    assert_zero_copy(s.points, 2)


# scipy.stats.qmc compatibility, reset and successive runs.

def test_qmc_scale_and_discrepancy():
    lower, upper = [-2.0, 1.0], [3.0, 1.5]
    bridson = pnd.Bridson(2, 0.03, rng=1, l_bounds=lower, u_bounds=upper).fill_space()
    n = len(bridson)
    halton = pnd.Halton(2, l_bounds=lower, u_bounds=upper).random(n)
    white = pnd.WhiteNoise(2, rng=1, l_bounds=lower, u_bounds=upper).random(n)
    values = {}
    for name, points in (("halton", halton), ("bridson", bridson), ("white", white)):
        unit = qmc.scale(points, lower, upper, reverse=True)
        assert unit.min() >= 0 and unit.max() < 1
        values[name] = qmc.discrepancy(unit)
        assert np.isfinite(values[name]) and values[name] > 0
    assert values["halton"] < values["white"]
    # In the unit square, blue noise and Halton beat white noise (averaged over seeds).
    bridson = pnd.Bridson(2, 0.03, rng=1).fill_space()
    n = len(bridson)
    white = np.mean([qmc.discrepancy(pnd.WhiteNoise(2, rng=s).random(n)) for s in range(5)])
    assert qmc.discrepancy(bridson) < white
    assert qmc.discrepancy(pnd.Halton(2).random(n)) < white
    assert qmc.discrepancy(pnd.Halton(2, randomized=True, rng=3).random(n)) < white


def test_halton_matches_scipy_unscrambled():
    # poisson_nd's Halton starts at index 1 (scipy's at 0, the origin).
    for d in (1, 2, 5):
        ours = pnd.Halton(d).random(100)
        theirs = qmc.Halton(d, scramble=False).random(101)[1:]
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)


def test_sobol_matches_scipy_unscrambled():
    # scipy lists the sequence in Gray-code order: its j-th point is our index j ^ (j >> 1).
    for d in (1, 2, 8):
        ours = pnd.Sobol(d, scramble=False).random(256)
        theirs = qmc.Sobol(d, scramble=False).random(256)
        gray = [j ^ (j >> 1) for j in range(256)]
        np.testing.assert_array_equal(ours[gray], theirs)


@pytest.mark.parametrize("make", [lambda **kw: pnd.Sobol(3, **kw), lambda **kw: pnd.Pmj02(2, **kw)])
def test_scrambled_sequences_continue_and_stay_nets(make):
    engine = make(rng=11)
    first, second = engine.random(32), engine.random(32)
    whole = make(rng=11).random(64)
    assert np.array_equal(np.vstack([first, second]), whole)
    assert not np.array_equal(whole, make(rng=12).random(64))
    # Every 2D elementary rectangle of area 1/64 of axes 0 and 1 holds one point.
    for k in range(7):
        cells = np.floor(whole[:, 0] * 2**k) * 2 ** (6 - k) + np.floor(whole[:, 1] * 2 ** (6 - k))
        assert len(np.unique(cells)) == 64
    assert qmc.discrepancy(whole) < qmc.discrepancy(pnd.WhiteNoise(whole.shape[1], rng=1).random(64))


def test_pmj02_is_two_dimensional():
    with pytest.raises(ValueError, match="dimension"):
        pnd.Pmj02(3, rng=1).random(4)


@pytest.mark.parametrize("randomized", [False, True])
def test_halton_continues_the_sequence(randomized):
    for d in (1, 2, 6):
        engine = pnd.Halton(d, randomized=randomized, rng=5)
        first, second = engine.random(4), engine.random(4)
        whole = pnd.Halton(d, randomized=randomized, rng=5).random(8)
        assert np.array_equal(np.vstack([first, second]), whole)
        assert engine.num_generated == 8
        engine.reset()
        assert np.array_equal(engine.random(8), whole)
        skipped = pnd.Halton(d, randomized=randomized, rng=5).fast_forward(3).random(5)
        assert np.array_equal(skipped, whole[3:])
        assert np.array_equal(pnd.Halton(d, randomized=randomized, rng=5, skip=3).random(5), whole[3:])


def test_halton_randomized_depends_on_seed():
    a = pnd.Halton(3, randomized=True, rng=1).random(20)
    b = pnd.Halton(3, randomized=True, rng=2).random(20)
    assert not np.array_equal(a, b)
    assert np.array_equal(pnd.Halton(3, rng=1).random(20), pnd.Halton(3, rng=2).random(20))


@pytest.mark.parametrize("make", [
    lambda: pnd.Bridson(2, 0.05, rng=21),
    lambda: pnd.ChunkedBridson(2, 0.02, rng=21),
    lambda: pnd.DartThrowing(2, 0.05, rng=21),
    lambda: pnd.Maximal(2, 0.05, rng=21),
    lambda: pnd.SampleElimination(2, rng=21),
    lambda: pnd.BestCandidate(2, rng=21),
    lambda: pnd.JitteredGrid(2, rng=21),
    lambda: pnd.WhiteNoise(2, rng=21),
    lambda: pnd.Halton(2, randomized=True, rng=21),
], ids=["bridson", "chunked", "dart", "maximal", "elimination", "best", "jittered", "white",
        "halton-randomized"])
def test_reset_and_successive_runs(make):
    engine = make()
    n = 64
    first = engine.random(n)
    second = engine.random(n)
    assert not np.array_equal(first, second)
    assert engine.num_generated == len(first) + len(second)
    engine.reset()
    assert engine.num_generated == 0
    assert np.array_equal(engine.random(n), first)
    if isinstance(engine, pnd.Halton):
        return
    # The j-th run uses seed + j.
    fresh = make()
    fresh.seed += 1
    assert np.array_equal(fresh.random(n), second)
    assert engine.sample(n).seed == engine.seed + 1


def test_rng_generator_and_none():
    generator = np.random.default_rng(123)
    expected_seed = int(np.random.default_rng(123).integers(0, 2**63))
    engine = pnd.WhiteNoise(2, rng=generator)
    assert engine.seed == expected_seed
    assert np.array_equal(engine.random(10), pnd.WhiteNoise(2, rng=expected_seed).random(10))
    a, b = pnd.WhiteNoise(2), pnd.WhiteNoise(2)
    assert 0 <= a.seed < 2**64 and a.seed != b.seed
    assert np.array_equal(a.random(5), pnd.WhiteNoise(2, rng=a.seed).random(5))
    assert pnd.WhiteNoise(2, rng=np.uint64(7)).seed == 7


def test_seed_wraps_at_two_to_the_64():
    engine = pnd.WhiteNoise(2, rng=2**64 - 1)
    engine.random(1)
    assert engine.sample(3).seed == 0
    assert np.array_equal(engine.reset().random(3), pnd.WhiteNoise(2, rng=2**64 - 1).random(3))


def test_repr_and_attributes():
    engine = pnd.Bridson(2, 0.05, k=12, l_bounds=[-1, 0], u_bounds=[1, 2], rng=3)
    text = repr(engine)
    assert text.startswith("Bridson(") and "radius=0.05" in text and "k=12" in text and "rng=3" in text
    assert engine.d == 2 and engine.radius == 0.05 and engine.name == "bridson"
    assert engine.radius_driven and not pnd.Halton(2).radius_driven
    np.testing.assert_array_equal(engine.l_bounds, [-1, 0])
    np.testing.assert_array_equal(engine.u_bounds, [1, 2])
    assert "grid=True" in repr(pnd.DartThrowing(2, 0.1, grid=True))
    assert pnd.DartThrowing(2, 0.1, grid=True).name == "dart-throwing-grid"
    recent = pnd.Bridson(2, 0.1, front="recent", rng=1)
    assert recent.name == "bridson-recent" and "front='recent'" in repr(recent)
    assert "front" not in repr(pnd.Bridson(2, 0.1, front="uniform"))
    with pytest.raises(ValueError, match="front must be 'uniform' or 'recent', got 'newest'"):
        pnd.Bridson(2, 0.1, front="newest")
    assert "randomized=True" in repr(pnd.Halton(2, randomized=True))
    assert pnd.MAX_DIM == 8 and pnd.MAX_POINTS == 10**8


def test_construction_does_not_run_the_sampler(monkeypatch):
    # Engines check their parameters at construction with an empty run: one native call with
    # n = 0, which builds and checks the sampler and draws nothing (no candidate, no point).
    # Its cost beside a fill: python/benches/construction.py.
    from poisson_nd import _engines

    calls = []
    native = _engines._native.sample

    def counted(*args, **kwargs):
        result = native(*args, **kwargs)
        calls.append((args[7], len(result[0]), result[3]))
        return result

    monkeypatch.setattr(_engines._native, "sample", counted)
    for make in (lambda: pnd.Bridson(2, 0.002, rng=1), lambda: pnd.ChunkedBridson(2, 0.002, rng=1, threads=2)):
        calls.clear()
        engine = make()
        assert calls == [(0, 0, 0)], (type(engine).__name__, calls)
        assert engine.num_generated == 0
        points = engine.random(50)
        assert calls[-1][0] == 50 and calls[-1][2] > 0 and len(points) == 50
