"""The issue's budget, one line per figure, computed from the summaries: each line names its
workload, how its value is made from medians, and its limit. A line whose inputs a mode that did
not run would give is "n/a"; lines with no limit are printed for information."""
import operator
from dataclasses import dataclass
from typing import Callable

from .summary import median

_OPS = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, "==": operator.eq}


@dataclass
class Line:
    workload: str
    label: str
    value: Callable  # summary -> number or None
    op: str | None = None
    limit: float | None = None

    def judge(self, summary):
        try:
            value = self.value(summary)
        except (TypeError, ZeroDivisionError):  # a median missing, or a zero baseline
            value = None
        if value is None:
            status = "n/a"
        elif self.op is None:
            status = "info"
        else:
            status = "PASS" if _OPS[self.op](value, self.limit) else "MISS"
        limit = f"{self.op} {self.limit:g}" if self.op else ""
        return {"workload": self.workload, "budget": self.label, "value": value, "limit": limit,
                "status": status}


def added(summary, mode, key, base="plain"):
    return median(summary, mode, key) - median(summary, base, key)


def added_ratio(key):
    """prof's added cost over nsys's added cost on the same loop."""
    return lambda s: added(s, "prof", key) / added(s, "nsys", key)


def over_plain(key):
    return lambda s: added(s, "prof", key) / median(s, "plain", key)


def difference(key):
    return lambda s: median(s, "prof", key) - median(s, "nsys", key)


def ratio(mode_a, key_a, mode_b, key_b):
    return lambda s: median(s, mode_a, key_a) / median(s, mode_b, key_b)


def megabytes(mode, key):
    return lambda s: median(s, mode, key) / 1024


def sampling_cost(mode, key="cpu_s"):
    """CPU time sampling adds, over prof with nothing traced and no sampling."""
    return lambda s: median(s, mode, key) / median(s, "prof", key) - 1


LINES = (
    Line("launch_loop", "prof added / nsys added, us/iter", added_ratio("us_per_iter"), "<=", 0.25),
    Line("launch_loop", "prof added / no profiler, us/iter", over_plain("us_per_iter"), "<=", 0.10),
    # The two lines above ask for less than CUPTI alone costs (docs/performance.md): what prof
    # itself adds is what it adds over CUPTI's floor.
    Line("launch_loop", "(prof added - CUPTI floor added) / CUPTI floor added, us/iter",
         lambda s: added(s, "prof", "us_per_iter") / added(s, "cupti_floor", "us_per_iter") - 1,
         "<=", 0.25),
    Line("launch_loop", "kernels: prof - nsys", difference("kernels"), "==", 0),
    Line("launch_loop", "NVTX ranges: prof - nsys", difference("nvtx_ranges"), "==", 0),
    Line("launch_loop", "prof report / nsys SQLite export, bytes",
         ratio("prof", "report_bytes", "nsys", "sqlite_bytes"), "<=", 1.0),
    Line("train_loop", "prof added / no profiler, ms/step", over_plain("ms_per_step"), "<=", 0.02),
    Line("cuda_launches", "prof added / nsys added, us/launch", added_ratio("us_per_launch")),
    Line("cpu_loop", "CPU sampling at 1 kHz, fp: added CPU time", sampling_cost("prof_sampling_fp"),
         "<=", 0.02),
    Line("cpu_loop", "CPU sampling at 1 kHz, dwarf: added CPU time",
         sampling_cost("prof_sampling_dwarf")),
    Line("cpu_loop", "perf record -g at 1 kHz (the kernel's floor): added CPU time",
         sampling_cost("perf_sampling")),
    Line("cpu_loop", "nsys sampling (default): added CPU time", sampling_cost("nsys_sampling")),
    Line("python_loop", "CPU sampling at 1 kHz, fp: added CPU time",
         sampling_cost("prof_sampling_fp"), "<=", 0.02),
    Line("python_loop", "CPU sampling at 1 kHz, dwarf: added CPU time",
         sampling_cost("prof_sampling_dwarf")),
    Line("python_loop", "perf record -g at 1 kHz (the kernel's floor): added CPU time",
         sampling_cost("perf_sampling")),
    Line("python_loop", "nsys sampling (default): added CPU time", sampling_cost("nsys_sampling")),
    Line("nvtx_cpu", "prof added / nsys added, ns/pair", added_ratio("ns_per_pair"), "<=", 0.5),
    Line("nvtx_cpu", "prof added ns per push/pop pair", lambda s: added(s, "prof", "ns_per_pair")),
    Line("nvtx_paced", "prof added / nsys added, ns/pair", added_ratio("ns_per_pair"), "<=", 0.5),
    Line("nvtx_paced", "prof added ns per push/pop pair",
         lambda s: added(s, "prof", "ns_per_pair")),
    Line("osrt_cpu", "prof added / nsys added, uncontended lock pair",
         added_ratio("uncontended_lock_ns"), "<=", 0.5),
    Line("osrt_cpu", "prof added / nsys added, 1-byte pipe write+read", added_ratio("pipe_rw_ns"),
         "<=", 0.5),
    Line("osrt_cpu", "prof added ns per uncontended lock pair",
         lambda s: added(s, "prof", "uncontended_lock_ns")),
    Line("osrt_cpu", "prof added ns to a recorded 1 us sleep, median of the sleeps",
         lambda s: added(s, "prof", "sleep_median_ns"), "<=", 1000),
    Line("nvtx_events", "prof report ready after exit, s",
         lambda s: median(s, "prof", "report_ready_s"), "<=", 0.5),
    Line("nvtx_events", "prof report ready / nsys import+export",
         ratio("prof", "report_ready_s", "nsys", "import_export_s"), "<=", 0.05),
    Line("nvtx_events", "prof rows/s, program start to report closed",
         lambda s: median(s, "prof", "rows_per_s"), ">=", 1e6),
    Line("nvtx_events", "records prof dropped", lambda s: median(s, "prof", "dropped"), "==", 0),
    Line("nvtx_events", "prof peak RSS, MB", megabytes("prof", "launcher_peak_kb"), "<", 200),
    Line("nvtx_events", "program's extra RSS under prof, MB",
         lambda s: added(s, "prof", "peak_rss_kb") / 1024, "<", 100),
    Line("nvtx_events", "prof report / nsys SQLite export, bytes",
         ratio("prof", "report_bytes", "nsys", "sqlite_bytes"), "<=", 1.0),
    Line("prof_stats", "nsys stats / prof stats, wall s (each on its own report)",
         ratio("nsys_stats", "wall_s", "prof_stats", "wall_s"), ">=", 5),
    Line("prof_stats", "nsys stats / prof stats, wall s (both on prof's report)",
         ratio("nsys_stats_prof_report", "wall_s", "prof_stats", "wall_s")),
)


def judge(summaries):
    """Budget lines of the workloads that ran: summaries[workload] is its summary."""
    return [line.judge(summaries[line.workload]) for line in LINES if line.workload in summaries]
