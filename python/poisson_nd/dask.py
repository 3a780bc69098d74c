"""Chunked worlds and large box fills on Dask: the same points as one process, block by block.

A world's chunks are split into blocks of ``block`` chunks along each axis, one Dask task (or
one chain of tasks) per block. Two modes compute a block:

- ``"cone"``: each task decides its block's whole dependency cone with a fresh ``World``:
  nothing passes between tasks, every task can be retried anywhere; the cells around the
  block are decided by its neighbours' tasks too (the *recomputation factor*).
- ``"staged"``: the ``d + 1`` strata are stages; a block's stage ``k`` decides its cells of
  stratum ``k`` from its own earlier cells and the border points its neighbours' earlier
  stages export to it (as Dask task results). Every cell is decided once; the points
  exchanged are reported.

Whatever the mode, the block size, the number of workers or the order the scheduler picks,
the points of every chunk are bit-identical to ``World.block`` and to ``experiments world``.

``WorldPoints.to_files`` writes one file per block (``.npy`` holding a structured array, or
Parquet) from the workers, each whole or not at all, with a sidecar recording its hash, and
a ``manifest.json``; a run restarted into the same directory skips the blocks already
complete. ``fill_box`` fills a finite box (``ChunkedBridson``'s points) this way.

Needs ``dask`` (``pip install './python[dask]'``); ``to_dask_dataframe`` and Parquet need
pandas and pyarrow too.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

try:
    import dask
    from dask.delayed import Delayed
    from dask.highlevelgraph import HighLevelGraph
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "poisson_nd.dask needs dask and distributed: pip install 'poisson-nd[dask]'"
    ) from error

from ._native import World, chunked_world_seed

__all__ = ["MODES", "DEFAULT_MODE", "DEFAULT_BLOCK", "Block", "WorldPoints", "world_points", "fill_box"]

#: The ways a block is computed.
MODES = ("cone", "staged")
#: The mode used when none is given: the faster in every measurement of docs/scaling.md, "On
#: Dask" (2D: 1.2 to 1.3 times the cone's speed at every block size; 3D: 2 to 4.5 times up
#: to blocks of 3³ chunks). ``fill_box`` uses the cone, whose memory per task is bounded by
#: the block.
DEFAULT_MODE = "staged"
#: Chunks per block along each axis when none is given.
DEFAULT_BLOCK = 8
#: What the file formats are called.
FORMATS = ("npy", "parquet")

#: A world's settings: ``World``'s constructor arguments, or a ``World``.
WorldLike = Union[World, Mapping[str, Any]]
Cells = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]
BlockPoints = tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], dict[str, int]]

_SETTING_KEYS = (
    "d",
    "radius",
    "seed",
    "k",
    "chunk_side",
    "l_bounds",
    "u_bounds",
    "origin",
    "periodic",
    "max_points",
)


def _settings_of(world: WorldLike) -> dict[str, Any]:
    """The world's constructor arguments, checked by building it once here (so that bad
    settings raise before any task runs), without ``threads``."""
    if isinstance(world, World):
        settings = dict(world.settings)
    elif isinstance(world, Mapping):
        unknown = sorted(set(world) - set(_SETTING_KEYS) - {"threads"})
        if unknown:
            raise TypeError(f"unknown world settings: {', '.join(unknown)} (known: {', '.join(_SETTING_KEYS)})")
        settings = dict(World(**{key: value for key, value in world.items() if key != "threads"}).settings)
    else:
        raise TypeError(f"world must be a poisson_nd.World or a dict of its settings, got {type(world).__name__}")
    settings.pop("threads", None)
    return {key: value for key, value in settings.items() if value is not None}


def _world(settings: Mapping[str, Any], threads: Optional[int]) -> World:
    return World(**settings, threads=threads)


def _ints(values: Sequence[int], d: int, what: str) -> tuple[int, ...]:
    out = tuple(int(v) for v in values)
    if len(out) != d:
        raise ValueError(f"{what} must have {d} coordinates, got {len(out)}")
    return out


@dataclass(frozen=True)
class Block:
    """A block of chunks: its index along each axis, its chunks ``lo <= c < hi``, the cells
    it owns in the range's plan, and the name of its file."""

    index: tuple[int, ...]
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    cells: int

    @property
    def name(self) -> str:
        return "block-" + "-".join(f"{i:05d}" for i in self.index)


# Tasks. Module-level functions, so that workers unpickle them by name.


def _cone_block(settings: Mapping[str, Any], block: Block, threads: Optional[int]) -> BlockPoints:
    world = _world(settings, threads)
    points, chunks = world.block(list(block.lo), list(block.hi))
    stats = {"points": len(points), "cells_owned": block.cells, "cells_decided": world.stats()["cells_decided"], "points_exchanged": 0}
    return points, chunks, stats


def _plan(settings: Mapping[str, Any], plan: tuple[Any, ...], threads: Optional[int]) -> Any:
    """The range's staged plan, kept per worker process: a staged run has many small tasks,
    and a world (with its thread pool) and a plan cost more to build than most of them."""
    return _cached_plan(json.dumps(settings, sort_keys=True), json.dumps(plan), threads)


@functools.lru_cache(maxsize=8)
def _cached_plan(settings: str, plan: str, threads: Optional[int]) -> Any:
    lo, hi, side = json.loads(plan)
    return _world(json.loads(settings), threads).stages(lo, hi, side)


def _stage(
    settings: Mapping[str, Any],
    plan: tuple[Any, ...],
    block: Block,
    stratum: int,
    threads: Optional[int],
    own: list[tuple[Cells, int]],
    arrived: list[Cells],
    earlier: list[Cells],
) -> tuple[Cells, int]:
    """Block ``block``'s cells of ``stratum`` (from its own earlier stages and the exports
    to it) and the points that arrived for this stage."""
    stages = _plan(settings, plan, threads)
    cells = stages.decide(list(block.index), stratum, [c for c, _ in own] + arrived + earlier)
    return cells, sum(len(points) for _, _, points in arrived)


def _export(settings: Mapping[str, Any], plan: tuple[Any, ...], stage: tuple[Cells, int], to: Block) -> Cells:
    return _plan(settings, plan, 1).export([stage[0]], list(to.index))  # type: ignore[no-any-return]


def _overlap(settings: Mapping[str, Any], plan: tuple[Any, ...], stages: list[tuple[Cells, int]], to: Block) -> Cells:
    return _plan(settings, plan, 1).overlap([c for c, _ in stages], list(to.index))  # type: ignore[no-any-return]


def _assemble(
    settings: Mapping[str, Any],
    plan: tuple[Any, ...],
    block: Block,
    stages: list[tuple[Cells, int]],
    overlaps: list[Cells],
) -> BlockPoints:
    own = [cells for cells, _ in stages]
    points, chunks = _plan(settings, plan, 1).chunks(list(block.index), own + overlaps)
    received = sum(n for _, n in stages) + sum(len(p) for _, _, p in overlaps)
    decided = sum(len(keys) for keys, _, _ in own)
    stats = {"points": len(points), "cells_owned": block.cells, "cells_decided": decided, "points_exchanged": received}
    return points, chunks, stats


def _table(points: npt.NDArray[np.float64], chunks: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
    """The rows x0.., c0.. as a structured array."""
    d = points.shape[1]
    dtype = [(f"x{i}", "<f8") for i in range(d)] + [(f"c{i}", "<i8") for i in range(d)]
    table = np.empty(len(points), dtype=dtype)
    for i in range(d):
        table[f"x{i}"] = points[:, i]
        table[f"c{i}"] = chunks[:, i]
    return table


def _frame(result: BlockPoints) -> Any:
    import pandas as pd

    return pd.DataFrame(_table(result[0], result[1]))


def _encode(table: npt.NDArray[Any], file_format: str) -> bytes:
    buffer = io.BytesIO()
    if file_format == "npy":
        np.save(buffer, table, allow_pickle=False)
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        columns = {name: table[name] for name in table.dtype.names or ()}
        pq.write_table(pa.table(columns), buffer)
    return buffer.getvalue()


def _write_whole(path: str, data: bytes) -> None:
    """Writes ``data`` to ``path`` whole or not at all: a hidden temporary file in the same
    directory, flushed to disk, then renamed over ``path``."""
    directory, name = os.path.split(path)
    temporary = os.path.join(directory, f".{name}.tmp-{uuid.uuid4().hex}")
    try:
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def _remove_temporaries(directory: str) -> None:
    """Removes the hidden temporary files of block, run and manifest writes in
    ``directory``: those of a killed worker, or of a run stopped earlier."""
    for name in os.listdir(directory):
        if name.startswith((".block-", ".run.json", ".manifest.json")) and ".tmp-" in name:
            try:
                os.remove(os.path.join(directory, name))
            except FileNotFoundError:
                pass


def _write_block(result: BlockPoints, directory: str, block: Block, file_format: str) -> dict[str, Any]:
    """Writes a block's file, then its sidecar; returns the record kept in the manifest."""
    points, chunks, stats = result
    data = _encode(_table(points, chunks), file_format)
    file = f"{block.name}.{file_format}"
    _write_whole(os.path.join(directory, file), data)
    record = {
        "index": list(block.index),
        "lo": list(block.lo),
        "hi": list(block.hi),
        "file": file,
        "points": int(len(points)),
        "sha256": hashlib.sha256(data).hexdigest(),
        "stats": stats,
    }
    _write_whole(os.path.join(directory, f"{block.name}.json"), json.dumps(record, indent=1).encode())
    return record


def _cone_block_file(settings: Mapping[str, Any], block: Block, threads: Optional[int], directory: str, file_format: str) -> dict[str, Any]:
    # One task computes and writes, so that a block's points never leave its worker.
    return _write_block(_cone_block(settings, block, threads), directory, block, file_format)


def _sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for piece in iter(lambda: file.read(1 << 20), b""):
            digest.update(piece)
    return digest.hexdigest()


class WorldPoints:
    """The points of the chunks ``lo <= c < hi`` of a world as a Dask computation, one task
    (cone) or one chain of tasks (staged) per block. Made by ``world_points``."""

    def __init__(
        self,
        settings: dict[str, Any],
        lo: tuple[int, ...],
        hi: tuple[int, ...],
        block: tuple[int, ...],
        mode: str,
        threads: Optional[int],
    ) -> None:
        self.settings = settings
        self.lo, self.hi, self.block, self.mode, self.threads = lo, hi, block, mode, threads
        plan = _world(settings, 1).stages(list(lo), list(hi), list(block))
        self._plan = plan
        self.blocks: list[Block] = []
        for index in np.ndindex(*plan.shape):
            chunk_lo, chunk_hi = plan.chunks_of(list(index))
            cells = len(plan.cells(list(index)))
            self.blocks.append(Block(tuple(int(i) for i in index), tuple(chunk_lo), tuple(chunk_hi), cells))
        self._token = dask.base.tokenize(settings, lo, hi, block, threads)
        self._tasks: Optional[dict[tuple[int, ...], Delayed]] = None

    @property
    def d(self) -> int:
        return int(self.settings["d"])

    def __repr__(self) -> str:
        return f"WorldPoints(lo={list(self.lo)}, hi={list(self.hi)}, block={list(self.block)}, mode={self.mode!r}, blocks={len(self.blocks)})"

    def _block_tasks(self, only: Optional[Sequence[Block]] = None) -> dict[tuple[int, ...], Delayed]:
        """One delayed ``(points, chunks, stats)`` per block."""
        if self.mode == "cone":
            return {
                b.index: dask.delayed(_cone_block, pure=True)(
                    self.settings, b, self.threads, dask_key_name=f"poisson-nd-cone-{b.name}-{self._token}"
                )
                for b in (only if only is not None else self.blocks)
            }
        if self._tasks is None:
            self._tasks = self._staged_tasks()
        if only is None:
            return self._tasks
        return {b.index: self._tasks[b.index] for b in only}

    def _staged_tasks(self) -> dict[tuple[int, ...], Delayed]:
        """The staged run as one task graph (a dict of tasks, Dask's "custom graph": keys
        named in a task's arguments, lists included, stand for their results). Built as a
        dict rather than call by call with ``dask.delayed``, whose per-call graph merging
        cost more than the tasks themselves at a few thousand of them."""
        plan = (self.lo, self.hi, self.block)
        by_index = {b.index: b for b in self.blocks}
        neighbours = {b.index: [tuple(n) for n in self._plan.neighbours(list(b.index))] for b in self.blocks}
        name = f"poisson-nd-staged-{self._token}"
        graph: dict[str, Any] = {}

        def stage(k: int, b: tuple[int, ...]) -> str:
            return f"{name}-stage{k}-{by_index[b].name}"

        def export(k: int, sender: tuple[int, ...], receiver: tuple[int, ...]) -> str:
            return f"{name}-export{k}-{by_index[sender].name}-to-{by_index[receiver].name}"

        for k in range(self.d + 1):
            for b in self.blocks:
                own = [stage(j, b.index) for j in range(k)]
                arrived = [export(k - 1, n, b.index) for n in neighbours[b.index]] if k > 0 else []
                earlier = [export(j, n, b.index) for j in range(k - 1) for n in neighbours[b.index]]
                graph[stage(k, b.index)] = (_stage, self.settings, plan, b, k, self.threads, own, arrived, earlier)
                if k < self.d:
                    for n in neighbours[b.index]:
                        graph[export(k, n, b.index)] = (_export, self.settings, plan, stage(k, n), b)
        for b in self.blocks:
            overlaps = []
            for sender in (tuple(s) for s in self._plan.chunk_senders(list(b.index))):
                key = f"{name}-overlap-{by_index[sender].name}-to-{b.name}"
                graph[key] = (_overlap, self.settings, plan, [stage(k, sender) for k in range(self.d + 1)], b)
                overlaps.append(key)
            own = [stage(k, b.index) for k in range(self.d + 1)]
            graph[f"{name}-block-{b.name}"] = (_assemble, self.settings, plan, b, own, overlaps)
        layers = HighLevelGraph.from_collections(name, graph, dependencies=())
        return {b.index: Delayed(f"{name}-block-{b.name}", layers, layer=name) for b in self.blocks}

    def to_delayed(self) -> list[Delayed]:
        """One ``dask.delayed`` per block, in block order, computing ``(points, chunks,
        stats)``: the block's points ``(n, d)``, the chunk of each ``(n, d)`` int64 (as
        ``World.block``), and counts (points, cells owned and decided, points received)."""
        tasks = self._block_tasks()
        return [tasks[b.index] for b in self.blocks]

    def to_dask_array(self) -> tuple[Any, Any]:
        """``(points, chunks)`` as two ``dask.array``s of shape ``(n, d)`` (float64, int64),
        one array chunk per block (sizes unknown until computed)."""
        import dask.array as da

        d = self.d
        points = [da.from_delayed(t[0], shape=(np.nan, d), dtype=np.float64) for t in self.to_delayed()]
        chunks = [da.from_delayed(t[1], shape=(np.nan, d), dtype=np.int64) for t in self.to_delayed()]
        return da.concatenate(points), da.concatenate(chunks)

    def to_dask_dataframe(self) -> Any:
        """The points as a ``dask.dataframe`` with columns ``x0..`` (float64) and ``c0..``
        (int64, the chunk), one partition per block."""
        import dask.dataframe as dd
        import pandas as pd

        meta = pd.DataFrame(_table(np.empty((0, self.d)), np.empty((0, self.d), dtype=np.int64)))
        parts = [dask.delayed(_frame, pure=True)(t) for t in self.to_delayed()]
        return dd.from_delayed(parts, meta=meta, verify_meta=False)

    def compute(self, **kwargs: Any) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], dict[str, Any]]:
        """Computes every block (``kwargs`` go to ``dask.compute``: ``scheduler=``,
        ``retries=``, …; a ``distributed.Client`` set as default is used) and returns
        ``(points, chunks, stats)`` in block order."""
        start = time.perf_counter()
        results = dask.compute(*self.to_delayed(), **kwargs)
        points = np.concatenate([r[0] for r in results]) if results else np.empty((0, self.d))
        chunks = np.concatenate([r[1] for r in results]) if results else np.empty((0, self.d), dtype=np.int64)
        stats = self._stats([r[2] for r in results], time.perf_counter() - start)
        return points, chunks, stats

    def _stats(self, per_block: Sequence[Mapping[str, int]], seconds: float) -> dict[str, Any]:
        total = {key: int(sum(s[key] for s in per_block)) for key in ("points", "cells_owned", "cells_decided", "points_exchanged")}
        owned = total["cells_owned"]
        return {
            "mode": self.mode,
            "blocks": len(per_block),
            **total,
            "recomputation": total["cells_decided"] / owned if owned else 1.0,
            "seconds": seconds,
        }

    def to_files(self, directory: Union[str, os.PathLike[str]], *, format: str = "npy", **kwargs: Any) -> dict[str, Any]:
        """Writes one file per block into ``directory`` from the workers (the directory must
        be one they all see: a local path for a LocalCluster, shared storage on a cluster),
        then ``manifest.json``; returns the manifest.

        Each block file (``block-<i>-<j>….npy``: a structured array with fields ``x0..`` and
        ``c0..``; or ``.parquet`` with those columns) appears whole or not at all, followed by
        a sidecar ``….json`` with its point count and SHA-256. A run into a directory that
        holds part of the same run (same settings, range and block size) skips the blocks
        whose file matches its sidecar's hash, and computes the rest; a directory holding
        another run is refused. Temporary files a killed worker left are removed once every
        block is written. ``kwargs`` go to ``dask.compute``."""
        return self._to_files(directory, format, {}, kwargs)

    def _to_files(
        self, directory: Union[str, os.PathLike[str]], format: str, extra: Mapping[str, Any], kwargs: Mapping[str, Any]
    ) -> dict[str, Any]:
        if format not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {format!r}")
        directory = os.fspath(directory)
        os.makedirs(directory, exist_ok=True)
        _remove_temporaries(directory)
        run = {"settings": self.settings, "lo": list(self.lo), "hi": list(self.hi), "block": list(self.block), "format": format}
        run_path = os.path.join(directory, "run.json")
        if os.path.exists(run_path):
            with open(run_path) as file:
                before = json.load(file)
            for key in run:
                if before.get(key) != run[key]:
                    raise ValueError(
                        f"{directory} holds another run ({key}: {before.get(key)!r}, now {run[key]!r}); "
                        "use an empty directory"
                    )
        else:
            _write_whole(run_path, json.dumps(run, indent=1).encode())
        start = time.perf_counter()
        done: dict[tuple[int, ...], dict[str, Any]] = {}
        for b in self.blocks:
            record = self._complete(directory, b, format)
            if record is not None:
                done[b.index] = record
        todo = [b for b in self.blocks if b.index not in done]
        if self.mode == "cone":
            writes = [
                dask.delayed(_cone_block_file, pure=True)(
                    self.settings, b, self.threads, directory, format,
                    dask_key_name=f"poisson-nd-cone-file-{b.name}-{self._token}",
                )
                for b in todo
            ]
        else:
            tasks = self._block_tasks(todo)
            writes = [
                dask.delayed(_write_block, pure=True)(
                    tasks[b.index], directory, b, format, dask_key_name=f"poisson-nd-file-{b.name}-{self._token}"
                )
                for b in todo
            ]
        written = dask.compute(*writes, **kwargs) if writes else ()
        # A worker killed while writing leaves its temporary file behind (its clean-up never
        # ran); the block was then written again elsewhere, so the leftover is garbage.
        _remove_temporaries(directory)
        for b, record in zip(todo, written):
            done[b.index] = record
        records = [done[b.index] for b in self.blocks]
        manifest = {
            "format": "poisson-nd world blocks",
            "version": 1,
            **run,
            **extra,
            "mode": self.mode,
            "blocks": records,
            "points": sum(r["points"] for r in records),
            "skipped": len(self.blocks) - len(todo),
            "stats": self._stats([r["stats"] for r in written], time.perf_counter() - start),
        }
        _write_whole(os.path.join(directory, "manifest.json"), json.dumps(manifest, indent=1).encode())
        return manifest

    @staticmethod
    def _complete(directory: str, block: Block, file_format: str) -> Optional[dict[str, Any]]:
        """A block's record if its file and sidecar are there and the hashes agree."""
        sidecar = os.path.join(directory, f"{block.name}.json")
        try:
            with open(sidecar) as file:
                record: dict[str, Any] = json.load(file)
            path = os.path.join(directory, record["file"])
            if record["file"] == f"{block.name}.{file_format}" and _sha256(path) == record["sha256"]:
                return record
        except (OSError, ValueError, KeyError, TypeError):
            pass
        return None


def world_points(
    world: WorldLike,
    lo: Sequence[int],
    hi: Sequence[int],
    *,
    block: Union[int, Sequence[int]] = DEFAULT_BLOCK,
    mode: str = DEFAULT_MODE,
    threads: Optional[int] = 1,
) -> WorldPoints:
    """The points of the chunks ``lo <= c < hi`` of ``world`` (a ``World`` or a dict of its
    constructor arguments) as a Dask computation, in blocks of ``block`` chunks along each
    axis (an int or one per axis), computed by ``mode`` (``"staged"`` or ``"cone"``).

    Each task runs the library on ``threads`` threads (default 1: the workers' threads are
    Dask's parallelism; ``None`` for all cores). Nothing is computed until ``compute``,
    ``to_files``, ``to_dask_array`` or ``to_dask_dataframe`` is used."""
    settings = _settings_of(world)
    d = int(settings["d"])
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    side = (int(block),) * d if isinstance(block, (int, np.integer)) else _ints(block, d, "block")
    if threads is not None and int(threads) < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    return WorldPoints(settings, _ints(lo, d, "lo"), _ints(hi, d, "hi"), side, mode, threads)


def fill_box(
    d: int,
    radius: float,
    l_bounds: Sequence[float],
    u_bounds: Sequence[float],
    directory: Union[str, os.PathLike[str]],
    *,
    rng: int = 0,
    periodic: bool = False,
    k: Optional[int] = None,
    chunk_side: Optional[float] = None,
    max_points: Optional[int] = None,
    block: Union[int, Sequence[int]] = DEFAULT_BLOCK,
    mode: str = "cone",
    format: str = "npy",
    threads: Optional[int] = 1,
    **kwargs: Any,
) -> dict[str, Any]:
    """Fills the box ``[l_bounds, u_bounds)`` at ``radius`` on the cluster and writes it to
    ``directory`` block by block (as ``WorldPoints.to_files``); returns the manifest.

    The points are those of ``ChunkedBridson(d, radius=radius, l_bounds=…, u_bounds=…,
    periodic=…, chunk_side=…, rng=rng).fill_space()``, grouped by chunk instead of by cell:
    the chunks of the ``World`` with that box and the world seed the engine draws from
    ``rng`` (``chunked_world_seed``). A periodic box needs one chunk side that tiles every
    axis. In ``"cone"`` mode (the default here) a task holds one block's dependency cone and
    writes it, so the memory per worker is set by ``block``, not by the box; a staged run
    keeps stage results until their consumers are done, which Dask's ordering keeps near the
    front but does not bound."""
    lower, upper = [float(v) for v in l_bounds], [float(v) for v in u_bounds]
    if len(lower) != d or len(upper) != d:
        raise ValueError(f"l_bounds and u_bounds must have {d} coordinates")
    extent = [u - l for l, u in zip(lower, upper)]
    if not all(np.isfinite(e) and e > 0 for e in extent):
        raise ValueError(f"u_bounds must be above l_bounds on every axis, got {lower} and {upper}")
    probe = World(d, radius, 0, chunk_side=chunk_side)
    side = probe.chunk_side[0]
    if periodic:
        # As ChunkedBridson: whole chunks, two at least, no smaller than the side asked for.
        counts = [max(2, int(np.floor(e / side))) for e in extent]
        sides = [e / n for e, n in zip(extent, counts)]
        if max(sides) - min(sides) > 1e-12 * max(sides):
            raise ValueError(
                f"a periodic box whose axes need different chunk sides ({sides}) cannot be a world; "
                "choose extents that one chunk side tiles"
            )
        side = sides[0]
    else:
        counts = [max(1, int(np.ceil(e / side))) for e in extent]
    settings: dict[str, Any] = {
        "d": d,
        "radius": radius,
        "seed": chunked_world_seed(rng),
        "k": k,
        "chunk_side": side,
        "l_bounds": lower,
        "u_bounds": upper,
        "periodic": periodic,
        "max_points": max_points,
    }
    points = world_points(
        {key: value for key, value in settings.items() if value is not None},
        [0] * d,
        counts,
        block=block,
        mode=mode,
        threads=threads,
    )
    return points._to_files(directory, format, {"rng": rng}, kwargs)
