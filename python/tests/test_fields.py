"""Radius fields: per-point radii follow the gridded field (checked against scipy's
interpolation), every pair keeps its rule's distance (brute force), and the command line's
--density gives the same points and radius column."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.interpolate import RegularGridInterpolator
from scipy.spatial import cKDTree

import poisson_nd as pnd
from conftest import in_box

RULES = {"max": np.maximum, "min": np.minimum, "mean": lambda a, b: (a + b) / 2}


def field_at(values, lower, upper, points):
    """The gridded field at the points, independently: values at cell centres, multilinear
    between centres, clamped at the faces."""
    values = np.asarray(values, dtype=np.float64)
    axes, clamped = [], np.empty_like(points)
    for k in range(values.ndim):
        n = values.shape[k]
        centres = lower[k] + (np.arange(n) + 0.5) * (upper[k] - lower[k]) / n
        axes.append(centres)
        clamped[:, k] = np.clip(points[:, k], centres[0], centres[-1])
    return RegularGridInterpolator(axes, values)(clamped)


def assert_pair_rule(points, radii, rule, rmax):
    pairs = cKDTree(points).query_pairs(rmax * (1 + 1e-9), output_type="ndarray")
    distance = np.linalg.norm(points[pairs[:, 0]] - points[pairs[:, 1]], axis=1)
    needed = RULES[rule](radii[pairs[:, 0]], radii[pairs[:, 1]])
    assert np.all(distance >= needed), (distance - needed).min()


CASES = [
    (1, (7,), (0.002, 0.01), [-1.0], [1.0]),
    (2, (5, 6), (0.02, 0.06), [-1.0, 0.0], [1.0, 1.0]),
    (3, (3, 4, 2), (0.06, 0.15), [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
]


@pytest.mark.parametrize("rule", list(RULES))
@pytest.mark.parametrize("d,shape,bounds,lower,upper", CASES, ids=["1d", "2d", "3d"])
@pytest.mark.parametrize("engine", ["bridson", "dart-throwing", "dart-throwing-grid"])
def test_density_field(engine, d, shape, bounds, lower, upper, rule):
    rmin, rmax = bounds
    density = np.random.default_rng(d).random(shape)
    field = pnd.Field.density(density, rmin, rmax, pair_rule=rule)
    make = {"bridson": lambda **kw: pnd.Bridson(d, **kw),
            "dart-throwing": lambda **kw: pnd.DartThrowing(d, **kw),
            "dart-throwing-grid": lambda **kw: pnd.DartThrowing(d, grid=True, **kw)}[engine]
    s = make(field=field, rng=3, l_bounds=lower, u_bounds=upper).sample()
    points, radii = s.points, s.radii
    assert len(points) > 100
    assert radii.shape == (len(points),) and radii.dtype == np.float64
    assert in_box(points, lower, upper)
    assert np.all((radii >= rmin) & (radii <= rmax))
    # lerp: density 1 -> rmin, 0 -> rmax.
    expected = rmax + (rmin - rmax) * field_at(density, lower, upper, points)
    np.testing.assert_allclose(radii, expected, rtol=1e-12, atol=1e-15)
    assert_pair_rule(points, radii, rule, rmax)


@pytest.mark.parametrize("d,shape,bounds,lower,upper", CASES, ids=["1d", "2d", "3d"])
def test_radius_field(d, shape, bounds, lower, upper):
    rmin, rmax = bounds
    values = rmin + np.random.default_rng(10 + d).random(shape) * (rmax - rmin)
    for rule in RULES:
        field = pnd.Field.radius(values, pair_rule=rule)
        assert field.d == d and field.pair_rule == rule
        lo, hi = field.radius_bounds
        assert lo == values.min() and hi == values.max()
        s = pnd.Bridson(d, field=field, rng=4, l_bounds=lower, u_bounds=upper).sample()
        assert len(s.points) > 100
        np.testing.assert_allclose(s.radii, field_at(values, lower, upper, s.points), rtol=1e-12)
        assert_pair_rule(s.points, s.radii, rule, rmax)


def test_inverse_mapping():
    rmin, rmax = 0.02, 0.08
    density = np.random.default_rng(5).random((6, 6)) * 0.9 + 0.05
    field = pnd.Field.density(density, rmin, rmax, mapping="inverse")
    assert field.radius_bounds == (rmin, rmax)
    s = pnd.Bridson(2, field=field, rng=1).sample()
    assert np.all((s.radii >= rmin) & (s.radii <= rmax))
    assert_pair_rule(s.points, s.radii, "max", rmax)
    # The radius grows where the density falls: fewer points in the sparse half.
    lerp = pnd.Bridson(2, field=pnd.Field.density(density, rmin, rmax), rng=1).sample()
    assert not np.array_equal(s.points, lerp.points)


def test_constant_field_is_a_radius():
    # A constant radius field keeps the same minimum distance as a plain radius.
    s = pnd.Bridson(2, field=pnd.Field.radius(np.full((3, 3), 0.05)), rng=2).sample()
    assert np.all(s.radii == 0.05)
    distances, _ = cKDTree(s.points).query(s.points, k=2)
    assert distances[:, 1].min() >= 0.05


def test_field_repr_and_attributes():
    field = pnd.Field.density(np.zeros((2, 3)), 0.1, 0.2, mapping="inverse", pair_rule="mean")
    assert field.d == 2
    assert field.radius_bounds == (0.1, 0.2)
    assert field.pair_rule == "mean"
    assert "Field.density(<array (2, 3)>" in repr(field) and "inverse" in repr(field)
    assert "Field.radius(<array (4,)>" in repr(pnd.Field.radius(np.ones(4)))


def test_cli_density_bit_identity(run_cli, tmp_path):
    density = np.random.default_rng(0).random((16, 12))
    np.save(tmp_path / "map.npy", density)
    for seed, extra, kwargs in ((4, [], {}), (5, ["--radius-rule", "mean"], {"pair_rule": "mean"}),
                                (6, ["--mapping", "inverse"], {"mapping": "inverse"})):
        out = tmp_path / f"points{seed}.npz"
        run_cli("sample", "bridson", "--dim", 2, "--density", tmp_path / "map.npy", "--rmin", 0.02,
                "--rmax", 0.06, "--seed", seed, *extra, "--out", out)
        with np.load(out) as z:
            assert set(z.files) == {"points", "radius"}
            cli_points, cli_radius = z["points"], z["radius"]
        s = pnd.Bridson(2, field=pnd.Field.density(density, 0.02, 0.06, **kwargs), rng=seed).sample()
        assert len(s.points) > 100
        assert np.array_equal(s.points, cli_points)
        assert np.array_equal(s.radii, cli_radius)


def test_cli_density_box_and_dart_throwing(run_cli, tmp_path):
    density = np.random.default_rng(1).random((5, 4, 3))
    np.save(tmp_path / "map.npy", density)
    out = tmp_path / "p.npz"
    run_cli("sample", "dart-throwing-grid", "--dim", 3, "--density", tmp_path / "map.npy",
            "--rmin", 0.08, "--rmax", 0.2, "--box", "2,1,1", "--origin", "-1,0,0", "--seed", 3,
            "--out", out)
    s = pnd.DartThrowing(3, field=pnd.Field.density(density, 0.08, 0.2), grid=True, rng=3,
                         l_bounds=[-1, 0, 0], u_bounds=[1, 1, 1]).sample()
    with np.load(out) as z:
        assert np.array_equal(s.points, z["points"])
        assert np.array_equal(s.radii, z["radius"])


def test_fortran_ordered_field_is_the_same_field():
    # A field from a Fortran-ordered (or transposed-then-copied) array holds the same values
    # at the same indices as its C-ordered copy, so the points must be the same.
    values = np.linspace(0.03, 0.12, 12).reshape(3, 4)
    fortran = np.asfortranarray(values)
    assert np.array_equal(fortran, values) and not fortran.flags.c_contiguous
    s = pnd.Bridson(2, field=pnd.Field.radius(fortran), rng=1).sample()
    # The radii must follow values[i, j] along (x, y), as they do for the C-ordered array.
    np.testing.assert_allclose(s.radii, field_at(values, [0, 0], [1, 1], s.points), rtol=1e-12)
    c_order = pnd.Bridson(2, field=pnd.Field.radius(values), rng=1).fill_space()
    assert np.array_equal(c_order, s.points)


def test_field_errors():
    ones = np.ones((3, 3))
    cases = [
        (lambda: pnd.Field.density(ones, 0.1, 0.2, mapping="foo"), "mapping 'foo' is unknown"),
        (lambda: pnd.Field.density(ones, 0.1, 0.2, pair_rule="foo"), "pair_rule 'foo' is unknown"),
        (lambda: pnd.Field.radius(ones, pair_rule="largest"), "pair_rule 'largest' is unknown"),
        (lambda: pnd.Field.density(ones, 0.3, 0.2), "rmin <= rmax"),
        (lambda: pnd.Field.density(ones, -0.1, 0.2), "0 < rmin"),
        (lambda: pnd.Field.density(ones, 0.1, float("inf")), "finite"),
        (lambda: pnd.Field.density(ones * 2, 0.1, 0.2), "outside [0, 1]"),
        (lambda: pnd.Field.density(np.array([[0.5, np.nan]]), 0.1, 0.2), "index (0, 1) is NaN"),
        (lambda: pnd.Field.radius(-ones), "not finite and positive"),
        (lambda: pnd.Field.radius(np.array([0.1, np.inf])), "not finite and positive"),
        (lambda: pnd.Field.density(np.zeros((0, 3)), 0.1, 0.2), "axis 0 is empty"),
        (lambda: pnd.Field.density(np.array(0.5), 0.1, 0.2), "1 to 8 axes"),
        (lambda: pnd.Field.radius(np.ones((1,) * 9)), "1 to 8 axes"),
        (lambda: pnd.Bridson(2, field=pnd.Field.radius(np.ones((2, 2, 2)) * 0.1)),
         "3 axes, but the box is 2-dimensional"),
        (lambda: pnd.DartThrowing(3, field=pnd.Field.radius(np.ones(4) * 0.1)),
         "1 axes, but the box is 3-dimensional"),
        (lambda: pnd.Bridson(2, 0.1, field=pnd.Field.radius(ones * 0.1)), "exactly one of radius and field"),
        (lambda: pnd.Bridson(2), "exactly one of radius and field"),
        (lambda: pnd.PoissonSet([0, 0, 0], [1, 1, 1], field=pnd.Field.radius(ones)),
         "2 axes, but the box is 3-dimensional"),
    ]
    for make, fragment in cases:
        with pytest.raises(ValueError) as info:
            make()
        assert fragment in str(info.value), (fragment, str(info.value))
    with pytest.raises(TypeError, match="field must be a poisson_nd.Field"):
        pnd.Bridson(2, field=np.ones((2, 2)))
    with pytest.raises(TypeError):
        pnd.Maximal(2, 0.1, field=pnd.Field.radius(ones))
    with pytest.raises(TypeError):
        pnd.ChunkedBridson(2, field=pnd.Field.radius(ones))
