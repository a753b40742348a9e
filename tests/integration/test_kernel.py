"""tests/integration/test_kernel.py: lumpi as a Jupyter kernel, driven by
Debian's jupyter_client (python3-jupyter-client) exactly as a notebook
drives it: kernelspec install, kernel_info, execute with results collated
by rank set (text/plain and HTML), live streaming, errors per rank set, an
interrupt of a blocked receive (by message and by SIGINT) followed by a
correct allreduce, the live hang report, complete, inspect, is_complete,
history, comm_info, meta-commands and :draw, restart and shutdown with no
process left, the client's death, and jupyter-console running cells.

Every kernel carries a unique environment tag; everything it started is
found by that tag and killed by pid at the end.

usage: python3 test_kernel.py /path/to/lumpi
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

# jupyter_client is Debian's, for Debian's python3; a python3 from elsewhere
# earlier on PATH (pyenv) does not see it.
try:
    import jupyter_client  # noqa: F401
except ImportError:
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print("SKIP: python3-jupyter-client is not installed (scripts/dev installs it: apt-get install python3-jupyter-client)")
    sys.exit(0)

from jupyter_client import KernelManager  # noqa: E402
from jupyter_client.kernelspec import KernelSpecManager  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, kill_tagged, marker_env, no_leftovers, pids_with_tag, scratch_dir  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
TMP = scratch_dir("lumpi-kernel-test-")
TAGS = []

# ---- the command line and the kernelspec ------------------------------------------------

p = subprocess.run([LUMPI, "kernel", "install", "--prefix", TMP], capture_output=True, text=True, timeout=30)
spec_dir = os.path.join(TMP, "share", "jupyter", "kernels")
check("kernel install --prefix succeeds", p.returncode == 0 and "lumpi" in p.stdout, p.stdout + p.stderr)
ksm = KernelSpecManager(kernel_dirs=[spec_dir])
spec = ksm.get_kernel_spec("lumpi")
check("kernelspec argv runs this lumpi as a kernel of 4 ranks",
      spec.argv == [LUMPI, "kernel", "-f", "{connection_file}", "-n", "4"], spec.argv)
check("kernelspec says lua", spec.language == "lua" and "lumpi" in spec.display_name, spec.to_dict())

p = subprocess.run([LUMPI, "kernel", "install", "--user", "--prefix", TMP], capture_output=True, text=True, timeout=30)
check("--user with --prefix is refused", p.returncode == 2 and "--prefix" in p.stderr, p.stderr)
p = subprocess.run([LUMPI, "kernel"], capture_output=True, text=True, timeout=30)
check("a kernel without -f is refused, naming -f", p.returncode == 2 and "-f" in p.stderr, p.stderr)
p = subprocess.run([LUMPI, "kernel", "-f", os.path.join(TMP, "missing.json")], capture_output=True, text=True, timeout=30)
check("a missing connection file is named", p.returncode == 1 and "missing.json" in p.stderr, p.stderr)
bad = os.path.join(TMP, "bad.json")
with open(bad, "w") as f:
    f.write('{"ip": "127.0.0.1", "key": "k", "shell_port": 1}')
p = subprocess.run([LUMPI, "kernel", "-f", bad], capture_output=True, text=True, timeout=30)
check("a connection file without a port is refused, naming it", p.returncode == 1 and "control_port" in p.stderr,
      p.stderr)


# ---- a kernel ----------------------------------------------------------------------------

def start(interrupt_mode="message"):
    tag, env = marker_env()
    TAGS.append(tag)
    km = KernelManager(kernel_name="lumpi", kernel_spec_manager=ksm)
    km.kernel_spec.interrupt_mode = interrupt_mode
    km.start_kernel(env=env)
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc, tag


def run(kc, code, timeout=60, on_msg=None):
    """Executes code; returns (reply content, [(msg_type, content, time)] on iopub)."""
    msgs = []

    def hook(m):
        msgs.append((m["msg_type"], m["content"], time.time()))
        if on_msg:
            on_msg(m)

    reply = kc.execute_interactive(code, output_hook=hook, timeout=timeout)
    return reply["content"], msgs


def result_text(msgs):
    return "\n".join(c["data"]["text/plain"] for t, c, _ in msgs if t == "execute_result")


def stream_text(msgs, name="stdout"):
    return "".join(c["text"] for t, c, _ in msgs if t == "stream" and c["name"] == name)


km, kc, tag = start()
kpid = km.provisioner.process.pid

kc.kernel_info()
info = kc.get_shell_msg(timeout=30)["content"]
check("kernel_info: protocol 5.3, language lua",
      info["protocol_version"] == "5.3" and info["language_info"]["name"] == "lua", info)

# busy and idle around a request, with that request as parent
msg_id = kc.kernel_info()
kc.get_shell_msg(timeout=30)
states = []
deadline = time.time() + 10
while time.time() < deadline and "idle" not in states:
    m = kc.get_iopub_msg(timeout=10)
    if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status":
        states.append(m["content"]["execution_state"])
check("busy then idle around kernel_info_request", states == ["busy", "idle"], states)

# signatures: a request signed with another key is dropped, the right key is answered
import zmq  # noqa: E402
from jupyter_client.session import Session as WireSession  # noqa: E402


def kernel_info_with_key(key):
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.linger = 0
    sock.connect(f"{km.transport}://{km.ip}:{km.shell_port}")
    sess = WireSession(key=key)
    sess.send(sock, "kernel_info_request", {})
    got = sess.recv(sock, mode=0)[1] if sock.poll(3000) else None
    sock.close()
    return got


check("a request with a bad signature is dropped", kernel_info_with_key(b"not-the-key") is None)
good = kernel_info_with_key(km.session.key)
check("... and a well-signed one is answered", good is not None and good["msg_type"] == "kernel_info_reply", good)

# ---- execute ------------------------------------------------------------------------------

reply, msgs = run(kc, "return mpi.rank()")
check("execute: one line per rank", reply["status"] == "ok" and result_text(msgs) == "[0] 0\n[1] 1\n[2] 2\n[3] 3",
      (reply, msgs))
html = [c["data"].get("text/html", "") for t, c, _ in msgs if t == "execute_result"]
check("execute: an HTML table of rank sets", html and "<table" in html[0] and ">3<" in html[0], html)
reply, msgs = run(kc, "return mpi.size(), 'a<b'")
check("execute: equal results collate into one rank set", result_text(msgs) == "[0-3] 4\ta<b", msgs)
html = [c["data"].get("text/html", "") for t, c, _ in msgs if t == "execute_result"]
check("HTML escapes values", html and "0-3" in html[0] and "a&lt;b" in html[0], html)
check("execute_reply counts executions", reply["execution_count"] == 2, reply)

reply, msgs = run(kc, "w = mpi.COMM_WORLD\nhalf = w:split(w:rank() % 2, w:rank())\nreturn half:size(), half:rank()")
check("globals persist; a split", result_text(msgs) == "[0-1] 2\t0\n[2-3] 2\t1", msgs)

# live streaming: rank output arrives while the cell still runs
reply, msgs = run(kc, "print('early', mpi.rank())\nos.execute('sleep 1.5')\nprint('late', mpi.rank())")
early = [tm for t, c, tm in msgs if t == "stream" and "early" in c["text"]]
late = [tm for t, c, tm in msgs if t == "stream" and "late" in c["text"]]
text = stream_text(msgs)
check("stream: every rank's lines, prefixed", all(f"[{r}] early\t{r}\n" in text and f"[{r}] late\t{r}\n" in text
                                                  for r in range(4)), text)
check("stream: output arrives live, before the cell ends", early and late and late[-1] - early[0] > 1.0,
      (early, late))

# errors per rank set
reply, msgs = run(kc, "error('boom')")
check("a Lua error: status error, ename, evalue with the rank set",
      reply["status"] == "error" and reply["ename"] == "LuaError" and reply["evalue"] == "[0-3] stdin:1: boom", reply)
check("the error is published on iopub", any(t == "error" for t, _, _ in msgs), msgs)
reply, msgs = run(kc, "if mpi.rank() == 2 then w:send('x', 9) end return 'fine'")
check("an MPI error on one rank: its class as ename, its rank set",
      reply["status"] == "error" and reply["ename"] == "MPI_ERR_RANK" and reply["evalue"].startswith("[2] MPI_ERR_RANK"),
      reply)
check("... and the other ranks' results are shown", result_text(msgs) == "[0-1,3] fine", msgs)

reply, msgs = run(kc, "function f()")
check("an incomplete cell is a syntax error, run nowhere", reply["status"] == "error" and "<eof>" in reply["evalue"],
      reply)

# "Run All" after a failing cell: the cells queued behind it are aborted, not run
# (as with ipykernel, "queued" means arrived before the failure: the failing cell takes 0.5 s)
ids = [kc.execute("os.execute('sleep 0.5') error('first fails')"), kc.execute("ran_after_error = true"), kc.execute("return 2")]
replies = {}
deadline = time.time() + 30
while len(replies) < 3 and time.time() < deadline:
    m = kc.get_shell_msg(timeout=30)
    replies[m["parent_header"]["msg_id"]] = m["content"]["status"]
check("cells queued behind a failed cell are aborted", [replies.get(i) for i in ids] == ["error", "aborted", "aborted"],
      replies)
reply, msgs = run(kc, "return ran_after_error == nil")
check("... and did not run", result_text(msgs) == "[0-3] true", msgs)
ids = [kc.execute("error('fails quietly')", stop_on_error=False), kc.execute("return 3")]
replies = {}
while len(replies) < 2 and time.time() < deadline + 30:
    m = kc.get_shell_msg(timeout=30)
    replies[m["parent_header"]["msg_id"]] = m["content"]["status"]
check("stop_on_error=False runs the next cell", [replies.get(i) for i in ids] == ["error", "ok"], replies)

# ---- interrupts, the hang report ---------------------------------------------------------


def heartbeat_echo():
    """A ping on the heartbeat socket comes back unchanged (None if not within 2 s)."""
    import zmq
    ctx = zmq.Context.instance()
    s = ctx.socket(zmq.REQ)
    s.linger = 0
    s.connect(f"{km.transport}://{km.ip}:{km.hb_port}")
    s.send(b"ping-lumpi")
    echo = s.recv() if s.poll(2000) else None
    s.close()
    return echo


HEARTBEATS = []


def interrupt_blocked_recv(how):
    sent = []

    def hook(m):
        if m["msg_type"] == "display_data" and not sent:
            sent.append(time.time())
            HEARTBEATS.append(heartbeat_echo())
            if how == "message":
                km.interrupt_kernel()
            else:
                os.kill(kpid, signal.SIGINT)

    # rank 1 computes while rank 0 waits for it: a hang, no deadlock, so the hang report shows
    t0 = time.time()
    reply, msgs = run(kc, "if mpi.rank() == 0 then return w:recv(1, 99) elseif mpi.rank() == 1 then "
                      "local t = mpi.wtime() while mpi.wtime() - t < 60 do end end return 'done'",
                      timeout=60, on_msg=hook)
    return reply, msgs, time.time() - t0


def interrupt_deadlock():
    """Rank 0 waits for rank 1, which finished the cell: the deadlock is shown at once, then interrupted."""
    seen = []

    def hook(m):
        text = m["content"].get("text", "") + m["content"].get("data", {}).get("text/plain", "")
        if "deadlock found" in text and not seen:
            seen.append(time.time())
            km.interrupt_kernel()

    t0 = time.time()
    reply, msgs = run(kc, "if mpi.rank() == 0 then return w:recv(1, 98) end return 'done'", timeout=60, on_msg=hook)
    return reply, msgs, (seen[0] - t0) if seen else None


reply, msgs, took = interrupt_blocked_recv("message")
shows = [c for t, c, _ in msgs if t == "display_data"]
check("the hang report is displayed while a cell is blocked",
      shows and "still running" in shows[0]["data"]["text/plain"] and "MPI_Recv" in shows[0]["data"]["text/plain"]
      and shows[0]["transient"].get("display_id"), shows)
updates = [c for t, c, _ in msgs if t == "update_display_data"]
check("the hang report is updated in place (finished)", updates and updates[-1]["data"]["text/plain"].startswith("finished"),
      updates)
check("interrupt_request interrupts a blocked receive",
      reply["status"] == "error" and reply["ename"] == "LUMPI_ERR_INTERRUPTED" and reply["evalue"].startswith("[0] "),
      reply)
check("... within seconds", took < 20, took)
check("the heartbeat answers while a cell is blocked", HEARTBEATS == [b"ping-lumpi"], HEARTBEATS)
reply, msgs = run(kc, "return w:allreduce(mpi.rank() + 1, mpi.SUM)")
check("after the interrupt an allreduce is correct", result_text(msgs) == "[0-3] 10", (reply, msgs))

reply, msgs, found_after = interrupt_deadlock()
shown = "".join(c.get("text", "") + c.get("data", {}).get("text/plain", "") for t, c, _ in msgs)
check("a deadlock is shown within 1.5 s (no hang report), naming the wait",
      found_after is not None and found_after < 1.5 and "still running" not in shown and
      "deadlock: rank 0 in MPI_Recv(source=1, tag=98) on 'MPI_COMM_WORLD' waits for 1" in shown,
      (found_after, shown))
check("... and interrupt_request then interrupts it",
      reply["status"] == "error" and reply["ename"] == "LUMPI_ERR_INTERRUPTED", reply)

reply, msgs, took = interrupt_blocked_recv("signal")
check("SIGINT (interrupt_mode signal) interrupts a blocked receive",
      reply["status"] == "error" and reply["ename"] == "LUMPI_ERR_INTERRUPTED", reply)
reply, msgs = run(kc, "return w:allreduce(mpi.rank() * 2, mpi.SUM)")
check("after SIGINT an allreduce is correct", result_text(msgs) == "[0-3] 12", (reply, msgs))
reply, msgs = run(kc, "return mpi.rank()")
check("an idle SIGINT does not count against the next cell", reply["status"] == "ok", reply)

# ---- complete, inspect, is_complete, history, comm_info -----------------------------------


def shell(send, *args, **kw):
    send(*args, **kw)
    return kc.get_shell_msg(timeout=30)["content"]


code = "x = mpi.COMM_WORLD:allr"
c = shell(kc.complete, code, len(code))
check("complete: methods after ':'", "allreduce" in c["matches"] and c["cursor_start"] == len(code) - 4
      and c["cursor_end"] == len(code), c)
c = shell(kc.complete, "local s = 'é'; mpi.ra", len("local s = 'é'; mpi.ra"))
check("complete: cursor positions in code points", "rank" in c["matches"] and c["cursor_start"] == 19, c)
c = shell(kc.complete, ":ta", 3)
check("complete: meta-commands", c["matches"] == [":target"] and c["cursor_start"] == 0, c)

i = shell(kc.inspect, "x = mpi.COMM_WORLD", 10)
check("inspect: type and tostring of the name at the cursor", i["found"] and "MPI_COMM_WORLD" in
      i["data"]["text/plain"] and "userdata" in i["data"]["text/plain"], i)
i = shell(kc.inspect, "no_such_name", 3)
check("inspect: an unknown name is not found", i["status"] == "ok" and not i["found"], i)
run(kc, "function help(v) return 'HELP for a ' .. type(v) end")
i = shell(kc.inspect, "mpi", 1)
check("inspect: the rank's help when a global help exists", i["found"] and "HELP for a table" in i["data"]["text/plain"], i)
run(kc, "function help(v) print('printed help') end")
i = shell(kc.inspect, "mpi", 1)
check("inspect: what help prints", i["found"] and "printed help" in i["data"]["text/plain"], i)
run(kc, "function help(v) return 'no help for a ' .. type(v) .. ' value' end\nanswer = 42")
i = shell(kc.inspect, "answer", 2)
check("inspect: help that does not know the value leaves type and tostring",
      i["found"] and "number: 42" in i["data"]["text/plain"] and "no help" not in i["data"]["text/plain"], i)
run(kc, "help = nil")

for code, want in [("function f()", "incomplete"), ("return 1", "complete"), ("x = [[", "incomplete"),
                   (":status", "complete"), (":target 0\nfor i = 1, 2 do", "incomplete")]:
    r = shell(kc.is_complete, code)
    check(f"is_complete {code!r} -> {want}", r["status"] == want, r)

h = shell(kc.history, hist_access_type="tail", n=2, output=False, raw=True)
check("history: the last inputs, numbered", [e[2] for e in h["history"]] == [
    "function help(v) return 'no help for a ' .. type(v) .. ' value' end\nanswer = 42", "help = nil"] and h["history"][1][1] == h["history"][0][1] + 1, h)
h = shell(kc.history, hist_access_type="search", pattern="*allreduce*", output=False, raw=True)
check("history: search", len(h["history"]) == 2, h)
r = shell(kc.comm_info)
check("comm_info: no comms", r["status"] == "ok" and r["comms"] == {}, r)

# ---- meta-commands ------------------------------------------------------------------------

reply, msgs = run(kc, ":target 0-1\nreturn mpi.rank() * 10")
check(":target then code in one cell", result_text(msgs) == "[0] 0\n[1] 10", msgs)
reply, msgs = run(kc, "return 'still'")
check(":target persists", result_text(msgs) == "[0-1] still", msgs)
reply, msgs = run(kc, ":on 3\nprint('on three')\nreturn mpi.rank()")
check(":on RANKS alone runs the rest of the cell there", result_text(msgs) == "[3] 3" and "[3] on three" in
      stream_text(msgs), msgs)
reply, msgs = run(kc, ":target all")
reply, msgs = run(kc, ":on 9 return 1")
check(":on with a bad rank is an error naming it", reply["status"] == "error" and "9" in reply["evalue"], reply)
reply, msgs = run(kc, ":bogus")
check("an unknown meta-command is an error", reply["status"] == "error" and "bogus" in reply["evalue"], reply)
reply, msgs = run(kc, ":target 9\nreturn 'ran'")
check(":target with a bad rank is the cell's error (UsageError, naming it); the cell's code does not run",
      reply["status"] == "error" and reply["ename"] == "UsageError" and "rank 9 is out of range" in reply["evalue"]
      and not result_text(msgs), (reply, msgs))
reply, msgs = run(kc, ":timeout soon")
check("a meta-command's usage error is the cell's error in the REPL's words (and not a stream besides)",
      reply["status"] == "error" and reply["ename"] == "UsageError" and reply["evalue"] == "usage: :timeout SECONDS|off"
      and not stream_text(msgs), (reply, msgs))
reply, msgs = run(kc, ":status")
check(":status shows every rank", reply["status"] == "ok" and "[0-3]" in stream_text(msgs), msgs)
reply, msgs = run(kc, ":ranks")
check(":ranks lists the ranks", all(f"\n{r} " in "\n" + stream_text(msgs) for r in range(4)), stream_text(msgs))
reply, msgs = run(kc, ":timeout 1\nif mpi.rank() == 0 then w:recv(1, 98) end")
check(":timeout interrupts a blocked cell", reply["status"] == "error" and "timeout" in stream_text(msgs, "stderr"),
      (reply, msgs))
run(kc, ":timeout off")
lua_file = os.path.join(TMP, "part.lua")
with open(lua_file, "w") as f:
    f.write("print('loading', mpi.rank())\nreturn mpi.rank() % 2\n")
reply, msgs = run(kc, ":load " + lua_file)
check(":load runs a file on every target rank", reply["status"] == "ok" and
      all(f"[{r}] loading\t{r}" in stream_text(msgs) for r in range(4)), msgs)
reply, msgs = run(kc, ":load /nonexistent.lua")
check(":load of a missing file is an error naming it", reply["status"] == "error" and "/nonexistent.lua" in reply["evalue"],
      reply)
reply, msgs = run(kc, ":draw w:split(w:rank() % 2)")
shows = [c["data"] for t, c, _ in msgs if t == "display_data"]
check(":draw displays the ASCII drawing", reply["status"] == "ok" and shows and "text/plain" in shows[0], msgs)
if shutil.which("dot"):
    check(":draw displays SVG beside it (graphviz)", shows and "<svg" in shows[0].get("image/svg+xml", ""), shows)
else:
    print("note: graphviz is not installed; :draw shows text only")
run(kc, ":trace on")
run(kc, "local n = w:size(); w:send(w:rank(), (w:rank() + 1) % n, 3); return w:recv((w:rank() - 1) % n, 3)")
reply, msgs = run(kc, ":trace")
shows = [c["data"] for t, c, _ in msgs if t == "display_data"]
svg = shows[0].get("image/svg+xml", "") if shows else ""
try:
    groups = list(ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}g"))
except ET.ParseError:
    groups = []
lanes = sorted(int(g.get("data-rank")) for g in groups if g.get("class") == "lane")
arrows = sorted((int(g.get("data-from")), int(g.get("data-to"))) for g in groups if g.get("class") == "message")
check(":trace displays the last command's diagram as SVG (a lane per rank, the ring's arrows) beside the text",
      reply["status"] == "ok" and lanes == [0, 1, 2, 3] and arrows == [(r, (r + 1) % 4) for r in range(4)]
      and "text/plain" in shows[0], (reply, lanes, arrows, svg[:300]))
run(kc, ":trace off")
reply, msgs = run(kc, ":dot w")
shows = [c["data"] for t, c, _ in msgs if t == "display_data"]
check(":dot displays the DOT text", shows and shows[0]["text/plain"].startswith(("digraph", "graph")), shows)
dot_file = os.path.join(TMP, "world.dot")
reply, msgs = run(kc, ":dot w " + dot_file)
check(":dot EXPR FILE writes FILE", reply["status"] == "ok" and os.path.exists(dot_file)
      and stream_text(msgs).startswith("wrote " + dot_file), (reply, msgs))
reply, msgs = run(kc, ":dot w /nonexistent/dir/w.dot")
check("a file :dot cannot write is the cell's error, DotFailed",
      reply["status"] == "error" and reply["ename"] == "DotFailed" and reply["evalue"] == "cannot write /nonexistent/dir/w.dot",
      reply)
reply, msgs = run(kc, ":draw no_such_comm")
check(":draw of nothing is an error, not a crash", reply["status"] in ("ok", "error"), reply)

reply, msgs = run(kc, "if mpi.rank() == 1 then os.exit(3) end return 'x'")
check("a rank that exits: RankDied for it, results of the others",
      reply["status"] == "error" and reply["ename"] == "RankDied" and reply["evalue"] == "[1] died: exit 3"
      and result_text(msgs) == "[0,2-3] x" and "rank 1 died: exit 3" in stream_text(msgs, "stderr"), (reply, msgs))
reply, msgs = run(kc, "return 'y'")
check("... and it is reported as not running afterwards", reply["status"] == "error" and
      "not running" in reply["evalue"] and result_text(msgs) == "[0,2-3] y", (reply, msgs))
reply, msgs = run(kc, ":restart 3\nreturn mpi.size()")
check(":restart N starts a fresh world", result_text(msgs) == "[0-2] 3", msgs)
def exe_name(pid):
    try:
        return os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return ""


rank_pids = [p for p in pids_with_tag(tag) if exe_name(p) == "lumpi-rank"]
check("the kernel runs 3 ranks after :restart 3", len(rank_pids) == 3, rank_pids)

# ---- restart and shutdown ---------------------------------------------------------------

old = set(pids_with_tag(tag))
km.restart_kernel(now=False)
kc.wait_for_ready(timeout=60)
kpid2 = km.provisioner.process.pid
reply, msgs = run(kc, "return x")
check("a restarted kernel has a fresh world (no globals, count from 1)", reply["status"] == "ok" and
      result_text(msgs) == "[0-3] nil" and reply["execution_count"] == 1, msgs)
deadline = time.time() + 5
while time.time() < deadline and old & set(pids_with_tag(tag)):
    time.sleep(0.1)
check("restart leaves no process of the old kernel", not (old & set(pids_with_tag(tag))), old & set(pids_with_tag(tag)))
kpid = kpid2

# shutdown while a cell is blocked
kc.execute("if mpi.rank() == 0 then w:recv(1, 97) end")
time.sleep(1)
t0 = time.time()
km.shutdown_kernel(now=False)
check("shutdown of a blocked kernel is quick", time.time() - t0 < 15, time.time() - t0)
kc.stop_channels()
check("shutdown leaves no process", no_leftovers(tag, within=5))

# ---- the client dies: the kernel and its ranks follow ---------------------------------

tag2, env2 = marker_env()
TAGS.append(tag2)
client = subprocess.Popen([sys.executable, "-c", f"""
import sys, time
from jupyter_client import KernelManager
from jupyter_client.kernelspec import KernelSpecManager
km = KernelManager(kernel_name="lumpi", kernel_spec_manager=KernelSpecManager(kernel_dirs=[{spec_dir!r}]))
km.start_kernel()
kc = km.client(); kc.start_channels(); kc.wait_for_ready(timeout=60)
print("ready", flush=True)
time.sleep(60)
"""], env=env2, stdout=subprocess.PIPE, text=True)
try:
    line = client.stdout.readline()
    check("a client started a kernel", line.strip() == "ready", line)
    check("... with its ranks", len(pids_with_tag(tag2)) >= 5, pids_with_tag(tag2))
finally:
    client.kill()
    client.wait(timeout=10)
check("the kernel and its ranks exit when their client is killed", no_leftovers(tag2, within=5))

# ---- a client that subscribes late ------------------------------------------------------
# A client that starts the kernel sends its first request as soon as shell
# connects; its iopub subscription may arrive later (jupyter-console does not
# wait for it). The kernel waits for the first subscriber before serving, so
# the request's output and "idle" reach the client (lost before: CI saw
# jupyter-console wait forever on In [1]).

tag4, env4 = marker_env()
TAGS.append(tag4)
km4 = KernelManager(kernel_name="lumpi", kernel_spec_manager=ksm)
km4.start_kernel(env=env4)
kc4 = km4.client()
kc4.start_channels(shell=True, iopub=False, stdin=False, hb=False, control=False)
late_id = kc4.execute("return 6 * 7")
time.sleep(1.0)
kc4.iopub_channel.start()
seen = []
deadline = time.time() + 30
while time.time() < deadline and ("status", "idle") not in seen:
    try:
        m = kc4.get_iopub_msg(timeout=1)
    except Exception:
        continue
    if m["parent_header"].get("msg_id") == late_id:
        seen.append((m["msg_type"], m["content"].get("execution_state", "")))
check("a late iopub subscriber sees its first request's result and idle",
      ("execute_result", "") in seen and ("status", "idle") in seen, seen)
kc4.stop_channels()
km4.shutdown_kernel(now=True)
check("... and the kernel leaves no process", no_leftovers(tag4, within=5))

# ---- jupyter-console runs cells --------------------------------------------------------

console = shutil.which("jupyter-console")
if console:
    tag3, env3 = marker_env()
    TAGS.append(tag3)
    env3["JUPYTER_PATH"] = os.path.join(TMP, "share", "jupyter")
    env3["JUPYTER_RUNTIME_DIR"] = os.path.join(TMP, "runtime")
    try:
        p = subprocess.run([console, "--kernel", "lumpi", "--simple-prompt", "--no-confirm-exit"],
                           input="return mpi.size()\nprint('hello', mpi.rank())\n", capture_output=True, text=True,
                           timeout=90, env=env3)
        out, err = p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        text = lambda b: b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        out, err = text(e.stdout), "timed out\n" + text(e.stderr)
    check("jupyter-console runs cells on the kernel", "[0-3] 4" in out and "[3] hello\t3" in out, out + err[-2000:])
    check("jupyter-console leaves no process", no_leftovers(tag3, within=5))
else:
    print("note: jupyter-console is not installed; its check is skipped")

for t in TAGS:
    kill_tagged(t)
shutil.rmtree(TMP, ignore_errors=True)
finish()
