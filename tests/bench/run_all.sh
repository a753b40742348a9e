#!/bin/bash
# tests/bench/run_all.sh: every benchmark, lumpi next to its anchors, in one
# run: prints the tables (and RESULT lines) and writes $OUT (JSON).
#   tests/bench/run_all.sh [BUILD_DIR] [bench.py options / suites...]
# e.g. tests/bench/run_all.sh build --reps 5 p2p coll
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${1:-$HERE/../../build}
shift || true
OUT=${OUT:-/tmp/lumpi-bench-results.json}
cmake --build "$BUILD" --target lumpi lumpi-rank lumpi-bench zmq-tcp-pingpong mpi mpi_shared lumpi-cxx-pingpong -j2 >/dev/null
exec python3 "$HERE/bench.py" --build "$(cd "$BUILD" && pwd)" --json "$OUT" "$@"
