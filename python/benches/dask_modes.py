"""Cone against staged on a LocalCluster: time per block size, 2D and 3D.

    python python/benches/dask_modes.py [--workers 2] [--repeats 3] [--quick]

For each dimension, a square (cube) range of chunks at the default chunk side (r = 1) is
computed with ``poisson_nd.dask.world_points(...).compute()`` in both modes and several
block sizes, the runs interleaved; prints the median seconds, the throughput, the
recomputation factor (cone) and the points exchanged (staged). Every run's points are
checked equal to the first's.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

import poisson_nd.dask as pdask


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="small ranges, one repeat")
    parser.add_argument("--dims", default="2,3", help="dimensions to run (default 2,3)")
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    cases: list[tuple[dict[str, Any], int, list[int]]] = [
        ({"d": 2, "radius": 1.0, "seed": 1}, 8 if args.quick else 24, [1, 2, 4, 8]),
        # 3D chunks of 32 r hold about 12,000 points: 4^3 of them, 1.2 million.
        ({"d": 3, "radius": 1.0, "seed": 1}, 2 if args.quick else 4, [1, 2, 4] if args.quick else [1, 2, 3, 4]),
    ]
    dims = {int(d) for d in args.dims.split(",")}
    cases = [case for case in cases if case[0]["d"] in dims]
    repeats = 1 if args.quick else args.repeats
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address=":0") as cluster, Client(cluster) as client:
        for settings, side, blocks in cases:
            d = settings["d"]
            lo, hi = [0] * d, [side] * d
            runs = [(mode, b) for b in blocks for mode in pdask.MODES]
            times: dict[tuple[str, int], list[float]] = {run: [] for run in runs}
            stats: dict[tuple[str, int], dict[str, Any]] = {}
            reference = None
            for _ in range(repeats):
                for mode, b in runs:
                    work = pdask.world_points(settings, lo, hi, block=b, mode=mode)
                    start = time.perf_counter()
                    points, _, stat = work.compute(scheduler=client)
                    times[(mode, b)].append(time.perf_counter() - start)
                    stats[(mode, b)] = stat
                    # The blocks group chunks differently: compare the sorted rows.
                    rows = np.unique(points, axis=0)
                    if reference is None:
                        reference = rows
                    assert np.array_equal(rows, reference), f"{mode} block {b}: other points"
            print(f"\n{d}D, {side}^{d} chunks of side {32 if d > 2 else 64} r, "
                  f"{len(reference):,} points, {args.workers} workers, {repeats} rounds")
            print("| block | cone s | staged s | cone/staged | cone recomputation | staged exchanged |")
            print("|---|---|---|---|---|---|")
            for b in blocks:
                cone, staged = statistics.median(times[("cone", b)]), statistics.median(times[("staged", b)])
                print(f"| {b} | {cone:.2f} | {staged:.2f} | {cone / staged:.2f} | "
                      f"{stats[('cone', b)]['recomputation']:.2f} | {stats[('staged', b)]['points_exchanged']:,} |")


if __name__ == "__main__":
    main()
