"""poisson-nd beside the C/C++ Poisson-disk libraries, one core, on the workloads of the speed
table in docs/performance.md: Bridson in the unit square and cube at about 10^6 points, and
sample elimination of 10^6 from 5*10^6 candidates on the 2D unit torus.

The peers are built from copies the user gives (never fetched here, never committed):

- `--tph DIR`: thinks/poisson-disk-sampling 0.4 (`DIR/include/thinks/tph_poisson.h`, the C
  library `tph_poisson`, float), built with `cc -O3 -march=native`;
- `--thinks03 DIR`: thinks/poisson-disk-sampling 0.3 (`git checkout v0.3`:
  `DIR/thinks/poisson_disk_sampling/poisson_disk_sampling.h`, the C++ header, float), built
  with `c++ -O3 -march=native -std=c++17`: the fastest of the C++ libraries in the table;
- `--cy DIR`: cyCodeBase (`DIR/cySampleElim.h`), Yuksel's reference sample elimination, built
  with `c++ -O3 -march=native -std=c++17`, double (as poisson-nd's points), tiling on, 5*10^6
  uniform candidates.

Each round runs every command once, in turn (interleaved), and the table gives the median
of the rounds' seconds and peak memory, the peer's median over ours, and the range of the
ratios round by round (the peer's seconds over ours in the same round, runs seconds apart:
a host whose speed drifts over the rounds moves both sides of each such ratio alike).
Seconds are what each program measures around its sampling alone (poisson-nd prints `time=`;
the drivers below time `tph_poisson_create` and `Eliminate` with a monotonic clock); memory is
the process's peak resident set (`getrusage` of the child).

    python python/benches/cpp_peers.py --thinks03 /path/to/pds-v0.3 \\
        --tph /path/to/poisson-disk-sampling --cy /path/to/cyCodeBase [--rounds 3] \\
        [--only 2d,3d,2d-recent,3d-recent,se,2d-cores,3d-cores,maximal] [--threads N] [--se-n 1000000]
        [--experiments BIN] [--native]

The peers are built for the host's processor (`-march=native`); `--native` adds poisson-nd
built the same way (`RUSTFLAGS="-C target-cpu=native"`, into `target/native`) as a second
contender beside the portable build, and checks that both builds write the same points (the
crate never lets the compiler fuse or reorder floating-point operations, so the instructions a
processor offers change the speed, not the values).

`2d-recent` and `3d-recent` run `sample bridson-recent` (the front worked among its newest
points: other points than `bridson`, the same guarantees) on the same workloads.

`maximal` runs maximal sampling (`sample maximal`) in the unit square at the radius of `2d`,
and with `2d` prints its time over Bridson's (medians): the speed table's bound for maximal
sampling is 2× Bridson's time at the same radius.

`2d-cores` and `3d-cores` run chunked Bridson (`sample chunked-bridson`) on one thread and on
`--threads` (default: all cores) beside the peers on one core, and print the speed-up of the
cores, chunked on N threads over chunked on one (medians, and its range round by round).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# The workloads: (name, poisson-nd arguments, peer, peer arguments).
RADIUS_2D = 7.9e-4
RADIUS_3D = 8.4e-3

TPH_DRIVER = r"""
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#define TPH_POISSON_IMPLEMENTATION
#include "thinks/tph_poisson.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(int argc, char **argv) {
  int dims = atoi(argv[1]);
  float radius = (float)atof(argv[2]);
  float lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  tph_poisson_args args;
  memset(&args, 0, sizeof args);
  args.bounds_min = lo; args.bounds_max = hi; args.radius = radius;
  args.ndims = dims; args.max_sample_attempts = 30; args.seed = 1;
  tph_poisson_sampling sampling;
  memset(&sampling, 0, sizeof sampling);
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  int ret = tph_poisson_create(&args, NULL, &sampling);
  clock_gettime(CLOCK_MONOTONIC, &b);
  if (ret != TPH_POISSON_SUCCESS) { fprintf(stderr, "tph_poisson_create: %d\n", ret); return 1; }
  printf("points=%ld time=%.6fs\n", (long)sampling.nsamples,
         (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec));
  tph_poisson_destroy(&sampling);
  return 0;
}
"""

THINKS03_DRIVER = r"""
#include "thinks/poisson_disk_sampling/poisson_disk_sampling.h"
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
template <std::size_t N> int run(float radius) {
  std::array<float, N> lo{}, hi{};
  hi.fill(1.0f);
  auto a = std::chrono::steady_clock::now();
  auto points = thinks::PoissonDiskSampling(radius, lo, hi, 30, 1);
  auto b = std::chrono::steady_clock::now();
  std::printf("points=%zu time=%.6fs\n", points.size(),
              std::chrono::duration<double>(b - a).count());
  return 0;
}
int main(int argc, char **argv) {
  float radius = std::strtof(argv[2], nullptr);
  return std::atoi(argv[1]) == 3 ? run<3>(radius) : run<2>(radius);
}
"""

CY_DRIVER = r"""
#include "cyVector.h"
#include "cySampleElim.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
int main(int argc, char **argv) {
  std::size_t n = std::strtoull(argv[1], nullptr, 10), m = 5 * n;
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<cy::Vec2d> in(m), out(n);
  for (auto &p : in) p = cy::Vec2d(u(rng), u(rng));
  cy::WeightedSampleElimination<cy::Vec2d, double, 2, int> wse;
  wse.SetTiling(true);
  auto a = std::chrono::steady_clock::now();
  wse.Eliminate(in.data(), (int)m, out.data(), (int)n);
  auto b = std::chrono::steady_clock::now();
  std::printf("points=%zu time=%.6fs\n", n, std::chrono::duration<double>(b - a).count());
  return 0;
}
"""

LINE = re.compile(r"points=(\d+) time=([0-9.eE+-]+)s")


def build(source: str, suffix: str, compiler: list[str], include: Path, out: Path) -> Path:
    path = out / f"driver{suffix}"
    path.write_text(source)
    binary = out / f"driver{suffix}.bin"
    command = compiler + ["-O3", "-march=native", f"-I{include}", str(path), "-o", str(binary)]
    if suffix == ".c":
        command.append("-lm")
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if "error" in line] or ["?"]
        sys.exit(f"error: cannot build {path}: {errors[0]}")
    return binary


def run(command: list[str]) -> tuple[float, int, float]:
    """Seconds the program reports, its points, and its peak resident set in MB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
    match = LINE.search(done.stdout + done.stderr)
    if match is None:
        sys.exit(f"error: {' '.join(command)} printed no 'points=… time=…' line")
    # ru_maxrss of the children is the largest so far: a run below the earlier peak reads
    # as that peak, so each command is measured in a child of its own.
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return float(match.group(2)), int(match.group(1)), max(peak, before) / 1024.0


def measured(command: list[str]) -> tuple[float, int, float]:
    """`run` in a fresh Python child, so that its peak memory is its own."""
    child = [sys.executable, __file__, "--measure", "--", *command]
    done = subprocess.run(child, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(done.stderr.strip())
    seconds, points, peak = done.stdout.split()
    return float(seconds), int(points), float(peak)


def native_build(root: Path) -> Path:
    """`experiments` built for this processor (as the peers are), in `target/native`."""
    env = dict(os.environ, RUSTFLAGS=f"{os.environ.get('RUSTFLAGS', '')} -C target-cpu=native".strip(),
               CARGO_TARGET_DIR=str(root / "target" / "native"))
    command = ["cargo", "build", "--release", "-p", "experiments", "--all-features"]
    print(f"building: RUSTFLAGS='{env['RUSTFLAGS']}' {' '.join(command)}", file=sys.stderr)
    done = subprocess.run(command, cwd=root, env=env)
    if done.returncode != 0:
        sys.exit("error: the native build of experiments failed")
    return root / "target" / "native" / "release" / "experiments"


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--measure":
        seconds, points, peak = run(sys.argv[3:])
        print(seconds, points, peak)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tph", type=Path, help="a copy of thinks/poisson-disk-sampling 0.4")
    parser.add_argument("--thinks03", type=Path, help="a copy of thinks/poisson-disk-sampling at v0.3")
    parser.add_argument("--cy", type=Path, help="a copy of cyCodeBase")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="2d,3d,se")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2,
                        help="threads of the chunked workloads (2d-cores, 3d-cores)")
    parser.add_argument("--se-n", type=int, default=1_000_000,
                        help="points sample elimination keeps (of 5 times as many)")
    parser.add_argument("--experiments", type=Path,
                        default=Path(__file__).resolve().parents[2] / "target/release/experiments")
    parser.add_argument("--native", action="store_true",
                        help="also time poisson-nd built for this processor, as the peers are")
    args = parser.parse_args()
    if not args.experiments.exists():
        sys.exit(f"error: {args.experiments} not found: cargo build --release -p experiments")
    ours_builds = [("poisson-nd", str(args.experiments))]
    if args.native:
        ours_builds.append(("poisson-nd native", str(native_build(Path(__file__).resolve().parents[2]))))
    only = set(args.only.split(","))
    work = Path(tempfile.mkdtemp(prefix="cpp-peers-"))
    workloads: list[tuple[str, list[str], list[tuple[str, list[str]]]]] = []
    tph = thinks03 = cy = None
    bridson = {"2d", "3d", "2d-recent", "3d-recent", "2d-cores", "3d-cores"}
    if args.tph is not None and only & bridson:
        header = args.tph / "include"
        if not (header / "thinks" / "tph_poisson.h").exists():
            sys.exit(f"error: {args.tph}: no include/thinks/tph_poisson.h (tph_poisson 0.4)")
        tph = build(TPH_DRIVER, ".c", [os.environ.get("CC", "cc"), "-std=c11"], header, work)
    if args.thinks03 is not None and only & bridson:
        if not (args.thinks03 / "thinks" / "poisson_disk_sampling" / "poisson_disk_sampling.h").exists():
            sys.exit(f"error: {args.thinks03}: no thinks/poisson_disk_sampling/poisson_disk_sampling.h (v0.3)")
        thinks03 = build(THINKS03_DRIVER, ".03.cpp", [os.environ.get("CXX", "c++"), "-std=c++17"],
                         args.thinks03, work)
    if args.cy is not None and "se" in only:
        if not (args.cy / "cySampleElim.h").exists():
            sys.exit(f"error: {args.cy}: no cySampleElim.h")
        cy = build(CY_DRIVER, ".cpp", [os.environ.get("CXX", "c++"), "-std=c++17"], args.cy, work)
    ours, out = "{ours}", "{out}"
    # Bridson as pinned (`2d`, `3d`) and with the front worked among its newest points
    # (`2d-recent`, `3d-recent`: the sampler bridson-recent, other points).
    for dims, radius in (("2d", RADIUS_2D), ("3d", RADIUS_3D)):
        for key, sampler, note in ((dims, "bridson", ""),
                                   (f"{dims}-recent", "bridson-recent", ", recent front")):
            if key not in only:
                continue
            d = dims[0]
            workloads.append((
                f"Bridson {d}D{note}, r = {radius}",
                [ours, "sample", sampler, "--dim", d, "--radius", str(radius), "--seed", "1",
                 "--out", out],
                [(label, [str(binary), d, str(radius)])
                 for label, binary in (("thinks 0.3 (C++)", thinks03), ("tph_poisson 0.4 (C)", tph))
                 if binary],
            ))
    # Chunked Bridson on one thread and on all cores, beside the peers' one core: the
    # speed-up of the cores is ours over ours, the ratios to the peers are on record.
    for dims, radius in (("2d", RADIUS_2D), ("3d", RADIUS_3D)):
        if f"{dims}-cores" in only:
            d = dims[0]
            peers = [(label, [str(binary), d, str(radius)])
                     for label, binary in (("thinks 0.3 (C++)", thinks03), ("tph_poisson 0.4 (C)", tph))
                     if binary]
            for threads in (1, args.threads):
                workloads.append((
                    f"chunked Bridson {d}D, r = {radius}, {threads} thread{'s' * (threads > 1)}",
                    [ours, "sample", "chunked-bridson", "--dim", d, "--radius", str(radius),
                     "--threads", str(threads), "--seed", "1", "--out", out],
                    peers,
                ))
    maximal = f"maximal sampling 2D, r = {RADIUS_2D}"
    if "maximal" in only:
        workloads.append((
            maximal,
            [ours, "sample", "maximal", "--dim", "2", "--radius", str(RADIUS_2D), "--seed", "1",
             "--out", out],
            [],
        ))
    if "se" in only:
        workloads.append((
            f"sample elimination, {args.se_n} of {5 * args.se_n}, 2D torus",
            [ours, "sample", "sample-elimination", "--n", str(args.se_n), "--periodic",
             "--seed", "1", "--out", out],
            [("cySampleElim", [str(cy), str(args.se_n)])] if cy else [],
        ))
    results: dict[tuple[str, str], list[tuple[float, int, float]]] = {}
    for round_ in range(args.rounds):
        for name, ours_command, peers in workloads:
            contenders = [(who, [part.format(ours=binary, out=str(work / f"points{i}.npy"))
                                 for part in ours_command])
                          for i, (who, binary) in enumerate(ours_builds)]
            for who, command in [*contenders, *peers]:
                result = measured(command)
                results.setdefault((name, who), []).append(result)
                print(f"round {round_ + 1} {name} {who}: {result[0]:.3f} s, {result[1]} points, "
                      f"{result[2]:.0f} MB", file=sys.stderr)
            outputs = [(work / f"points{i}.npy").read_bytes() for i in range(len(ours_builds))]
            if any(o != outputs[0] for o in outputs[1:]):
                sys.exit(f"error: {name}: the builds of poisson-nd wrote different points")

    def median(name: str, who: str) -> tuple[float, int, float]:
        runs = results[(name, who)]
        return (statistics.median(r[0] for r in runs), runs[0][1],
                statistics.median(r[2] for r in runs))

    print(f"{args.rounds} interleaved rounds, medians; seconds of the sampling alone, peak MB")
    print()
    if len(ours_builds) > 1:
        print("poisson-nd's builds wrote the same points in every run")
    print()
    def rounds_range(name: str, who: str, build_name: str) -> str:
        ratios = [peer[0] / ours[0]
                  for peer, ours in zip(results[(name, who)], results[(name, build_name)])]
        return f"{min(ratios):.2f}–{max(ratios):.2f}×"

    print("| workload | peer | peer s (points, MB) | build | poisson-nd s (points, MB) | peer ÷ poisson-nd "
          "| rounds |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, _, peers in workloads:
        for build_name, _ in ours_builds:
            ours_s, ours_n, ours_mb = median(name, build_name)
            for who, _ in peers or [("—", [])]:
                if who == "—":
                    print(f"| {name} | — | — | {build_name} | {ours_s:.3f} ({ours_n}, {ours_mb:.0f}) | — | — |")
                    continue
                s_, n_, mb = median(name, who)
                print(f"| {name} | {who} | {s_:.3f} ({n_}, {mb:.0f}) | {build_name} | "
                      f"{ours_s:.3f} ({ours_n}, {ours_mb:.0f}) | {s_ / ours_s:.2f}× | "
                      f"{rounds_range(name, who, build_name)} |")
    if "maximal" in only and "2d" in only:
        for build_name, _ in ours_builds:
            print(f"\n{maximal}, {build_name}: "
                  f"{median(maximal, build_name)[0] / median(f'Bridson 2D, r = {RADIUS_2D}', build_name)[0]:.2f}× "
                  "Bridson's time at the same radius (medians)")
    chunked = [name for name, _, _ in workloads if name.startswith("chunked")]
    for one, many in zip(chunked[::2], chunked[1::2]):
        for build_name, _ in ours_builds:
            speedups = [a[0] / b[0] for a, b in zip(results[(one, build_name)],
                                                     results[(many, build_name)])]
            print(f"\n{many}, {build_name}: "
                  f"{median(one, build_name)[0] / median(many, build_name)[0]:.2f}× "
                  f"its one thread (medians; rounds {min(speedups):.2f}–{max(speedups):.2f}×)")


if __name__ == "__main__":
    main()
