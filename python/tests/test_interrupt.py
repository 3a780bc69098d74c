"""Ctrl-C: a long run in a child interpreter stops on SIGINT with a KeyboardInterrupt, in
well under the run's own length."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

# Each run takes many seconds uninterrupted (measured: > 5 s on 2 cores).
RUNS = {
    "bridson-3d": "pnd.Bridson(3, 0.004, rng=1).fill_space()",
    "maximal-2d": "pnd.Maximal(2, 0.0005, rng=1).fill_space()",
    "chunked-bridson": "pnd.ChunkedBridson(2, 0.0003, rng=1, threads=2).fill_space()",
    "dart-throwing-grid": "pnd.DartThrowing(3, 0.004, grid=True, rng=1).fill_space()",
    "world-block": "pnd.World(2, 0.001, 1).block([0, 0], [70, 70])",
    "poisson-set-fill": "pnd.PoissonSet([0, 0], [1, 1], 0.0007).fill()",
}
# The signal comes this long after the run started; the child must be gone this long after.
DELAY, GRACE = 0.7, 4.0


def interrupt(statement, warm_up=True):
    code = textwrap.dedent(f"""
        import signal, sys, time
        # Python leaves SIGINT alone when it starts with the signal ignored (a background job
        # of a non-interactive shell, as CI may run): install its handler either way.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        import numpy as np
        import poisson_nd as pnd
        if {warm_up!r}:
            pnd.WhiteNoise(2, rng=0).random(2)   # numpy's C API is loaded before the signal
        print("ready", flush=True)
        {statement}
        print("finished", flush=True)
    """)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd="/")
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(DELAY)
        assert child.poll() is None, "the run ended before the signal: make it longer"
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        try:
            out, err = child.communicate(timeout=GRACE)
        except subprocess.TimeoutExpired:
            child.kill()
            out, err = child.communicate()
            pytest.fail(f"still running {GRACE} s after Ctrl-C: {statement}")
        return child.returncode, out, err, time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()


@pytest.mark.parametrize("name", list(RUNS))
def test_ctrl_c_interrupts(name):
    code, out, err, elapsed = interrupt(RUNS[name])
    assert "finished" not in out
    assert "Traceback" in err and "KeyboardInterrupt" in err, err[-2000:]
    assert "PanicException" not in err and "panicked" not in err, err[-2000:]
    # Python exits through the default SIGINT handler: killed by SIGINT.
    assert code == -signal.SIGINT, (code, err[-2000:])
    assert elapsed < GRACE


def test_ctrl_c_before_numpy_is_loaded_is_still_a_keyboard_interrupt():
    # The first array the extension makes loads numpy's C API; a pending Ctrl-C must not turn
    # that into a Rust panic.
    code, out, err, _ = interrupt(RUNS["world-block"], warm_up=False)
    assert "KeyboardInterrupt" in err
    assert "PanicException" not in err and "panicked" not in err, err[-2000:]
    assert code == -signal.SIGINT


def test_interrupted_engine_runs_again():
    # After a KeyboardInterrupt the same engine (and a fresh one) run normally.
    code = textwrap.dedent("""
        import signal, threading, os, time
        signal.signal(signal.SIGINT, signal.default_int_handler)
        import numpy as np
        import poisson_nd as pnd
        engine = pnd.Maximal(2, 0.0005, rng=1)
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        try:
            engine.fill_space()
            print("not interrupted")
        except KeyboardInterrupt:
            print("interrupted")
        small = pnd.Maximal(2, 0.05, rng=1)
        a = small.fill_space()
        b = pnd.Maximal(2, 0.05, rng=1).fill_space()
        print("again", len(a) > 100 and np.array_equal(a, b))
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd="/")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["interrupted", "again", "True"]
