"""Shared fixtures and independent oracles for the poisson_nd test suite.

The oracles here (closest pair, box membership) use scipy's cKDTree and plain numpy only,
never the package, so that a test compares the package against something independent.
"""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional, Sequence

import numpy as np
import pytest
from scipy.spatial import cKDTree

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
SOURCE = REPO / "python"


def _prefer_built_package() -> None:
    """`python -m pytest` run from python/ puts python/ first on sys.path, where the package's
    sources lie without the compiled `_native` (maturin installs it into the environment).
    Test the installed package then, not the half without its extension."""
    if any((SOURCE / "poisson_nd" / f"_native{suffix}").exists()
           for suffix in importlib.machinery.EXTENSION_SUFFIXES):
        return
    def is_source(entry: str) -> bool:
        try:
            return Path(entry or os.getcwd()).resolve() == SOURCE.resolve()
        except OSError:
            return False
    sys.path[:] = [entry for entry in sys.path if not is_source(entry)]
    for name in [m for m in sys.modules if m == "poisson_nd" or m.startswith("poisson_nd.")]:
        del sys.modules[name]


_prefer_built_package()


@pytest.fixture(scope="session")
def cli() -> Path:
    """The `experiments` command line: $POISSON_ND_CLI, else <repo>/target/release/experiments,
    built with cargo when missing."""
    env = os.environ.get("POISSON_ND_CLI")
    path = Path(env) if env else REPO / "target" / "release" / "experiments"
    if not path.exists():
        subprocess.run(["cargo", "build", "--release", "-p", "experiments"], cwd=REPO, check=True)
        path = REPO / "target" / "release" / "experiments"
    assert path.exists(), f"the experiments binary is missing at {path}"
    return path


@pytest.fixture(scope="session")
def run_cli(cli):
    """Runs `experiments ARGS...`, asserting success; returns the CompletedProcess."""

    def run(*args: object, cwd: Optional[os.PathLike] = None, ok: bool = True):
        result = subprocess.run([str(cli), *map(str, args)], capture_output=True, text=True,
                                cwd=cwd, timeout=120)
        if ok:
            assert result.returncode == 0, f"experiments {' '.join(map(str, args))}: {result.stderr}"
        return result

    return run


def closest_pair(points: np.ndarray, lower: Optional[Sequence[float]] = None,
                 upper: Optional[Sequence[float]] = None, periodic: bool = False) -> float:
    """The smallest distance between two points (on the torus with ``periodic``), by
    cKDTree; inf for fewer than two points."""
    points = np.asarray(points, dtype=np.float64)
    if len(points) < 2:
        return float("inf")
    if periodic:
        lo = np.asarray(lower, dtype=np.float64)
        box = np.asarray(upper, dtype=np.float64) - lo
        shifted = np.mod(points - lo, box)
        # A coordinate that rounds up to the side itself wraps to 0.
        shifted[shifted >= box] = 0.0
        tree = cKDTree(shifted, boxsize=box)
        distances, _ = tree.query(shifted, k=2)
    else:
        tree = cKDTree(points)
        distances, _ = tree.query(points, k=2)
    return float(distances[:, 1].min())


def brute_closest_pair(points: np.ndarray) -> float:
    """The closest pair by all pairwise distances (small sets only)."""
    diff = points[:, None, :] - points[None, :, :]
    dist = np.sqrt((diff ** 2).sum(-1))
    np.fill_diagonal(dist, np.inf)
    return float(dist.min()) if len(points) > 1 else float("inf")


def in_box(points: np.ndarray, lower: Sequence[float], upper: Sequence[float]) -> bool:
    """Whether every point lies in the half-open box [lower, upper)."""
    points = np.asarray(points)
    return bool(np.all(points >= np.asarray(lower)) and np.all(points < np.asarray(upper)))


def assert_zero_copy(array: np.ndarray, d: Optional[int] = None) -> None:
    """float64, C-contiguous, (n, d), writable, wrapping a buffer it does not own."""
    assert isinstance(array, np.ndarray)
    assert array.dtype == np.float64
    assert array.ndim == 2
    if d is not None:
        assert array.shape[1] == d
    assert array.flags.c_contiguous
    assert array.flags.writeable
    assert not array.flags.owndata
    assert array.base is not None
