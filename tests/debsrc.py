"""tests/debsrc.py: the original tarball of a Debian source package, fetched
without changing the machine.

Test drivers that judge lumpi with other projects' test programs (MPICH's in
tests/mpich, mpi4py's in tests/mpi4py) take those programs from Debian's
source packages. apt on this machine knows only binary archives, so
`orig_tarball` writes a private apt configuration in a temporary directory:
a deb-src line for each Debian archive the machine already uses (same URI,
suite, components and signing key), its own lists and cache. It runs
`apt-get update` and `apt-get source --download-only` there, copies the
package's `<name>_<version>.orig.tar.*` to the caller's directory and
deletes the rest. Errors are RuntimeError with apt's last words, so a caller
can skip (exit 77) and say why.
"""
import glob
import os
import re
import shutil
import subprocess
import tempfile


def archive_entries():
    """(uri, suite, components, signed_by) for every enabled binary source of apt."""
    entries = []
    files = ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list"))
    for f in files:
        if not os.path.exists(f):
            continue
        for line in open(f, encoding="utf-8", errors="replace"):
            line = line.split("#", 1)[0].strip()
            m = re.match(r"deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s*(.*)", line)
            if m:
                opts = m.group(1) or ""
                sb = re.search(r"signed-by=(\S+?)[\s\]]", opts)
                entries.append((m.group(2), m.group(3), m.group(4).split(), sb.group(1) if sb else None))
    for f in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        text = open(f, encoding="utf-8", errors="replace").read()
        for stanza in re.split(r"\n\s*\n", text):
            fields = {}
            for line in stanza.splitlines():
                if line.startswith("#") or ":" not in line:
                    continue
                k, v = line.split(":", 1)
                fields[k.strip().lower()] = v.strip()
            if "deb" not in fields.get("types", "").split() or fields.get("enabled", "yes") == "no":
                continue
            for uri in fields.get("uris", "").split():
                for suite in fields.get("suites", "").split():
                    entries.append((uri, suite, fields.get("components", "").split(), fields.get("signed-by")))
    return entries


def _apt_options(apt):
    return ["-o", f"Dir::Etc::SourceList={apt}/sources.list",
            "-o", f"Dir::Etc::SourceParts={apt}/parts",
            "-o", f"Dir::State::Lists={apt}/lists",
            "-o", f"Dir::Cache={apt}/cache",
            "-o", "APT::Sandbox::User=root", "-q"]


def orig_tarball(package, version, dest):
    """The path of `package`'s orig tarball of `version`, copied into dest."""
    entries = [e for e in archive_entries() if "debian" in e[0]]
    if not entries:
        raise RuntimeError("no Debian archive is configured in /etc/apt/sources.list{,.d}")
    if not shutil.which("apt-get"):
        raise RuntimeError("apt-get is not available")
    with tempfile.TemporaryDirectory(prefix="lumpi-apt-") as apt:
        for d in ("lists/partial", "cache/archives/partial", "parts", "dl"):
            os.makedirs(os.path.join(apt, d))
        with open(os.path.join(apt, "sources.list"), "w") as out:
            for uri, suite, comps, signed in entries:
                opt = f"[signed-by={signed}] " if signed and signed.startswith("/") else ""
                out.write(f"deb-src {opt}{uri} {suite} {' '.join(comps)}\n")
        opts = _apt_options(apt)
        r = subprocess.run(["apt-get"] + opts + ["update"], capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            raise RuntimeError("apt-get update failed: " + r.stderr.strip()[-300:])
        r = subprocess.run(["apt-get"] + opts + ["source", "--download-only", package],
                           cwd=os.path.join(apt, "dl"), capture_output=True, text=True, timeout=900)
        if r.returncode != 0:
            raise RuntimeError(f"apt-get source {package} failed: " + r.stderr.strip()[-300:])
        orig = glob.glob(os.path.join(apt, "dl", f"{package}_{version}.orig.tar.*"))
        if not orig:
            got = ", ".join(os.listdir(os.path.join(apt, "dl")))
            raise RuntimeError(f"the archive's {package} source is not {version} (got: {got})")
        os.makedirs(dest, exist_ok=True)
        return shutil.copy(orig[0], dest)
