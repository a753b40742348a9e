# tests/integration/test_repl_pty.py: the REPL driven like a person, under a
# pseudo-terminal: typing commands, pressing Ctrl-C while ranks are blocked,
# watching the hang report (a world that hangs without a deadlock) and the
# deadlock report (at once; the ranks stay blocked for Ctrl-C), :status,
# :timeout, drawings, completion, history.
# Usage: python3 test_repl_pty.py /path/to/build/lumpi  (exit status 1 on failure)
import os, re, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import scratch_dir  # noqa: E402
from ptyrun import Failure, Lumpi, run_tests  # noqa: E402

# sum over a communicator: allreduce when it exists, else allgather (issue 4 adds allreduce)
SUM = ("function sum(c, x) if c.allreduce then return c:allreduce(x, mpi.SUM) end "
       "local s = 0 for _, v in ipairs(c:allgather(x)) do s = s + v end return s end")


def check(cond, msg, screen=""):
    if not cond:
        raise Failure(msg + ("\nscreen:\n" + screen if screen else ""))


def world_is_consistent(l, n, comms=()):
    """allreduce on COMM_WORLD and on communicators made earlier gives the right answer."""
    out = l.command("sum(mpi.COMM_WORLD, mpi.rank() + 1)")
    check("[0-%d] %d" % (n - 1, n * (n + 1) // 2) in out, "wrong allreduce on COMM_WORLD", out)
    for name, expect in comms:
        out = l.command("sum(%s, mpi.rank())" % name)
        for line in expect:
            check(line in out, "wrong allreduce on %s (want %r)" % (name, line), out)


def test_an_expression_prints_collated(exe):
    with Lumpi(exe, ["-n", "4"]) as l:
        l.prompt()
        out = l.command("1+1")
        check("[0-3] 2" in out, "1+1 not collated", out)
        out = l.command("mpi.rank() % 2")
        check("[0,2] 0" in out and "[1,3] 1" in out, "differing results not collated", out)
        out = l.command("print('hi from', mpi.rank())")
        check(re.search(r"\[2\] hi from\t2", out), "print output not streamed", out)


def test_ctrl_c_interrupts_a_blocked_receive_on_every_rank(exe):
    with Lumpi(exe, ["-n", "4"]) as l:
        l.prompt()
        l.command(SUM)
        l.command("half = mpi.COMM_WORLD:split(mpi.rank() % 2, mpi.rank())")
        l.line("mpi.COMM_WORLD:recv(mpi.ANY_SOURCE, 7)")
        # every rank waits for the others: reported at once, the ranks left blocked for Ctrl-C
        l.expect(r"deadlock found \(Ctrl-C interrupts\):\s+possible deadlock.*MPI_Recv\(source=ANY_SOURCE, tag=7\)",
                 1.5, "deadlock report")
        t0 = time.time()
        l.ctrl_c()
        l.expect(r"\[0-3\] error: LUMPI_ERR_INTERRUPTED in MPI_Recv", 5, "interrupted receive")
        l.prompt(5)
        check(time.time() - t0 < 5, "interrupt took too long")
        world_is_consistent(l, 4, [("half", ["[0,2] 2", "[1,3] 4"])])


def test_ctrl_c_during_a_collective_only_some_ranks_entered(exe):
    with Lumpi(exe, ["-n", "4"]) as l:
        l.prompt()
        l.command(SUM)
        l.command("half = mpi.COMM_WORLD:split(mpi.rank() % 2, mpi.rank())")
        # rank 2 stays out: root 0 has already sent "old" to it, rank 3 waits for it
        l.line("if mpi.rank() ~= 2 then v = mpi.COMM_WORLD:bcast('old', 0) end")
        l.expect(r"deadlock found \(Ctrl-C interrupts\)", 1.5, "deadlock report")
        l.expect(r"rank 3 in MPI_Bcast\(root=0\) on 'MPI_COMM_WORLD' waits for 0-2", 3)
        l.ctrl_c()
        l.expect(r"\[3\] error: LUMPI_ERR_INTERRUPTED in MPI_Bcast", 5, "interrupted bcast")
        l.prompt(5)
        # the stale "old" must never be matched by rank 2
        out = l.command("mpi.COMM_WORLD:bcast(mpi.rank() == 0 and 'new' or nil, 0)")
        check("[0-3] new" in out, "a stale message was matched after the interrupt", out)
        out = l.command("(mpi.COMM_WORLD:iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG))")
        check("[0-3] false" in out, "a stale message is still queued", out)
        world_is_consistent(l, 4, [("half", ["[0,2] 2", "[1,3] 4"])])
        # and the same on a communicator made earlier, entered by one rank of two
        l.line("if mpi.rank() == 1 then half:barrier() end")
        l.expect(r"deadlock: rank 1 in MPI_Barrier", 1.5)
        l.ctrl_c()
        l.prompt(5)
        world_is_consistent(l, 4, [("half", ["[0,2] 2", "[1,3] 4"])])


def test_an_interrupt_keeps_requests_posted_by_earlier_commands(exe):
    with Lumpi(exe, ["-n", "3"]) as l:
        l.prompt()
        l.command("w = mpi.COMM_WORLD")
        l.command("if mpi.rank() == 0 then r = w:irecv(1, 5) end")
        l.line("w:recv(mpi.ANY_SOURCE, 99)")
        l.expect(r"deadlock found \(Ctrl-C interrupts\):\s+possible deadlock.*MPI_Recv\(source=ANY_SOURCE, tag=99\)",
                 1.5, "deadlock report")
        l.ctrl_c()
        l.expect(r"LUMPI_ERR_INTERRUPTED in MPI_Recv", 5, "interrupted receive")
        l.prompt(5)
        l.command(":on 1 w:send('kept', 0, 5)")
        out = l.command(":on 0 return (r:wait())")
        check("[0] kept" in out, "a receive posted before the interrupt was abandoned", out)


def test_ctrl_c_interrupts_busy_lua_code(exe):
    with Lumpi(exe, ["-n", "3"]) as l:
        l.prompt()
        l.line("if mpi.rank() == 0 then while true do end else mpi.COMM_WORLD:barrier() end")
        l.expect(r"\[0\] running Lua code", 6, "status of the busy rank")
        l.ctrl_c()
        l.expect(r"LUMPI_ERR_INTERRUPTED", 5)
        l.prompt(5)
        out = l.command("mpi.COMM_WORLD:allgather(mpi.rank())")
        check("[0-2] {0, 1, 2}" in out, "world not usable after interrupting Lua code", out)


def test_a_second_ctrl_c_while_the_first_is_pending_keeps_the_repl(exe):
    with Lumpi(exe, ["-n", "2"]) as l:
        l.prompt()
        # a rank inside a C call cannot see the interrupt until the call returns
        l.line("if mpi.rank() == 0 then os.execute('sleep 2') mpi.COMM_WORLD:recv(1, 3) "
               "else mpi.COMM_WORLD:barrier() end")
        time.sleep(0.7)
        l.ctrl_c()
        time.sleep(0.3)
        l.ctrl_c()
        l.expect(r"\^C still interrupting", 5)
        l.expect(r"LUMPI_ERR_INTERRUPTED", 8)
        l.prompt(5)
        check(not l.exited(), "the REPL died")
        out = l.command("mpi.COMM_WORLD:allgather(mpi.rank())")
        check("[0-1] {0, 1}" in out, "world not usable after a double Ctrl-C", out)


def test_ctrl_c_at_the_prompt_drops_the_line(exe):
    with Lumpi(exe, ["-n", "2"]) as l:
        l.prompt()
        l.send("x = 12345")
        l.ctrl_c()
        l.prompt(5)
        l.send("for i = 1, 2 do\r")
        l.expect(r"\.\.\.> ", 5)
        l.ctrl_c()
        l.prompt(5)
        out = l.command("x")
        check("[0-1] nil" in out, "the dropped line ran", out)


def test_hang_report_names_call_communicator_peer_and_tag(exe):
    with Lumpi(exe, ["-n", "4"]) as l:
        l.prompt()
        l.command("row = mpi.COMM_WORLD:dup() row:set_name('row')")
        # rank 2 computes (no deadlock): the hang report after 2 s
        l.line("if mpi.rank() % 2 == 1 then row:recv(2, 7) elseif mpi.rank() == 2 then "
               "local t = mpi.wtime() while mpi.wtime() - t < 60 do end end")
        m = l.expect(r"still running after 2 s.*\n(.*)\n(.*)\n", 6, "hang report")
        check(m.group(1).strip() == "[1,3] waiting in MPI_Recv(source=2, tag=7) on 'row'",
              "wrong hang report line: %r" % m.group(1))
        check(m.group(2).strip() == "[2] running Lua code", "wrong hang report line: %r" % m.group(2))
        time.sleep(0.3)
        check("[0]" not in l.since() and "deadlock" not in l.since(), "finished ranks reported as running",
              l.since())
        l.line(":status")
        l.expect(r"\[0\] finished this command", 5, ":status of finished ranks")
        l.expect(r"\[1,3\] waiting in MPI_Recv\(source=2, tag=7\) on 'row'", 5, ":status")
        l.ctrl_c()
        l.prompt(5)
        out = l.command(":status")
        check("[0-3] idle" in out, ":status after the interrupt", out)


def test_timeout_interrupts_automatically(exe):
    with Lumpi(exe, ["-n", "3"]) as l:
        l.prompt()
        l.command(":timeout 1")
        t0 = time.time()
        l.line("mpi.COMM_WORLD:recv(0, 1)")
        l.expect(r"timeout after 1 s", 5)
        l.expect(r"LUMPI_ERR_INTERRUPTED", 5)
        l.prompt(5)
        check(time.time() - t0 < 4, "timeout too slow")
        l.command(":timeout off")
        out = l.command("mpi.COMM_WORLD:allgather(mpi.rank())")
        check("[0-2] {0, 1, 2}" in out, "world not usable after the timeout", out)


def test_history_persists_between_sessions(exe):
    home = scratch_dir("lumpi-home-")
    with Lumpi(exe, ["-n", "1"], env={"HOME": home}) as l:
        l.prompt()
        l.command("unique_var_4711 = 1")
    with open(os.path.join(home, ".lumpi_history")) as f:
        check("unique_var_4711 = 1" in f.read(), "history not written")
    with Lumpi(exe, ["-n", "1"], env={"HOME": home}) as l:
        l.prompt()
        l.send("\x1b[A\x1b[A")  # up arrow twice (past ":quit") recalls it
        l.expect(r"unique_var_4711 = 1", 5, "recalled line")
        l.ctrl_c()
        l.prompt()


def test_tab_completes_globals_fields_and_methods_from_rank_0(exe):
    with Lumpi(exe, ["-n", "2"]) as l:
        l.prompt()
        l.command("my_table_on_ranks = {alpha = 1, beta = 2}")
        l.send("my_tab\t")
        l.expect(r"my_table_on_ranks", 5, "global completed")
        l.send(".al\t")
        l.expect(r"alpha", 5, "field completed")
        l.ctrl_c()
        l.prompt(5)
        l.send("mpi.COMM_WORLD:all\t\t")
        l.expect(r"allgather\s+allreduce", 5, "methods listed")
        l.expect(r"> mpi\.COMM_WORLD:all", 5, "line redisplayed after the list")
        l.ctrl_c()
        l.prompt(5)
        # methods follow the communicator's class: Cartcomm's only on a Cartcomm
        l.command("grid = mpi.COMM_WORLD:cart_create({2})")
        l.send("grid:cart_s\t\t")
        l.expect(r"cart_shift\s+cart_sub", 5, "Cartcomm methods listed")
        l.expect(r"> grid:cart_s", 5, "line redisplayed after the list")
        l.ctrl_c()
        l.prompt(5)
        start = l.pos
        l.send("mpi.COMM_WORLD:cart_\t\t")
        l.expect(r"cart_create\s+cart_map", 5, "Intracomm's cart_ methods listed")
        l.expect(r"> mpi\.COMM_WORLD:cart_", 5, "line redisplayed after the list")
        check("cart_shift" not in l.text()[start:l.pos], "an Intracomm offered cart_shift", l.text()[start:])
        l.ctrl_c()
        l.prompt(5)
        out = l.command("1+1")
        check("[0-1] 2" in out, "REPL unusable after completion", out)


def test_draw_shows_a_split_and_a_cartesian_grid_in_80_columns(exe):
    with Lumpi(exe, ["-n", "24"]) as l:
        l.prompt(20)
        out = l.command(":draw mpi.COMM_WORLD:split(mpi.rank() % 3, -mpi.rank())", 30)
        check("by communicator" in out, "no partition drawn", out)
        rows = [x for x in out.splitlines() if re.match(r"\s+[ABC]\s+[0-9.]", x)]
        check(len(rows) == 3, "expected 3 communicator rows", out)
        # world rank 0 is in A with new rank 7 (key -rank reverses the order)
        check(re.match(r"\s+A\s+7\s+\.\s+\.\s+6", rows[0]), "wrong new ranks in row A", out)
        check(max(len(x) for x in out.splitlines()) <= 80, "drawing wider than 80 columns", out)
        if "not available" in l.command("mpi.COMM_WORLD.cart_create and 'yes' or 'not available'"):
            return  # topologies not built yet
        out = l.command(":draw mpi.COMM_WORLD:cart_create({4, 6}, {true, false})", 30)
        check("4x6" in out and "periodic: dim 0 yes, dim 1 no" in out, "no grid header", out)
        check("Cartcomm (unnamed) 4x6" in out, "the grid header does not name the class", out)
        check("w23 c23" in out and "(3,5)" in out, "cells lack world rank, cart rank, coordinates", out)
        check(max(len(x) for x in out.splitlines()) <= 80, "grid wider than 80 columns", out)


def test_dot_writes_graphviz(exe):
    d = scratch_dir("lumpi-dot-")
    path = os.path.join(d, "split.dot")
    with Lumpi(exe, ["-n", "4"]) as l:
        l.prompt()
        out = l.command(":dot mpi.COMM_WORLD:split(mpi.rank() % 2) " + path)
        check("wrote" in out, ":dot did not write", out)
    text = open(path).read()
    check(text.startswith("digraph") and text.count("subgraph cluster") == 2, "bad DOT", text)


def test_ranks_and_hw_show_bindings(exe):
    with Lumpi(exe, ["-n", "3", "--bind", "pu"]) as l:
        l.prompt()
        out = l.command(":ranks")
        check(re.search(r"^0\s+\S+\s+\d+\s+\S+ \(pu 0\)", out, re.M), ":ranks lacks the binding", out)
        out = l.command(":hw")
        check("Machine" in out and "PU L#0" in out and "<- rank" in out, ":hw lacks ranks on the tree", out)
        out = l.command("mpi.hw.locality('pu')")
        check("[0,2] 0" in out and "[1] 1" in out or "[0-2] 0" in out, "locality disagrees with --bind", out)


def test_colours_only_on_a_terminal(exe):
    with Lumpi(exe, ["-n", "2"]) as l:
        l.prompt()
        l.line("error('boom')")
        l.prompt()
        check("\x1b[31m" in l.raw.decode(errors="replace"), "no colour for errors on a terminal")
    import subprocess
    p = subprocess.run([exe, "-n", "2"], input="error('boom')\n1\n", capture_output=True, text=True,
                       timeout=30, start_new_session=True)
    check("\x1b[" not in p.stdout + p.stderr, "colour codes in stdin mode", p.stdout)
    check("[0-1] 1" in p.stdout, "stdin mode output", p.stdout)


def test_no_collate_and_load(exe):
    d = scratch_dir("lumpi-load-")
    path = os.path.join(d, "f.lua")
    with open(path, "w") as f:
        f.write("loaded_value = 40 + mpi.rank()\n")
    with Lumpi(exe, ["-n", "3", "--no-collate"]) as l:
        l.prompt()
        out = l.command("7")
        check("[0] 7" in out and "[1] 7" in out and "[2] 7" in out, "--no-collate collated", out)
        l.command(":load " + path)
        out = l.command("loaded_value")
        check("[0] 40" in out and "[2] 42" in out, ":load did not run the file", out)


DEMOS = [("ring.lua", 4, "token came home with 6 (expected 6): ok"),
         ("rows_cols.lua", 6, "3x2 grid: every row and column sum checked: ok"),
         ("stencil.lua", 6, "step 5: total 100.0 (conserved)"),
         ("pipeline.lua", 7, "sum of squares: 66 (serial answer 66): ok"),
         ("cache_lib.lua", 4, "ran the delete callback 1 time(s): ok")]


def test_class_demos_print_their_expected_output(exe):
    import subprocess
    scripts = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")
    for name, n, want in DEMOS:
        p = subprocess.run([exe, "-n", str(n), os.path.join(scripts, name)], capture_output=True,
                           text=True, timeout=60, start_new_session=True)
        check(p.returncode == 0 and want in p.stdout,
              "%s -n %d: status %d, want %r" % (name, n, p.returncode, want), p.stdout + p.stderr)


def test_a_demo_then_the_repl_draws_what_it_made(exe):
    scripts = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")
    with Lumpi(exe, ["-n", "6", "-i", os.path.join(scripts, "rows_cols.lua")]) as l:
        l.prompt(20)
        out = l.command(":draw row_comm")
        check("'row 0' size 2" in out and "'row 2' size 2" in out, "rows not drawn", out)


def test_interrupted_collectives_and_constructors_leave_7_ranks_consistent(exe):
    partial = ["if mpi.rank() ~= 0 then x = mpi.COMM_WORLD:alltoall({1, 2, 3, 4, 5, 6, 7}) end",
               "if mpi.rank() ~= 3 then x = mpi.COMM_WORLD:split(mpi.rank() % 2) end",
               "if mpi.rank() ~= 3 then x = mpi.COMM_WORLD:scan(1, mpi.SUM) y = mpi.COMM_WORLD:bcast(5, 3) end",
               "if mpi.rank() < 4 then mpi.COMM_WORLD:gather(mpi.rank(), 6) end"]
    with Lumpi(exe, ["-n", "7"]) as l:
        l.prompt()
        l.command(SUM)
        if "no" in l.command("(mpi.COMM_WORLD.alltoall and mpi.COMM_WORLD.scan) and 'yes' or 'no'"):
            partial = partial[1:2] + partial[3:]  # collectives of issue 4 not built yet
        l.command("odd = mpi.COMM_WORLD:split(mpi.rank() % 2)")
        for cmd in partial:
            l.line(cmd)
            l.expect(r"deadlock found \(Ctrl-C interrupts\)", 1.5, cmd)
            l.ctrl_c()
            l.expect(r"LUMPI_ERR_INTERRUPTED", 5, cmd)
            l.prompt(5)
            world_is_consistent(l, 7, [("odd", ["[0,2,4,6] 12", "[1,3,5] 9"])])
            out = l.command("sum(mpi.COMM_WORLD:dup(), 2)")
            check("[0-6] 14" in out, "a new communicator after '%s' is wrong" % cmd, out)


def test_lines_typed_while_a_command_runs_run_after_it(exe):
    with Lumpi(exe, ["-n", "2"]) as l:
        l.prompt()
        l.line("local t = mpi.wtime() while mpi.wtime() - t < 1.5 do end")
        time.sleep(0.3)
        l.line("typed_ahead = 99")
        l.prompt(10)
        l.prompt(10)  # the type-ahead line is shown with its own prompt
        out = l.command("typed_ahead")
        check("[0-1] 99" in out, "the line typed ahead was lost", out)


TESTS = [
    test_an_expression_prints_collated,
    test_ctrl_c_interrupts_a_blocked_receive_on_every_rank,
    test_ctrl_c_during_a_collective_only_some_ranks_entered,
    test_ctrl_c_interrupts_busy_lua_code,
    test_an_interrupt_keeps_requests_posted_by_earlier_commands,
    test_interrupted_collectives_and_constructors_leave_7_ranks_consistent,
    test_a_second_ctrl_c_while_the_first_is_pending_keeps_the_repl,
    test_ctrl_c_at_the_prompt_drops_the_line,
    test_hang_report_names_call_communicator_peer_and_tag,
    test_timeout_interrupts_automatically,
    test_lines_typed_while_a_command_runs_run_after_it,
    test_history_persists_between_sessions,
    test_tab_completes_globals_fields_and_methods_from_rank_0,
    test_draw_shows_a_split_and_a_cartesian_grid_in_80_columns,
    test_dot_writes_graphviz,
    test_ranks_and_hw_show_bindings,
    test_colours_only_on_a_terminal,
    test_no_collate_and_load,
    test_class_demos_print_their_expected_output,
    test_a_demo_then_the_repl_draws_what_it_made,
]

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_repl_pty.py /path/to/lumpi [test name substring]")
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    sys.exit(run_tests([t for t in TESTS if only in t.__name__], os.path.abspath(sys.argv[1])))
