"""poisson_nd.dask on a real LocalCluster (two worker processes on the loopback address):
the points of every block equal one process's, for both modes and two block sizes in 2D and
3D; files appear whole, a restart skips what is complete, a killed worker changes nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import poisson_nd as pnd

pdask = pytest.importorskip("poisson_nd.dask")
distributed = pytest.importorskip("distributed")

# Small worlds with many chunks: 2D chunks of 8 r, 3D chunks of 5 r (the smallest side in 3D
# is 4.83 r).
WORLD_2D = {"d": 2, "radius": 1.0, "seed": 5, "chunk_side": 8.0}
RANGE_2D = ([-3, -2], [5, 4])
WORLD_3D = {"d": 3, "radius": 1.0, "seed": 8, "chunk_side": 5.0}
RANGE_3D = ([0, -1, 0], [3, 2, 2])


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=":0", silence_logs=50,
    )
    with distributed.Client(cluster) as client:
        yield client
    cluster.close()


def one_process(settings, blocks):
    """Each block's (points, chunks) from a single World in this process."""
    world = pnd.World(**settings)
    return [world.block(list(b.lo), list(b.hi)) for b in blocks]


def concatenated(parts, d):
    points = np.concatenate([p for p, _ in parts]) if parts else np.empty((0, d))
    chunks = np.concatenate([c for _, c in parts]) if parts else np.empty((0, d), dtype=np.int64)
    return points, chunks


@pytest.mark.parametrize("settings,bounds,blocks", [
    (WORLD_2D, RANGE_2D, (2, 3)),
    (WORLD_3D, RANGE_3D, (1, 2)),
])
@pytest.mark.parametrize("mode", pdask.MODES)
def test_every_mode_and_block_size_gives_one_process_points(client, settings, bounds, blocks, mode):
    lo, hi = bounds
    for block in blocks:
        work = pdask.world_points(settings, lo, hi, block=block, mode=mode)
        points, chunks, stats = work.compute()
        expected_points, expected_chunks = concatenated(one_process(settings, work.blocks), settings["d"])
        assert points.shape[0] > 100
        assert np.array_equal(points, expected_points)  # bit for bit, in the same order
        assert np.array_equal(chunks, expected_chunks)
        assert stats["points"] == len(points) and stats["blocks"] == len(work.blocks)
        if mode == "staged":
            # Every cell of the range's cone once; only border points cross between blocks.
            assert stats["cells_decided"] == stats["cells_owned"]
            assert stats["recomputation"] == 1.0
            # Small blocks of small chunks in 3D receive more than they hold; 2D blocks less.
            assert stats["points_exchanged"] > 0
            assert settings["d"] == 3 or stats["points_exchanged"] < len(points)
        else:
            assert stats["recomputation"] > 1.0 and stats["points_exchanged"] == 0


def test_points_equal_the_command_line(client, run_cli, tmp_path):
    lo, hi = RANGE_2D
    out = tmp_path / "world.csv"
    run_cli("world", "--dim", 2, "--radius", 1.0, "--seed", 5, "--chunk-side", 8.0,
            "--range", ",".join(map(str, lo)) + ":" + ",".join(map(str, hi)), "--out", out)
    rows = np.loadtxt(out, delimiter=",", skiprows=1)
    for mode in pdask.MODES:
        points, chunks, _ = pdask.world_points(WORLD_2D, lo, hi, block=3, mode=mode).compute()
        # The command line lists the range chunk by chunk; the blocks group chunks differently.
        ours = np.hstack([points, chunks.astype(np.float64)])
        assert np.array_equal(np.unique(ours, axis=0), np.unique(rows, axis=0))
        assert len(ours) == len(rows)


def test_world_object_settings_and_thread_counts(client):
    world = pnd.World(2, 1.0, 5, chunk_side=8.0, threads=2)
    assert world.settings["threads"] == 2
    work = pdask.world_points(world, [0, 0], [4, 4], block=2, threads=None)
    assert work.mode == pdask.DEFAULT_MODE == "staged"
    assert work.settings == {"d": 2, "radius": 1.0, "seed": 5, "chunk_side": 8.0}
    points, chunks, _ = work.compute()
    assert np.array_equal(points, concatenated(one_process(WORLD_2D, work.blocks), 2)[0])


def test_periodic_and_closed_boxes(client):
    torus = {"d": 2, "radius": 1.0, "seed": 2, "chunk_side": 8.0,
             "l_bounds": [0.0, 0.0], "u_bounds": [40.0, 32.0], "periodic": True}
    closed = {"d": 2, "radius": 1.0, "seed": 2, "chunk_side": 8.0,
              "l_bounds": [0.5, -1.0], "u_bounds": [30.0, 20.0]}
    for settings, lo, hi in [(torus, [0, 0], [5, 4]), (torus, [1, 1], [4, 3]), (closed, [-1, 0], [5, 4])]:
        for mode in pdask.MODES:
            work = pdask.world_points(settings, lo, hi, block=2, mode=mode)
            points, chunks, _ = work.compute()
            expected = concatenated(one_process(settings, work.blocks), 2)
            assert np.array_equal(points, expected[0]) and np.array_equal(chunks, expected[1])


def test_dask_array_and_dataframe(client):
    lo, hi = RANGE_2D
    work = pdask.world_points(WORLD_2D, lo, hi, block=3)
    expected_points, expected_chunks = concatenated(one_process(WORLD_2D, work.blocks), 2)
    points, chunks = work.to_dask_array()
    points, chunks = points.compute(), chunks.compute()
    assert np.array_equal(points, expected_points) and np.array_equal(chunks, expected_chunks)
    frame = work.to_dask_dataframe().compute()
    assert list(frame.columns) == ["x0", "x1", "c0", "c1"]
    assert [str(t) for t in frame.dtypes] == ["float64", "float64", "int64", "int64"]
    assert np.array_equal(frame[["x0", "x1"]].to_numpy(), expected_points)
    assert np.array_equal(frame[["c0", "c1"]].to_numpy(), expected_chunks)


def read_block(path):
    if path.suffix == ".npy":
        table = np.load(path)
    else:
        import pyarrow.parquet as pq

        table = pq.read_table(path).to_pandas().to_records(index=False)
    names = table.dtype.names
    d = len(names) // 2
    assert list(names) == [f"x{i}" for i in range(d)] + [f"c{i}" for i in range(d)]
    points = np.stack([table[f"x{i}"] for i in range(d)], axis=1)
    chunks = np.stack([table[f"c{i}"] for i in range(d)], axis=1).astype(np.int64)
    return points, chunks


def check_files(directory, settings, manifest):
    """Every block's file equals one process's block and its recorded hash."""
    import hashlib

    world = pnd.World(**settings)
    assert manifest["points"] == sum(r["points"] for r in manifest["blocks"])
    for record in manifest["blocks"]:
        path = directory / record["file"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == record["sha256"]
        points, chunks = read_block(path)
        expected_points, expected_chunks = world.block(record["lo"], record["hi"])
        assert np.array_equal(points, expected_points) and np.array_equal(chunks, expected_chunks)
        assert record["points"] == len(points)
    assert not [n for n in os.listdir(directory) if ".tmp-" in n]


@pytest.mark.parametrize("file_format", pdask.FORMATS)
@pytest.mark.parametrize("mode", pdask.MODES)
def test_files_and_manifest(client, tmp_path, file_format, mode):
    lo, hi = RANGE_3D
    manifest = pdask.world_points(WORLD_3D, lo, hi, block=2, mode=mode).to_files(tmp_path, format=file_format)
    assert manifest == json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["settings"] == WORLD_3D and manifest["mode"] == mode
    assert manifest["lo"] == lo and manifest["hi"] == hi and manifest["block"] == [2, 2, 2]
    assert len(manifest["blocks"]) == 2 * 2 * 1 and manifest["skipped"] == 0
    check_files(tmp_path, WORLD_3D, manifest)


def test_restart_skips_complete_blocks_and_redoes_the_rest(client, tmp_path):
    lo, hi = RANGE_2D
    work = pdask.world_points(WORLD_2D, lo, hi, block=2)
    first = work.to_files(tmp_path)
    records = first["blocks"]
    assert len(records) == 12
    # Lose one file, corrupt another, lose a sidecar, leave a temporary file behind.
    (tmp_path / records[0]["file"]).unlink()
    corrupt = tmp_path / records[1]["file"]
    corrupt.write_bytes(corrupt.read_bytes()[:-8] + b"\0" * 8)
    (tmp_path / (records[2]["file"].rsplit(".", 1)[0] + ".json")).unlink()
    (tmp_path / ".block-00000-00000.npy.tmp-0123").write_bytes(b"partial")
    untouched = {r["file"]: os.stat(tmp_path / r["file"]).st_mtime_ns for r in records[3:]}
    second = pdask.world_points(WORLD_2D, lo, hi, block=2, mode="staged").to_files(tmp_path)
    assert second["skipped"] == 9 and second["stats"]["blocks"] == 3
    assert {r["file"]: os.stat(tmp_path / r["file"]).st_mtime_ns for r in records[3:]} == untouched
    check_files(tmp_path, WORLD_2D, second)
    # Another run into the same directory is refused, not mixed in.
    with pytest.raises(ValueError, match="holds another run"):
        pdask.world_points({**WORLD_2D, "seed": 6}, lo, hi, block=2).to_files(tmp_path)
    with pytest.raises(ValueError, match="holds another run"):
        pdask.world_points(WORLD_2D, lo, hi, block=3).to_files(tmp_path)


CRASHING_RUN = textwrap.dedent("""
    import sys
    import poisson_nd.dask as pdask
    settings = {"d": 2, "radius": 1.0, "seed": 5, "chunk_side": 16.0}
    pdask.world_points(settings, [0, 0], [16, 16], block=2).to_files(sys.argv[1], scheduler="synchronous")
""")


def test_a_run_killed_midway_leaves_whole_files_and_restarts(tmp_path):
    settings = {"d": 2, "radius": 1.0, "seed": 5, "chunk_side": 16.0}
    process = subprocess.Popen([sys.executable, "-c", CRASHING_RUN, str(tmp_path)])
    try:
        deadline = time.monotonic() + 120
        while len(list(tmp_path.glob("block-*.json"))) < 3:
            assert process.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.005)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
    assert process.returncode == -signal.SIGKILL
    assert not (tmp_path / "manifest.json").exists()
    # Whatever is there is whole: every block file present reads back as its block.
    world = pnd.World(**settings)
    present = sorted(tmp_path.glob("block-*.npy"))
    assert 3 <= len(present) < 64
    for path in present:
        record = json.loads(path.with_suffix(".json").read_text()) if path.with_suffix(".json").exists() else None
        points, _ = read_block(path)
        lo = [int(v) * 2 for v in path.stem.split("-")[1:]]
        assert np.array_equal(points, world.block(lo, [c + 2 for c in lo])[0])
        if record is not None:
            assert record["points"] == len(points)
    manifest = pdask.world_points(settings, [0, 0], [16, 16], block=2).to_files(tmp_path, scheduler="synchronous")
    assert manifest["skipped"] >= 3 and len(manifest["blocks"]) == 64
    check_files(tmp_path, settings, manifest)


def test_a_killed_worker_is_recovered_with_the_same_points(tmp_path):
    settings = {"d": 2, "radius": 1.0, "seed": 12, "chunk_side": 16.0}
    lo, hi = [0, 0], [16, 16]
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=":0", silence_logs=50,
    )
    try:
        with distributed.Client(cluster) as client:
            before = client.run(os.getpid)
            result = {}

            def run():
                work = pdask.world_points(settings, lo, hi, block=2, mode="staged")
                result["manifest"] = work.to_files(tmp_path, scheduler=client, retries=3)

            thread = threading.Thread(target=run)
            thread.start()
            deadline = time.monotonic() + 120
            while not list(tmp_path.glob("block-*.json")):
                assert thread.is_alive(), "the run ended before a worker could be killed"
                assert time.monotonic() < deadline
                time.sleep(0.005)
            written_at_kill = len(list(tmp_path.glob("block-*.json")))
            os.kill(next(iter(before.values())), signal.SIGKILL)
            thread.join(timeout=300)
            assert not thread.is_alive()
            assert written_at_kill < 64
            # The nanny started a new worker process in place of the killed one.
            client.wait_for_workers(2, timeout=60)
            after = client.run(os.getpid)
            assert set(after.values()) != set(before.values())
    finally:
        cluster.close()
    manifest = result["manifest"]
    assert len(manifest["blocks"]) == 64 and manifest["skipped"] == 0
    check_files(tmp_path, settings, manifest)


@pytest.mark.parametrize("periodic", [False, True])
def test_fill_box_gives_chunked_bridsons_points(client, tmp_path, periodic):
    lower, upper = ([0.0, 0.0], [48.0, 40.0]) if periodic else ([1.0, -2.0], [45.5, 33.0])
    manifest = pdask.fill_box(2, 1.0, lower, upper, tmp_path, rng=3, periodic=periodic, chunk_side=8.0, block=2)
    assert manifest["rng"] == 3
    points = np.concatenate([read_block(tmp_path / r["file"])[0] for r in manifest["blocks"]])
    engine = pnd.ChunkedBridson(2, radius=1.0, l_bounds=lower, u_bounds=upper, periodic=periodic, chunk_side=8.0, rng=3)
    expected = engine.fill_space()
    assert len(points) == len(expected) > 500
    assert np.array_equal(np.unique(points, axis=0), np.unique(expected, axis=0))


def test_errors_name_the_setting():
    lo, hi = RANGE_2D
    with pytest.raises(ValueError, match="mode must be one of cone, staged"):
        pdask.world_points(WORLD_2D, lo, hi, mode="fast")
    with pytest.raises(ValueError, match="at least one chunk"):
        pdask.world_points(WORLD_2D, lo, hi, block=0)
    with pytest.raises(ValueError, match="empty along axis 1"):
        pdask.world_points(WORLD_2D, [0, 0], [2, 0])
    with pytest.raises(ValueError, match="lo must have 2 coordinates"):
        pdask.world_points(WORLD_2D, [0], [2, 2])
    with pytest.raises(TypeError, match="unknown world settings: colour"):
        pdask.world_points({**WORLD_2D, "colour": 1}, lo, hi)
    with pytest.raises(ValueError, match="radius"):
        pdask.world_points({**WORLD_2D, "radius": -1.0}, lo, hi)
    with pytest.raises(ValueError, match="threads must be at least 1"):
        pdask.world_points(WORLD_2D, lo, hi, threads=0)
    with pytest.raises(ValueError, match="format must be one of npy, parquet"):
        pdask.world_points(WORLD_2D, lo, hi).to_files("unused", format="csv")
    with pytest.raises(ValueError, match="different chunk sides"):
        pdask.fill_box(2, 1.0, [0, 0], [40, 20], "unused", periodic=True, chunk_side=16.0)
    with pytest.raises(ValueError, match="outside the torus"):
        pdask.world_points({**WORLD_2D, "l_bounds": [0, 0], "u_bounds": [32, 32], "periodic": True}, [0, 0], [5, 4])
