#!/usr/bin/python3
"""tests/bench/kernel_bench.py: the cell round trip of a notebook, lumpi's
kernel next to ipyparallel's %px, measured the same way, interleaved.

    /usr/bin/python3 kernel_bench.py --lumpi build/lumpi [--np 4,16] [--cells 50] [--rounds 4]

Both are driven by jupyter_client as a notebook drives its kernel: a cell
is sent with execute_request, and its round trip lasts until the kernel
has answered (execute_reply on the shell channel) and reported idle for
that request on iopub, with every output in between read.
  lumpi : the lumpi kernel of N ranks runs the cell `return 1` (its
          result, `[0-N-1] 1`, is checked)
  ipp   : IPython's kernel (ipykernel, python3) connected to an
          ipyparallel cluster of N engines runs the cell `%px 1` (every
          engine's `Out[i:k]: 1` is checked); the view blocks, as
          %px must to show its results in the cell
Per size: one lumpi kernel, one cluster and one IPython kernel live for
the whole measurement; --rounds rounds, each --cells cells of lumpi then
--cells of ipp, after 5 warm-up cells each. Prints one JSON line per size:
{"n", "lumpi_ms": [...], "ipp_ms": [...] (each cell's round trip),
"lumpi_cpu_ms", "ipp_cpu_ms" (per round: CPU time per cell of all the
processes behind each kernel: lumpi's kernel and ranks; IPython's kernel,
ipyparallel's controller and engines), "load": [before, after]}. The CPU
figure is what a loaded machine distorts least: wall time there is mostly
waiting for a core.

Everything started carries LUMPI_BENCH_TAG in its environment and is
killed by pid at the end (kernels, ranks, controller, engines).
Needs Debian's python3-jupyter-client, python3-ipykernel, python3-ipyparallel.
"""
import argparse
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

TAG = "lumpi-bench-" + uuid.uuid4().hex
os.environ["LUMPI_BENCH_TAG"] = TAG
os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # ipykernel's debugger warns on every start
TMP = tempfile.mkdtemp(prefix="lumpi-kernel-bench-")
os.environ.update(IPYTHONDIR=os.path.join(TMP, "ipython"), JUPYTER_RUNTIME_DIR=os.path.join(TMP, "runtime"),
                  JUPYTER_DATA_DIR=os.path.join(TMP, "data"), JUPYTER_CONFIG_DIR=os.path.join(TMP, "config"))

from jupyter_client import KernelManager  # noqa: E402
from jupyter_client.kernelspec import KernelSpecManager  # noqa: E402

try:
    import ipyparallel as ipp  # noqa: E402
except ImportError:
    ipp = None

TIMEOUT = 120  # s for one cell: bounded, far above any round trip


def tagged_pids():
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                if f"LUMPI_BENCH_TAG={TAG}".encode() in f.read().split(b"\0"):
                    out.append(int(name))
        except OSError:
            pass
    return out


def kill_tagged():
    for pid in tagged_pids():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def cell(kc, code):
    """Runs one cell; returns (seconds, text of its outputs, error or None)."""
    t0 = time.perf_counter()
    msg_id = kc.execute(code)
    idle, reply, texts, error = False, None, [], None
    while not idle:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        t, c = m["msg_type"], m["content"]
        if t == "status" and c["execution_state"] == "idle":
            idle = True
        elif t == "stream":
            texts.append(c["text"])
        elif t in ("execute_result", "display_data"):
            texts.append(c["data"].get("text/plain", ""))
        elif t == "error":
            error = f"{c['ename']}: {c['evalue']}"
    while reply is None:
        m = kc.get_shell_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") == msg_id:
            reply = m
    took = time.perf_counter() - t0
    if reply["content"]["status"] != "ok" and error is None:
        error = reply["content"].get("evalue", reply["content"]["status"])
    return took, "\n".join(texts), error


def start_kernel(name, spec_dirs):
    km = KernelManager(kernel_name=name, kernel_spec_manager=KernelSpecManager(kernel_dirs=spec_dirs))
    km.start_kernel()
    kc = km.blocking_client()
    kc.start_channels()
    kc.wait_for_ready(timeout=TIMEOUT)
    return km, kc


HZ = os.sysconf("SC_CLK_TCK")


def tree_cpu_s(root):
    """CPU seconds (user + system) used so far by root and its descendants,
    each found through /proc's parent pids (children reaped are not
    counted; none end during a batch)."""
    stat, kids = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                f_ = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(name)
        stat[pid] = (int(f_[11]) + int(f_[12])) / HZ  # utime, stime
        kids.setdefault(int(f_[1]), []).append(pid)
    total, todo = 0.0, list(root if isinstance(root, (list, tuple)) else [root])
    while todo:
        pid = todo.pop()
        total += stat.get(pid, 0.0)
        todo += kids.get(pid, [])
    return total


def batch(kc, code, check, count, cpu_of=None, cpu=None):
    """count cells; their round trips in ms. With cpu_of (pids), the CPU
    time those process trees used, in ms per cell, is appended to cpu."""
    times = []
    c0 = tree_cpu_s(cpu_of) if cpu_of else 0.0
    for _ in range(count):
        took, text, error = cell(kc, code)
        if error or not check(text):
            raise RuntimeError(f"cell {code!r} failed: {error or text!r}")
        times.append(took * 1e3)
    if cpu_of:
        cpu.append((tree_cpu_s(cpu_of) - c0) * 1e3 / count)
    return times


def one_size(lumpi, n, cells, rounds, with_ipp):
    res = {"n": n, "lumpi_ms": [], "ipp_ms": [], "lumpi_cpu_ms": [], "ipp_cpu_ms": [],
           "load": [os.getloadavg()[0]]}
    prefix = os.path.join(TMP, f"lumpi{n}")
    subprocess.run([lumpi, "kernel", "install", "--prefix", prefix, "-n", str(n)],
                   check=True, capture_output=True, timeout=60)
    lumpi_specs = [os.path.join(prefix, "share", "jupyter", "kernels")]
    want = f"[0-{n - 1}] 1" if n > 1 else "[0] 1"
    lumpi_ok = lambda text: want in text  # noqa: E731
    px_ok = lambda text: len(re.findall(r"Out\[\d+:\d+\]:\s*1\b", re.sub(r"\x1b\[[0-9;]*m", "", text))) == n  # noqa: E731
    cluster = km_l = km_p = None
    try:
        km_l, kc_l = start_kernel("lumpi", lumpi_specs)
        batch(kc_l, "return 1", lumpi_ok, 5)
        if with_ipp:
            cluster = ipp.Cluster(n=n, log_level=logging.WARNING)
            cluster.start_cluster_sync()
            rc = cluster.connect_client_sync()
            rc.wait_for_engines(n, timeout=300, interactive=False)
            rc.close()
            km_p, kc_p = start_kernel("python3", [os.path.join(sys.prefix, "share", "jupyter", "kernels"),
                                                  "/usr/share/jupyter/kernels"])
            setup = (f"import ipyparallel as ipp\n"
                     f"rc = ipp.Client(profile_dir={cluster.profile_dir!r}, cluster_id={cluster.cluster_id!r})\n"
                     f"rc.wait_for_engines({n}, timeout=120, interactive=False)\n"
                     f"dv = rc[:]; dv.block = True; dv.activate()\n"
                     f"print(len(rc.ids))")
            took, text, error = cell(kc_p, setup)
            if error or text.strip() != str(n):
                raise RuntimeError(f"IPython kernel cannot reach the cluster: {error or text!r}")
            batch(kc_p, "%px 1", px_ok, 5)
        # CPU per cell: the lumpi kernel and its ranks; IPython's kernel,
        # ipyparallel's controller and engines (the client, this process,
        # is the same for both and not counted)
        lumpi_pids = [km_l.provisioner.process.pid]
        ipp_pids = [km_p.provisioner.process.pid, cluster.controller.pid] + \
            [el.pid for es in cluster.engines.values() for el in es.launchers.values()] \
            if with_ipp else []
        for _ in range(rounds):
            res["lumpi_ms"] += batch(kc_l, "return 1", lumpi_ok, cells, lumpi_pids, res["lumpi_cpu_ms"])
            if with_ipp:
                res["ipp_ms"] += batch(kc_p, "%px 1", px_ok, cells, ipp_pids, res["ipp_cpu_ms"])
    finally:
        for km in (km_l, km_p):
            if km is not None:
                try:
                    km.shutdown_kernel(now=False)
                except Exception:
                    km.shutdown_kernel(now=True)
        if cluster is not None:
            try:
                cluster.stop_cluster_sync()
            except Exception as e:
                print(f"note: stop_cluster: {e}", file=sys.stderr)
        deadline = time.time() + 10
        while tagged_pids() and time.time() < deadline:
            time.sleep(0.2)
        kill_tagged()
    res["load"].append(os.getloadavg()[0])
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lumpi", required=True)
    ap.add_argument("--np", default="4,16")
    ap.add_argument("--cells", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--no-ipp", action="store_true")
    a = ap.parse_args()
    with_ipp = ipp is not None and not a.no_ipp
    if ipp is None and not a.no_ipp:
        print("note: ipyparallel (python3-ipyparallel) not installed: only lumpi measured", file=sys.stderr)
    try:
        for n in (int(x) for x in a.np.split(",") if x):
            print(json.dumps(one_size(os.path.abspath(a.lumpi), n, a.cells, a.rounds, with_ipp)), flush=True)
    finally:
        kill_tagged()
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
