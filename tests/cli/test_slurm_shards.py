#!/usr/bin/python3
"""The Slurm array recipe of docs/shards.md, run by a real Slurm (long set, ctest label `long`).

A private, throw-away single-node cluster of Debian's slurm-wlm (22.05 on Debian 12) is started
as the current user in a temporary folder: its own slurm.conf (never /etc/slurm), state, spool,
logs and pid files, free ports, no systemd, no munged (auth/none and cred/none: nothing leaves the
machine). `sbatch --wait --array=0-3` then runs the four shards of one selection as four array
tasks, `ptovec merge` joins them, and every merged file and the manifest must be byte-identical to
the unsharded `ptovec generate`. Each task's output file and the SLURM_ARRAY_* variables it wrote
prove the array really ran as four tasks of one Slurm job. The daemons are stopped and the folder
removed even when the test fails.

Without slurm-wlm (slurmctld, slurmd, sbatch, sinfo, scancel) the test fails, naming
`scripts/install-deps --long`, which installs it; `scripts/test --long` runs that first.

Run by ctest (tests/cli/CMakeLists.txt) with Debian's /usr/bin/python3 -m pytest; the helper
ptovec_cli.py gives ptovec(*args) and this build's paths.
"""
import filecmp
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest

from ptovec_cli import PTOVEC, ptovec


# The daemons live in /usr/sbin, which a user's PATH may lack.
SLURM_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/bin"])
SLURM_PROGRAMS = ("slurmctld", "slurmd", "sbatch", "sinfo", "scancel")
SHARDS = 4
SELECTION = ["--op", "encode", "--src", "fp32", "--dst", "fp16", "--samples", "20000",
             "--seed", "7"]
NODE = "ptovec1"

# One array task: writes what Slurm told it, then generates its shard. $1 ptovec, $2 the folder.
JOB_SCRIPT = """#!/bin/sh
set -eu
echo "$SLURM_JOB_ID $SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT" \\
  > "$2/task$SLURM_ARRAY_TASK_ID"
exec "$1" generate --quiet {selection} --shard "$SLURM_ARRAY_TASK_ID/{shards}" \\
  --out "$2/shard$SLURM_ARRAY_TASK_ID"
""".format(selection=" ".join(SELECTION), shards=SHARDS)


def free_ports(count):
    """`count` distinct TCP ports free on this machine now."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


class TestSlurmArrayShards:
    @pytest.fixture(autouse=True)
    def cluster(self):
        self.tmp = tempfile.mkdtemp(prefix="ptovec-slurm-")
        try:
            yield from self.started_cluster()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def started_cluster(self):
        self.daemons = []
        programs = {name: shutil.which(name, path=SLURM_PATH) for name in SLURM_PROGRAMS}
        missing = [name for name, path in programs.items() if path is None]
        if missing:
            pytest.fail(f"slurm-wlm is not installed (no {', '.join(missing)}): "
                      "run scripts/install-deps --long")
        self.bin = programs
        self.conf = self.write_conf()
        self.env = dict(os.environ, CI="1", SLURM_CONF=self.conf,
                        PATH=os.pathsep.join([os.path.dirname(programs["sbatch"]),
                                              os.environ.get("PATH", "")]))
        # Started last, stopped first: the daemons are gone before the folder is removed.
        try:
            self.start_cluster()
            yield
        finally:
            self.stop_cluster()

    def path(self, *names):
        return os.path.join(self.tmp, *names)

    def write_conf(self):
        """slurm.conf of a one-node cluster living in self.tmp; returns its path."""
        for folder in ("state", "spool", "log"):
            os.mkdir(self.path(folder))
        # This machine's CPUs and memory as slurmd sees them, so the node is never drained for
        # claiming more than it has.
        probe = subprocess.run([self.bin["slurmd"], "-C"], capture_output=True, text=True,
                               timeout=60)
        assert probe.returncode == 0, probe.stderr
        hardware = dict(word.split("=", 1) for word in probe.stdout.split() if "=" in word)
        self.user = pwd.getpwuid(os.getuid()).pw_name
        controller_port, node_port = free_ports(2)
        lines = [
            "ClusterName=ptovec",
            "SlurmctldHost=localhost(127.0.0.1)",
            f"SlurmUser={self.user}",
            f"SlurmdUser={self.user}",
            f"SlurmctldPort={controller_port}",
            f"SlurmdPort={node_port}",
            # Slurm 22.05 still has auth/none and cred/none: no munged, no key.
            "AuthType=auth/none",
            "CredType=cred/none",
            f"StateSaveLocation={self.path('state')}",
            f"SlurmdSpoolDir={self.path('spool')}",
            f"SlurmctldPidFile={self.path('slurmctld.pid')}",
            f"SlurmdPidFile={self.path('slurmd.pid')}",
            f"SlurmctldLogFile={self.path('log', 'slurmctld.log')}",
            f"SlurmdLogFile={self.path('log', 'slurmd.log')}",
            "SlurmctldDebug=info",
            "SlurmdDebug=info",
            # No cgroups: processes tracked by /proc, tasks not bound.
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_CPU",
            "SchedulerType=sched/builtin",
            "SwitchType=switch/none",
            "MpiDefault=none",
            "JobCompType=jobcomp/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "MailProg=/bin/true",
            "ReturnToService=2",
            f"NodeName={NODE} NodeAddr=127.0.0.1 CPUs={hardware['CPUs']} "
            f"RealMemory={hardware['RealMemory']} State=UNKNOWN",
            f"PartitionName=ptovec Nodes={NODE} Default=YES MaxTime=INFINITE State=UP",
        ]
        conf = self.path("slurm.conf")
        with open(conf, "w") as f:
            f.write("\n".join(lines) + "\n")
        return conf

    def start_cluster(self):
        for name, args in (("slurmctld", ["-D", "-f", self.conf]),
                           ("slurmd", ["-D", "-N", NODE, "-f", self.conf])):
            with open(self.path("log", name + ".out"), "w") as out:
                self.daemons.append(subprocess.Popen(
                    [self.bin[name], *args], stdin=subprocess.DEVNULL, stdout=out,
                    stderr=subprocess.STDOUT, env=self.env, start_new_session=True))
        # Ready when the node is idle.
        deadline = time.monotonic() + 120
        state = ""
        while time.monotonic() < deadline:
            for daemon in self.daemons:
                if daemon.poll() is not None:
                    pytest.fail(f"{daemon.args[0]} exited ({daemon.returncode})\n" + self.logs())
            r = subprocess.run([self.bin["sinfo"], "--noheader", "--Node", "--format", "%t"],
                               capture_output=True, text=True, timeout=30, env=self.env)
            state = r.stdout.strip()
            if r.returncode == 0 and state == "idle":
                return
            time.sleep(0.5)
        pytest.fail(f"node {NODE} not idle after 120 s (sinfo: {state!r})\n" + self.logs())

    def stop_cluster(self):
        """Cancels any job left, then stops both daemons and whatever their sessions hold."""
        if self.daemons and self.daemons[0].poll() is None:  # slurmctld still answers
            try:
                subprocess.run([self.bin["scancel"], "--user", self.user],
                               capture_output=True, timeout=30, env=self.env)
            except subprocess.TimeoutExpired:
                pass
        for daemon in reversed(self.daemons):
            # Each daemon leads its own session (start_new_session): signal the whole group.
            for sig, wait in ((signal.SIGTERM, 30), (signal.SIGKILL, 10)):
                try:
                    os.killpg(daemon.pid, sig)
                except ProcessLookupError:
                    pass
                try:
                    daemon.wait(timeout=wait)
                except subprocess.TimeoutExpired:
                    pass
        # Job steps leave those sessions (slurmstepd, the job scripts), and outlive a dead
        # slurmctld: every process of this cluster has SLURM_CONF=<this slurm.conf> in its
        # environment, nothing else has.
        for pid in self.processes_of_this_cluster():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def processes_of_this_cluster(self):
        marker = b"SLURM_CONF=" + os.fsencode(self.conf) + b"\0"
        pids = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    if marker in f.read():
                        pids.append(int(entry))
            except OSError:
                pass
        return pids

    def logs(self):
        """The last lines of each daemon log, for a failure message."""
        text = []
        for name in sorted(os.listdir(self.path("log"))):
            with open(self.path("log", name), errors="replace") as f:
                text.append(f"--- {name}\n" + "".join(f.readlines()[-15:]))
        return "\n".join(text)

    def test_an_array_job_of_shards_merges_to_the_unsharded_files(self):
        r = ptovec("generate", *SELECTION, "--quiet", "--out", self.path("whole"))
        assert r.returncode == 0, r.stderr
        script = self.path("shard.sh")
        with open(script, "w") as f:
            f.write(JOB_SCRIPT)
        r = subprocess.run([self.bin["sbatch"], "--wait", "--parsable", f"--array=0-{SHARDS - 1}",
                            "--job-name=ptovec-shards", "--chdir", self.tmp,
                            "--output", self.path("slurm-%A_%a.out"), script, PTOVEC, self.tmp],
                           capture_output=True, text=True, timeout=600, env=self.env)
        assert r.returncode == 0, (r.stdout + r.stderr + "\n" + self.logs())
        array_job = r.stdout.strip().split(";")[0]
        assert array_job.isdigit(), r.stdout

        # Four tasks of that one array job, each with its own job id and its own output file.
        job_ids = set()
        for k in range(SHARDS):
            output = self.path(f"slurm-{array_job}_{k}.out")
            assert os.path.exists(output), f"no {output}: {sorted(os.listdir(self.tmp))}"
            with open(self.path(f"task{k}")) as f:
                job_id, array_id, task_id, task_count = f.read().split()
            assert (array_id, task_id, task_count) == (array_job, str(k), str(SHARDS))
            job_ids.add(job_id)
            with open(self.path(f"shard{k}", "manifest.json")) as f:
                assert json.load(f)["shard"] == {"index": k, "of": SHARDS}
        assert len(job_ids) == SHARDS

        r = ptovec("merge", *[self.path(f"shard{k}") for k in (2, 0, 3, 1)], "--out",
                   self.path("merged"))
        assert r.returncode == 0, r.stderr
        compare = filecmp.dircmp(self.path("whole"), self.path("merged"))
        assert (compare.left_only, compare.right_only) == ([], [])
        names = sorted(os.listdir(self.path("whole")))
        assert names == ["encode_fp32_fp16.bin", "manifest.json"]
        _, mismatch, errors = filecmp.cmpfiles(self.path("whole"), self.path("merged"), names,
                                               shallow=False)
        assert (mismatch, errors) == ([], [])
