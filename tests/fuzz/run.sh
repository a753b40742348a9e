#!/bin/sh
# tests/fuzz/run.sh: builds the libFuzzer targets with clang into build-fuzz/
# and runs each one for a bounded number of inputs.
#
#   tests/fuzz/run.sh [target...]       (default: every target in CMakeLists.txt)
#   FUZZ_RUNS=N      inputs per target (default 200000)
#   FUZZ_SECONDS=S   time limit per target, whichever comes first (default 60)
#   FUZZ_SEED=N      libFuzzer's seed (default 1, so that a CI run repeats the
#                    last one's inputs and a failure reproduces; 0 draws a new
#                    seed each run: use it to explore, e.g. FUZZ_SEED=0
#                    FUZZ_SECONDS=900 tests/fuzz/run.sh fuzz_datatype)
#
# Per target: first replays every file in regressions/<target>/ (crashes
# found before, kept as regression tests), then fuzzes from corpus/<target>/
# (the committed seeds, never modified; new inputs go to a scratch copy).
# Fails on any crash, sanitizer report, leak or input slower than 10 s; the
# reproducer is left in build-fuzz/artifacts/. Prints each target's final
# libFuzzer line (executions, cov:, ft:).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build-fuzz"
runs=${FUZZ_RUNS:-200000}
seconds=${FUZZ_SECONDS:-60}
seed=${FUZZ_SEED:-1}

launcher=""
if command -v ccache >/dev/null; then launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"; fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DLUMPI_FUZZ=ON $launcher >/dev/null
cmake --build "$build" --target fuzz -j "$(nproc)"

if [ $# -gt 0 ]; then targets="$*"; else targets=$(cat "$build/fuzz-targets.txt"); fi
mkdir -p "$build/artifacts"
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failed=""
for t in $targets; do
  exe="$build/tests/fuzz/$t"
  log="$build/$t.log"
  dict=""
  [ -f "$here/dict" ] && dict="-dict=$here/dict"
  if [ -d "$here/regressions/$t" ] && [ -n "$(ls -A "$here/regressions/$t")" ]; then
    if ! "$exe" $dict "$here"/regressions/"$t"/* >"$log" 2>&1; then
      echo "FAIL $t: a regression input crashes again (see $log)"
      tail -n 40 "$log"
      failed="$failed $t"
      continue
    fi
  fi
  scratch="$build/corpus-$t"
  rm -rf "$scratch"
  mkdir -p "$scratch"
  if "$exe" $dict -seed="$seed" -runs="$runs" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$t-" "$scratch" "$here/corpus/$t" >"$log" 2>&1; then
    line=$(grep -E '^#[0-9]+.*(DONE|cov:)' "$log" | tail -n 1)
    execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "ok   $t: $execs inputs; $line"
  else
    echo "FAIL $t (log: $log; reproducer in $build/artifacts/)"
    grep -E 'ERROR|SUMMARY|fuzz_[a-z]+:' "$log" | head -n 20
    tail -n 40 "$log"
    failed="$failed $t"
  fi
done
if [ -n "$failed" ]; then
  echo "fuzzing failed:$failed"
  exit 1
fi
echo "fuzzing: no crash"
