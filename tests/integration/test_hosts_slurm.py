# tests/integration/test_hosts_slurm.py: T4 of issue 14: Slurm from Debian
# (slurmctld, slurmd, munge) on this one machine, set up by this test in a
# private temporary directory: its own munge key, socket and log; a
# slurm.conf with three nodes n1..n3 (all NodeHostname=localhost, each
# slurmd on a port of its own, started with -N), state, spool and logs under
# the same directory. No system service or file is touched: every daemon is
# started here in the foreground and killed by pid (all carry this test's
# tag, so whatever they start is found too).
#
#   - `lumpi --launcher srun -n 8` puts 8 ranks on 2 nodes (4 CPUs each):
#     allreduce, each rank's SLURM node, :ranks from a piped REPL;
#   - `sbatch` of a job that runs `lumpi world --launcher srun -n 8
#     --jobfile FILE`, then `lumpi attach FILE` twice (globals kept), then
#     `lumpi world --stop FILE`: the job ends, the file is gone.
#
# Needs root (slurmd) and the packages slurmctld, slurmd, slurm-client and
# munge (scripts/dev installs them); without them it skips with the reason.
#
# Usage: python3 test_hosts_slurm.py /path/to/build/lumpi
import os, re, shutil, signal, socket, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, kill_tagged, marker_env, no_leftovers, pids_with_tag, scratch_dir  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
NODES = ["n1", "n2", "n3"]


def free_ports(n):
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


class Cluster:
    """munged, slurmctld and one slurmd per node, all in `d`, all tagged."""

    def __init__(self):
        self.d = scratch_dir("lumpi-slurm-")
        os.chmod(self.d, 0o755)  # slurmstepd and the jobs read the config
        self.tag, self.env = marker_env()
        self.procs = []
        d = self.d
        for sub in ["munge", "state", "log"] + ["spool/" + n for n in NODES]:
            os.makedirs(os.path.join(d, sub), exist_ok=True)
        os.chmod(os.path.join(d, "munge"), 0o700)
        with open(os.path.join(d, "munge", "munge.key"), "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(os.path.join(d, "munge", "munge.key"), 0o400)
        self.sock = os.path.join(d, "munge", "sock")
        ctld, slurmd_port, *node_ports = free_ports(2 + len(NODES))
        nodes = "".join(f"NodeName={n} NodeHostname=localhost Port={p} CPUs=4 State=UNKNOWN\n"
                        for n, p in zip(NODES, node_ports))
        self.conf = os.path.join(d, "slurm.conf")
        with open(self.conf, "w") as f:
            f.write(f"""ClusterName=lumpitest
SlurmctldHost=localhost
SlurmctldPort={ctld}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={self.sock}
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool/%n
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd-%n.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd-%n.log
PlugStackConfig={d}/plugstack.conf
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdParameters=config_overrides
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
{nodes}PartitionName=debug Nodes={",".join(NODES)} Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
""")
        open(os.path.join(d, "plugstack.conf"), "w").close()
        self.env["SLURM_CONF"] = self.conf
        for k in [k for k in self.env if k.startswith("SLURM_") and k != "SLURM_CONF"]:
            del self.env[k]  # a surrounding allocation is not ours

    def start(self, argv, name):
        log = open(os.path.join(self.d, "log", name + ".out"), "w")
        p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=self.env)
        self.procs.append(p)
        return p

    def up(self, within=60):
        d = self.d
        self.start(["munged", "-F", "-f", "--socket=" + self.sock, "--key-file=" + d + "/munge/munge.key",
                    "--log-file=" + d + "/munge/log", "--pid-file=" + d + "/munge/pid",
                    "--seed-file=" + d + "/munge/seed"], "munged")
        deadline = time.time() + within
        while not os.path.exists(self.sock) and time.time() < deadline:
            time.sleep(0.05)
        self.start(["slurmctld", "-D", "-i", "-f", self.conf], "slurmctld")
        for n in NODES:
            self.start(["slurmd", "-D", "-N", n, "-f", self.conf], "slurmd-" + n)
        while time.time() < deadline:
            p = subprocess.run(["sinfo", "-h", "-o", "%D %t"], capture_output=True, text=True, env=self.env, timeout=20)
            if p.stdout.split() == [str(len(NODES)), "idle"]:
                return True
            if any(q.poll() is not None for q in self.procs):
                break
            time.sleep(0.3)
        return False

    def logs(self):
        out = ""
        for name in sorted(os.listdir(os.path.join(self.d, "log"))):
            with open(os.path.join(self.d, "log", name), errors="replace") as f:
                out += f"--- {name}\n" + f.read()[-1500:]
        return out

    def run(self, argv, stdin=None, timeout=90):
        try:
            p = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=self.env, timeout=timeout,
                               cwd=self.d)
            return p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            return None, str(e.stdout), str(e.stderr)

    def down(self):
        subprocess.run(["scancel", "-u", "root"], env=self.env, capture_output=True, timeout=20)
        for p in reversed(self.procs):  # slurmds first, munged last
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(10)
        return no_leftovers(self.tag, 10)


def srun_world(c):
    code, out, err = c.run([LUMPI, "--launcher", "srun", "-n", "8",
                            "-e", "return mpi.COMM_WORLD:allreduce(mpi.COMM_WORLD:rank() + 1, mpi.SUM)",
                            "-e", "return 'on ' .. os.getenv('SLURMD_NODENAME')"])
    check("srun: allreduce over 8 ranks", code == 0 and re.search(r"\[0-7\] 36", out) is not None,
          f"exit {code}\n{out}\n{err}\n{c.logs()}")
    nodes = set(re.findall(r"\bon (n[1-3])\b", out))
    check("srun: the 8 ranks are on 2 to 4 nodes", 2 <= len(nodes) <= 4, out)
    code, out, err = c.run([LUMPI, "--launcher", "srun", "-n", "8"], stdin=":ranks\n")
    rows = re.findall(r"^\s*[0-7]\s", out, re.M)
    check("srun: :ranks from the REPL lists 8 ranks", code == 0 and len(rows) == 8, f"exit {code}\n{out}\n{err}")


def sbatch_attach(c):
    jobfile = os.path.join(c.d, "world.job")
    script = os.path.join(c.d, "world.sh")
    with open(script, "w") as f:
        f.write(f"#!/bin/sh\nexec {LUMPI} world --launcher srun -n 8 --jobfile {jobfile}\n")
    os.chmod(script, 0o755)
    code, out, err = c.run(["sbatch", "-n", "8", "-o", os.path.join(c.d, "job.out"), "--parsable", script])
    check("sbatch: the job is queued", code == 0 and out.strip().isdigit(), f"{code}\n{out}\n{err}")
    if code != 0:
        return
    job = out.strip()
    deadline = time.time() + 60
    while time.time() < deadline and not os.path.exists(jobfile):
        time.sleep(0.1)
    check("sbatch: the world writes its connection file", os.path.exists(jobfile), c.logs())
    code, out, err = c.run([LUMPI, "attach", jobfile, "-e",
                            "z = mpi.COMM_WORLD:allreduce(1, mpi.SUM) return z"])
    check("sbatch: lumpi attach runs on the 8 ranks", code == 0 and re.search(r"\[0-7\] 8", out) is not None,
          f"exit {code}\n{out}\n{err}\n{c.logs()}")
    code, out, err = c.run([LUMPI, "attach", jobfile], stdin="return z + mpi.COMM_WORLD:rank()\n:detach\n")
    check("sbatch: a second attach (REPL) sees the globals and detaches",
          code == 0 and re.search(r"\[7\] 15", out) is not None, f"exit {code}\n{out}\n{err}")
    code, out, err = c.run([LUMPI, "world", "--stop", jobfile])
    check("sbatch: lumpi world --stop ends the world", code == 0, f"{code}\n{out}\n{err}")
    deadline, state = time.time() + 30, "?"
    while time.time() < deadline:
        state = c.run(["squeue", "-h", "-j", job, "-o", "%T"])[1].strip()
        if state == "":
            break
        time.sleep(0.2)
    check("sbatch: the job has ended", state == "", state)
    check("sbatch: the connection file is gone", not os.path.exists(jobfile))
    with open(os.path.join(c.d, "job.out")) as f:
        log = f.read()
    check("sbatch: the job's log shows two attaches and the end",
          log.count("a REPL attached") == 2 and "told to end" in log, log)


def main():
    missing = [p for p in ["munged", "slurmctld", "slurmd", "srun", "sbatch", "sinfo"] if not shutil.which(p)]
    if missing:
        print("skip: not installed: " + ", ".join(missing) + " (scripts/dev installs slurmctld slurmd slurm-client munge)")
        return finish()
    if os.geteuid() != 0:
        print("skip: slurmd needs root")
        return finish()
    c = Cluster()
    try:
        ok = c.up()
        check("slurm: munged, slurmctld and 3 slurmd are up, 3 nodes idle", ok, c.logs())
        if ok:
            srun_world(c)
            sbatch_attach(c)
    finally:
        check("slurm: every daemon and rank is gone", c.down(), str(pids_with_tag(c.tag)))
        kill_tagged(c.tag)
    finish()


if __name__ == "__main__":
    main()
