#!/usr/bin/env python3
"""Child programs that use CUDA, started the three ways a training script starts them: a
multiprocessing "spawn" worker, subprocess.run of a new python, and os.system through a shell.
Each child fills a tensor on the GPU a known number of times; the parent does too. prof must
record every process's kernels under its own pid in the one report.
Usage: spawn_cuda.py   (prints "<who> pid=<pid> kernels=<n>" per process)"""
import multiprocessing
import os
import subprocess
import sys

import torch

KERNELS = {"parent": 5, "spawn": 7, "subprocess": 11, "system": 13}


def fill(who):
    x = torch.empty(1024, device="cuda")
    for value in range(KERNELS[who]):
        x.fill_(value)
    torch.cuda.synchronize()
    print(f"{who} pid={os.getpid()} kernels={KERNELS[who]}", flush=True)


def main():
    if len(sys.argv) > 1:  # a child started by subprocess or os.system
        return fill(sys.argv[1])
    fill("parent")
    worker = multiprocessing.get_context("spawn").Process(target=fill, args=("spawn",))
    worker.start()
    worker.join()
    subprocess.run([sys.executable, __file__, "subprocess"], check=True)
    if os.system(f"'{sys.executable}' '{__file__}' system") != 0:
        sys.exit("os.system child failed")
    return 0 if worker.exitcode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
