#!/usr/bin/env bash
# The GPU figures of docs/performance.md, for a session that is lent a GPU machine.
#
#   bash bench/gpu_session.sh benches   # batched kernel, study, scan
#   bash bench/gpu_session.sh tests     # the test suite with JAX on the GPU
#
# The machine has JAX with CUDA but no python-flint, z3 or cvc5, and no network:
# their wheels travel in .whl/ (see the device tool's README) and install into
# its Python, with bnproof itself (editable: the tests start `python -I -m
# bnproof`, which ignores PYTHONPATH).  Logs go to $OUT (the device tool brings
# them back).
set -u
OUT=${OUT:-/tmp/bnproof-gpu}
mkdir -p "$OUT"
if ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-cache-dir .whl/*.whl || exit 1
fi
python3 -m pip install -q --no-index --no-deps --no-build-isolation -e . || exit 1
python3 -m pip list 2>/dev/null | grep -i -E "^(jax|jaxlib|typer|click|rich|sympy|numpy|hypothesis|pytest) "
export PYTHONUNBUFFERED=1
# several processes share one GPU (xdist workers, the study's cross-checks): no
# process may take 75 % of its memory up front
export XLA_PYTHON_CLIENT_PREALLOCATE=false
step() {  # step NAME COMMAND...: run, keep the log, say how long it took
    local name=$1; shift
    echo "=== $name: $*"
    local start=$SECONDS
    "$@" 2>&1 | tee "$OUT/$name.log"
    echo "=== $name: exit ${PIPESTATUS[0]}, $((SECONDS - start)) s"
}
nvidia-smi -L
python3 -c "import jax, flint, sys; print(sys.version.split()[0], 'jax', jax.__version__, jax.devices(), 'flint', flint.__version__)"

case "${1:-benches}" in
benches)
    step batched64 python3 bench/batched_lemma45.py --dtype float64
    step batched32 python3 bench/batched_lemma45.py --dtype float32
    step batched64_1e6 python3 bench/batched_lemma45.py --dtype float64 --n 1000000 --loop-n 300 --repeats 3
    export BNPROOF_CACHE_DIR=$(mktemp -d)  # XLA's cache starts empty: the first study compiles
    step study python3 -m bnproof study lemma-4.5 --json
    step study_warm python3 -m bnproof study lemma-4.5 --json  # the same, its programs cached
    step study_1e6 python3 -m bnproof study lemma-4.5 --trials 1000000 --json
    step study32 python3 -m bnproof study lemma-4.5 --trials 100000 --dtype float32 --json
    step scan64 python3 bench/scan_layer.py --dtype float64
    step scan32 python3 bench/scan_layer.py --dtype float32
    ;;
tests)  # pdflatex and pdftotext are not on the machine: the LaTeX and PDF tests fail there
    step tests python3 -m pytest -q -n 8 --dist worksteal -p no:cacheprovider -p no:benchmark --durations=15
    ;;
esac
