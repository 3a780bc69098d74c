#!/bin/sh
# Every test: the Rust suite, then the Python package's suite. The Python side runs in its own
# virtual environment (target/python-venv, made on first use from the package index), with the
# package built from this checkout by maturin into the same target/ as the Rust build.
set -eu
cd "$(dirname "$0")"
venv=target/python-venv
log=target/python-venv.log
mkdir -p target
# The Python side is made in the background. The environment's packages download and install
# while the Rust suite compiles (the network's and the disk's work beside the processor's);
# then maturin builds the package, its cargo waiting for the Rust build's hold on target/ and
# compiling the extension while the Rust tests run (cargo holds target/ to build, not to test).
(
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r python/requirements-test.txt
    # maturin (the build backend) runs from the environment, hence its bin/ on PATH.
    PATH="$PWD/$venv/bin:$PATH" "$venv/bin/python" -m pip install -q --disable-pip-version-check \
        --no-build-isolation ./python
) >"$log" 2>&1 &
python=$!
# The Python package's crate has no Rust tests (its tests are the Python suite below), and
# maturin builds it once for the wheel, so the Rust suite leaves it out.
if ! cargo test --workspace --exclude poisson-nd-python --release --all-features; then
    wait "$python" || true
    exit 1
fi
if ! wait "$python"; then
    cat "$log" >&2
    echo "test.sh: the Python package could not be installed (above, from $log)" >&2
    exit 1
fi
# The stubs and the examples type-check as an editor sees them.
"$venv/bin/python" -m mypy --config-file python/pyproject.toml python/examples
POISSON_ND_CLI="$PWD/target/release/experiments" "$venv/bin/python" -m pytest -q python/tests
