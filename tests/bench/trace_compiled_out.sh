#!/bin/sh
# tests/bench/trace_compiled_out.sh: builds lumpi-bench from this tree with
# the trace hooks compiled out, the yardstick for "tracing off costs nothing
# measurable" (tests/bench/README.md): Tracer::on() becomes a constant false
# (every hook is dead code) and the Lamport clock stands still; only the
# 8 header bytes of the clock remain (the wire format is fixed).
#
#   tests/bench/trace_compiled_out.sh [DIR]     (default /tmp/lumpi-trace-off)
#   tests/bench/trace_overhead.py --compiled-out DIR/build --reps 9
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:-/tmp/lumpi-trace-off}
rm -rf "$DIR/src"
mkdir -p "$DIR/src"
REV=$(git -C "$ROOT" stash create)  # the work tree as it is, uncommitted changes too
git -C "$ROOT" archive "${REV:-HEAD}" | tar -x -C "$DIR/src"
sed -i 's/bool on() const { return on_ && !paused_; }/bool on() const { return false; }/' "$DIR/src/core/base/trace.hpp"
sed -i -e 's/^  env\.clock = ++clock_;$//' \
       -e 's/^  clock_ = std::max(clock_, m\.env\.clock) + 1;.*$//' "$DIR/src/core/engine/engine.cpp"
grep -q 'bool on() const { return false; }' "$DIR/src/core/base/trace.hpp"
if grep -q 'clock_ = std::max\|env\.clock = ++clock_' "$DIR/src/core/engine/engine.cpp"; then
  echo "trace_compiled_out.sh: core/engine/engine.cpp changed; update the sed lines" >&2
  exit 1
fi
export CCACHE_BASEDIR="$DIR" CCACHE_DIR="${CCACHE_DIR:-$HOME/.ccache}"
cmake -S "$DIR/src" -B "$DIR/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
cmake --build "$DIR/build" -j2 --target lumpi-bench
echo "built $DIR/build/tests/bench/lumpi-bench"
