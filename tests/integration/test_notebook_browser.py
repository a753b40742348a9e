"""tests/integration/test_notebook_browser.py: a real browser runs a class
notebook on the lumpi kernel. Debian's classic notebook server
(jupyter-notebook, notebook 6.4) serves a copy of
scripts/notebooks/rows_cols.ipynb from a private temporary directory;
headless Chromium, driven by Selenium through chromedriver, opens it,
clicks Cell > Run All, waits until every code cell has run and the kernel
is idle, and the test reads the rendered page: the SVG picture of
`:draw row_comm` is in that cell's output area with one box per rank in
one frame per row communicator, and no cell shows an error. A screenshot
of the drawing is kept in BUILD_DIR/test-artifacts/notebook_browser.png.

Nothing on the machine changes: the kernelspec is installed into a
temporary prefix found through JUPYTER_PATH, Jupyter's and Chromium's
configuration, data and runtime files live in the same temporary
directory (HOME too). The server listens on 127.0.0.1 on a free port with
a random token. Every process started (server, kernel, ranks,
chromedriver, Chromium) carries a unique environment tag and is killed by
pid at the end.

usage: python3 test_notebook_browser.py /path/to/lumpi
"""
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

# Selenium and the notebook server are Debian's, for Debian's python3; a
# python3 from elsewhere earlier on PATH (pyenv) does not see them.
try:
    import selenium  # noqa: F401
except ImportError:
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print("SKIP: python3-selenium is not installed (scripts/dev installs it)")
    sys.exit(0)
MISSING = [p for p in ("jupyter-notebook", "chromium", "chromedriver") if not shutil.which(p)]
if MISSING:
    print(f"SKIP: {', '.join(MISSING)} not installed (scripts/dev installs "
          "jupyter-notebook chromium chromium-driver)")
    sys.exit(0)

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, kill_tagged, marker_env, no_leftovers, scratch_dir  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
NOTEBOOK = os.path.join(HERE, "..", "..", "scripts", "notebooks", "rows_cols.ipynb")
ARTIFACTS = os.path.join(os.path.dirname(LUMPI), "test-artifacts")
SCREENSHOT = os.path.join(ARTIFACTS, "notebook_browser.png")
TMP = scratch_dir("lumpi-browser-test-")
T0 = time.monotonic()
# Bounds: the whole test takes ~15 s plain on an idle machine; each wait
# below is far longer than what it needs, and all of them together stay
# within ctest's 300 s (ranks under ASan start slowly).
SERVER_UP_S, PAGE_S, KERNEL_S, RUN_ALL_S = 60, 60, 90, 120


def wait_for(what, cond, timeout, every=0.2):
    """Polls cond() until it returns something true; that value, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            got = cond()
        except WebDriverException:
            got = None
        if got:
            return got
        time.sleep(every)
    print(f"     (gave up waiting for {what} after {timeout} s)")
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- a private Jupyter: kernelspec, notebook copy, configuration -------------------------

p = subprocess.run([LUMPI, "kernel", "install", "--prefix", TMP], capture_output=True, text=True, timeout=30)
check("the kernelspec installs into a temporary prefix", p.returncode == 0, p.stdout + p.stderr)
work = os.path.join(TMP, "notebooks")
os.makedirs(work)
shutil.copy(NOTEBOOK, work)
tag, env = marker_env()
env.update(HOME=TMP,
           JUPYTER_PATH=os.path.join(TMP, "share", "jupyter"),
           JUPYTER_CONFIG_DIR=os.path.join(TMP, "config"),
           JUPYTER_DATA_DIR=os.path.join(TMP, "data"),
           JUPYTER_RUNTIME_DIR=os.path.join(TMP, "runtime"),
           IPYTHONDIR=os.path.join(TMP, "ipython"),
           XDG_CONFIG_HOME=os.path.join(TMP, "xdg-config"),
           XDG_CACHE_HOME=os.path.join(TMP, "xdg-cache"))
token = secrets.token_hex(16)
server_log = open(os.path.join(TMP, "server.log"), "w+")
server = subprocess.Popen(
    ["jupyter-notebook", "--no-browser", "--ip=127.0.0.1", f"--port={free_port()}",
     f"--NotebookApp.token={token}", f"--notebook-dir={work}", "--allow-root",
     "--NotebookApp.open_browser=False", "--MappingKernelManager.default_kernel_name=lumpi"],
    stdout=server_log, stderr=subprocess.STDOUT, env=env, start_new_session=True)


def server_url():
    """The URL the server says it listens at (another free port if the one
    picked was taken in between)."""
    server_log.seek(0)
    m = re.search(r"(http://127\.0\.0\.1:\d+/)\S*token=", server_log.read())
    return m.group(1) if m else (server.poll() is not None and "dead")


driver = None
try:
    base = wait_for("the notebook server", server_url, SERVER_UP_S)
    check("the notebook server listens on 127.0.0.1", base and base != "dead", open(server_log.name).read()[-2000:])
    if not base or base == "dead":
        raise SystemExit

    # ---- headless Chromium ------------------------------------------------------------------
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--window-size=1100,1500", "--disable-gpu",
                "--disable-dev-shm-usage",  # containers often have a small /dev/shm
                "--no-first-run", "--disable-extensions", "--hide-scrollbars",
                f"--user-data-dir={os.path.join(TMP, 'chromium')}"):
        opts.add_argument(arg)
    if os.geteuid() == 0:
        # Chromium refuses to start as root with its sandbox on (the sandbox
        # needs an unprivileged user); CI runs the suite as root. The page
        # is our own, served from 127.0.0.1.
        opts.add_argument("--no-sandbox")
    service = Service("/usr/bin/chromedriver", env=env,
                      log_path=os.path.join(TMP, "chromedriver.log"))
    driver = webdriver.Chrome(service=service, options=opts)
    driver.set_page_load_timeout(PAGE_S)
    driver.set_script_timeout(30)

    # ---- open the notebook, run all cells ---------------------------------------------------
    driver.get(f"{base}notebooks/rows_cols.ipynb?token={token}")
    js_idle = ("return !!(window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&"
               " Jupyter.notebook.kernel.is_connected() &&"
               " document.querySelector('#kernel_indicator_icon.kernel_idle_icon'))")
    ready = wait_for("the kernel to be ready", lambda: driver.execute_script(js_idle), KERNEL_S)
    check("the page opens and the lumpi kernel starts and goes idle", ready,
          driver.title + "\n" + open(server_log.name).read()[-2000:])
    kernel_name = driver.execute_script("return Jupyter.notebook.kernel && Jupyter.notebook.kernel.name")
    check("the notebook runs on the lumpi kernel", kernel_name == "lumpi", kernel_name)

    # the menu, as a user does it: Cell > Run All
    driver.find_element(By.ID, "celllink").click()
    driver.find_element(By.CSS_SELECTOR, "#run_all_cells > a").click()
    n_code = driver.execute_script("return document.querySelectorAll('.cell.code_cell').length")

    def all_ran():
        prompts = driver.execute_script(
            "return Array.from(document.querySelectorAll('.code_cell .input_prompt'))"
            ".map(e => e.textContent.replace(/\\s+/g, ''))")
        done = prompts and all(re.fullmatch(r"In\[\d+\]:", t) for t in prompts)
        return done and driver.execute_script(js_idle)
    ran = wait_for("every cell to run", all_ran, RUN_ALL_S)
    prompts = driver.execute_script(
        "return Array.from(document.querySelectorAll('.code_cell .input_prompt')).map(e => e.textContent)")
    with open(NOTEBOOK) as f:
        n_source = sum(c["cell_type"] == "code" for c in json.load(f)["cells"])
    check(f"Run All runs all {n_source} code cells and the kernel goes idle", ran and n_code == n_source, prompts)

    # ---- the rendered page --------------------------------------------------------------------
    errors = driver.execute_script(
        "return Array.from(document.querySelectorAll('.output_area .output_error')).map(e => e.textContent)")
    check("no cell shows an error", not errors, errors)
    # the drawing: the SVG in the output area of the `:draw row_comm` cell
    drawing = driver.execute_script("""
        const cells = Array.from(document.querySelectorAll('.cell.code_cell'));
        const cell = cells.find(c => /^:draw row_comm/.test(c.querySelector('.CodeMirror').CodeMirror.getValue()));
        if (!cell) return null;
        const svg = cell.querySelector('.output_area .output_svg svg');
        if (!svg) return {svg: false, text: cell.querySelector('.output').textContent};
        cell.scrollIntoView();
        const r = svg.getBoundingClientRect();
        return {svg: true, width: r.width, height: r.height,
                clusters: Array.from(svg.querySelectorAll('g.cluster')).map(g =>
                    [g.querySelector('title').textContent, g.querySelector('text').textContent]),
                nodes: Array.from(svg.querySelectorAll('g.node')).map(g =>
                    [g.querySelector('title').textContent, g.querySelector('text').textContent])};""")
    check("the :draw cell is there", drawing is not None)
    drawing = drawing or {}
    check("the :draw cell's output area holds an SVG picture", drawing.get("svg"), drawing)
    # 6 ranks in a 3x2 grid: three row communicators (Graphviz clusters
    # cluster_cR labelled with the communicator's name) of two ranks each
    # (nodes cR_K labelled "wW / K": world rank W is rank K of row R)
    clusters = dict(drawing.get("clusters", []))
    nodes = dict(drawing.get("nodes", []))
    check("the picture has one frame per row communicator, named",
          clusters == {f"cluster_c{r}": f"Intracomm 'row {r}'" for r in range(3)}, clusters)
    check("the picture has one box per rank in its row's frame: world rank / rank in the row",
          nodes == {f"c{r}_{k}": f"w{2 * r + k} / {k}" for r in range(3) for k in range(2)}, nodes)
    check("the picture is laid out (not empty)", drawing.get("width", 0) > 50 and drawing.get("height", 0) > 20, drawing)
    os.makedirs(ARTIFACTS, exist_ok=True)
    check(f"a screenshot is kept in {SCREENSHOT}", driver.save_screenshot(SCREENSHOT) and os.path.getsize(SCREENSHOT) > 0)

    # ---- shut the kernel down from the page -----------------------------------------------------
    driver.execute_script("Jupyter.notebook.session.delete()")
    def kernels():
        with urllib.request.urlopen(f"{base}api/kernels?token={token}", timeout=10) as r:
            return json.loads(r.read())
    gone = wait_for("the kernel to shut down", lambda: kernels() == [], 30)
    check("the kernel shuts down when the page ends its session", gone)
except WebDriverException as e:
    check("the browser drives the notebook", False, f"{type(e).__name__}: {e}"[:2000])
except SystemExit:
    pass
finally:
    if driver is not None:
        try:
            driver.quit()
        except Exception:
            pass
    server.terminate()  # by pid: SIGTERM, the server stops its kernels
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    server_log.close()
# chromedriver and Chromium end with driver.quit(), the kernel and its ranks
# with the server; whatever did not within 10 s is killed by pid (its tag)
check("nothing is left running (server, kernel, ranks, chromedriver, Chromium)", no_leftovers(tag, within=10))
kill_tagged(tag)
took = time.monotonic() - T0
check(f"the whole test is bounded ({took:.1f} s)", took < 240)
finish()
