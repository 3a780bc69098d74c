"""Every sampler of the catalogue is a Python class, built from the same parameters as the
command line and bit-identical to it: the classes are generated from the catalogue, and this
suite fails when one is missing, misnamed or gives other points than `experiments sample`."""

from __future__ import annotations

import numpy as np
import pytest

import poisson_nd as pnd
from poisson_nd import _native

CATALOGUE = _native.catalogue()
NAMES = [entry["name"] for entry in CATALOGUE]


def test_every_sampler_has_its_class():
    assert sorted(pnd.SAMPLERS) == sorted(entry["class"] for entry in CATALOGUE)
    for entry in CATALOGUE:
        cls = getattr(pnd, entry["class"])
        assert cls.name == entry["name"]
        assert cls.radius_driven == entry["radius_driven"]
        assert issubclass(cls, pnd.Engine)
        assert cls.__doc__ and entry["name"] in cls.__doc__
        for key in entry["parameters"]:
            assert key in cls.__init__.__code__.co_varnames, (entry["name"], key)


def _selecting(cls, name):
    """The keyword value that makes `cls` build `name`, for classes with a switch (`Sobol`
    scrambles by default, as scipy's does, so plain `sobol` is `scramble=False`)."""
    keyword, _, names = cls.__dict__.get("_switch", (None, None, {}))
    return {keyword: v for v, n in names.items() if n == name}


def _small_run(entry, seed):
    """The engine's first run and the command line's arguments for it: a 2D box (the
    samplers' lowest dimension when above), a radius or a count that keeps it short."""
    d = max(2, entry["min_dim"])
    cls = getattr(pnd, entry["class"])
    chosen = _selecting(cls, entry["name"])
    args = ["sample", entry["name"], "--dim", d, "--seed", seed]
    if entry["radius_driven"]:
        engine = cls(d, 0.08, rng=seed, **chosen)
        return engine.fill_space(), args + ["--radius", 0.08]
    n = 64
    return cls(d, rng=seed, **chosen).random(n), args + ["--n", n]


@pytest.mark.parametrize("name", NAMES)
def test_every_class_is_bit_identical_to_the_cli(run_cli, tmp_path, name):
    entry = next(e for e in CATALOGUE if e["name"] == name)
    points, args = _small_run(entry, seed=11)
    out = tmp_path / "points.npy"
    run_cli(*args, "--out", out)
    expected = np.load(out)
    assert len(points) > 0
    assert points.dtype == expected.dtype and np.array_equal(points, expected), name


@pytest.mark.parametrize("name", NAMES)
def test_parameters_reach_the_sampler(run_cli, tmp_path, name):
    # Each parameter, given a value other than its default, changes nothing between the two
    # interfaces: the class with the keyword and the command line with the flag agree.
    entry = next(e for e in CATALOGUE if e["name"] == name)
    values = {"k": 7, "grid": "fine", "chunk_side": 0.5, "threads": 1, "max_misses": 500,
              "candidates": 4, "growing_candidates": True, "ratio": 3.0, "progressive": True,
              "skip": 5, "iterations": 3, "sigma": 0.7}
    params = {key: values[key] for key in entry["parameters"]}
    d = max(2, entry["min_dim"])
    cls = getattr(pnd, entry["class"])
    chosen = _selecting(cls, name)
    args = ["sample", name, "--dim", d, "--seed", 3]
    for key, value in params.items():
        flag = "--" + key.replace("_", "-")
        args += [flag, str(value).lower() if isinstance(value, bool) else value]
    if entry["radius_driven"]:
        points = cls(d, 0.08, rng=3, **params, **chosen).fill_space()
        args += ["--radius", 0.08]
    else:
        points = cls(d, rng=3, **params, **chosen).random(40)
        args += ["--n", 40]
    out = tmp_path / "points.npy"
    run_cli(*args, "--out", out)
    assert np.array_equal(points, np.load(out)), name


def test_parameter_errors_are_the_command_lines():
    # One check, in the library, with one text.
    with pytest.raises(ValueError, match="^iterations: invalid type"):
        pnd.Fpo(2, iterations="many")
    with pytest.raises(ValueError, match="^sigma must be finite and > 0, got -1$"):
        pnd.GaussianBlueNoise(2, sigma=-1.0)
    with pytest.raises(ValueError, match="^k must be at least 1, got 0$"):
        pnd.BridsonRecent(2, 0.1, k=0)
    with pytest.raises(TypeError):
        pnd.Lloyd(2, k=3)  # type: ignore[call-arg]
