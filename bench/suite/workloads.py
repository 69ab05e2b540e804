"""The suite's workloads: for each, the program and its sizes (full and --quick), the numbers it
prints (its own timer; wall time when it has none) and the modes it runs in. A mode turns the
program's argv into the command of one run: no profiler, prof, nsys, PyTorch Profiler."""
import os
from dataclasses import dataclass, field
from typing import Callable

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKLOAD_DIR = os.path.join(BENCH_DIR, "workloads")
LAUNCH_LOOP = os.path.join(BENCH_DIR, "cuda_overhead", "launch_loop.py")


@dataclass
class Command:
    argv: list
    env: dict = field(default_factory=dict)
    report: str | None = None  # the file the run leaves (its size is measured)
    sqlite: str | None = None  # the SQLite report whose rows are counted
    export: list | None = None  # nsys export to SQLite, timed after the run


@dataclass
class Mode:
    name: str
    needs: tuple
    command: Callable  # (tools, program argv, path prefix) -> Command
    input: str | None = None  # stats modes: the nvtx_events mode whose report they read


@dataclass
class Sizes:
    quick: bool
    events: int  # nvtx_events ranges; None: the workload's own default
    events_rate: float


@dataclass
class Workload:
    name: str
    title: str
    needs: tuple
    metrics: tuple  # keys the program prints, lower is better; () times the whole command
    program: Callable | None  # (tools, sizes) -> argv; None: the modes read reports (Mode.input)
    modes: tuple


def plain():
    return Mode("plain", (), lambda tools, program, prefix: Command(program))


def prof(trace):
    def command(tools, program, prefix):
        report = prefix + ".sqlite"
        # -s none: prof samples CPUs by default; the nsys modes turn sampling off too.
        argv = [tools.prof, "profile", "-t", trace, "-s", "none", "-q", "-f", "true", "-o", prefix]
        return Command(argv + program, report=report, sqlite=report)

    return Mode("prof", ("prof",), command)


def prof_sampling(backtrace):
    """prof with CPU sampling at the default 1 kHz, nothing traced: the cost of sampling alone
    (against prof("none"), prof with no sampling and nothing traced)."""
    def command(tools, program, prefix):
        report = prefix + ".sqlite"
        argv = [tools.prof, "profile", "-t", "none", "-s", "process-tree", "-b", backtrace, "-q",
                "-f", "true", "-o", prefix]
        return Command(argv + program, report=report, sqlite=report)

    return Mode(f"prof_sampling_{backtrace}", ("prof",), command)


def perf_sampling():
    """`perf record` sampling user call chains by frame pointers at prof's 1 kHz: what the kernel's
    sampling interrupt costs on its own, the floor under any sampler of this machine."""
    def command(tools, program, prefix):
        argv = [tools.perf, "record", "-q", "-F", "1000", "-e", "cpu-clock", "-g", "-o",
                prefix + ".perf.data"]
        return Command(argv + program, report=prefix + ".perf.data")

    return Mode("perf_sampling", ("perf",), command)


def cupti_floor():
    """No profiler: CUPTI alone, asked for what prof asks (its API callbacks, activity kinds and
    timestamp callback) by libcupti_floor.so (bench/cuda_overhead/cupti_floor.cpp), which does
    nothing with them. The floor under any tracer that asks CUPTI for the same."""
    def command(tools, program, prefix):
        env = {"CUDA_INJECTION64_PATH": tools.library("libcupti_floor.so"),
               "CUPTI_FLOOR": "callbacks,activity,clock"}
        return Command(program, env=env)

    return Mode("cupti_floor", ("lib:libcupti_floor.so",), command)


def nsys_sampling():
    """nsys with its default CPU sampling and context switches, nothing traced."""
    def command(tools, program, prefix):
        argv = [tools.nsys, "profile", "--trace=none", "--sample=process-tree",
                "--cpuctxsw=process-tree", "-f", "true", "-o", prefix]
        return Command(argv + program, env=tools.nsys_env, report=prefix + ".nsys-rep")

    return Mode("nsys_sampling", ("nsys",), command)


def nsys(trace):
    # The same switches as bench/cuda_overhead/compare.sh: no CPU sampling or context switches,
    # which prof does not record either.
    def command(tools, program, prefix):
        argv = [tools.nsys, "profile", f"--trace={trace}", "--sample=none", "--cpuctxsw=none",
                "-f", "true", "-o", prefix]
        export = [tools.nsys, "export", "--type", "sqlite", "-f", "true", "-o", prefix + ".sqlite",
                  prefix + ".nsys-rep"]
        return Command(argv + program, env=tools.nsys_env, report=prefix + ".nsys-rep",
                       sqlite=prefix + ".sqlite", export=export)

    return Mode("nsys", ("nsys",), command)


def prof_pytorch(modes):
    """prof with --pytorch (NVTX ranges of PyTorch's operators or calls), nothing else traced."""
    def command(tools, program, prefix):
        report = prefix + ".sqlite"
        argv = [tools.prof, "profile", "-t", "nvtx", f"--pytorch={modes}", "-s", "none", "-q",
                "-f", "true", "-o", prefix]
        return Command(argv + program, report=report, sqlite=report)

    return Mode(f"prof_pytorch_{modes.replace('-', '_')}", ("prof",), command)


def torch_profiler(activities="cpu,cuda"):
    """PyTorch Profiler around the whole script; activities "cpu" records the operators only."""
    wrapper = os.path.join(WORKLOAD_DIR, "torch_profiler_wrap.py")

    def command(tools, program, prefix):  # program is [python, script, args...]
        trace = prefix + ".json"
        return Command([program[0], wrapper, f"--activities={activities}", trace] + program[1:],
                       report=trace)

    name = "torch_profiler" if activities == "cpu,cuda" else "torch_profiler_" + activities
    return Mode(name, ("torch",), command)


def stats_mode(name, tool, input_mode):
    """`<tool> stats` with its default reports on the large report nvtx_events' input_mode wrote;
    its "program" is {nvtx_events mode: SQLite report}."""
    def command(tools, inputs, prefix):
        path = inputs[input_mode]
        if tool == "prof":
            return Command([tools.prof, "stats", path])
        return Command([tools.nsys, "stats", path], env=tools.nsys_env)

    return Mode(name, (tool, input_mode), command, input=input_mode)


def _pick(sizes, full, quick):
    return str(quick if sizes.quick else full)


def _events_argv(tools, sizes):
    count = sizes.events or (200_000 if sizes.quick else 10_000_000)
    return [tools.binary("nvtx_events"), str(count), "4", str(sizes.events_rate)]


WORKLOADS = (
    Workload("launch_loop", "launch-bound Python loop: tiny kernels, each in an NVTX range",
             ("torch_gpu", "gpu"), ("us_per_iter",),
             lambda tools, sizes: [tools.python, LAUNCH_LOOP, _pick(sizes, 20000, 2000),
                                   _pick(sizes, 2000, 200)],
             (plain(), cupti_floor(), prof("cuda,nvtx"), nsys("cuda,nvtx"), torch_profiler())),
    Workload("train_loop", "PyTorch training loop: conv net, DataLoader with 2 workers",
             ("torch_gpu", "gpu"), ("ms_per_step",),
             lambda tools, sizes: [tools.python, os.path.join(WORKLOAD_DIR, "train_loop.py"),
                                   _pick(sizes, 300, 20), _pick(sizes, 20, 5), "2"],
             (plain(), prof("cuda,nvtx,osrt"), nsys("cuda,nvtx,osrt"), torch_profiler())),
    Workload("torch_cpu_train", "PyTorch CPU training loop: one range per operator",
             ("torch",), ("ms_per_step",),
             lambda tools, sizes: [tools.python, os.path.join(WORKLOAD_DIR, "torch_cpu_train.py"),
                                   _pick(sizes, 300, 20), _pick(sizes, 20, 5)],
             (plain(), prof_pytorch("autograd-nvtx"), torch_profiler("cpu"))),
    Workload("cuda_launches", "CUDA C++ loop: empty-kernel launches on two streams",
             ("gpu", "bin:cuda_launches"), ("us_per_launch",),
             lambda tools, sizes: [tools.binary("cuda_launches"), _pick(sizes, 100000, 10000)],
             (plain(), prof("cuda"), nsys("cuda"))),
    Workload("nvtx_cpu", "NVTX-heavy CPU loop: nested push/pop pairs on 4 threads",
             ("bin:nvtx_cpu",), ("ns_per_pair",),
             lambda tools, sizes: [tools.binary("nvtx_cpu"), _pick(sizes, 1000000, 100000), "4"],
             (plain(), prof("nvtx"), nsys("nvtx"))),
    Workload("nvtx_paced", "NVTX steady stream: one nested pair every 10 us on 1 thread",
             ("bin:nvtx_cpu",), ("ns_per_pair",),
             lambda tools, sizes: [tools.binary("nvtx_cpu"), _pick(sizes, 400000, 40000), "1",
                                   "10000"],
             (plain(), prof("nvtx"), nsys("nvtx"))),
    Workload("osrt_cpu", "OS-runtime-heavy CPU loop: mutexes, 1-byte pipe I/O, sleeps, 4 threads",
             ("bin:osrt_cpu",),
             ("uncontended_lock_ns", "contended_lock_ns", "pipe_rw_ns", "sleep_ns",
              "sleep_median_ns"),
             lambda tools, sizes: [tools.binary("osrt_cpu"), _pick(sizes, 1000000, 100000), "4"],
             (plain(), prof("osrt"), nsys("osrt"))),
    Workload("cpu_loop", "CPU sampling's cost: a C loop with frame pointers, fixed work",
             ("bin:cpu_loop",), ("cpu_s",),
             lambda tools, sizes: [tools.binary("cpu_loop"), _pick(sizes, 600, 200)],
             (plain(), prof("none"), prof_sampling("fp"), prof_sampling("dwarf"),
              perf_sampling(), nsys_sampling())),
    Workload("python_loop", "CPU sampling's cost: a pure-Python loop, fixed work",
             (), ("cpu_s",),
             lambda tools, sizes: [tools.python, os.path.join(WORKLOAD_DIR, "python_loop.py"),
                                   _pick(sizes, 20, 8)],
             (plain(), prof("none"), prof_sampling("fp"), prof_sampling("dwarf"),
              perf_sampling(), nsys_sampling())),
    Workload("nvtx_events", "report end to end: NVTX ranges from 4 threads, paced",
             ("bin:nvtx_events",), ("emit_s",), _events_argv,
             (plain(), prof("nvtx"), nsys("nvtx"))),
    Workload("prof_stats", "prof stats vs nsys stats, default reports, on nvtx_events' reports",
             ("bin:nvtx_events",), (), None,
             (stats_mode("prof_stats", "prof", "prof"), stats_mode("nsys_stats", "nsys", "nsys"),
              stats_mode("nsys_stats_prof_report", "nsys", "prof"))),
)
