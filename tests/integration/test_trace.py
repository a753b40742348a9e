# tests/integration/test_trace.py: :trace (docs/repl.md), typed at the REPL
# under a pseudo-terminal, and `lumpi --trace FILE script.lua`, `lumpi test
# --trace DIR`. Checks the diagrams' content: one lane per rank, each send's
# arrow landing in the receiver's lane below its send (Lamport order), spans
# over the ranks that took part; the SVG parses as XML with one lane per
# rank at 16 ranks; the JSON loads and its flow events pair up, each send
# before its receive.
# Usage: python3 test_trace.py /path/to/build/lumpi [test name substring]
import json, os, re, subprocess, sys, tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptyrun import Failure, Lumpi, run_tests  # noqa: E402

RING = ("local w = mpi.COMM_WORLD local n, r = w:size(), w:rank() "
        "if r == 0 then w:send(0, 1 % n, 4) local v = w:recv(n - 1, 4) "
        "else local v = w:recv(r - 1, 4) w:send(v + r, (r + 1) % n, 4) end")


def check(cond, msg, screen=""):
    if not cond:
        raise Failure(msg + ("\nscreen:\n" + screen if screen else ""))


def diagram_rows(text):
    """The rows of a :trace diagram: (clock, line) for lines that start with a clock."""
    return [(int(m.group(1)), line) for line in text.splitlines()
            for m in [re.match(r"^\s*(\d+)  ", line)] if m]


def lane_columns(text, n):
    """Column of each lane from the header line (the line of lane numbers)."""
    for line in text.splitlines():
        nums = re.findall(r"\d+", line)
        if nums == [str(i) for i in range(n)]:
            cols, at = [], 0
            for i in range(n):
                at = line.index(str(i), at)
                cols.append(at + (len(str(i)) - 1) // 2)
                at += len(str(i))
            return cols
    raise Failure("no lane header 0..%d in:\n%s" % (n - 1, text))


def check_ring(text, n):
    """Every send S#k on lane r is followed, lower down, by R on lane (r+1)%n for #k."""
    check(all(len(l) <= 80 for l in text.splitlines()), "a line is wider than 80 columns", text)
    cols = lane_columns(text, n)
    rows = diagram_rows(text)
    sends = {}
    for i, (clock, line) in enumerate(rows):
        m = re.search(r" #(\d+) send (\d+)->(\d+) tag 4 'MPI_COMM_WORLD'", line)
        if m:
            k, src, dst = int(m.group(1)), int(m.group(2)), int(m.group(3))
            check(line[cols[src]] == "S", "send #%d not drawn in lane %d" % (k, src), text)
            check(dst == (src + 1) % n, "send #%d goes to the wrong rank" % k, text)
            sends[k] = (i, clock, src, dst)
    check(len(sends) == n, "want %d sends, saw %d" % (n, len(sends)), text)
    for k, (i, clock, src, dst) in sends.items():
        recv = [(j, c, line) for j, (c, line) in enumerate(rows) if re.search(r" #%d recv " % k, line)]
        check(len(recv) == 1, "message #%d has %d receive rows" % (k, len(recv)), text)
        j, c, line = recv[0]
        check(j > i and c > clock, "receive of #%d is not below its send" % k, text)
        check(line[cols[dst]] == "R", "#%d does not land in lane %d" % (k, dst), text)
        check(line[cols[src]] == "+", "#%d's arrow does not start in lane %d" % (k, src), text)
        head = cols[dst] - 1 if cols[src] < cols[dst] else cols[dst] + 1
        check(line[head] in "<>", "#%d has no arrow head next to lane %d" % (k, dst), text)


def test_ring_on_3_and_5_ranks_draws_each_arrow_into_the_next_lane(exe):
    for n in (3, 5):
        with Lumpi(exe, ["-n", str(n)]) as l:
            l.prompt()
            out = l.command(":trace")
            check("tracing is off" in out, ":trace before :trace on should say so", out)
            check("tracing on" in l.command(":trace on"), ":trace on not confirmed")
            l.command(RING)
            out = l.command(":trace")
            check_ring(out, n)
            # a REPL query (completion, :draw) leaves the last command's trace alone
            l.command(":draw mpi.COMM_WORLD")
            check_ring(l.command(":trace"), n)
            l.command(":trace clear")
            out = l.command(":trace")
            check("no MPI events" in out, ":trace clear left events", out)


def test_collectives_and_constructors_span_the_ranks_that_took_part(exe):
    with Lumpi(exe, ["-n", "4"]) as l:
        l.prompt()
        l.command(":trace on")
        l.command("w = mpi.COMM_WORLD half = w:split(w:rank() % 2, w:rank()) half:set_name('half') "
                  "half:barrier() w:bcast('x', 2)")
        out = l.command(":trace")
        cols = lane_columns(out, 4)
        rows = diagram_rows(out)
        split = [line for _, line in rows if "MPI_Comm_split 'MPI_COMM_WORLD'" in line]
        check(len(split) == 1 and "[0-3]" in split[0], "split is not one span over 0-3", out)
        check(all(split[0][c] == "*" for c in cols), "split span does not mark every lane", out)
        bars = [line for _, line in rows if "MPI_Barrier 'half'" in line]
        check(len(bars) == 2, "want one barrier span per half, got %d" % len(bars), out)
        check(any("[0,2]" in b for b in bars) and any("[1,3]" in b for b in bars), "barrier spans' ranks", out)
        even = [b for b in bars if "[0,2]" in b][0]
        check(even[cols[0]] == "*" and even[cols[2]] == "*" and even[cols[1]] == "=" and even[cols[3]] == "|",
              "the even half's barrier is not drawn over lanes 0 and 2", out)
        bc = [line for _, line in rows if "MPI_Bcast 'MPI_COMM_WORLD' root 2 [0-3]" in line]
        check(len(bc) == 1, "bcast span with root 2 missing", out)
        order = [i for i, (_, line) in enumerate(rows) if "MPI_Comm_split" in line or "MPI_Bcast" in line]
        check(order == sorted(order) and "MPI_Comm_split" in rows[order[0]][1], "split is not above bcast", out)


def span_rows(rows, needle):
    return [line for _, line in rows if needle in line]


def test_neighbour_and_nonblocking_collectives_and_window_epochs_are_spans(exe):
    # 5 ranks (odd). A periodic ring over the odd ranks {1, 3} and a line
    # over 0-2 (ranks 3 and 4 get nil): MPI-3.1 §7.6's neighbourhood
    # collectives are spans over exactly the lanes that took part.
    with Lumpi(exe, ["-n", "5"]) as l:
        l.prompt()
        l.command(":trace on")
        out = l.command(
            "w = mpi.COMM_WORLD r = w:rank() "
            "odd = w:split(r % 2 == 1 and 1 or mpi.UNDEFINED, r) "
            "if odd then ring = odd:cart_create({2}, {true}) ring:set_name('ring') "
            "got = ring:neighbor_allgather(r) end "
            "line = w:cart_create({3}, {false}) "
            "if line then line:set_name('line') line:neighbor_alltoall({r, r}) end "
            "return got")
        check("[1] {3, 3}" in out and "[3] {1, 1}" in out, "neighbor_allgather on the odd ring", out)
        out = l.command(":trace")
        check(all(len(x) <= 80 for x in out.splitlines()), "a line is wider than 80 columns", out)
        cols = lane_columns(out, 5)
        rows = diagram_rows(out)
        ring = span_rows(rows, "MPI_Neighbor_allgather 'ring' [1,3]")
        check(len(ring) == 1, "want one neighbor_allgather span over [1,3]", out)
        lanes = "".join(ring[0][c] for c in cols)
        check(lanes == "|*=*|", "the ring's span covers lanes %r, want |*=*|" % lanes, out)
        made = (span_rows(rows, "MPI_Cart_create (unnamed) [1,3]")
                + span_rows(rows, "MPI_Cart_create 'MPI_COMM_WORLD' [0-4]"))
        check(len(made) == 2, "the two cart_create calls are not spans over [1,3] and [0-4]", out)
        line = span_rows(rows, "MPI_Neighbor_alltoall 'line' [0-2]")
        check(len(line) == 1, "want one neighbor_alltoall span over [0-2]", out)
        lanes = "".join(line[0][c] for c in cols)
        check(lanes == "***||", "the line's span covers lanes %r, want ***||" % lanes, out)
        # nonblocking collectives: a span from the call to completion, and the wait
        l.command("q = w:ibarrier() b = w:ibcast(r == 4 and 'x' or nil, 4) q:wait() b:wait()")
        rows = diagram_rows(l.command(":trace"))
        check(len(span_rows(rows, "MPI_Ibarrier 'MPI_COMM_WORLD' [0-4]")) == 1, "ibarrier span", out)
        check(len(span_rows(rows, "MPI_Ibcast 'MPI_COMM_WORLD' root 4 [0-4]")) == 1, "ibcast span", out)
        # a window: created, fenced and freed collectively; lock and unlock wait on the target
        l.command("win = w:win_allocate(8, 8) win:fence() win:fence() "
                  "if r == 2 then win:lock(mpi.LOCK_EXCLUSIVE, 0) win:unlock(0) end win:free()")
        out = l.command(":trace")
        rows = diagram_rows(out)
        for call in ("MPI_Win_allocate", "MPI_Win_free"):
            check(len(span_rows(rows, call + " ")) == 1 and "[0-4]" in span_rows(rows, call + " ")[0],
                  call + " is not one span over 0-4", out)
        fences = [x for x in span_rows(rows, "MPI_Win_fence ") if "[0-4]" in x]
        check(len(fences) == 2, "want two fence spans over 0-4", out)
        lock = span_rows(rows, "MPI_Win_lock on 2 target 0")
        check(len(lock) == 1 and lock[0][cols[2]] == "W", "lock is not a wait in lane 2", out)
        check(len(span_rows(rows, "MPI_Win_unlock on 2 target 0")) == 1, "unlock wait missing", out)


def test_waits_and_probes_are_drawn(exe):
    with Lumpi(exe, ["-n", "2"]) as l:
        l.prompt()
        l.command(":trace on")
        # rank 1 sends 0.2 s late, so that rank 0 really waits (a wait that
        # finds its message arrived is no wait; seen in the sanitized run)
        l.command("w = mpi.COMM_WORLD if w:rank() == 0 then local r = w:irecv(1, 9) r:wait() "
                  "else local t = mpi.wtime() + 0.2 while mpi.wtime() < t do end w:send('x', 0, 9) end")
        out = l.command(":trace")
        rows = diagram_rows(out)
        check(any(re.search(r"W\s.*MPI_Wait on 0", line) for _, line in rows), "wait row missing", out)
        check(any("#1 recv 1->0 tag 9" in line for _, line in rows), "the waited-for receive is missing", out)
        l.command(":on 0 w:send('hi', 1, 3)")
        out = l.command(":on 1 st = w:probe(0, 3) return (w:recv(0, 3))")
        check("[1] hi" in out, "probe/recv did not work", out)
        out = l.command(":trace")
        rows = diagram_rows(out)
        probe = [i for i, (_, line) in enumerate(rows) if re.search(r"P\s.*MPI_Probe on 1 sees 0->1 tag 3", line)]
        recv = [i for i, (_, line) in enumerate(rows) if "recv 0->1 tag 3" in line]
        check(len(probe) == 1 and len(recv) == 1 and probe[0] < recv[0], "probe row missing or after the receive", out)


def test_svg_at_16_ranks_parses_with_one_lane_per_rank_and_arrows(exe):
    with tempfile.TemporaryDirectory() as d, Lumpi(exe, ["-n", "16"]) as l:
        l.prompt(60)
        l.command(":trace on")
        l.command(RING, 60)
        svg = os.path.join(d, "ring.svg")
        out = l.command(":trace svg " + svg, 30)
        check("wrote " + svg in out, ":trace svg did not say it wrote", out)
        root = ET.parse(svg).getroot()
        ns = "{http://www.w3.org/2000/svg}"
        lanes = [g for g in root.iter(ns + "g") if g.get("class") == "lane"]
        check(sorted(int(g.get("data-rank")) for g in lanes) == list(range(16)), "not one lane per rank")
        msgs = [g for g in root.iter(ns + "g") if g.get("class") == "message"]
        check(len(msgs) == 16, "want 16 arrows, got %d" % len(msgs))
        for g in msgs:
            a, b = int(g.get("data-from")), int(g.get("data-to"))
            check(b == (a + 1) % 16, "arrow %d->%d is not the ring's" % (a, b))
            line = g.find(ns + "line")
            check(float(line.get("x2")) > float(line.get("x1")), "arrow %d->%d points back in time" % (a, b))
            lane_y = {int(x.get("data-rank")): float(x.find(ns + "line").get("y1")) for x in lanes}
            check(float(line.get("y1")) == lane_y[a] and float(line.get("y2")) == lane_y[b],
                  "arrow %d->%d does not join their lanes" % (a, b))
        out = l.command(":trace")
        check(all(len(x) <= 80 for x in out.splitlines()), "16 lanes do not fit 80 columns", out)


def check_json(path, n_msgs):
    with open(path) as f:
        doc = json.load(f)
    ev = doc["traceEvents"]
    starts = {e["id"]: e for e in ev if e.get("ph") == "s"}
    ends = {e["id"]: e for e in ev if e.get("ph") == "f"}
    check(len(starts) == n_msgs and set(starts) == set(ends), "flow events do not pair up: %r" % doc)
    for k in starts:
        check(starts[k]["ts"] < ends[k]["ts"], "message %s: receive clock not after send clock" % k)
        check(starts[k]["tid"] != ends[k]["tid"], "message %s joins a lane to itself" % k)
    names = {e["args"]["name"] for e in ev if e.get("ph") == "M"}
    return doc, names


def test_json_loads_with_matching_flow_events(exe):
    with tempfile.TemporaryDirectory() as d, Lumpi(exe, ["-n", "3"]) as l:
        l.prompt()
        l.command(":trace on")
        l.command(RING)
        path = os.path.join(d, "t.json")
        out = l.command(":trace json " + path)
        check("wrote" in out, ":trace json did not write", out)
        _, names = check_json(path, 3)
        check(names == {"rank 0", "rank 1", "rank 2"}, "thread names %r" % names)
        check("usage" in l.command(":trace svg"), ":trace svg without FILE is not refused")
        check("usage" in l.command(":trace sideways"), "unknown :trace word is not refused")


def test_script_trace_file_and_lumpi_test_trace_dir(exe):
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "ring.lua")
        with open(script, "w") as f:
            f.write(RING + "\n")
        for name in ("out.json", "out.svg", "out.txt"):
            path = os.path.join(d, name)
            p = subprocess.run([exe, "-n", "4", "--trace", path, script], capture_output=True, text=True,
                               timeout=120)
            check(p.returncode == 0, "lumpi --trace %s failed: %s" % (name, p.stdout + p.stderr))
            check(os.path.exists(path), "--trace did not write " + name)
        check_json(os.path.join(d, "out.json"), 4)
        ET.parse(os.path.join(d, "out.svg"))
        check_ring(open(os.path.join(d, "out.txt")).read(), 4)
        p = subprocess.run([exe, "--trace", os.path.join(d, "x.json")], capture_output=True, text=True, timeout=60)
        check(p.returncode != 0 and "--trace" in p.stderr, "--trace without a script is not refused")
        # lumpi test --trace DIR: a diagram for the failing case only
        scen = os.path.join(d, "scen.lua")
        with open(scen, "w") as f:
            f.write("local t = require('lumpi.test')\nt.np = {3}\n"
                    "t.case('passes', function() mpi.COMM_WORLD:barrier() end)\n"
                    "t.case('ring fails', function()\n  " + RING + "\n  t.eq(1, 2)\nend)\n")
        tdir = os.path.join(d, "traces")
        p = subprocess.run([exe, "test", "--trace", tdir, scen], capture_output=True, text=True, timeout=120)
        check(p.returncode != 0 and "1 failed" in p.stdout, "the scenario should fail once: " + p.stdout + p.stderr)
        files = sorted(os.listdir(tdir))
        check(len(files) == 1 and "ring_fails" in files[0], "want one diagram for the failing case: %r" % files)
        text = open(os.path.join(tdir, files[0])).read()
        check_ring(text, 3)
        check("MPI_Barrier" not in text, "the passing case's barrier leaked into the failing case's trace", text)


TESTS = [
    test_ring_on_3_and_5_ranks_draws_each_arrow_into_the_next_lane,
    test_collectives_and_constructors_span_the_ranks_that_took_part,
    test_neighbour_and_nonblocking_collectives_and_window_epochs_are_spans,
    test_waits_and_probes_are_drawn,
    test_svg_at_16_ranks_parses_with_one_lane_per_rank_and_arrows,
    test_json_loads_with_matching_flow_events,
    test_script_trace_file_and_lumpi_test_trace_dir,
]

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_trace.py /path/to/lumpi [test name substring]")
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    sys.exit(run_tests([t for t in TESTS if only in t.__name__], os.path.abspath(sys.argv[1]), per_test=150))
