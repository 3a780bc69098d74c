"""Writes a large 2D Poisson-disk world with Dask, block by block, and measures the run.

    python python/examples/dask_world.py --points 1e8 --workers 2 --out /tmp/world

starts a LocalCluster of ``--workers`` worker processes (one thread each) on this machine;
``--scheduler tcp://host:8786`` uses a running cluster instead (then ``--out`` must be storage
every worker sees, a shared file system). The world is the square of chunks around the origin
that holds about ``--points`` points; every block's file holds exactly the points
``experiments world`` writes for its chunks. Prints the throughput, the peak memory of each
worker and the recomputation factor (cells decided over cells owned), and leaves
``manifest.json`` beside the blocks. Run it again into the same directory after a crash and
it computes only the blocks not yet complete.
"""

from __future__ import annotations

import argparse
import math
import resource
import shutil
import time
from typing import Any

import poisson_nd as pnd
import poisson_nd.dask as pdask


def peak_memory_mib() -> float:
    """This process's peak resident memory (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=float, default=1e8, help="about how many points (default 1e8)")
    parser.add_argument("--radius", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk-side", type=float, default=None, help="chunk side (default 64 radii)")
    parser.add_argument("--block", type=int, default=pdask.DEFAULT_BLOCK, help="chunks per block side")
    parser.add_argument("--mode", choices=pdask.MODES, default=pdask.DEFAULT_MODE)
    parser.add_argument("--format", choices=pdask.FORMATS, default="npy")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes")
    parser.add_argument("--scheduler", default=None, help="address of a running Dask scheduler")
    parser.add_argument("--out", required=True, help="directory for the blocks (shared storage on a cluster)")
    parser.add_argument("--fresh", action="store_true", help="empty --out first instead of resuming")
    args = parser.parse_args()

    from distributed import Client, LocalCluster

    settings: dict[str, Any] = {"d": 2, "radius": args.radius, "seed": args.seed}
    if args.chunk_side is not None:
        settings["chunk_side"] = args.chunk_side
    # How many chunks: from the points of a sample block of 4 x 4 chunks.
    sample, _ = pnd.World(**settings).block([0, 0], [4, 4])
    per_chunk = len(sample) / 16
    side = max(1, math.ceil(math.sqrt(args.points / per_chunk)))
    lo, hi = [-(side // 2)] * 2, [side - side // 2] * 2
    if args.fresh:
        shutil.rmtree(args.out, ignore_errors=True)

    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=":0")
        client = Client(cluster)
    try:
        workers = len(client.scheduler_info()["workers"])
        work = pdask.world_points(settings, lo, hi, block=args.block, mode=args.mode)
        print(f"{side} x {side} chunks of side {pnd.World(**settings).chunk_side[0]:g} "
              f"(about {per_chunk * side * side:.3g} points), blocks of {args.block} x {args.block}, "
              f"mode {work.mode}, {workers} workers")
        start = time.perf_counter()
        manifest = work.to_files(args.out, format=args.format, retries=3)
        seconds = time.perf_counter() - start
        peaks = client.run(peak_memory_mib)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    stats = manifest["stats"]
    computed = stats["points"]
    print(f"points: {manifest['points']:,} in {len(manifest['blocks'])} blocks "
          f"({manifest['skipped']} already complete)")
    print(f"time: {seconds:.1f} s; throughput {computed / seconds:,.0f} points/s")
    print("peak memory per worker: " + ", ".join(f"{m:.0f} MiB" for m in peaks.values()))
    print(f"recomputation factor: {stats['recomputation']:.3f} "
          f"({stats['cells_decided']:,} cells decided for {stats['cells_owned']:,} owned); "
          f"points exchanged: {stats['points_exchanged']:,}")
    print(f"manifest: {args.out}/manifest.json")


if __name__ == "__main__":
    main()
