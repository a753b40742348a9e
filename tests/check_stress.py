"""tests/check_stress.py: the live deadlock watch must never report a
correct program, also on a loaded machine (not run by CTest: minutes long).

It keeps BUSY processes spinning (default: one per core), then runs, ROUNDS
times, correct programs that block a lot and briefly: the scenario files
audit_ch6.lua and coll_*.lua under `lumpi test` (world sizes from their t.np),
and the correct twins of tests/exec/check_cases.c under `lumpi exec` at 2 to
5 ranks. Any "deadlock" in any output, or a failed run, is a false report
(or a broken run) and is printed; the exit status is 1 if there was one.

usage: python3 tests/check_stress.py BUILD_DIR [ROUNDS] [BUSY]
"""
import glob
import os
import subprocess
import sys
import tempfile
import time

BUILD = os.path.abspath(sys.argv[1])
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 30
BUSY = int(sys.argv[3]) if len(sys.argv) > 3 else os.cpu_count()
LUMPI = os.path.join(BUILD, "lumpi")
HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = [os.path.join(HERE, "scenarios", "audit_ch6.lua")] + sorted(
    glob.glob(os.path.join(HERE, "scenarios", "coll_*.lua")))
TWINS = ["ssend_ok", "ring_ok", "recv_ok", "waitall_ok", "coll_ok", "comm_ok"]


def build_cases(tmp):
    exe = os.path.join(tmp, "cases")
    subprocess.run([os.path.join(BUILD, "lumpi-cc"), "-o", exe, os.path.join(HERE, "exec", "check_cases.c")],
                   check=True, timeout=120)
    return exe


def one(args, timeout=300):
    """Runs lumpi with args; returns (ok, text)."""
    try:
        p = subprocess.run([LUMPI] + args, capture_output=True, text=True, timeout=timeout,
                           start_new_session=True)
    except subprocess.TimeoutExpired as e:
        return False, f"timed out: {e}"
    text = p.stdout + p.stderr
    return p.returncode == 0 and "deadlock" not in text, text


def main():
    tmp = tempfile.mkdtemp(prefix="lumpi-check-stress-")
    exe = build_cases(tmp)
    spinners = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(BUSY)]
    bad, runs, t0 = 0, 0, time.time()
    try:
        for rnd in range(ROUNDS):
            jobs = [["test", "--timeout", "120", f] for f in SCENARIOS]
            jobs += [["exec", "-n", str(n), exe, twin] for twin in TWINS for n in (2, 3, 4, 5)]
            for args in jobs:
                ok, text = one(args)
                runs += 1
                if not ok:
                    bad += 1
                    print(f"FALSE REPORT or failure, round {rnd}: lumpi {' '.join(args)}\n{text[-3000:]}", flush=True)
            print(f"round {rnd + 1}/{ROUNDS}: {runs} runs, {bad} bad, {time.time() - t0:.0f} s", flush=True)
    finally:
        for s in spinners:
            s.kill()
            s.wait()
    print(f"{runs} runs under {BUSY} busy loops, {bad} with a deadlock report or a failure")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
