"""Every metric of ``experiments analyze --json`` for points in a numpy array."""

from __future__ import annotations

import json
from typing import Any, Optional, Sequence

import numpy as np
import numpy.typing as npt

from . import _native

__all__ = ["Analysis", "analyze"]


class Analysis(dict):  # type: ignore[type-arg]
    """The analysis as ``experiments analyze --json`` prints it (a dict with the same keys
    and values; the scalar metrics under ``"metrics"``), with the curves as arrays for
    plotting."""

    def spectrum(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The radial power spectrum: ring radii (cycles per box side) and mean power
        (white noise 1). Empty arrays when the spectrum was skipped (see ``notes``)."""
        rings = (self.get("spectrum") or {}).get("rings", [])
        return (np.array([r["radius"] for r in rings], dtype=np.float64),
                np.array([_number(r["mean_power"]) for r in rings], dtype=np.float64))

    def pair_correlation(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The pair correlation function: bin centres and g(r)."""
        bins = (self.get("pair_correlation") or {}).get("bins", [])
        return (np.array([(b["r_lower"] + b["r_upper"]) / 2 for b in bins], dtype=np.float64),
                np.array([_number(b["g"]) for b in bins], dtype=np.float64))

    def nearest_neighbour_histogram(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
        """The nearest-neighbour distances' histogram: bin edges (one more than counts) and
        counts."""
        h = (self.get("nearest_neighbour") or {}).get("histogram")
        if not h:
            return np.zeros(0), np.zeros(0, dtype=np.int64)
        counts = np.array(h["counts"], dtype=np.int64)
        edges = h["lower"] + h["bin_width"] * np.arange(len(counts) + 1, dtype=np.float64)
        return edges, counts

    def periodogram(self) -> npt.NDArray[np.float64]:
        """The 2D periodogram as an image of (2m + 1)² frequencies, row 0 at k_y = -m and
        column 0 at k_x = -m (NaN at k = 0); ask for it with ``analyze(...,
        periodogram=True)``."""
        p = self.get("periodogram")
        if not p:
            raise ValueError("no periodogram: call analyze(..., periodogram=True) on 2D points")
        side = 2 * p["max_frequency"] + 1
        return np.array([_number(v) for v in p["values"]], dtype=np.float64).reshape(side, side)


def _number(value: Any) -> float:
    return float("nan") if value is None else float(value)


def analyze(
    points: npt.ArrayLike,
    l_bounds: Optional[Sequence[float]] = None,
    u_bounds: Optional[Sequence[float]] = None,
    *,
    periodic: bool = False,
    radius: Optional[float] = None,
    radii: Optional[npt.ArrayLike] = None,
    radius_rule: str = "max",
    probes: Optional[int] = None,
    seed: Optional[int] = None,
    reference_realisations: Optional[int] = None,
    bins: Optional[int] = None,
    spectrum_multiple: Optional[float] = None,
    exclude_axes: bool = False,
    max_pairs: Optional[int] = None,
    periodogram: bool = False,
) -> Analysis:
    """Every metric of ``points`` (shape (n, d), inside the box ``[l_bounds, u_bounds)``,
    default the unit cube), the same names and values as ``experiments analyze --json`` with
    the same settings: ``radius`` for the r-dependent metrics (default d_max/2), per-point
    ``radii`` checked against ``radius_rule``, ``probes`` for the coverage (default 10**5),
    ``seed`` (0), ``reference_realisations`` (16), ``bins`` (20), ``spectrum_multiple``,
    ``exclude_axes``, ``max_pairs``; ``periodogram=True`` keeps the 2D periodogram (the
    report's, 1.5·√N frequencies a side)."""
    array = np.ascontiguousarray(points, dtype=np.float64)
    if array.ndim != 2:
        raise ValueError(f"points must have shape (n, d), got {array.shape}")
    d = array.shape[1]
    lower = [0.0] * d if l_bounds is None else [float(v) for v in l_bounds]
    upper = [1.0] * d if u_bounds is None else [float(v) for v in u_bounds]
    r = None if radii is None else np.ascontiguousarray(radii, dtype=np.float64).reshape(-1)
    text = _native.analyze_json(
        array, lower, upper, bool(periodic), radius, r, radius_rule, probes, seed,
        reference_realisations, bins, spectrum_multiple, bool(exclude_axes), max_pairs,
        1.5 if periodogram else None,
    )
    return Analysis(json.loads(text))
