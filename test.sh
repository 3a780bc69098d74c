#!/bin/sh
# Every test: the Rust suite, then the Python package's suite. The Python side runs in its own
# virtual environment (target/python-venv, made on first use from the package index), with the
# package built from this checkout by maturin into the same target/ as the Rust build.
set -eu
cd "$(dirname "$0")"
venv=target/python-venv
log=target/python-venv.log
# The environment's packages download and install while the Rust suite compiles and runs: the
# one is the network's and the disk's work, the other the processor's.
mkdir -p target
(
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r python/requirements-test.txt
) >"$log" 2>&1 &
environment=$!
# The Python package's crate has no Rust tests (its tests are the Python suite below), and
# maturin builds it once for the wheel, so the Rust suite leaves it out.
if ! cargo test --workspace --exclude poisson-nd-python --release --all-features; then
    wait "$environment" || true
    exit 1
fi
if ! wait "$environment"; then
    cat "$log" >&2
    echo "test.sh: the Python environment could not be made (above, from $log)" >&2
    exit 1
fi
# maturin (the build backend) runs from the environment, hence its bin/ on PATH.
PATH="$PWD/$venv/bin:$PATH" "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    --no-build-isolation ./python
# The stubs and the examples type-check as an editor sees them.
"$venv/bin/python" -m mypy --config-file python/pyproject.toml python/examples
POISSON_ND_CLI="$PWD/target/release/experiments" "$venv/bin/python" -m pytest -q python/tests
