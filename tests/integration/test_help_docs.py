# tests/integration/test_help_docs.py: help and the user documentation.
#
# :help, :help :CMD and :help NAME at the REPL (on stdin and under a pty,
# with Tab completion), help(x) on the ranks, and docs/: mpi.md is what
# lua/lumpi/help.lua generates today (docs/generate), every meta-command and option
# is documented in docs/ and the man page, the man page renders without
# warnings and installs to share/man/man1, every relative link resolves.
# Usage: python3 test_help_docs.py /path/to/build/lumpi
import os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run, scratch_dir  # noqa: E402
from ptyrun import Lumpi  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOCS = os.path.join(ROOT, "docs")
tmp = scratch_dir("lumpi-help-docs-")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


# ---- the REPL on stdin ---------------------------------------------------------------------

rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin=":help\n")
listing = out
metas = re.findall(r"^  :(\w+)", listing, re.M)
check(":help lists every meta-command from the table",
      metas == ["help", "on", "target", "timeout", "status", "queue", "trace", "check", "ranks", "hw", "draw", "dot", "load",
                "restart", "detach", "quit"], listing)

rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin=":help :draw\n:help :q\n:help :nope\n:? :on\n")
check(":help :draw explains one meta-command",
      out.startswith(":draw EXPR   draw the communicator") and "Cartesian communicator" in out, out)
check(":help :q finds the command by its alias", ":quit   leave" in out and "Also: :q, :exit" in out, out)
check(":help of an unknown meta-command says so", "no meta-command :nope (:help lists them)" in out, out)
check(":? is :help", ":on RANKS CODE   run CODE on RANKS only" in out, out)
rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin=":help trace\n:help q\n")
check(":help trace (without the colon) explains :trace", out.startswith(":trace [on|off"), out)
check(":help q finds :quit by its alias", ":quit   leave" in out, out)
rc, out, err, tag = run(LUMPI, ["-n", "3"], stdin=":hlep\n:trcae on\n:help :drwa\n:chek\n:xyzzy\n:qiut\n")
lines = out.splitlines()
check("misspelt meta-commands get the nearest names, unrelated words none", lines == [
    "unknown command :hlep; did you mean :help? (try :help)",
    "unknown command :trcae; did you mean :trace? (try :help)",
    "no meta-command :drwa; did you mean :draw? (:help lists them)",
    "unknown command :chek; did you mean :check? (try :help)",
    "unknown command :xyzzy (try :help)",
    "unknown command :qiut; did you mean :quit? (try :help)"], out)

rc, out, err, tag = run(LUMPI, ["-n", "3"], stdin=(
    ":help split\n:help Cartcomm.shift\n:help coords\n:target 2\n:help MPI_Comm_free\n"))
check(":help NAME shows the entry once (asked of one rank)",
      out.count("[Comm.split]") == 1 and "MPI: MPI_Comm_split" in out and "§6.4.2" in out, out)
check(":help takes the C++ name", "[Cartcomm.cart_shift]" in out and "C++: Cartcomm::Shift" in out, out)
check(":help suggests near names", "no help for 'coords'; did you mean Cartcomm.cart_coords?" in out, out)
check(":help lists errors", "MPI_ERR_COMM: comm is COMM_WORLD or COMM_SELF" in out, out)
check("no process left after :help", no_leftovers(tag))

rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin=(
    "if mpi.rank() == 0 then os.exit(0) end\n:help barrier\n"))
check(":help asks a live rank when the first is gone", "[Comm.barrier]" in out, out)

# ---- help(x) on the ranks -------------------------------------------------------------------

rc, out, err, tag = run(LUMPI, ["-n", "2", "-e", "return help('dims_create')",
                                "-e", "return help(mpi.COMM_WORLD:group()):match('^class Group')",
                                "-e", "return help(mpi.COMM_WORLD.bcast):match('%[Comm.bcast%]')"])
check("help(name) returns the text on every rank, collated",
      out.startswith("[0-1] mpi.dims_create(nnodes, dims | ndims) -> dims    [mpi.dims_create]"), out)
check("help(value) works on objects and methods",
      "[0-1] class Group\n" in out and "[0-1] [Comm.bcast]\n" in out, out)

# ---- under a terminal: completion ----------------------------------------------------------

with Lumpi(LUMPI, ["-n", "2"]) as l:
    l.prompt()
    l.send(":dr\t")
    l.expect(r":draw", 5, "meta-command completed")
    l.ctrl_c()
    l.prompt(5)
    l.send(":help Cartcomm.cart_sh\t")
    l.expect(r":help Cartcomm\.cart_shift", 5, "help name completed")
    l.send("\r")
    l.expect(r"C\+\+: Cartcomm::Shift", 5, "help shown")
    l.prompt(5)
    out = l.command(":help :timeout")
    check(":help :timeout under a terminal", "interrupt commands that run longer" in out, out)

# ---- docs/mpi.md is up to date ------------------------------------------------------------

fresh = os.path.join(tmp, "mpi.md")
rc, out, err, tag = run(LUMPI, ["-n", "1", "-e", f"require('lumpi.help').write_markdown('{fresh}')"])
generated = read(fresh) if os.path.exists(fresh) else ""
checked_in = read(os.path.join(DOCS, "mpi.md"))
check("docs/mpi.md is what lua/lumpi/help.lua generates (run docs/generate)",
      generated != "" and generated == checked_in,
      "differs; run docs/generate" if generated else out + err)
for key in ["mpi.dims_create", "Comm.split", "Cartcomm.cart_shift", "Group.incl", "Request.wait",
            "Op.commutative", "mpi.SUM", "mpi.hw.info", "Intercomm.intercomm_merge"]:
    check(f"docs/mpi.md has {key}", f"`{key}`" in checked_in)

# ---- meta-commands and options are documented -----------------------------------------------

repl_md, man = read(os.path.join(DOCS, "repl.md")), read(os.path.join(DOCS, "lumpi.1"))
for m in metas:
    check(f":{m} is in docs/repl.md", f"`:{m}" in repl_md)
    check(f":{m} is in docs/lumpi.1", f":{m}" in man)
usage = subprocess.run([LUMPI, "--help"], capture_output=True, text=True, timeout=20).stdout
cli_md = read(os.path.join(DOCS, "command-line.md"))
for opt in sorted(set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", usage))):
    check(f"option {opt} is in docs/command-line.md", f"`{opt}" in cli_md or f"{opt} " in cli_md)
    check(f"option {opt} is in docs/lumpi.1", opt.replace("-", r"\-") in man)

# ---- the man page ------------------------------------------------------------------------------

if shutil.which("man"):
    p = subprocess.run(["man", "--warnings", "-l", os.path.join(DOCS, "lumpi.1")], capture_output=True,
                       text=True, timeout=30, env=dict(os.environ, MANWIDTH="80", MANPAGER="cat",
                                                        PAGER="cat", LC_ALL="C.UTF-8"))
    check("man -l docs/lumpi.1 renders without warnings",
          p.returncode == 0 and p.stderr.strip() == "" and "SYNOPSIS" in p.stdout
          and ":help" in p.stdout, p.stderr[:2000])
else:
    check("man is installed (apt-get install man-db)", False)

build = os.path.dirname(LUMPI)
prefix = os.path.join(tmp, "prefix")
p = subprocess.run(["cmake", "--install", build, "--prefix", prefix], capture_output=True, text=True,
                   timeout=60)
check("cmake --install puts lumpi.1 in share/man/man1",
      os.path.exists(os.path.join(prefix, "share", "man", "man1", "lumpi.1")), p.stdout + p.stderr)

# ---- links ------------------------------------------------------------------------------------

pages = [os.path.join(DOCS, f) for f in os.listdir(DOCS) if f.endswith(".md")]
pages.append(os.path.join(ROOT, "README.md"))
for page in pages:
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", read(page)):
        path = os.path.normpath(os.path.join(os.path.dirname(page), target))
        if os.path.basename(target) == "threat-model.md":
            continue  # written by another change
        check(f"{os.path.relpath(page, ROOT)} links {target}", os.path.exists(path))
readme = read(os.path.join(ROOT, "README.md"))
check("README.md links docs/", "docs/README.md" in readme and "API.md" not in readme)

shutil.rmtree(tmp, ignore_errors=True)
finish()
