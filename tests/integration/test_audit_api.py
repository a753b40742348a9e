# tests/integration/test_audit_api.py: API.md §2 promises that need a dying
# rank, checked through `lumpi -e`: a request's wait/test answer to the error
# handler of the communicator the request was made on (ERRORS_RETURN gives
# nil, err with MPI_ERR_PROC_FAILED, naming MPI_Wait/MPI_Test), and
# COMM_WORLD keeps raising.
# Usage: python3 test_audit_api.py /path/to/build/lumpi  (exit status 1 on failure)
import os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptyrun import Failure, run_tests  # noqa: E402


def run_e(exe, n, code):
    p = subprocess.run([exe, "-n", str(n), "-e", code], capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout + p.stderr


def check(cond, msg, out):
    if not cond:
        raise Failure(msg + "\noutput:\n" + out)


def test_request_wait_answers_to_its_communicators_errhandler(exe):
    code = ("local w = mpi.COMM_WORLD; local d = w:dup(); d:set_errhandler(mpi.ERRORS_RETURN); "
            "if w:rank() == 1 then os.exit(3) end; "
            "local r = d:irecv(1); local v, err = r:wait(); "
            "local r2 = d:irecv(1); local done, err2 = r2:test(); "
            "return tostring(v) .. ' ' .. err.class .. ' ' .. err.func .. ' ' .. tostring(done) .. "
            "' ' .. err2.class .. ' ' .. err2.func")
    rc, out = run_e(exe, 2, code)
    check("[0] nil MPI_ERR_PROC_FAILED MPI_Wait nil MPI_ERR_PROC_FAILED MPI_Test" in out,
          "r:wait/r:test on an ERRORS_RETURN communicator must return nil, err", out)


def test_request_wait_raises_under_errors_raise(exe):
    code = ("local w = mpi.COMM_WORLD; w:set_errhandler(mpi.ERRORS_RETURN); local d = w:dup(); "
            "d:set_errhandler(mpi.ERRORS_RAISE); "
            "if w:rank() == 1 then os.exit(3) end; "
            "local ok, err = pcall(function() return d:irecv(1):wait() end); "
            "return tostring(ok) .. ' ' .. err.class")
    rc, out = run_e(exe, 2, code)
    check("[0] false MPI_ERR_PROC_FAILED" in out,
          "r:wait on an ERRORS_RAISE communicator must raise even when COMM_WORLD returns", out)


def test_waitall_waitany_testall_answer_to_the_failing_requests_communicator(exe):
    code = ("local w = mpi.COMM_WORLD; local d = w:dup(); d:set_errhandler(mpi.ERRORS_RETURN); "
            "if w:rank() == 1 then os.exit(3) end; "
            "local out = {}; "
            "for _, f in ipairs{'waitall', 'waitany', 'testall'} do "
            "  local v, err = mpi[f]({mpi.COMM_SELF:irecv(mpi.PROC_NULL), d:irecv(1)}); "
            "  out[#out + 1] = f .. '=' .. tostring(v) .. ':' .. (err and err.class or '-') "
            "end; "
            "local ok, e = pcall(mpi.waitall, {w:irecv(1)}); "
            "return table.concat(out, ' ') .. ' world=' .. tostring(ok) .. ':' .. e.class")
    rc, out = run_e(exe, 2, code)
    check("[0] waitall=nil:MPI_ERR_PROC_FAILED waitany=1:- testall=nil:MPI_ERR_PROC_FAILED "
          "world=false:MPI_ERR_PROC_FAILED" in out,
          "multiple completions must answer to the failing request's communicator", out)


if __name__ == "__main__":
    sys.exit(run_tests([test_request_wait_answers_to_its_communicators_errhandler,
                        test_request_wait_raises_under_errors_raise,
                        test_waitall_waitany_testall_answer_to_the_failing_requests_communicator],
                       sys.argv[1]))
