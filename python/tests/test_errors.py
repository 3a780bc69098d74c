"""Invalid parameters of every engine: ValueError or TypeError with a message that names the
problem, and never a crash of the interpreter."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import poisson_nd as pnd

NAN, INF = float("nan"), float("inf")

RADIUS_ENGINES = {
    "bridson": lambda d=2, r=0.1, **kw: pnd.Bridson(d, r, **kw),
    "chunked-bridson": lambda d=2, r=0.1, **kw: pnd.ChunkedBridson(d, r, **kw),
    "dart-throwing": lambda d=2, r=0.1, **kw: pnd.DartThrowing(d, r, **kw),
    "dart-throwing-grid": lambda d=2, r=0.1, **kw: pnd.DartThrowing(d, r, grid=True, **kw),
    "maximal": lambda d=2, r=0.1, **kw: pnd.Maximal(d, r, **kw),
}
COUNT_ENGINES = {
    "sample-elimination": lambda d=2, **kw: pnd.SampleElimination(d, **kw),
    "best-candidate": lambda d=2, **kw: pnd.BestCandidate(d, **kw),
    "halton": lambda d=2, **kw: pnd.Halton(d, **kw),
    "halton-randomized": lambda d=2, **kw: pnd.Halton(d, randomized=True, **kw),
    "jittered-grid": lambda d=2, **kw: pnd.JitteredGrid(d, **kw),
    "white-noise": lambda d=2, **kw: pnd.WhiteNoise(d, **kw),
}
ALL_ENGINES = {**RADIUS_ENGINES, **COUNT_ENGINES}


def raises(exc, fragment, make):
    with pytest.raises(exc) as info:
        make()
    assert fragment in str(info.value), (fragment, str(info.value))


@pytest.mark.parametrize("name", list(RADIUS_ENGINES))
@pytest.mark.parametrize("radius", [-0.1, 0.0, NAN, INF, -INF])
def test_bad_radius(name, radius):
    raises(ValueError, "radius must be finite and > 0", lambda: RADIUS_ENGINES[name](r=radius))


@pytest.mark.parametrize("name", list(RADIUS_ENGINES))
def test_radius_of_wrong_type(name):
    with pytest.raises((TypeError, ValueError)) as info:
        RADIUS_ENGINES[name](r="big")
    assert "big" in str(info.value) or "radius" in str(info.value)


@pytest.mark.parametrize("name", list(ALL_ENGINES))
def test_bad_dimension(name):
    for d in (0, 9, -1):
        raises(ValueError, f"d must be between 1 and 8, got {d}", lambda: ALL_ENGINES[name](d=d))
    for d in (2.0, "2", True, None):
        raises(TypeError, "d must be an int", lambda: ALL_ENGINES[name](d=d))


def test_maximal_dimension_limit():
    for d in (7, 8):
        raises(ValueError, "must be at most 6", lambda: pnd.Maximal(d, 0.5))
    assert len(pnd.Maximal(6, 0.7, rng=1).fill_space()) > 10


@pytest.mark.parametrize("name", list(ALL_ENGINES))
def test_bad_bounds(name):
    make = ALL_ENGINES[name]
    raises(ValueError, "l_bounds must have d = 2 values, got 1", lambda: make(l_bounds=[0], u_bounds=[1, 1]))
    raises(ValueError, "u_bounds must have d = 2 values, got 3", lambda: make(l_bounds=[0, 0], u_bounds=[1, 1, 1]))
    raises(ValueError, "axis 1 has 0 ≥ 0", lambda: make(l_bounds=[0, 0], u_bounds=[1, 0]))
    raises(ValueError, "axis 0 has 2 ≥ 1", lambda: make(l_bounds=[2, 0], u_bounds=[1, 1]))
    raises(ValueError, "u_bounds must be larger than l_bounds", lambda: make(l_bounds=[0, NAN], u_bounds=[1, 1]))
    raises(ValueError, "must be finite", lambda: make(l_bounds=[0, 0], u_bounds=[1, INF]))
    raises(ValueError, "give both l_bounds and u_bounds", lambda: make(l_bounds=[0, 0]))
    raises(ValueError, "give both l_bounds and u_bounds", lambda: make(u_bounds=[1, 1]))
    raises(TypeError, "l_bounds must be a sequence of numbers", lambda: make(l_bounds=["a", 0], u_bounds=[1, 1]))


@pytest.mark.parametrize("name", list(ALL_ENGINES))
def test_bad_n(name):
    engine = ALL_ENGINES[name](rng=1)
    raises(ValueError, "n must be at least 0, got -1", lambda: engine.random(-1))
    raises(ValueError, "n must be at least 0, got -5", lambda: engine.sample(-5))
    for n in (2.0, "3", None, True, np.float64(3)):
        raises(TypeError, "n must be an int", lambda: engine.random(n))
    assert engine.random(np.int32(3)).shape[0] <= 3


@pytest.mark.parametrize("name", list(COUNT_ENGINES))
def test_count_driven_needs_n(name):
    raises(ValueError, "is count-driven: give n", lambda: COUNT_ENGINES[name]().sample())


@pytest.mark.parametrize("name", list(ALL_ENGINES))
def test_bad_rng(name):
    make = ALL_ENGINES[name]
    for rng in ("seed", 1.5, [1], True, np.random.RandomState(0)):
        raises(TypeError, "rng must be an int seed, a numpy.random.Generator or None", lambda: make(rng=rng))
    raises(ValueError, "rng must be a seed between 0 and 2**64 - 1, got -1", lambda: make(rng=-1))
    raises(ValueError, "got 18446744073709551616", lambda: make(rng=2**64))


@pytest.mark.parametrize("name", list(ALL_ENGINES))
def test_max_points(name):
    make = ALL_ENGINES[name]
    raises(ValueError, "max_points must be at least 1, got 0", lambda: make(max_points=0).random(1))
    if name in RADIUS_ENGINES:
        raises(ValueError, "over the limit of 20 points", lambda: make(r=0.01, max_points=20))
    elif name == "sample-elimination":
        # The limit counts the five candidates drawn per point.
        engine = make(max_points=20, rng=1)
        assert len(engine.random(4)) == 4
        raises(ValueError, "n = 5 draws 25 candidates at ratio 5, more than the point limit of 20",
               lambda: engine.random(5))
        raises(ValueError, "n = 21 is more than the point limit of 20", lambda: engine.random(21))
    else:
        engine = make(max_points=20, rng=1)
        assert len(engine.random(20)) <= 20
        raises(ValueError, "n = 21 is more than the point limit of 20", lambda: engine.random(21))
        raises(ValueError, "more than the point limit of 100000000",
               lambda: make(rng=1).random(10**8 + 1))


def test_negative_max_points_is_a_value_error():
    # An invalid parameter: ValueError (as max_points=0 gives), not OverflowError; the same
    # for every engine (the conversion happens in the shared native call).
    for name in ("bridson", "white-noise"):
        raises(ValueError, "max_points", lambda: ALL_ENGINES[name](max_points=-1))


def test_engine_parameters():
    cases = [
        (lambda: pnd.Bridson(2, 0.1, k=0), "k must be at least 1, got 0"),
        (lambda: pnd.ChunkedBridson(2, 0.1, k=0), "k must be at least 1, got 0"),
        (lambda: pnd.Bridson(2, 0.1, grid="medium"), "unknown value 'medium', expected one of: coarse, fine"),
        (lambda: pnd.ChunkedBridson(2, 0.1, threads=0), "threads must be at least 1, got 0"),
        (lambda: pnd.ChunkedBridson(2, 0.1, chunk_side=-1.0), "chunk_side must be finite and > 0"),
        (lambda: pnd.ChunkedBridson(2, 0.1, chunk_side=0.1), "too small for radius"),
        (lambda: pnd.ChunkedBridson(4, 0.18, l_bounds=[0] * 4, u_bounds=[1.5] * 4, periodic=True),
         "tiled by at least two whole chunks"),
        (lambda: pnd.DartThrowing(2, 0.1, max_misses=0), "max_misses must be at least 1, got 0"),
        (lambda: pnd.DartThrowing(2, 0.1, grid=True, max_misses=0), "max_misses must be at least 1, got 0"),
        (lambda: pnd.SampleElimination(2, ratio=0.5), "ratio must be finite and at least 1, got 0.5"),
        (lambda: pnd.SampleElimination(2, ratio=-3), "ratio must be finite and at least 1"),
        (lambda: pnd.BestCandidate(2, candidates=0), "candidates must be at least 1, got 0"),
        (lambda: pnd.Bridson(2), "needs exactly one of radius and field"),
    ]
    for make, fragment in cases:
        raises(ValueError, fragment, make)


@pytest.mark.parametrize("make,parameter", [
    (lambda: pnd.SampleElimination(2, ratio=NAN), "ratio"),
    (lambda: pnd.SampleElimination(2, ratio=INF), "ratio"),
    (lambda: pnd.ChunkedBridson(2, 0.1, chunk_side=NAN), "chunk_side"),
    (lambda: pnd.ChunkedBridson(2, 0.1, chunk_side=INF), "chunk_side"),
], ids=["ratio-nan", "ratio-inf", "chunk_side-nan", "chunk_side-inf"])
def test_non_finite_float_parameters_are_named(make, parameter):
    # A NaN or infinite ratio/chunk_side must be refused naming the parameter, as ratio=0.5
    # and chunk_side=-1 are (not with a JSON parser's "expected value at line 1 column 41").
    raises(ValueError, parameter, make)


@pytest.mark.parametrize("make,parameter", [
    (lambda: pnd.Bridson(2, 0.1, k=-1), "k must be"),
    (lambda: pnd.ChunkedBridson(2, 0.1, threads=-2), "threads must be"),
    (lambda: pnd.DartThrowing(2, 0.1, max_misses=-1), "max_misses must be"),
    (lambda: pnd.BestCandidate(2, candidates=-1), "candidates must be"),
    (lambda: pnd.Halton(2, skip=-1), "skip"),
], ids=["k", "threads", "max_misses", "candidates", "skip"])
def test_negative_integer_parameters_are_named(make, parameter):
    # Refused naming the parameter as k=0 is, not with serde's "invalid value: integer `-1`,
    # expected u32".
    raises(ValueError, parameter, make)


@pytest.mark.parametrize("make", [
    lambda: pnd.Bridson(2, 0.1, k=2.5),
    lambda: pnd.Bridson(2, 0.1, k="3"),
    lambda: pnd.Bridson(2, 0.1, grid=3),
    lambda: pnd.BestCandidate(2, candidates=1.5),
], ids=["k-float", "k-str", "grid-int", "candidates-float"])
def test_parameters_of_wrong_type(make):
    with pytest.raises((TypeError, ValueError)) as info:
        make()
    assert "expected" in str(info.value) or "must be" in str(info.value)


def test_wrong_keyword_for_engine():
    with pytest.raises(TypeError):
        pnd.Maximal(2, 0.1, k=3)
    with pytest.raises(TypeError):
        pnd.WhiteNoise(2, radius=0.1)
    with pytest.raises(TypeError):
        pnd.ChunkedBridson(2, 0.1, region=pnd.Region.ball([0.5, 0.5], 0.2))


def test_field_and_region_of_wrong_dimension():
    raises(ValueError, "the field's array has 3 axes, but the box is 2-dimensional",
           lambda: pnd.Bridson(2, field=pnd.Field.radius(np.full((2, 2, 2), 0.1))))
    raises(ValueError, "the field's array has 1 axes, but the box is 2-dimensional",
           lambda: pnd.DartThrowing(2, field=pnd.Field.radius(np.full(3, 0.1))))
    raises(ValueError, "the region is 3-dimensional, but the box is 2-dimensional",
           lambda: pnd.WhiteNoise(2, l_bounds=[0, 0], u_bounds=[1, 1], region=pnd.Region.ball([0, 0, 0], 1)))
    raises(ValueError, "the region is 2-dimensional, but the box is 3-dimensional",
           lambda: pnd.Maximal(3, 0.1, l_bounds=[0] * 3, u_bounds=[1] * 3, region=pnd.Region.ball([0, 0], 1)))
    raises(ValueError, "does not take a radius field",
           lambda: pnd._engines._radius_or_field(None, pnd.Field.radius(np.ones(2)), "maximal", False))


def test_errors_do_not_crash_the_interpreter():
    # Every error path above in a child interpreter: it must end normally (exit code 0), not
    # abort or segfault.
    code = "\n".join([
        "import numpy as np, poisson_nd as pnd",
        "bad = [lambda: pnd.Bridson(9, 0.1), lambda: pnd.Bridson(2, float('nan')),",
        "       lambda: pnd.WhiteNoise(2).random(-1), lambda: pnd.Halton(2, skip=-1),",
        "       lambda: pnd.SampleElimination(2, ratio=float('nan')),",
        "       lambda: pnd.Bridson(2, 1e-300), lambda: pnd.Bridson(2, 1e300).fill_space(),",
        "       lambda: pnd.WhiteNoise(2, max_points=1).random(2**40),",
        "       lambda: pnd.World(2, 1e-300), lambda: pnd.PoissonSet([0, 0], [1e-300, 1e-300], 1e-300),",
        "       lambda: pnd.analyze(np.zeros((0, 2))),",
        "       lambda: pnd.Field.radius(np.ones((1,) * 9)), lambda: pnd.Region.mask(np.ones((2,) * 9), [0] * 9, [1] * 9)]",
        "for f in bad:",
        "    try:",
        "        f()",
        "    except Exception as e:",
        "        pass",
        "print('survived')",
    ])
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            cwd="/")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "survived"
    assert "panicked" not in result.stderr


def test_huge_arrays_far_points_and_counts_are_refused_in_one_line():
    # Broadcast views claim far more memory than they hold: refused by their shape, or as a
    # MemoryError, never an abort of the interpreter.
    raises(ValueError, "density has 10000000000 values (shape (100000, 100000)), more than the 67108864",
           lambda: pnd.Field.density(np.broadcast_to(0.5, (100000, 100000)), 0.02, 0.05))
    raises(ValueError, "values has 400000000 values (shape (20000, 20000))",
           lambda: pnd.Region.mask(np.broadcast_to(1.0, (20000, 20000)), [0, 0], [1, 1]))
    raises(MemoryError, "could not be allocated",
           lambda: pnd.Region.ball([0.5, 0.5], 0.3).contains(np.broadcast_to(np.array([0.5, 0.5]), (10**15, 2))))
    world = pnd.World(2, radius=1, seed=3)
    raises(ValueError, "coordinate 0 is NaN", lambda: world.chunk_of([NAN, 0]))
    raises(ValueError, "coordinate 1 is inf, not within 10^8 radii", lambda: world.chunk_of([0, INF]))
    assert list(world.chunk_of([0.5, 0.5])) == [0, 0]
    live = pnd.PoissonSet([0, 0], [1, 1], 0.1)
    live.insert([0.5, 0.5])
    _, distance = live.nearest([1e300, 1e300])
    assert distance == pytest.approx(1e300 * 2**0.5, rel=1e-12)
    raises(ValueError, "coordinate 0 is NaN, not finite", lambda: live.nearest([NAN, 0]))
    # The command line's bounds on counts hold here too.
    raises(ValueError, "candidates must be at most 100000000, got 1000000000",
           lambda: pnd.BestCandidate(2, candidates=10**9).random(10))
    # An integer array is counted before numpy copies it to float64, and numpy's own
    # MemoryError stays one.
    raises(ValueError, "values has 400000000 values",
           lambda: pnd.Region.mask(np.broadcast_to(np.int8(1), (20000, 20000)), [0, 0], [1, 1]))
    raises(MemoryError, "",
           lambda: pnd.Region.ball([0.5, 0.5], 0.3).contains(np.broadcast_to(np.array([1, 0]), (10**15, 2))))
