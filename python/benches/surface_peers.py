"""poisson-nd's surface samplers beside Open3D's and trimesh's, on one mesh, in one run on
one machine: time, points returned, closest pair, relative radius and coverage.

    python python/benches/surface_peers.py [--subdivisions 6] \\
        [--ns 10000,100000] [--runs 3] [--tools poisson-nd,trimesh,open3d] \\
        [--skip-open3d-above N] [--out-json results.json]

Needs the peers, `pip install open3d trimesh`, and the command line built with
`cargo build --release -p experiments` (--binary points elsewhere). Open3D's Linux wheel
links libusb-1.0.so.0 without shipping it: where the system lacks it, `pip install
libusb-package` provides it and the script loads it before Open3D.

The mesh is a "displaced sphere": an icosphere (the icosahedron subdivided `subdivisions`
times, 20·4^s triangles) whose vertices are moved radially to
r = 1 + 0.15·sin(5x)·sin(5y)·sin(5z) + 0.05·sin(12x + 3y). It is written once as a binary
PLY with float64 coordinates, and every tool reads that same file (checked bit for bit).

Measured, for each N and each run (the tools interleaved within a run):

- poisson-nd, exact N: `experiments sample surface --mesh M --n N` (sample elimination of
  5·N candidates). Seconds are the `time=` the command prints (sampling only, the mesh
  already read); the whole process's wall time is kept too.
- poisson-nd, maximal fill: `experiments sample surface --mesh M --radius R --fill F` (F from
  `--fill`: darts, the default, front or boundary), R calibrated by one untimed run so that
  the fill gives about N points.
- trimesh: `trimesh.sample.sample_surface_even(mesh, N, seed=S)` (3·N uniform points, then
  those closer than sqrt(A / 3N) removed; it may return fewer than N).
- Open3D: `TriangleMesh.sample_points_poisson_disk(N)` (Yuksel's sample elimination of 5·N
  candidates), with OMP_NUM_THREADS=1 set before Open3D is imported.

Each point set gets, with cKDTree: the closest pair d_min; rho = d_min / r_max, with
r_max = sqrt(2A / (sqrt(3)·n)) the spacing of a hexagonal packing of n points on area A;
the mean nearest-neighbour distance; and the coverage, the largest distance from a probe
to its nearest sample over 10^6 probes drawn uniformly over the surface (a lower bound of
the true covering radius), also over r_max. The table gives medians over the runs.
"""

from __future__ import annotations

import argparse
import ctypes
import datetime
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# One thread for Open3D: it reads this when it loads, so before it is imported.
os.environ["OMP_NUM_THREADS"] = "1"

import numpy as np
import numpy.typing as npt
import scipy
from scipy.spatial import cKDTree

Array = npt.NDArray[np.float64]

REPO = Path(__file__).resolve().parents[2]
TOOLS = ("poisson-nd", "trimesh", "open3d")
PROBES = 1_000_000
PROBE_SEED = 12345


# --- the mesh ---------------------------------------------------------------------------


def icosahedron() -> tuple[Array, npt.NDArray[np.int64]]:
    t = (1.0 + 5.0**0.5) / 2.0
    vertices = np.array(
        [
            [-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0],
            [0, -1, t], [0, 1, t], [0, -1, -t], [0, 1, -t],
            [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1],
        ],
        dtype=np.float64,
    )
    faces = np.array(
        [
            [0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11],
            [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8],
            [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9],
            [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1],
        ],
        dtype=np.int64,
    )
    return vertices / np.linalg.norm(vertices, axis=1, keepdims=True), faces


def icosphere(subdivisions: int) -> tuple[Array, npt.NDArray[np.int64]]:
    """The icosahedron with each triangle split into 4, `subdivisions` times, the new
    vertices projected onto the unit sphere; neighbouring triangles share them."""
    vertices, faces = icosahedron()
    points = list(vertices)
    for _ in range(subdivisions):
        midpoints: dict[tuple[int, int], int] = {}

        def midpoint(a: int, b: int) -> int:
            key = (a, b) if a < b else (b, a)
            if key not in midpoints:
                m = points[a] + points[b]
                points.append(m / np.linalg.norm(m))
                midpoints[key] = len(points) - 1
            return midpoints[key]

        split = []
        for a, b, c in faces.tolist():
            ab, bc, ca = midpoint(a, b), midpoint(b, c), midpoint(c, a)
            split += [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]
        faces = np.array(split, dtype=np.int64)
    return np.array(points), faces


def displaced_sphere(subdivisions: int) -> tuple[Array, npt.NDArray[np.int64]]:
    unit, faces = icosphere(subdivisions)
    x, y, z = unit.T
    r = 1.0 + 0.15 * np.sin(5 * x) * np.sin(5 * y) * np.sin(5 * z) + 0.05 * np.sin(12 * x + 3 * y)
    return unit * r[:, None], faces


def write_ply(path: Path, vertices: Array, faces: npt.NDArray[np.int64]) -> None:
    header = (
        "ply\nformat binary_little_endian 1.0\n"
        f"element vertex {len(vertices)}\n"
        "property double x\nproperty double y\nproperty double z\n"
        f"element face {len(faces)}\n"
        "property list uchar int vertex_indices\nend_header\n"
    )
    face_records = np.zeros(len(faces), dtype=[("n", "u1"), ("v", "<i4", (3,))])
    face_records["n"] = 3
    face_records["v"] = faces
    with open(path, "wb") as f:
        f.write(header.encode("ascii"))
        f.write(np.ascontiguousarray(vertices, dtype="<f8").tobytes())
        f.write(face_records.tobytes())


def triangle_areas(vertices: Array, faces: npt.NDArray[np.int64]) -> Array:
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    return 0.5 * np.linalg.norm(np.cross(b - a, c - a), axis=1)


def surface_probes(vertices: Array, faces: npt.NDArray[np.int64], count: int, seed: int) -> Array:
    """`count` points uniform over the surface: a triangle by area, then a uniform point in it."""
    rng = np.random.default_rng(seed)
    areas = triangle_areas(vertices, faces)
    chosen = rng.choice(len(faces), size=count, p=areas / areas.sum())
    u, v = rng.random(count), rng.random(count)
    # Folding the unit square onto the triangle keeps the density uniform.
    fold = u + v > 1
    u[fold], v[fold] = 1 - u[fold], 1 - v[fold]
    a, b, c = (vertices[faces[chosen, k]] for k in range(3))
    return a + u[:, None] * (b - a) + v[:, None] * (c - a)


# --- the metrics ------------------------------------------------------------------------


def metrics(points: Array, area: float, probes: Array) -> dict[str, float]:
    n = len(points)
    if n < 2:
        return {"d_min": float("nan"), "rho": float("nan"), "mean_nn": float("nan"),
                "coverage": float("nan"), "coverage_rel": float("nan"), "r_max": float("nan")}
    tree = cKDTree(points)
    nearest, _ = tree.query(points, k=2, workers=-1)
    covering, _ = tree.query(probes, k=1, workers=-1)
    r_max = (2 * area / (3**0.5 * n)) ** 0.5
    d_min = float(nearest[:, 1].min())
    coverage = float(covering.max())
    return {"d_min": d_min, "rho": d_min / r_max, "mean_nn": float(nearest[:, 1].mean()),
            "coverage": coverage, "coverage_rel": coverage / r_max, "r_max": r_max}


# --- the tools --------------------------------------------------------------------------


STDERR_LINE = re.compile(r"points=(\d+) time=([0-9.eE+-]+)s")


def run_ours(binary: Path, mesh: Path, out: Path, seed: int, n: int | None = None,
             radius: float | None = None, fill: str = "darts") -> tuple[Array, float, float, float, str]:
    """One `experiments sample surface` process: points, its own sampling time, the
    process's wall and CPU times, and the line it printed."""
    command = [str(binary), "sample", "surface", "--mesh", str(mesh), "--seed", str(seed),
               "--out", str(out)]
    command += ["--n", str(n)] if n is not None else ["--radius", repr(radius), "--fill", fill]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    line = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    match = STDERR_LINE.search(line)
    if done.returncode != 0 or match is None:
        raise RuntimeError(f"{' '.join(command)}\nexit {done.returncode}: {done.stderr.strip()}")
    with np.load(out) as archive:
        points = archive["points"]
    if len(points) != int(match.group(1)):
        raise RuntimeError(f"{out}: {len(points)} points, the command said {match.group(1)}")
    return points, float(match.group(2)), wall, cpu, line


def load_open3d() -> Any:
    try:
        import open3d
    except ImportError as error:
        # The Linux wheel links libusb-1.0.so.0 without shipping it; the PyPI package
        # libusb-package does ship it, and loading it first satisfies the link.
        if "libusb" not in str(error):
            raise
        import libusb_package

        ctypes.CDLL(str(Path(libusb_package.__file__).parent / "libusb-1.0.so"),
                    mode=ctypes.RTLD_GLOBAL)
        import open3d
    return open3d


# --- the run ----------------------------------------------------------------------------


def machine_info() -> dict[str, Any]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": model, "nproc": len(os.sched_getaffinity(0)), "platform": platform.platform(),
            "python": platform.python_version()}


def summarize(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    keys = sorted({(r["tool"], r["method"], r["n_asked"]) for r in records},
                  key=lambda k: (k[2], TOOLS.index(k[0]), k[1]))
    for tool, method, n in keys:
        runs = [r for r in records if (r["tool"], r["method"], r["n_asked"]) == (tool, method, n)]
        seconds = [r["seconds"] for r in runs]
        row = {"tool": tool, "method": method, "n_asked": n, "runs": len(runs),
               "seconds_median": statistics.median(seconds), "seconds_min": min(seconds),
               "seconds_max": max(seconds)}
        for key in ("points", "d_min", "rho", "coverage", "coverage_rel", "mean_nn", "wall", "cpu"):
            values = [r[key] for r in runs if r.get(key) is not None]
            row[key] = statistics.median(values) if values else None
        rows.append(row)
    for row in rows:
        exact = [r for r in rows if (r["tool"], r["method"], r["n_asked"])
                 == ("poisson-nd", "exact-n", row["n_asked"])]
        row["open3d_over_exact_n"] = (row["seconds_median"] / exact[0]["seconds_median"]
                                      if row["tool"] == "open3d" and exact else None)
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| tool | method | N asked | points | s median | s min | s max | d_min | rho "
             "| coverage/r_max | mean NN | wall s | CPU s | Open3D s / exact-N s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ratio = f"{r['open3d_over_exact_n']:.1f}" if r["open3d_over_exact_n"] else ""
        lines.append(
            f"| {r['tool']} | {r['method']} | {r['n_asked']} | {r['points']:.0f} "
            f"| {r['seconds_median']:.3f} | {r['seconds_min']:.3f} | {r['seconds_max']:.3f} "
            f"| {r['d_min']:.5f} | {r['rho']:.3f} | {r['coverage_rel']:.3f} "
            f"| {r['mean_nn']:.5f} | {r['wall']:.3f} | {r['cpu']:.3f} | {ratio} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subdivisions", type=int, default=6, help="icosphere levels (6: 81,920 triangles)")
    parser.add_argument("--ns", default="10000,100000", help="point counts, comma separated")
    parser.add_argument("--runs", type=int, default=3, help="runs per case (the table gives medians)")
    parser.add_argument("--seed", type=int, default=1, help="run k uses seed + k")
    parser.add_argument("--tools", default=",".join(TOOLS), help="which of poisson-nd,trimesh,open3d")
    parser.add_argument("--binary", type=Path, default=REPO / "target" / "release" / "experiments")
    parser.add_argument("--fill", default="darts", choices=["darts", "front", "boundary"],
                        help="how poisson-nd's maximal fill is reached (sample surface --fill)")
    parser.add_argument("--skip-open3d-above", type=int, help="no Open3D runs for N above this")
    parser.add_argument("--out-json", type=Path, help="write every run and the summary here")
    args = parser.parse_args()
    ns = [int(n) for n in args.ns.split(",")]
    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    unknown = set(tools) - set(TOOLS)
    if unknown:
        parser.error(f"unknown tools {sorted(unknown)} (known: {', '.join(TOOLS)})")
    if "poisson-nd" in tools and not args.binary.exists():
        parser.error(f"{args.binary} not found: cargo build --release -p experiments")

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    versions = {"numpy": np.__version__, "scipy": scipy.__version__}
    trimesh: Any = None
    o3d: Any = None
    if "trimesh" in tools:
        import trimesh

        versions["trimesh"] = trimesh.__version__
    if "open3d" in tools:
        o3d = load_open3d()
        versions["open3d"] = o3d.__version__

    vertices, faces = displaced_sphere(args.subdivisions)
    area = float(triangle_areas(vertices, faces).sum())
    probes = surface_probes(vertices, faces, PROBES, PROBE_SEED)
    log(f"mesh: {len(vertices)} vertices, {len(faces)} triangles, area {area:.6f}")

    with tempfile.TemporaryDirectory(prefix="surface_peers_") as scratch:
        mesh_path = Path(scratch) / "displaced_sphere.ply"
        out_path = Path(scratch) / "points.npz"
        write_ply(mesh_path, vertices, faces)

        # Every tool reads the same file; float64 must survive each reader exactly.
        def check_same(tool: str, read_vertices: Any, read_faces: Any) -> None:
            if not (np.array_equal(read_vertices, vertices) and np.array_equal(read_faces, faces)):
                raise RuntimeError(f"{tool} did not read {mesh_path} exactly as written")

        tm_mesh: Any = None
        o3d_mesh: Any = None
        if trimesh is not None:
            tm_mesh = trimesh.load(mesh_path, process=False)
            check_same("trimesh", tm_mesh.vertices, tm_mesh.faces)
            tm_mesh.area_faces  # cached by trimesh: computed here so that no run pays for it
        if o3d is not None:
            o3d_mesh = o3d.io.read_triangle_mesh(str(mesh_path))
            check_same("open3d", np.asarray(o3d_mesh.vertices), np.asarray(o3d_mesh.triangles))

        # The fill's radius: a maximal fill places about 0.7·A / r² points; one untimed
        # run corrects the guess (the count goes as 1 / r²).
        radii: dict[int, float] = {}
        if "poisson-nd" in tools:
            for n in ns:
                guess = (0.7 * area / n) ** 0.5
                points, _, _, _, line = run_ours(args.binary, mesh_path, out_path, args.seed, radius=guess,
                                                 fill=args.fill)
                their_area = re.search(r"area=(\S+)", line)
                if their_area is None or abs(float(their_area.group(1)) - area) > 1e-9 * area:
                    raise RuntimeError(f"experiments read another area ({line}); the mesh has {area}")
                radii[n] = guess * (len(points) / n) ** 0.5
                log(f"fill calibration N={n}: r={guess:.6g} gave {len(points)}; using r={radii[n]:.6g}")
                log(f"  {line}")

        records: list[dict[str, Any]] = []

        def record(tool: str, method: str, n: int, seed: int, points: Array, seconds: float,
                   **extra: Any) -> None:
            entry = {"tool": tool, "method": method, "n_asked": n, "seed": seed,
                     "points": len(points), "seconds": seconds, **extra,
                     **metrics(points, area, probes)}
            if "radius" in extra:
                entry["d_min_over_radius"] = entry["d_min"] / extra["radius"]
            records.append(entry)
            log(f"N={n} seed={seed} {tool} {method}: {len(points)} points, {seconds:.3f} s, "
                f"rho {entry['rho']:.3f}, coverage/r_max {entry['coverage_rel']:.3f}")

        for n in ns:
            for run in range(args.runs):
                seed = args.seed + run
                if "poisson-nd" in tools:
                    points, seconds, wall, cpu, line = run_ours(args.binary, mesh_path, out_path, seed, n=n)
                    record("poisson-nd", "exact-n", n, seed, points, seconds, wall=wall, cpu=cpu,
                           stderr=line)
                    r = radii[n]
                    points, seconds, wall, cpu, line = run_ours(args.binary, mesh_path, out_path, seed,
                                                                radius=r, fill=args.fill)
                    record("poisson-nd", f"fill-{args.fill}", n, seed, points, seconds, wall=wall, cpu=cpu,
                           stderr=line, radius=r)
                if tm_mesh is not None:
                    cpu, start = time.process_time(), time.perf_counter()
                    points, _ = trimesh.sample.sample_surface_even(tm_mesh, n, seed=seed)
                    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
                    record("trimesh", "sample_surface_even", n, seed, np.asarray(points), seconds,
                           wall=seconds, cpu=cpu)
                if o3d_mesh is not None and (args.skip_open3d_above is None or n <= args.skip_open3d_above):
                    o3d.utility.random.seed(seed)
                    cpu, start = time.process_time(), time.perf_counter()
                    cloud = o3d_mesh.sample_points_poisson_disk(number_of_points=n)
                    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
                    record("open3d", "sample_points_poisson_disk", n, seed, np.asarray(cloud.points),
                           seconds, wall=seconds, cpu=cpu)

    rows = summarize(records)
    info = machine_info()
    now = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    print(f"{now}; {info['cpu']}, {info['nproc']} cores; python {info['python']}, "
          + ", ".join(f"{k} {v}" for k, v in versions.items())
          + f"; OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}")
    print(f"displaced sphere, subdivisions {args.subdivisions}: {len(faces)} triangles, "
          f"area {area:.6f}; {args.runs} runs (medians); coverage over {PROBES} probes")
    print("s: for poisson-nd the `time=` it prints (sampling only, mesh read before), for the "
          "others the call in-process;\nwall s / CPU s: for poisson-nd the whole process (reading the "
          "mesh, writing .npz), for the others the call")
    print()
    print(table(rows))
    if args.out_json:
        args.out_json.parent.mkdir(parents=True, exist_ok=True)
        binary_stat = args.binary.stat() if args.binary.exists() else None
        args.out_json.write_text(json.dumps({
            "date": now, "machine": info, "versions": versions,
            "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
            "command": sys.argv,
            "binary": {"path": str(args.binary),
                       "mtime": binary_stat and datetime.datetime.fromtimestamp(
                           binary_stat.st_mtime).astimezone().isoformat(timespec="seconds")},
            "mesh": {"subdivisions": args.subdivisions, "vertices": len(vertices),
                     "triangles": len(faces), "area": area, "ply": "binary_little_endian, double x y z"},
            "probes": PROBES, "probe_seed": PROBE_SEED, "fill_radii": {str(k): v for k, v in radii.items()},
            "summary": rows, "runs": records,
        }, indent=2) + "\n")


if __name__ == "__main__":
    main()
