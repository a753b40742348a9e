"""tests/integration/test_notebooks.py: the class notebooks of
scripts/notebooks/ run top to bottom on the lumpi kernel with Debian's
nbclient (python3-nbclient), as CI would run them, and their outputs are
checked: a code cell's metadata "lumpi": {"expect": [...]} lists texts that
must appear in its outputs (streams, results, errors, displays), and
"expect_mime" a picture type its display must carry (when graphviz's dot is
installed). Cells tagged raises-exception must fail; no other may.

Each notebook's kernel carries a unique environment tag; whatever it
started is found by that tag and killed by pid at the end.

usage: python3 test_notebooks.py /path/to/lumpi
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import nbclient  # noqa: F401
    import nbformat  # noqa: F401
except ImportError:
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print("SKIP: python3-nbclient is not installed (scripts/dev installs it: apt-get install python3-nbclient)")
    sys.exit(0)

from nbclient import NotebookClient  # noqa: E402
from nbclient.exceptions import CellExecutionError  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, kill_tagged, marker_env, no_leftovers, scratch_dir  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
NOTEBOOKS = sorted(glob.glob(os.path.join(HERE, "..", "..", "scripts", "notebooks", "*.ipynb")))
TMP = scratch_dir("lumpi-notebooks-test-")

p = subprocess.run([LUMPI, "kernel", "install", "--prefix", TMP], capture_output=True, text=True, timeout=30)
check("the kernelspec installs", p.returncode == 0, p.stderr)
os.environ["JUPYTER_PATH"] = os.path.join(TMP, "share", "jupyter")
os.environ["JUPYTER_RUNTIME_DIR"] = os.path.join(TMP, "runtime")
HAVE_DOT = shutil.which("dot") is not None
check("there are class notebooks", len(NOTEBOOKS) >= 3, NOTEBOOKS)


def outputs_text(cell):
    parts = []
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream":
            parts.append(o["text"])
        elif o["output_type"] in ("execute_result", "display_data"):
            parts.append(o["data"].get("text/plain", ""))
        elif o["output_type"] == "error":
            parts.append(o["ename"] + ": " + o["evalue"])
            parts.extend(o["traceback"])
    return "\n".join(parts)


for path in NOTEBOOKS:
    name = os.path.basename(path)
    nb = nbformat.read(path, as_version=4)
    tag, env = marker_env()
    env.update(JUPYTER_PATH=os.environ["JUPYTER_PATH"], JUPYTER_RUNTIME_DIR=os.environ["JUPYTER_RUNTIME_DIR"])
    client = NotebookClient(nb, kernel_name="lumpi", timeout=120, startup_timeout=60,
                            resources={"metadata": {"path": os.path.dirname(path)}})
    t0 = time.time()
    try:
        client.execute(env=env)
        error = ""
    except CellExecutionError as e:
        error = str(e)[:2000]
    except Exception as e:  # a kernel that died or timed out
        error = f"{type(e).__name__}: {e}"[:2000]
    took = time.time() - t0
    check(f"{name} runs top to bottom ({took:.1f} s)", not error, error)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        text = outputs_text(cell)
        meta = cell.metadata.get("lumpi", {})
        failed = any(o["output_type"] == "error" for o in cell.get("outputs", []))
        want_error = "raises-exception" in cell.metadata.get("tags", [])
        if want_error:
            check(f"{name} cell {i} fails as it should", failed, text)
        missing = [e for e in meta.get("expect", []) if e not in text]
        check(f"{name} cell {i} shows what it should", not missing,
              f"missing {missing!r} in:\n{text}\n--- source:\n{cell.source}")
        mime = meta.get("expect_mime")
        if mime and HAVE_DOT:
            shown = any(mime in o.get("data", {}) for o in cell.get("outputs", []))
            check(f"{name} cell {i} displays {mime}", shown, cell.get("outputs"))
    check(f"{name} leaves no process", no_leftovers(tag, within=5))
    kill_tagged(tag)

if not HAVE_DOT:
    print("note: graphviz is not installed; pictures of :draw were not checked")
shutil.rmtree(TMP, ignore_errors=True)
finish()
