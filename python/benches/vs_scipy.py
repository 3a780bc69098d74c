"""poisson_nd.Bridson beside scipy.stats.qmc.PoissonDisk at equal radius, in one run on one
machine: time, points, points per second, and the closest pair over the radius (cKDTree).

    python python/benches/vs_scipy.py [--repeats 3] [--quick]

Prints a Markdown table (docs/performance.md keeps the figures) and the call overhead of a
small run. One thread: ChunkedBridson is the all-cores engine, not measured here.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
import timeit
from typing import Callable

import numpy as np
import numpy.typing as npt
import scipy
from scipy.spatial import cKDTree
from scipy.stats import qmc

import poisson_nd as pnd

CASES = [(2, 0.01), (2, 0.003), (3, 0.05), (5, 0.25)]


def closest_pair(points: npt.NDArray[np.float64]) -> float:
    if len(points) < 2:
        return float("inf")
    distances, _ = cKDTree(points).query(points, k=2)
    return float(distances[:, 1].min())


def timed(run: Callable[[], npt.NDArray[np.float64]], repeats: int) -> tuple[float, npt.NDArray[np.float64]]:
    times, points = [], np.zeros((0, 0))
    for _ in range(repeats):
        start = time.perf_counter()
        points = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3, help="runs per case (median)")
    parser.add_argument("--quick", action="store_true", help="skip scipy's slowest case")
    parser.add_argument("--dims", type=int, nargs="*", help="only these dimensions")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"{platform.machine()}, {time.strftime('%Y-%m-%d')}")
    print()
    print("| D | r | scipy points | scipy s | scipy closest/r | poisson_nd points | poisson_nd s "
          "| poisson_nd closest/r | speed-up (points/s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for d, r in CASES:
        if (args.quick and (d, r) == (2, 0.003)) or (args.dims and d not in args.dims):
            continue
        # Interleaved: one scipy run, one poisson_nd run, per repeat.
        scipy_times, ours_times, scipy_closest, ours_closest = [], [], [], []
        theirs = ours = np.zeros((0, d))
        for seed in range(args.repeats):
            t, theirs = timed(lambda: qmc.PoissonDisk(d, radius=r, seed=seed).fill_space(), 1)
            scipy_times.append(t)
            scipy_closest.append(closest_pair(theirs) / r)
            t, ours = timed(lambda: pnd.Bridson(d, r, rng=seed).fill_space(), 1)
            ours_times.append(t)
            ours_closest.append(closest_pair(ours) / r)
        ts, to = statistics.median(scipy_times), statistics.median(ours_times)
        speedup = (len(ours) / to) / (len(theirs) / ts)
        # The closest pair over r: the smallest over the repeats (seeds 0, 1, ...).
        print(f"| {d} | {r} | {len(theirs)} | {ts:.3f} | {min(scipy_closest):.4f} | {len(ours)} "
              f"| {to:.4f} | {min(ours_closest):.4f} | {speedup:.0f}× |")
    print()
    engine = pnd.Bridson(d=2, radius=0.1)
    calls = 2000
    fill = min(timeit.repeat(engine.fill_space, number=calls, repeat=5)) / calls
    both = min(timeit.repeat(lambda: pnd.Bridson(d=2, radius=0.1).fill_space(), number=calls, repeat=5)) / calls
    print(f"small run, Bridson(d=2, radius=0.1): fill_space() {fill * 1e6:.1f} µs; "
          f"construction and fill_space() {both * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
