"""A comparison figure: the points and radial power spectra of three samplers at the same
count, drawn with matplotlib (``pip install matplotlib``).

    python python/examples/compare.py [--out compare.png] [--n 4096]
"""

from __future__ import annotations

import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

import poisson_nd as pnd  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="compare.png")
    parser.add_argument("--n", type=int, default=4096)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n: int = args.n
    # Bridson at the radius that gives about n points in the periodic unit square.
    radius = float(0.8 / np.sqrt(n))
    samplers: list[tuple[str, pnd.Engine]] = [
        ("Bridson", pnd.Bridson(2, radius, periodic=True, rng=args.seed)),
        ("sample elimination", pnd.SampleElimination(2, periodic=True, rng=args.seed)),
        ("white noise", pnd.WhiteNoise(2, periodic=True, rng=args.seed)),
    ]
    figure, axes = plt.subplots(2, len(samplers), figsize=(4 * len(samplers), 8))
    for column, (label, engine) in enumerate(samplers):
        points: npt.NDArray[np.float64]
        if isinstance(engine, pnd.Bridson):
            points = engine.fill_space()
        else:
            points = engine.random(n)
        analysis = pnd.analyze(points, periodic=True)
        frequency, power = analysis.spectrum()
        top = axes[0, column]
        top.scatter(points[:, 0], points[:, 1], s=0.5, c="k")
        top.set_aspect("equal")
        top.set_xlim(0, 1)
        top.set_ylim(0, 1)
        relative = analysis["metrics"]["relative_radius"]
        top.set_title(f"{label}: {len(points)} points, ρ = {relative:.3f}")
        bottom = axes[1, column]
        bottom.plot(frequency / np.sqrt(len(points)), power, lw=1)
        bottom.axhline(1.0, color="grey", lw=0.5)
        bottom.set_xlabel("frequency / √N")
        bottom.set_ylabel("radial power")
        bottom.set_ylim(0, 2.5)
    figure.tight_layout()
    figure.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
