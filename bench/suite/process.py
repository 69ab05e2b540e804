"""One measured run of a command: wall time, exit time and peak memory.

Peak memory comes from two sources, because neither alone tells prof's from the program's:
- os.wait4 on the launched process returns ru_maxrss of the whole tree it reaped (Linux keeps the
  maximum over the process and its waited-for descendants), so under prof it is max(prof, program);
- a thread polls the launched process's /proc/<pid>/status VmHWM (its own high-water mark, which
  never decreases) every 10 ms, which gives the launcher's own peak, missing at most growth in its
  last 10 ms.
The program's own peak is what the workload prints (peak_rss_kb=, its VmHWM).
"""
import os
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass

_VALUE = re.compile(r"\b([A-Za-z_]+)=(-?[0-9.]+(?:[eE][-+]?[0-9]+)?)\b")


@dataclass
class Outcome:
    rc: int
    start_ns: int  # CLOCK_MONOTONIC, as the workloads' exit_monotonic_ns
    end_ns: int
    launcher_peak_kb: int  # VmHWM of the launched process (prof, nsys or the program)
    tree_peak_kb: int  # wait4's ru_maxrss: the launched process and every child it reaped
    values: dict  # key=value numbers the command printed

    @property
    def wall_s(self):
        return (self.end_ns - self.start_ns) / 1e9


class _HighWaterPoller(threading.Thread):
    def __init__(self, pid):
        super().__init__(daemon=True)
        self.path = f"/proc/{pid}/status"
        self.peak_kb = 0
        self.done = threading.Event()

    def run(self):
        while True:  # read at once, then every 10 ms: a short run is still seen once
            try:
                with open(self.path) as status:
                    for line in status:
                        if line.startswith("VmHWM:"):
                            self.peak_kb = max(self.peak_kb, int(line.split()[1]))
            except (OSError, ValueError):
                return  # gone, or a zombie without memory lines
            if self.done.wait(0.01):
                return


def parse_values(text):
    """The key=value numbers of a workload's output; a later line's value wins."""
    return {key: float(value) for key, value in _VALUE.findall(text)}


def _kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_measured(argv, env, output_path, timeout_s=None):
    """Runs argv with its stdout and stderr in output_path; returns its Outcome. After timeout_s
    the command's process group (it leads its own) is killed, so one hung run cannot eat the
    device machine's time limit: the run then fails with exit code -9."""
    full_env = dict(os.environ, **env)
    with open(output_path, "w") as output:
        start_ns = time.monotonic_ns()
        child = subprocess.Popen(argv, env=full_env, stdout=output, stderr=subprocess.STDOUT,
                                 start_new_session=True)
    poller = _HighWaterPoller(child.pid)
    poller.start()
    killer = threading.Timer(timeout_s, _kill_group, (child.pid,)) if timeout_s else None
    if killer:
        killer.start()
    _, status, usage = os.wait4(child.pid, 0)
    end_ns = time.monotonic_ns()  # first thing after the reap: the report is closed by now
    if killer:
        killer.cancel()
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    poller.done.set()
    poller.join()
    with open(output_path, errors="replace") as output:
        values = parse_values(output.read())
    return Outcome(child.returncode, start_ns, end_ns, poller.peak_kb, usage.ru_maxrss, values)
