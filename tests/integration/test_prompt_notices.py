# tests/integration/test_prompt_notices.py: the prompt and the REPL's notices
# (docs/repl.md), under a pseudo-terminal: a rank's death is announced while
# the REPL waits at the prompt, above a redrawn prompt that keeps what was
# typed; the prompt shows the live ranks; a line typed ahead is shown once;
# the hang report repeats only when what the ranks do changed.
# Usage: python3 test_prompt_notices.py /path/to/build/lumpi [test name substring]
import os, re, signal, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptyrun import Failure, Lumpi, run_tests  # noqa: E402


def check(cond, msg, screen=""):
    if not cond:
        raise Failure(msg + ("\nscreen:\n" + screen if screen else ""))


def rank_pid(l, rank):
    out = l.command(":ranks")
    m = re.search(r"^%d\s+\S+\s+(\d+)" % rank, out, re.M)
    check(m, "no pid for rank %d in :ranks" % rank, out)
    return int(m.group(1))


def test_a_death_at_the_prompt_is_announced_at_once_and_the_prompt_shows_the_live_ranks(exe):
    with Lumpi(exe, ["-n", "4"]) as l:
        l.prompt()
        pid = rank_pid(l, 2)
        l.send("return 4")  # typed, not entered
        time.sleep(0.3)
        os.kill(pid, signal.SIGKILL)
        l.expect(r"rank 2 died: signal 9", 5, "the death notice while at the prompt")
        l.expect(r"lumpi\[0-1,3\]> return 4", 5, "the prompt redrawn with the live ranks and the typed text")
        l.send("2\r")
        out = l.since()
        l.expect(r"\[0-1,3\] 42", 10, "the line typed before the notice runs on the live ranks")
        check("not running" not in out, "a dead rank was sent the command", out)
        l.prompt()
        l.command(":target 1-3")
        check(l.text()[:l.pos].endswith("lumpi[1,3]> "), "the prompt does not show the target's live ranks",
              l.text()[-400:])


def test_a_line_typed_ahead_is_shown_once(exe):
    with Lumpi(exe, ["-n", "2"]) as l:
        l.prompt()
        l.line("local t = mpi.wtime() while mpi.wtime() - t < 1.5 do end")
        time.sleep(0.3)
        l.line("typed_ahead = 99")
        l.prompt(10)
        l.prompt(10)
        out = l.command("typed_ahead")
        check("[0-1] 99" in out, "the line typed ahead was lost", out)
        n = l.text().count("typed_ahead = 99")
        check(n == 1, "the typed-ahead line appears %d times" % n, l.text())


def test_the_hang_report_repeats_only_when_something_changed(exe):
    # rank 2 computes throughout, so no rank is ever deadlocked: only the hang report speaks
    with Lumpi(exe, ["-n", "3"]) as l:
        l.prompt()
        l.command("w = mpi.COMM_WORLD")
        start = len(l.text())
        l.line("local t = mpi.wtime() if mpi.rank() == 0 then w:recv(1, 5) elseif mpi.rank() == 1 then "
               "while mpi.wtime() - t < 4 do end w:recv(2, 6) else while mpi.wtime() - t < 60 do end end")
        l.expect(r"still running after 2 s", 10, "the first hang report")
        l.expect(r"\[1-2\] running Lua code", 5)
        l.expect(r"still running; now", 10, "the report after rank 1 blocked")
        l.expect(r"\[1\] waiting in MPI_Recv\(source=2, tag=6\)", 5)
        quiet = l.quiet(6)  # nothing changes any more: no report
        check("still running" not in quiet, "an unchanged hang report was repeated", quiet)
        reports = l.text()[start:].count("still running")
        check(reports == 2, "want 2 hang reports, saw %d" % reports, l.text()[start:])
        check("deadlock" not in l.text()[start:], "a hang without a deadlock reported as one", l.text()[start:])
        l.ctrl_c()
        l.expect(r"LUMPI_ERR_INTERRUPTED", 10)
        l.prompt(10)


TESTS = [
    test_a_death_at_the_prompt_is_announced_at_once_and_the_prompt_shows_the_live_ranks,
    test_a_line_typed_ahead_is_shown_once,
    test_the_hang_report_repeats_only_when_something_changed,
]

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_prompt_notices.py /path/to/lumpi [test name substring]")
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    sys.exit(run_tests([t for t in TESTS if only in t.__name__], os.path.abspath(sys.argv[1]), per_test=90))
