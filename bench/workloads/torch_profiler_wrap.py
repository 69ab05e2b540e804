#!/usr/bin/env python3
"""Runs a Python workload unchanged under PyTorch Profiler (CPU and CUDA activities, or those of
--activities) and writes its trace, so the profiler's mode costs what a user pays for a trace on disk.
Usage: torch_profiler_wrap.py [--activities=cpu|cuda|cpu,cuda] <trace.json> <script.py> [args...]
"""
import runpy
import sys

from torch.profiler import ProfilerActivity, profile


def main():
    names = "cpu,cuda"
    if sys.argv[1].startswith("--activities="):
        names = sys.argv.pop(1).split("=", 1)[1]
    activities = [{"cpu": ProfilerActivity.CPU, "cuda": ProfilerActivity.CUDA}[name]
                  for name in names.split(",")]
    trace, script = sys.argv[1], sys.argv[2]
    sys.argv = sys.argv[2:]  # the script sees its own argv
    code = 0
    with profile(activities=activities) as profiler:
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as exit_request:
            code = exit_request.code or 0
    profiler.export_chrome_trace(trace)
    return code


if __name__ == "__main__":
    sys.exit(main())
