"""Regions: every point of a run lies in the region, by an independent formula and by
region.contains; GeoJSON equals polygons; booleans; sdf callables; errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

import poisson_nd as pnd
from conftest import closest_pair

EPS = 1e-12


def inside_ring(points, ring):
    """Even-odd rule for one closed ring (no closing corner repeated)."""
    x, y = points[:, 0], points[:, 1]
    inside = np.zeros(len(points), dtype=bool)
    n = len(ring)
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        crosses = (y1 > y) != (y2 > y)
        with np.errstate(divide="ignore", invalid="ignore"):
            x_at = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
        inside ^= crosses & (x < x_at)
    return inside


def distance_to_rings(points, rings):
    best = np.full(len(points), np.inf)
    for ring in rings:
        n = len(ring)
        for i in range(n):
            a, b = np.asarray(ring[i], float), np.asarray(ring[(i + 1) % n], float)
            ab = b - a
            t = np.clip(((points - a) @ ab) / (ab @ ab), 0, 1)
            best = np.minimum(best, np.linalg.norm(points - (a + t[:, None] * ab), axis=1))
    return best


def in_polygons(points, polygons):
    """Inside an exterior and outside its holes; points within EPS of an edge count as in."""
    result = np.zeros(len(points), dtype=bool)
    for rings in polygons:
        inside = inside_ring(points, rings[0])
        for hole in rings[1:]:
            inside &= ~inside_ring(points, hole)
        result |= inside
    edges = distance_to_rings(points, [r for rings in polygons for r in rings])
    return result | (edges < EPS)


RADIUS_ENGINES = [
    ("bridson", lambda d, r, **kw: pnd.Bridson(d, r, **kw).fill_space()),
    ("dart-throwing-grid", lambda d, r, **kw: pnd.DartThrowing(d, r, grid=True, **kw).fill_space()),
    ("maximal", lambda d, r, **kw: pnd.Maximal(d, r, **kw).fill_space()),
]
COUNT_ENGINES = [
    ("sample-elimination", lambda d, n, **kw: pnd.SampleElimination(d, **kw).random(n)),
    ("best-candidate", lambda d, n, **kw: pnd.BestCandidate(d, **kw).random(n)),
    ("halton", lambda d, n, **kw: pnd.Halton(d, **kw).random(n)),
    ("halton-randomized", lambda d, n, **kw: pnd.Halton(d, randomized=True, **kw).random(n)),
    ("jittered-grid", lambda d, n, **kw: pnd.JitteredGrid(d, **kw).random(n)),
    ("white-noise", lambda d, n, **kw: pnd.WhiteNoise(d, **kw).random(n)),
]


def run_all(region, d, r, check, *, l_bounds=None, u_bounds=None, only=None):
    """Runs every engine (or those named in `only`) in the region; each point passes `check`
    and `region.contains`."""
    bounds = {} if l_bounds is None else {"l_bounds": l_bounds, "u_bounds": u_bounds}
    for name, run in RADIUS_ENGINES:
        if only is not None and name not in only:
            continue
        points = run(d, r, region=region, rng=7, **bounds)
        assert len(points) > 20, name
        assert np.all(check(points)), name
        assert np.all(region.contains(points)), name
        assert closest_pair(points) >= r, name
    for name, run in COUNT_ENGINES:
        if only is not None and name not in only:
            continue
        points = run(d, 150, region=region, rng=7, **bounds)
        assert points.shape[1] == d
        assert 0 < len(points) <= 150, name
        if name != "jittered-grid":
            assert len(points) == 150, name
        assert np.all(check(points)), name
        assert np.all(region.contains(points)), name


def test_ball_2d_and_3d():
    for d, centre, radius, r in ((2, [0.5, -1.0], 0.8, 0.05), (3, [1.0, 2.0, 3.0], 0.6, 0.1)):
        ball = pnd.Region.ball(centre, radius)
        assert ball.d == d
        lo, hi = ball.bounding_box
        np.testing.assert_allclose(lo, np.array(centre) - radius)
        np.testing.assert_allclose(hi, np.array(centre) + radius)
        run_all(ball, d, r, lambda p: np.linalg.norm(p - centre, axis=1) <= radius * (1 + EPS))


def test_ball_in_larger_box_confines_points():
    ball = pnd.Region.ball([0.5, 0.5], 0.3)
    points = pnd.Bridson(2, 0.03, region=ball, l_bounds=[0, 0], u_bounds=[2, 2], rng=1).fill_space()
    assert np.all(np.linalg.norm(points - 0.5, axis=1) <= 0.3 * (1 + EPS))
    # Covers the ball, not a corner of it.
    assert points[:, 0].min() < 0.3 and points[:, 0].max() > 0.7


def test_box_region():
    lower, upper = [-1.0, 0.5, 2.0], [0.0, 1.5, 2.5]
    box = pnd.Region.box(lower, upper)
    assert box.bounding_box == (lower, upper)
    inside = lambda p: np.all((p >= np.array(lower) - EPS) & (p <= np.array(upper) + EPS), axis=1)
    run_all(box, 3, 0.1, inside)
    # Inside a larger sampling box.
    run_all(box, 3, 0.1, inside, l_bounds=[-2, 0, 1.5], u_bounds=[1, 2, 3])


def mask_check(values, lower, upper):
    values = np.asarray(values)
    lower, upper = np.asarray(lower, float), np.asarray(upper, float)
    shape = np.array(values.shape)

    def check(points):
        index = np.floor((points - lower) / (upper - lower) * shape).astype(np.int64)
        index = np.clip(index, 0, shape - 1)
        inside = values[tuple(index.T)].astype(np.float64) > 0.5
        # A point on a voxel face may be decided by the neighbouring voxel.
        on_face = np.any(np.abs((points - lower) / (upper - lower) * shape
                                - np.round((points - lower) / (upper - lower) * shape)) < 1e-9, axis=1)
        return inside | on_face
    return check


def test_float_mask_2d():
    values = np.zeros((10, 8))
    values[2:7, 1:6] = 0.9   # inside
    values[4, 3] = 0.2       # a hole voxel
    values[8:, 6:] = 0.51    # a second island
    lower, upper = [-1.0, 0.0], [1.0, 2.0]
    mask = pnd.Region.mask(values, lower, upper)
    assert mask.d == 2
    run_all(mask, 2, 0.03, mask_check(values, lower, upper), l_bounds=lower, u_bounds=upper)


def test_float_mask_3d():
    grid = np.indices((6, 6, 6)).transpose(1, 2, 3, 0)
    values = (np.linalg.norm(grid - 2.5, axis=-1) < 2.6).astype(np.float64)
    mask = pnd.Region.mask(values, [0, 0, 0], [1, 1, 1])
    run_all(mask, 3, 0.08, mask_check(values, [0, 0, 0], [1, 1, 1]), l_bounds=[0, 0, 0], u_bounds=[1, 1, 1])


def test_mask_axis_order():
    # Axis k of the array along box axis k: a mask true where axis 0 is small.
    values = np.zeros((8, 8))
    values[:2, :] = 1.0
    mask = pnd.Region.mask(values, [0, 0], [1, 1])
    assert list(mask.contains(np.array([[0.1, 0.9], [0.9, 0.1]]))) == [True, False]


def test_bool_mask_2d_and_3d():
    # Region.mask documents boolean arrays (True inside), as `--region mask.npy` takes them.
    values = np.zeros((8, 8), dtype=bool)
    values[1:6, 2:7] = True
    mask = pnd.Region.mask(values, [0, 0], [1, 1])
    run_all(mask, 2, 0.03, mask_check(values, [0, 0], [1, 1]), l_bounds=[0, 0], u_bounds=[1, 1])
    values3 = np.zeros((4, 4, 4), dtype=bool)
    values3[1:3, :, 1:] = True
    mask3 = pnd.Region.mask(values3, [0, 0, 0], [1, 1, 1])
    run_all(mask3, 3, 0.08, mask_check(values3, [0, 0, 0], [1, 1, 1]),
            l_bounds=[0, 0, 0], u_bounds=[1, 1, 1])


def test_fortran_ordered_mask_is_the_same_mask():
    values = np.zeros((8, 8))
    values[:2, :] = 1.0
    fortran = np.asfortranarray(values)
    assert np.array_equal(fortran, values)
    points = np.array([[0.1, 0.9], [0.9, 0.1]])
    assert list(pnd.Region.mask(fortran, [0, 0], [1, 1]).contains(points)) == [True, False]


SQUARE = [(0.0, 0.0), (4.0, 0.0), (4.0, 3.0), (0.0, 3.0)]
HOLE = [(1.0, 1.0), (2.5, 1.0), (2.5, 2.0), (1.0, 2.0)]
ISLET = [(5.0, 0.0), (6.0, 0.5), (5.2, 1.5)]
POLYGONS = [[SQUARE, HOLE], [ISLET]]


def test_polygons_with_hole():
    region = pnd.Region.polygons(POLYGONS)
    assert region.d == 2
    assert region.bounding_box == ([0.0, 0.0], [6.0, 3.0])
    run_all(region, 2, 0.1, lambda p: in_polygons(p, POLYGONS))
    points = pnd.Bridson(2, 0.05, region=region, rng=3).fill_space()
    in_hole = inside_ring(points, HOLE) & (distance_to_rings(points, [HOLE]) > EPS)
    assert not in_hole.any()
    assert inside_ring(points, ISLET).any()
    probes = np.array([[0.5, 0.5], [1.5, 1.5], [5.3, 0.6], [4.5, 2.0]])
    assert list(region.contains(probes)) == [True, False, True, False]


def _geojson():
    close = lambda ring: [list(v) for v in ring] + [list(ring[0])]
    return {
        "type": "FeatureCollection",
        "features": [
            {"type": "Feature", "properties": {"name": "lake"},
             "geometry": {"type": "Polygon", "coordinates": [close(SQUARE), close(HOLE)]}},
            {"type": "Feature", "properties": {},
             "geometry": {"type": "MultiPolygon", "coordinates": [[close(ISLET)]]}},
        ],
    }


def test_geojson_equals_polygons():
    from_json = pnd.Region.geojson(json.dumps(_geojson()))
    from_lists = pnd.Region.polygons(POLYGONS)
    assert from_json.bounding_box == from_lists.bounding_box
    for make in (lambda region: pnd.Bridson(2, 0.08, region=region, rng=4).fill_space(),
                 lambda region: pnd.Maximal(2, 0.1, region=region, rng=4).fill_space(),
                 lambda region: pnd.WhiteNoise(2, region=region, rng=4).random(300)):
        a, b = make(from_json), make(from_lists)
        assert len(a) > 50
        assert np.array_equal(a, b)
        assert np.all(in_polygons(a, POLYGONS))
    plain = {"type": "Polygon", "coordinates": _geojson()["features"][0]["geometry"]["coordinates"]}
    a = pnd.Bridson(2, 0.08, region=pnd.Region.geojson(json.dumps(plain)), rng=1).fill_space()
    b = pnd.Bridson(2, 0.08, region=pnd.Region.polygons([[SQUARE, HOLE]]), rng=1).fill_space()
    assert np.array_equal(a, b)


def test_geojson_example_file_equals_cli(run_cli, tmp_path):
    from conftest import EXAMPLES
    path = EXAMPLES / "data" / "lake.geojson"
    region = pnd.Region.geojson(path.read_text())
    lower, upper = region.bounding_box
    r = max(u - l for l, u in zip(lower, upper)) / 60
    out = tmp_path / "p.npy"
    run_cli("sample", "bridson", "--dim", 2, "--radius", repr(r), "--region", path, "--seed", 3, "--out", out)
    points = pnd.Bridson(2, r, region=region, rng=3).fill_space()
    assert len(points) > 50
    assert np.array_equal(points, np.load(out))
    assert np.all(region.contains(points))


CUBE_V = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
                   [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], dtype=np.float64) * [2.0, 1.0, 1.0] + [-1, 0, 0]
CUBE_F = np.array([[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
                   [2, 3, 7], [2, 7, 6], [1, 2, 6], [1, 6, 5], [0, 4, 7], [0, 7, 3]], dtype=np.int64)
TET_V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float64)
TET_F = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]], dtype=np.int64)


def test_mesh_cube():
    mesh = pnd.Region.mesh(CUBE_V, CUBE_F)
    assert mesh.d == 3
    assert mesh.bounding_box == ([-1.0, 0.0, 0.0], [1.0, 1.0, 1.0])
    lo, hi = np.array([-1, 0, 0]), np.array([1, 1, 1])
    # A mesh region costs ~0.3 s to validate per run: a few engines only.
    run_all(mesh, 3, 0.1, lambda p: np.all((p >= lo - EPS) & (p <= hi + EPS), axis=1),
            only={"bridson", "maximal", "halton"})


def test_mesh_tetrahedron():
    mesh = pnd.Region.mesh(TET_V.tolist(), TET_F.tolist())
    inside = lambda p: np.all(p >= -EPS, axis=1) & (p.sum(axis=1) <= 1 + EPS)
    run_all(mesh, 3, 0.06, inside, only={"dart-throwing-grid", "sample-elimination", "white-noise"})
    points = pnd.Bridson(3, 0.05, region=mesh, l_bounds=[-1, -1, -1], u_bounds=[2, 2, 2], rng=1).fill_space()
    assert np.all(inside(points))


def test_sdf_callable():
    centre = np.array([0.5, 0.4])
    calls = []

    def disc(p):
        calls.append(p)
        return float(np.linalg.norm(p - centre) - 0.3)

    region = pnd.Region.sdf(disc, [0, 0], [1, 1])
    assert region.d == 2
    points = pnd.Bridson(2, 0.03, region=region, rng=2).fill_space()
    assert len(points) > 50 and calls
    assert isinstance(calls[0], np.ndarray) and calls[0].shape == (2,) and calls[0].dtype == np.float64
    assert np.all(np.linalg.norm(points - centre, axis=1) <= 0.3 + 1e-9)
    assert np.all(region.contains(points))
    run_all(region, 2, 0.05, lambda p: np.linalg.norm(p - centre, axis=1) <= 0.3 + 1e-9)
    # Without a distance bound only the sign counts; maximal sampling refuses it (it needs
    # boxes classified inside or outside). (Sampling with it probes ~10^6 points through the
    # callable: seconds, so only contains() is checked here.)
    no_bound = pnd.Region.sdf(disc, [0, 0], [1, 1], lipschitz=None)
    probes = np.random.default_rng(1).random((200, 2))
    assert np.array_equal(no_bound.contains(probes), np.linalg.norm(probes - centre, axis=1) < 0.3)
    with pytest.raises(ValueError, match="maximal cannot sample this region"):
        pnd.Maximal(2, 0.05, region=no_bound)
    shape3 = pnd.Region.sdf(lambda p: float(np.abs(p - 0.5).max() - 0.3), [0, 0, 0], [1, 1, 1])
    run_all(shape3, 3, 0.12, lambda p: np.abs(p - 0.5).max(axis=1) <= 0.3 + 1e-9, only={"bridson"})


def test_sdf_exception_during_run_propagates():
    def partly_broken(p):
        if p[0] > 0.8:
            raise RuntimeError("sdf failed at x > 0.8")
        return float(np.linalg.norm(p - 0.5) - 0.4)

    region = pnd.Region.sdf(partly_broken, [0, 0], [1, 1])
    with pytest.raises(RuntimeError, match="sdf failed"):
        pnd.Bridson(2, 0.05, region=region, rng=1).fill_space()
    with pytest.raises(RuntimeError, match="sdf failed"):
        region.contains(np.array([[0.9, 0.5]]))
    with pytest.raises(ZeroDivisionError):
        pnd.PoissonSet([0, 0], [1, 1], 0.05).fill(pnd.Region.sdf(lambda p: 1 / 0, [0, 0], [1, 1]))


def test_sdf_exception_everywhere_propagates():
    # A callable that raises on every call: its exception, not a ValueError about an empty
    # region, must reach the caller.
    def broken(p):
        raise RuntimeError("broken sdf")

    with pytest.raises(RuntimeError, match="broken sdf"):
        pnd.Bridson(2, 0.05, region=pnd.Region.sdf(broken, [0, 0], [1, 1]), rng=1)


def test_sdf_region_usable_after_a_failed_call():
    # An exception from one run must not stay stuck in the region for the next ones.
    state = {"fail": True}

    def flaky(p):
        if state["fail"]:
            raise RuntimeError("transient")
        return float(np.linalg.norm(p - 0.5) - 0.3)

    region = pnd.Region.sdf(flaky, [0, 0], [1, 1])
    with pytest.raises(Exception):
        pnd.Bridson(2, 0.05, region=region, rng=1)
    state["fail"] = False
    points = pnd.Bridson(2, 0.05, region=region, rng=1).fill_space()
    assert len(points) > 20
    assert np.all(region.contains(points))


def test_booleans():
    a = pnd.Region.ball([0.4, 0.5], 0.3)
    b = pnd.Region.box([0.4, 0.2], [0.9, 0.8])
    in_a = lambda p: np.linalg.norm(p - [0.4, 0.5], axis=1) <= 0.3 + EPS
    in_b = lambda p: np.all((p >= np.array([0.4, 0.2]) - EPS) & (p <= np.array([0.9, 0.8]) + EPS), axis=1)
    strictly_in_b = lambda p: np.all((p > np.array([0.4, 0.2]) + EPS) & (p < np.array([0.9, 0.8]) - EPS), axis=1)
    union, inter, diff = a | b, a & b, a - b
    assert "|" in repr(union) and "&" in repr(inter) and "-" in repr(diff)
    run_all(union, 2, 0.03, lambda p: in_a(p) | in_b(p))
    run_all(inter, 2, 0.03, lambda p: in_a(p) & in_b(p))
    run_all(diff, 2, 0.03, lambda p: in_a(p) & ~strictly_in_b(p))
    run_all(a.union(b).difference(pnd.Region.ball([0.7, 0.5], 0.1)), 2, 0.03,
            lambda p: (in_a(p) | in_b(p)) & (np.linalg.norm(p - [0.7, 0.5], axis=1) >= 0.1 - EPS))
    assert np.array_equal(pnd.Bridson(2, 0.03, region=a.intersection(b), rng=1).fill_space(),
                          pnd.Bridson(2, 0.03, region=inter, rng=1).fill_space())
    probes = np.array([[0.2, 0.5], [0.8, 0.3], [0.6, 0.5], [0.05, 0.05]])
    assert list(union.contains(probes)) == [True, True, True, False]
    assert list(inter.contains(probes)) == [False, False, True, False]
    assert list(diff.contains(probes)) == [True, False, False, False]


def test_region_errors():
    cases = [
        (lambda: pnd.Bridson(2, 0.1, region=pnd.Region.ball([0.5, 0.5], 0.3), periodic=True),
         "periodic does not apply with a region"),
        (lambda: pnd.WhiteNoise(2, region=pnd.Region.ball([0.5, 0.5], 0.3), periodic=True),
         "periodic does not apply with a region"),
        (lambda: pnd.Bridson(2, 0.1, l_bounds=[0, 0], u_bounds=[1, 1], region=pnd.Region.ball([0, 0, 0], 1)),
         "the region is 3-dimensional, but the box is 2-dimensional"),
        (lambda: pnd.Region.ball([0, 0], -1), "ball radius must be finite and > 0"),
        (lambda: pnd.Region.ball([0] * 9, 1), "d must be between 1 and 8"),
        (lambda: pnd.Region.box([0, 0], [-1, 1]), "above the lower corner"),
        (lambda: pnd.Region.box([0, 0], [1, 1, 1]), "upper must have 2 coordinates"),
        (lambda: pnd.Region.mask(np.ones((4, 4)), [0, 0, 0], [1, 1, 1]), "the mask has 2 axes"),
        (lambda: pnd.Region.mask(np.zeros((4, 4)), [0, 0], [1, 1]), "no voxel is inside"),
        (lambda: pnd.Region.polygons([[[(0, 0), (1, 0)]]]), "a ring needs at least 3"),
        (lambda: pnd.Region.geojson("{"), "malformed JSON"),
        # A hole that leaves its exterior would wind the other way there: refused, not sampled.
        (lambda: pnd.Region.polygons([[[(0, 0), (1, 0), (1, 1), (0, 1)], [(0.5, 0.5), (2, 2), (0.5, 2)]]]),
         "polygon 0, ring 1: the hole reaches outside the polygon's exterior"),
        (lambda: pnd.Region.polygons([[[(0, 0), (1, 0), (1, 1), (0, 1)],
                                       [(0.1, 0.1), (0.5, 0.1), (0.5, 0.5), (0.1, 0.5)],
                                       [(0.4, 0.4), (0.8, 0.4), (0.8, 0.8), (0.4, 0.8)]]]),
         "polygon 0, ring 1: the hole overlaps ring 2"),
        (lambda: pnd.Region.geojson(json.dumps({"type": "LineString", "coordinates": [[0, 0], [1, 1]]})),
         "not a Polygon or MultiPolygon"),
        (lambda: pnd.Region.mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]]), "not closed"),
        (lambda: pnd.Region.mesh(TET_V, [[0, 1, 5]]), "index outside the 4 vertices"),
        (lambda: pnd.Region.mesh(TET_V, [[0, 1, -1]]), "face 0 has the negative vertex index -1"),
        (lambda: pnd.Region.mesh(TET_V, np.array([[0, 1, 2**63 + 5]], dtype=np.uint64)), "index outside the 4 vertices"),
        (lambda: pnd.Region.mesh(TET_V, [[0.0, 1.5, 2.0]]), "must be integer vertex indices"),
        (lambda: pnd.Region.mesh(TET_V, [[0, 1]]), "must have shape (t, 3)"),
        (lambda: pnd.Region.ball([0, 0], 1) | pnd.Region.ball([0, 0, 0], 1), "2-dimensional and a 3-dimensional"),
        (lambda: pnd.Region.ball([0, 0], 1) & pnd.Region.ball([0, 0, 0], 1), "2-dimensional and a 3-dimensional"),
        (lambda: pnd.Region.sdf(lambda p: 0.0, [0] * 9, [1] * 9), "d must be between 1 and 8"),
        (lambda: pnd.Region.sdf(lambda p: 0.0, [0, 0], [1, 1], lipschitz=-1), "Lipschitz"),
        (lambda: pnd.Region.ball([0.5, 0.5], 0.3).contains(np.zeros((3, 3))), "shape (n, 2)"),
        (lambda: pnd.Bridson(2, 0.1, region=pnd.Region.ball([5, 5], 0.3), l_bounds=[0, 0], u_bounds=[1, 1]),
         "does not meet the domain's box"),
    ]
    for make, fragment in cases:
        with pytest.raises(ValueError) as info:
            make()
        assert fragment in str(info.value), (fragment, str(info.value))
    with pytest.raises(TypeError, match="region must be a poisson_nd.Region"):
        pnd.Bridson(2, 0.1, region="ball")
    with pytest.raises(TypeError):
        pnd.ChunkedBridson(2, 0.1, region=pnd.Region.ball([0.5, 0.5], 0.3))


def test_region_of_wrong_dimension_without_bounds():
    # Without bounds the engine samples the region's bounding box; a 3D region given to a 2D
    # engine must be refused as a region of the wrong dimension, not as l_bounds the user
    # never passed.
    with pytest.raises(ValueError) as info:
        pnd.Bridson(2, 0.1, region=pnd.Region.ball([0, 0, 0], 1))
    assert "region" in str(info.value)


def test_region_larger_than_the_box():
    # The points lie in the box and in the region: their intersection.
    ball = pnd.Region.ball([0.5, 0.5], 0.8)
    for engine in (pnd.Bridson(2, 0.05, region=ball, l_bounds=[0, 0], u_bounds=[1, 1], rng=1),
                   pnd.Maximal(2, 0.05, region=ball, l_bounds=[0, 0], u_bounds=[1, 1], rng=1)):
        points = engine.fill_space()
        assert np.all((points >= 0) & (points < 1))
        assert np.all(np.linalg.norm(points - 0.5, axis=1) <= 0.8)
        assert points.min() < 0.05 and points.max() > 0.95  # the whole box, corners included
    small = pnd.Region.ball([0.5, 0.5], 0.01)
    for _, run in COUNT_ENGINES:
        points = run(2, 50, region=small, l_bounds=[0, 0], u_bounds=[1, 1], rng=1)
        assert 0 < len(points) <= 50
        assert np.all(np.linalg.norm(points - 0.5, axis=1) <= 0.01 * (1 + EPS))
