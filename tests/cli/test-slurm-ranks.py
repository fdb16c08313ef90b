#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Slurm workflow (data/slurm/sightline-ranks.sbatch) on a real
single-node Slurm started here in a temporary directory (munged with its
own socket and key, slurmctld + slurmd with state and spool in tmp, no
cgroups: proctrack/linuxproc, task/none), over 8 generated rank files: the
merged result equals `ranks` over the same files run locally.  Skips (77)
with the exact reason when Slurm or munge is missing or will not start.

  test-slurm-ranks.py CLI GEN SBATCH_SCRIPT"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

CLI, GEN, SCRIPT = (os.path.abspath(a) for a in sys.argv[1:4])
SBIN = ["/usr/sbin", "/usr/bin"]
procs = []


def skip(reason):
    print("SKIP:", reason)
    sys.exit(77)


def tool(name):
    for d in SBIN:
        if os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)
    return shutil.which(name)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_conf(tmp, host):
    sock = os.path.join(tmp, "munge.sock")
    conf = f"""ClusterName=sltest
SlurmctldHost={host}
SlurmUser=root
SlurmdUser=root
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
AuthType=auth/munge
AuthInfo=socket={sock}
CredType=cred/munge
StateSaveLocation={tmp}/state
SlurmdSpoolDir={tmp}/spool
SlurmctldPidFile={tmp}/slurmctld.pid
SlurmdPidFile={tmp}/slurmd.pid
SlurmctldLogFile={tmp}/slurmctld.log
SlurmdLogFile={tmp}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
NodeName={host} CPUs={os.cpu_count()} State=UNKNOWN
PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""
    for d in ("state", "spool"):
        os.makedirs(os.path.join(tmp, d), exist_ok=True)
    path = os.path.join(tmp, "slurm.conf")
    open(path, "w").write(conf)
    return path, sock


def start_munge(tmp, sock):
    key = os.path.join(tmp, "munge.key")
    with open(key, "wb") as f:
        f.write(os.urandom(1024))
    os.chmod(key, 0o400)
    p = subprocess.Popen([tool("munged"), "-F", "--force", f"--socket={sock}", f"--key-file={key}",
                          f"--pid-file={tmp}/munged.pid", f"--log-file={tmp}/munged.log",
                          f"--seed-file={tmp}/munged.seed"],
                         stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "munged.err"), "w"))
    procs.append(p)
    for _ in range(50):
        if os.path.exists(sock):
            return
        if p.poll() is not None:
            skip("munged exited: " + open(os.path.join(tmp, "munged.err")).read().strip())
        time.sleep(0.1)
    skip("munged did not create its socket")


def start_slurm(tmp, env):
    for daemon in ("slurmctld", "slurmd"):
        log = open(os.path.join(tmp, daemon + ".err"), "w")
        p = subprocess.Popen([tool(daemon), "-D"], env=env, stdout=log, stderr=log)
        procs.append(p)
        time.sleep(1.5)
        if p.poll() is not None:
            skip(f"{daemon} exited ({p.returncode}): " + open(os.path.join(tmp, daemon + ".err")).read()[-400:])
    for _ in range(60):
        r = subprocess.run(["sinfo", "-h", "-o", "%T"], env=env, capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.strip() in ("idle", "mixed", "allocated"):
            return
        time.sleep(0.5)
    skip("the Slurm node never became idle: " + r.stdout.strip() + r.stderr.strip())


def wait_merge(out, env, deadline):
    result = os.path.join(out, "ranks.json")
    while time.time() < deadline:
        q = subprocess.run(["squeue", "-h"], env=env, capture_output=True, text=True).stdout.strip()
        if os.path.exists(result) and not q:
            return result
        time.sleep(0.5)
    return None


def main():
    if os.geteuid() != 0:
        skip("needs root to run slurmd (as the CI container user is)")
    for t in ("munged", "slurmctld", "slurmd", "sbatch", "sinfo", "squeue"):
        if tool(t) is None:
            skip(f"{t} not installed (Debian packages slurm-wlm and munge; see .ci/install-deps)")
    tmp = tempfile.mkdtemp(prefix="sl-slurm-")
    host = socket.gethostname().split(".")[0]
    conf, sock = write_conf(tmp, host)
    env = dict(os.environ, SLURM_CONF=conf, SIGHTLINE_CLI=CLI,
               PATH=os.pathsep.join(SBIN + [os.environ.get("PATH", "")]))
    start_munge(tmp, sock)
    start_slurm(tmp, env)
    data = os.path.join(tmp, "job")
    os.makedirs(data)
    for r in range(8):
        late = ["--late-step", "5:2000000"] if r == 6 else []
        subprocess.run([GEN, os.path.join(data, f"rank{r}.sqlite"), "--gpus", "1", "--kernels", "2000", "--nccl",
                        "--gap-ns", "4000000", "--rank", str(r),
                        "--session-start-ns", str(1779630000000000000 + r * 900000), *late], check=True)
    r = subprocess.run(["sbatch", "--array=0-7", "--chdir", tmp, SCRIPT, data], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: sbatch:", r.stderr)
        sys.exit(1)
    result = wait_merge(os.path.join(data, "summaries"), env, time.time() + 180)
    if result is None:
        print("FAIL: the merge job wrote no ranks.json; slurmctld log tail:\n"
              + open(os.path.join(tmp, "slurmctld.log")).read()[-1500:])
        sys.exit(1)
    merged = json.load(open(result))
    local = json.loads(subprocess.run([CLI, "ranks", "--json", *sorted(
        os.path.join(data, f) for f in os.listdir(data) if f.endswith(".sqlite"))],
        capture_output=True, text=True, check=True).stdout)
    strip = lambda d: [{k: v for k, v in row.items() if k != "path"} for row in d["ranks"]]
    ok = strip(merged) == strip(local) and merged["iterations"] == local["iterations"]
    late = [it for it in merged["iterations"] if it["straggler"]]
    ok = ok and len(late) == 1 and late[0]["index"] == 5 and late[0]["straggler"]["rank"] == 6 \
        and late[0]["straggler"]["late_ns"] == 2000000
    print("ok" if ok else "FAIL: the Slurm merge differs from ranks run locally")
    sys.exit(0 if ok else 1)


try:
    main()
finally:
    for p in reversed(procs):
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
