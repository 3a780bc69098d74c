"""PoissonSet: the live set against brute force, and its save/load round trip."""

from __future__ import annotations

import json

import numpy as np
import pytest

import poisson_nd as pnd
from conftest import assert_zero_copy, closest_pair, in_box


def torus_distance(a, b, lower, upper):
    box = np.asarray(upper, float) - np.asarray(lower, float)
    delta = np.abs(np.asarray(a) - np.asarray(b))
    delta = np.minimum(delta, box - delta)
    return np.sqrt((delta ** 2).sum(axis=-1))


def test_insert_conflict_remove_get():
    s = pnd.PoissonSet([0, 0], [2, 1], 0.1, seed=5)
    assert len(s) == 0 and s.d == 2
    a = s.insert([0.5, 0.5])
    assert a is not None
    assert s.insert([0.55, 0.5]) is None        # too close: refused, nothing stored
    b = s.insert([0.7, 0.5])
    assert b is not None and b != a
    assert len(s) == 2
    conflict = s.conflict([0.52, 0.5])
    assert conflict is not None and conflict[0] == a
    assert conflict[1] == pytest.approx(0.02)
    assert s.conflict([1.5, 0.5]) is None
    assert s.conflict([0.59, 0.5]) is not None
    np.testing.assert_array_equal(s[a], [0.5, 0.5])
    assert a in s and 12345 not in s
    removed = s.remove(a)
    np.testing.assert_array_equal(removed, [0.5, 0.5])
    assert a not in s and len(s) == 1
    with pytest.raises(KeyError, match=f"no point with id {a}"):
        s.remove(a)
    with pytest.raises(KeyError):
        s[a]
    with pytest.raises(KeyError, match="no point with id 999"):
        s.remove(999)
    # Ids are never reused.
    c = s.insert([0.5, 0.5])
    assert c not in (a, b)
    assert list(s.ids) == sorted([b, c])


def test_insert_errors():
    s = pnd.PoissonSet([0, 0], [1, 1], 0.1)
    with pytest.raises(ValueError, match="outside the domain"):
        s.insert([1.5, 0.5])
    with pytest.raises(ValueError, match="outside the domain"):
        s.insert([1.0, 0.5])  # the box is half-open
    with pytest.raises(ValueError, match="point must have 2 coordinates"):
        s.insert([0.3])
    with pytest.raises(ValueError):
        s.insert([float("nan"), 0.3])
    with pytest.raises(ValueError, match="distance must be finite"):
        s.within([0.3, 0.3], -1)
    with pytest.raises(ValueError, match="point must have 2 coordinates"):
        s.nearest([0.1, 0.2, 0.3])
    full = pnd.PoissonSet([0, 0], [1, 1], 0.1, max_points=2)
    full.insert([0.1, 0.1])
    full.insert([0.5, 0.5])
    with pytest.raises(ValueError):
        full.insert([0.9, 0.9])
    report = pnd.PoissonSet([0, 0], [1, 1], 0.1, max_points=3).fill()
    assert report["added"] == 3 and report["stop"] == "point-limit"


def test_fill_and_queries_against_brute_force():
    lower, upper = [-1.0, 2.0, 0.0], [1.0, 3.0, 1.0]
    s = pnd.PoissonSet(lower, upper, 0.1, seed=3)
    s.insert([0.0, 2.5, 0.5])
    report = s.fill()
    assert set(report) == {"added", "attempts", "stop"}
    assert report["added"] == len(s) - 1 and report["added"] > 500
    assert report["stop"] == "exhausted"
    points, ids = s.points, s.ids
    assert_zero_copy(points, 3)
    assert ids.dtype == np.uint64 and len(ids) == len(points)
    assert np.all(np.diff(ids.astype(np.int64)) > 0)
    assert in_box(points, lower, upper)
    assert closest_pair(points) >= 0.1
    for i, p in zip(ids[::50], points[::50]):
        np.testing.assert_array_equal(s[int(i)], p)
    probes = np.random.default_rng(0).uniform(lower, upper, size=(50, 3))
    for q in probes:
        dist = np.linalg.norm(points - q, axis=1)
        nearest_id, nearest_distance = s.nearest(list(q))
        assert nearest_distance == pytest.approx(dist.min(), rel=1e-12)
        assert dist[list(ids).index(nearest_id)] == pytest.approx(dist.min(), rel=1e-12)
        for radius in (0.05, 0.15, 0.3):
            expected = sorted(int(i) for i in ids[dist <= radius])
            assert s.within(list(q), radius) == expected
    # A second fill adds nothing; existing points never move.
    before = points.copy()
    assert s.fill()["added"] == 0
    assert np.array_equal(s.points, before)


def test_fill_region():
    s = pnd.PoissonSet([0, 0], [1, 1], 0.04, seed=1)
    ball = pnd.Region.ball([0.3, 0.3], 0.2)
    report = s.fill(ball)
    assert report["added"] == len(s) > 10
    assert np.all(np.linalg.norm(s.points - 0.3, axis=1) <= 0.2 * (1 + 1e-12))
    assert np.all(ball.contains(s.points))
    # Filling the rest continues around the first points, never moving them.
    first = s.points.copy()
    s.fill(pnd.Region.box([0.5, 0.0], [1.0, 1.0]))
    s.fill()
    assert np.array_equal(s.points[: len(first)], first)
    assert closest_pair(s.points) >= 0.04
    with pytest.raises(ValueError, match="3-dimensional, but the box is 2-dimensional"):
        s.fill(pnd.Region.ball([0, 0, 0], 1))


def test_periodic_set():
    lower, upper = [0.0, 0.0], [1.0, 1.0]
    s = pnd.PoissonSet(lower, upper, 0.1, periodic=True, seed=4)
    a = s.insert([0.01, 0.5])
    assert s.insert([0.98, 0.5]) is None  # 0.03 apart across the seam
    conflict = s.conflict([0.98, 0.5])
    assert conflict[0] == a and conflict[1] == pytest.approx(0.03)
    assert s.nearest([0.99, 0.5]) == (a, pytest.approx(0.02))
    s.fill()
    assert closest_pair(s.points, lower, upper, periodic=True) >= 0.1
    q = [0.995, 0.001]
    dist = torus_distance(s.points, q, lower, upper)
    assert s.nearest(q)[1] == pytest.approx(dist.min(), rel=1e-12)
    assert s.within(q, 0.2) == sorted(int(i) for i in s.ids[dist <= 0.2])


def test_field_set():
    values = np.array([[0.03, 0.06], [0.06, 0.12]])
    s = pnd.PoissonSet([0, 0], [1, 1], field=pnd.Field.radius(values, pair_rule="max"), seed=2)
    s.fill()
    radii = s.radii
    assert radii is not None and radii.shape == (len(s),)
    assert np.all((radii >= 0.03) & (radii <= 0.12))
    p = s.points
    diff = np.linalg.norm(p[:, None] - p[None], axis=-1)
    need = np.maximum(radii[:, None], radii[None])
    np.fill_diagonal(diff, np.inf)
    assert np.all(diff >= need)
    assert pnd.PoissonSet([0, 0], [1, 1], 0.1).radii is None


def test_save_load_round_trip(tmp_path):
    lower, upper = [-1.0, 0.0], [1.0, 1.0]
    original = pnd.PoissonSet(lower, upper, 0.05, seed=9, k=20)
    original.fill(pnd.Region.box([-1, 0], [0, 1]))
    gone = int(original.ids[3])
    original.remove(gone)
    path = tmp_path / "set.json"
    original.save(path)
    saved = json.loads(path.read_text())
    # Numbers are kept as their shortest round-trip text, so every JSON reader gets them exactly.
    assert saved["dimension"] == 2 and saved["radius"] == "0.05"
    loaded = pnd.PoissonSet.load(path, seed=9)
    assert len(loaded) == len(original)
    assert np.array_equal(loaded.points, original.points)
    assert np.array_equal(loaded.ids, original.ids)
    assert gone not in loaded
    assert repr(loaded) == repr(original)
    # Two loads with the same seed continue the same way; fills keep the radius, keep the
    # loaded points in place and never reuse ids.
    twin = pnd.PoissonSet.load(str(path), seed=9)
    added = loaded.fill()["added"]
    assert added > 50
    assert twin.fill()["added"] == added
    assert np.array_equal(loaded.points, twin.points)
    assert np.array_equal(loaded.points[: len(original)], original.points)
    assert closest_pair(loaded.points) >= 0.05
    assert in_box(loaded.points, lower, upper)
    assert set(loaded.ids.tolist()).isdisjoint({gone})
    assert len(set(loaded.ids.tolist())) == len(loaded)
    new_id = loaded.insert([0.999, 0.999]) or loaded.insert([-0.999, 0.999])
    assert new_id is None or new_id > int(original.ids.max())


def test_save_load_with_field(tmp_path):
    field = pnd.Field.radius(np.array([[0.05, 0.1], [0.1, 0.2]]))
    s = pnd.PoissonSet([0, 0], [1, 1], field=field, seed=2)
    s.fill()
    path = tmp_path / "f.json"
    s.save(path)
    with pytest.raises(ValueError, match="radius field"):
        pnd.PoissonSet.load(path)
    loaded = pnd.PoissonSet.load(path, field=field)
    assert np.array_equal(loaded.points, s.points)
    assert np.array_equal(loaded.radii, s.radii)


def test_set_errors(tmp_path):
    cases = [
        (lambda: pnd.PoissonSet([0] * 9, [1] * 9, 0.1), "d must be between 1 and 8"),
        (lambda: pnd.PoissonSet([], [], 0.1), "d must be between 1 and 8"),
        (lambda: pnd.PoissonSet([0, 0], [1, 1], -0.1), "radius must be finite and > 0"),
        (lambda: pnd.PoissonSet([0, 0], [1, 1], float("nan")), "radius must be finite and > 0"),
        (lambda: pnd.PoissonSet([0, 0], [1, 1], 0.1, field=pnd.Field.radius(np.ones((2, 2)))),
         "exactly one of radius and field"),
        (lambda: pnd.PoissonSet([0, 0], [1, 1]), "exactly one of radius and field"),
        (lambda: pnd.PoissonSet([0, 0], [1, 1], 0.1, k=0), "must be at least 1"),
        (lambda: pnd.PoissonSet([0, 0], [1], 0.1), "u_bounds must have 2 coordinates"),
        (lambda: pnd.PoissonSet([0, 0], [1, 0], 0.1), "u_bounds must be larger than l_bounds"),
        (lambda: pnd.PoissonSet.load(tmp_path / "missing.json"), "cannot read"),
    ]
    for make, fragment in cases:
        with pytest.raises(ValueError) as info:
            make()
        assert fragment in str(info.value), (fragment, str(info.value))
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(ValueError, match="bad.json"):
        pnd.PoissonSet.load(bad)
