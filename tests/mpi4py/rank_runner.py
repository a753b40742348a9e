"""tests/mpi4py/rank_runner.py: one rank's run of mpi4py's own test suite,
with each test's outcome written to a file of that rank.

`lumpi exec -n N python3 rank_runner.py RESULTS TESTDIR [runtests options]`
runs TESTDIR/runtests.py's main() unchanged. The ranks' terminal output
interleaves, so the driver (run_mpi4py.py) reads the outcomes from
RESULTS/rank<R>.txt instead: one line per test, "<outcome> <test id>
<detail>", outcome one of ok, FAIL, ERROR, skip, xfail, xpass, and a last
line "end <0|1>" when runtests.py returned (its absence means the rank died
or hung). Nothing of mpi4py is patched: only unittest's result class, which
runtests.py lets its TextTestRunner take from the class attribute.
"""
import os
import sys
import unittest


class RecordingResult(unittest.TextTestResult):
    """TextTestResult that also appends every outcome to this rank's file."""

    out = None  # the open results file, set by main()

    def _record(self, outcome, test, detail=""):
        detail = " ".join(str(detail).split())[:300]
        self.out.write(f"{outcome} {test.id()} {detail}\n")
        self.out.flush()

    def addSuccess(self, test):
        super().addSuccess(test)
        self._record("ok", test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record("FAIL", test, f"{err[0].__name__}: {err[1]}")

    def addError(self, test, err):
        super().addError(test, err)
        self._record("ERROR", test, f"{err[0].__name__}: {err[1]}")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record("skip", test, reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._record("xfail", test)

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._record("xpass", test)


def check_judged(args):
    """The mpi4py under test is the one built on lumpi (--path), not one
    installed on the machine (Debian's python3-mpi4py is Open MPI's)."""
    path = args[args.index("--path") + 1] if "--path" in args else None
    if path:
        sys.path.insert(0, path)
    from mpi4py import MPI
    where, library = os.path.abspath(MPI.__file__), MPI.Get_library_version()
    if (path and not where.startswith(os.path.abspath(path))) or not library.startswith("lumpi"):
        sys.exit(f"rank_runner: the mpi4py found is {where} on '{library.strip()}', not the one built on lumpi")


def main():
    results, testdir, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    rank = os.environ.get("LUMPI_RANK") or os.environ.get("OMPI_COMM_WORLD_RANK") \
        or os.environ.get("PMI_RANK") or "0"
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, f"rank{rank}.txt"), "w") as out:
        RecordingResult.out = out
        unittest.TextTestRunner.resultclass = RecordingResult
        sys.path.insert(0, testdir)
        sys.argv = [os.path.join(testdir, "runtests.py")] + args
        sys.dont_write_bytecode = True
        import runtests
        check_judged(args)
        failed = runtests.main(args)
        out.write(f"end {int(bool(failed))}\n")
    return int(bool(failed))


if __name__ == "__main__":
    sys.exit(main())
