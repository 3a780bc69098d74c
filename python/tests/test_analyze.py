"""analyze: exactly the JSON of `experiments analyze --json`, and consistent curves."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.spatial import cKDTree

import poisson_nd as pnd


def cli_analysis(run_cli, tmp_path, points, d, *args):
    path = tmp_path / "points.npy"
    np.save(path, points)
    result = run_cli("analyze", path, "--dim", d, "--json", *args)
    return json.loads(result.stdout)


CASES = [
    # (points, analyze kwargs, CLI args)
    (lambda: pnd.Bridson(2, 0.05, rng=1).fill_space(), {"radius": 0.05}, ["--radius", 0.05]),
    (lambda: pnd.Bridson(2, 0.05, rng=2, periodic=True).fill_space(),
     {"radius": 0.05, "periodic": True}, ["--radius", 0.05, "--periodic"]),
    (lambda: pnd.WhiteNoise(3, rng=3).random(400), {}, []),
    (lambda: pnd.Halton(2, l_bounds=[-2, 1], u_bounds=[3, 1.5]).random(300),
     {"l_bounds": [-2, 1], "u_bounds": [3, 1.5], "radius": 0.1},
     ["--box", "5,0.5", "--origin", "-2,1", "--radius", 0.1]),
    (lambda: pnd.DartThrowing(1, 0.01, rng=4).fill_space(), {"radius": 0.01, "bins": 7, "seed": 3},
     ["--radius", 0.01, "--bins", 7, "--seed", 3]),
    (lambda: pnd.SampleElimination(4, rng=5).random(300),
     {"probes": 5000, "reference_realisations": 2, "exclude_axes": True, "spectrum_multiple": 1.5},
     ["--probes", 5000, "--reference-realisations", 2, "--exclude-axes", "--spectrum-multiple", 1.5]),
]


@pytest.mark.parametrize("make,kwargs,args", CASES, ids=["bridson", "periodic", "white-3d", "box", "1d", "4d"])
def test_analyze_equals_cli(run_cli, tmp_path, make, kwargs, args):
    points = make()
    d = points.shape[1]
    ours = pnd.analyze(points, **kwargs)
    theirs = cli_analysis(run_cli, tmp_path, points, d, *args)
    assert isinstance(ours, pnd.Analysis) and isinstance(ours, dict)
    assert dict(ours) == theirs
    assert ours["n"] == len(points) and ours["dim"] == d


def test_analyze_radii_equals_cli(run_cli, tmp_path):
    s = pnd.Bridson(2, field=pnd.Field.density(np.random.default_rng(0).random((8, 8)), 0.02, 0.05,
                                               pair_rule="mean"), rng=1).sample()
    path = tmp_path / "p.npz"
    np.savez(path, points=s.points, radius=s.radii)
    theirs = json.loads(run_cli("analyze", path, "--dim", 2, "--json", "--radius-column", "radius",
                                "--radius-rule", "mean").stdout)
    ours = pnd.analyze(s.points, radii=s.radii, radius_rule="mean")
    assert dict(ours) == theirs


def test_metrics_against_independent_values():
    points = pnd.Bridson(2, 0.05, rng=1).fill_space()
    analysis = pnd.analyze(points, radius=0.05)
    metrics = analysis["metrics"]
    distances, _ = cKDTree(points).query(points, k=2)
    assert metrics["min_distance"] == pytest.approx(distances[:, 1].min(), rel=1e-12)
    assert metrics["mean_nn"] == pytest.approx(distances[:, 1].mean(), rel=1e-9)
    assert metrics["min_distance"] >= 0.05
    assert metrics["pairs_closer"] == 0.0
    assert analysis["n"] == len(points)


def test_curves_have_consistent_shapes():
    points = pnd.Bridson(2, 0.04, rng=3).fill_space()
    analysis = pnd.analyze(points, radius=0.04, bins=12, periodogram=True)
    radii, power = analysis.spectrum()
    assert radii.shape == power.shape and radii.ndim == 1 and len(radii) > 5
    assert radii.dtype == power.dtype == np.float64
    assert np.all(np.diff(radii) > 0)
    r, g = analysis.pair_correlation()
    assert r.shape == g.shape and len(r) > 5
    assert np.all(np.diff(r) > 0)
    edges, counts = analysis.nearest_neighbour_histogram()
    assert counts.shape == (12,) and edges.shape == (13,)
    assert counts.dtype == np.int64 and counts.sum() == len(points)
    assert np.all(np.diff(edges) > 0)
    assert edges[0] <= analysis["metrics"]["min_distance"] <= edges[-1]
    image = analysis.periodogram()
    m = analysis["periodogram"]["max_frequency"]
    assert image.shape == (2 * m + 1, 2 * m + 1)
    assert np.isnan(image[m, m])  # k = 0
    assert np.isfinite(np.delete(image.ravel(), m * (2 * m + 1) + m)).all()
    with pytest.raises(ValueError, match="periodogram=True"):
        pnd.analyze(points).periodogram()


def test_analyze_errors():
    points = pnd.WhiteNoise(2, rng=1).random(50)
    cases = [
        (lambda: pnd.analyze(points[:, 0]), "shape (n, d)"),
        (lambda: pnd.analyze(points, [0, 0, 0], [1, 1, 1]), "must have shape (n, 3)"),
        (lambda: pnd.analyze(points + 1), "outside the box"),
        (lambda: pnd.analyze(points, radius=-1.0), "radius must be finite and positive"),
        (lambda: pnd.analyze(points, bins=0), "bins must be between"),
        (lambda: pnd.analyze(points, probes=0), "probes must be between"),
        (lambda: pnd.analyze(points, radius_rule="median"), "radius_rule 'median' is unknown"),
        (lambda: pnd.analyze(points, radii=np.ones(3)), "radii has 3 values for 50 points"),
        (lambda: pnd.analyze(points, radii=-np.ones(50)), "not positive"),
        (lambda: pnd.analyze(np.full((3, 2), np.nan)), "not finite"),
        (lambda: pnd.analyze(np.zeros((3, 9))), "d must be between 1 and 8"),
    ]
    for make, fragment in cases:
        with pytest.raises(ValueError) as info:
            make()
        assert fragment in str(info.value), (fragment, str(info.value))
