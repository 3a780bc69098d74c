"""The README's example: points at least 0.05 apart in the unit square, and their metrics."""

import poisson_nd as pnd

points = pnd.Bridson(d=2, radius=0.05, rng=7).fill_space()  # (n, 2) float64, seed 7
metrics = pnd.analyze(points, radius=0.05)["metrics"]
print(f"{len(points)} points, closest pair {metrics['min_distance']:.4f}")
print(f"relative radius {metrics['relative_radius']:.3f}, coverage {metrics['coverage']:.3f}")
