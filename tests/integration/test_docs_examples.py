"""tests/integration/test_docs_examples.py: every example in README.md and
docs/*.md that shows a command and its output is run and compared, so a
false example fails CI (issue 27, item 7).

What counts as an example: a code block (indented four spaces, or fenced
with ```) whose first line is a shell command `$ CMD`, or a REPL prompt
`lumpi[0-3]> ...` (then the command is `lumpi -n N`, N from the prompt's
ranks). In a block:
- `$ CMD` starts an example; `lumpi` (or `build/lumpi`, `build/lumpi-cc`,
  any `build/X`) means the binaries of the build under test, run from a
  scratch directory that links to the repository root's entries (files an
  example writes land there);
- `lumpi[...]> TEXT` and `...> TEXT` lines are typed into the REPL: they
  are fed on stdin, where lumpi prints what the REPL prints, without
  prompts;
- every other line is expected output, in order; a line that is `...` or
  starts with `... (` stands for any number of lines, and `...` inside a
  line for any text (a time that varies).
Lines are compared after stripping trailing blanks. A block whose command
cannot run here (it installs packages, starts a browser, needs hosts) is
listed in SKIP with its reason; an unlisted example always runs.

The test checks itself too: one example with a planted wrong line must
fail the comparison.

usage: python3 test_docs_examples.py /path/to/build/lumpi
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run, sanitized, scratch_dir  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
BUILD = os.path.dirname(LUMPI)
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOCS = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(ROOT, "docs"))
                              if f.endswith(".md") and f != "mpi.md")  # mpi.md: generated help, no sessions

# Commands that cannot run inside this test, by their first words.
SKIP = {
    "scripts/dev": "installs packages and builds: it is what runs this test",
    "lumpi kernel": "installs a Jupyter kernel for the user",
    "lumpi world": "starts a world that waits for a REPL (test_attach covers it)",
    "lumpi attach": "attaches to a world started elsewhere (test_attach covers it)",
    "lumpi --launcher": "needs a launcher or hosts (test_hosts covers it)",
    "lumpi exec --launcher": "needs a launcher or hosts (test_hosts covers it)",
    "jupyter": "starts a notebook server",
    "cmake": "configures or installs a build (test_install covers it)",
    "ssh": "needs a remote host",
    "sudo": "changes the machine",
    "apt-get": "changes the machine",
}
PROMPT = re.compile(r"^lumpi\[([0-9,\-]+)\]> ?(.*)$")
MORE = re.compile(r"^\s*\.\.\.> ?(.*)$")


def code_blocks(text):
    """(first line number, [lines]) of each code block of a Markdown text."""
    blocks, cur, start, fenced = [], None, 0, False
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith("```"):
            if fenced:
                blocks.append((start, cur))
                cur, fenced = None, False
            else:
                cur, start, fenced = [], n + 1, True
            continue
        if fenced:
            cur.append(line)
        elif line.startswith("    ") or (cur is not None and line.strip() == ""):
            if cur is None:
                cur, start = [], n
            cur.append(line[4:])
        elif cur is not None:
            blocks.append((start, cur))
            cur = None
    if cur is not None:
        blocks.append((start, cur))
    return [(s, [l.rstrip() for l in b]) for s, b in blocks]


def ranks_in(prompt_ranks):
    """4 for '0-3', 3 for '0,1,2'."""
    n = 0
    for part in prompt_ranks.split(","):
        lo, _, hi = part.partition("-")
        n = max(n, int(hi or lo) + 1)
    return n


def examples(block):
    """[(command, stdin lines, expected lines)] of one code block."""
    out, cur = [], None
    for line in block:
        m = PROMPT.match(line)
        if line.startswith("$ "):
            cur = [line[2:].strip(), [], []]
            out.append(cur)
        elif m:
            if cur is None:
                cur = [f"lumpi -n {ranks_in(m.group(1))}", [], []]
                out.append(cur)
            cur[1].append(m.group(2))
        elif cur is not None and MORE.match(line):
            cur[1].append(MORE.match(line).group(1))
        elif cur is not None:
            cur[2].append(line)
    for ex in out:
        while ex[2] and ex[2][-1] == "":
            ex[2].pop()
    return [tuple(e) for e in out]


def mpi4py_lib():
    """The mpi4py tests/mpi4py built on this build (run_mpi4py.py), or None."""
    import glob
    done = glob.glob(os.path.join(BUILD, "mpi4py", "src", "mpi4py-*", ".lumpi-build"))  # written once built
    found = glob.glob(os.path.join(BUILD, "mpi4py", "src", "mpi4py-*", "build", "lib", "mpi4py", "MPI.*.so"))
    return os.path.dirname(os.path.dirname(found[0])) if found and done else None


def skip_reason(command, expected):
    if sanitized(BUILD) and any(re.search(r"\.c(pp)?:(\d+|\.\.\.) \(", line) for line in expected):
        return "a source line in a checker's report: the sanitized build's reports have none (known limit)"
    if "python3" in command and "mpi4py" not in os.environ.get("PYTHONPATH", "") and not mpi4py_lib():
        return "needs mpi4py built on lumpi (the mpi4py test builds it; docs/python.md)"
    words = command.replace("build/lumpi", "lumpi")
    for prefix, why in SKIP.items():
        if words.startswith(prefix):
            return why
    return None


def wild(line):
    return line.strip() == "..." or line.strip().startswith("... (")


def same(expected, got):
    """A line equal to the expected one, where '...' inside the expected
    line stands for any text (a time that varies: '(... ms after')."""
    parts = expected.rstrip().split("...")
    return re.fullmatch(".*".join(re.escape(p) for p in parts), got.rstrip()) is not None


def in_order(expected, got):
    """None when got matches expected line by line, wildcards included."""
    def go(i, j):
        if i == len(expected):
            return None if j == len(got) else f"unexpected extra output: {got[j]!r}"
        if wild(expected[i]):
            for k in range(j, len(got) + 1):
                if go(i + 1, k) is None:
                    return None
            return f"nothing after line {j} matches {expected[i + 1:i + 2]!r}"
        if j == len(got):
            return f"output ended, expected {expected[i]!r}"
        if not same(expected[i], got[j]):
            return f"expected {expected[i]!r}, got {got[j]!r}"
        return go(i + 1, j + 1)
    return go(0, 0)


LABEL = re.compile(r"^\[([0-9,\-]+)\]")


def by_label(lines):
    out = {}
    for line in lines:
        m = LABEL.match(line)
        out.setdefault(m.group(1) if m else "", []).append(line.rstrip())
    return out


def matches(expected, got):
    """None when the got lines match the expected ones, else what differs.
    Ranks print concurrently (`print` streams live), so only each rank's
    own lines ([2] ...) have an order: when the whole output does not match
    in order, each rank's lines are compared on their own, in order (as a
    subsequence when the example elides lines with `...`)."""
    whole = in_order(expected, got)
    if whole is None or not any(LABEL.match(l) for l in expected):
        return whole
    loose = any(wild(l) for l in expected)
    want, have = by_label([l for l in expected if not wild(l)]), by_label(got)
    if not loose and set(want) != set(have):
        return f"ranks {sorted(set(want) ^ set(have))} differ: " + whole
    for label, lines in want.items():
        it = iter(have.get(label, []))
        if loose and not all(any(same(line, g) for g in it) for line in lines):
            return f"[{label}]'s lines are not all there, in order: " + whole
        got_lines = have.get(label, [])
        if not loose and (len(lines) != len(got_lines) or not all(map(same, lines, got_lines))):
            return f"[{label}]'s lines differ: " + whole
    return None


def shell_command(command):
    """The example's command with lumpi and build/X pointing at the build under test."""
    cmd = re.sub(r"(^|[\s|;&(])build/", lambda m: m.group(1) + BUILD + "/", command)
    return re.sub(r"(^|[\s|;&(])lumpi(?=\s|$)", lambda m: m.group(1) + LUMPI, cmd)


def work_dir():
    """A scratch directory that looks like the repository's root (links to
    its entries), so an example that writes files (lumpi-cc -o halo) writes
    them there, not into the tree."""
    d = scratch_dir("lumpi-docs-")
    for name in os.listdir(ROOT):
        if name not in (".git", "build"):
            os.symlink(os.path.join(ROOT, name), os.path.join(d, name))
    return d


WORK = None


def run_example(command, stdin):
    """(exit status, output lines) of one example, run from a copy of the root."""
    script = f"cd {WORK} && ( {shell_command(command)} ) 2>&1"
    rc, out, err, tag = run("/bin/sh", ["-c", script], stdin="\n".join(stdin) + "\n" if stdin else "",
                            timeout=120)
    check(f"no process left after `{command}`", no_leftovers(tag))
    return rc, (out + err).splitlines()  # err: only what the shell itself said


def main():
    global WORK
    WORK = work_dir()
    if mpi4py_lib():  # docs/python.md's examples: its PYTHONPATH
        os.environ["PYTHONPATH"] = mpi4py_lib()
    ran = skipped = 0
    for doc in DOCS:
        text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
        for line_no, block in code_blocks(text):
            for command, stdin, expected in examples(block):
                where = f"{doc}:{line_no} `{command}`"
                why = skip_reason(command, expected)
                if why:
                    print(f"skip {where}: {why}")
                    skipped += 1
                    continue
                rc, got = run_example(command, stdin)
                diff = matches(expected, got)
                if rc is None:  # what it printed before it hung is not what the docs show
                    diff = "it did not end within 120 s"
                check(f"{where} prints what the docs show", diff is None,
                      f"{diff}\n--- output (exit {rc}):\n" + "\n".join(got[:60]))
                ran += 1
    print(f"{ran} examples run, {skipped} skipped")
    check("the docs have examples to check", ran >= 10, f"only {ran}")
    planted = ["[0] 0", "[1] 7"]
    check("a planted wrong line fails the comparison", matches(planted, ["[0] 0", "[1] 1"]) is not None)
    check("a wildcard line matches several lines", matches(["a", "...", "d"], ["a", "b", "c", "d"]) is None)
    check("a wildcard does not hide a wrong last line", matches(["a", "...", "d"], ["a", "b", "e"]) is not None)
    check("ranks' lines may interleave", matches(["[0] a", "[1] b", "[0] c"], ["[1] b", "[0] a", "[0] c"]) is None)
    check("but each rank's own order holds", matches(["[0] a", "[1] b", "[0] c"], ["[0] c", "[1] b", "[0] a"]) is not None)


if __name__ == "__main__":
    main()
    finish()
