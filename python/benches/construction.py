"""What an engine's construction costs beside its fill: construction checks the parameters
with an empty run (n = 0), which must stay far cheaper than the fill.

    python python/benches/construction.py [--radius 0.002] [--repeats 5]

Prints the median construction and fill times of Bridson and ChunkedBridson (two threads).
"""

from __future__ import annotations

import argparse
import statistics
import time

import poisson_nd as pnd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--radius", type=float, default=0.002)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    makers = {
        "Bridson": lambda: pnd.Bridson(2, args.radius, rng=1),
        "ChunkedBridson": lambda: pnd.ChunkedBridson(2, args.radius, rng=1, threads=2),
    }
    print("| engine | construction (s) | fill (s) | ratio |")
    print("| --- | --- | --- | --- |")
    for name, make in makers.items():
        construct, fill = [], []
        for _ in range(args.repeats):
            start = time.perf_counter()
            engine = make()
            construct.append(time.perf_counter() - start)
            start = time.perf_counter()
            engine.fill_space()
            fill.append(time.perf_counter() - start)
        c, f = statistics.median(construct), statistics.median(fill)
        print(f"| {name} | {c:.6f} | {f:.3f} | {c / f:.5f} |")


if __name__ == "__main__":
    main()
