#!/usr/bin/env python3
"""CUDA tracing overhead workload: ITERATIONS tiny kernels (an in-place add on a 16-float tensor),
each inside its own NVTX push/pop range, after WARMUP untimed iterations. Times the loop with its
own clock (including the final synchronize) and prints one line:
    us_per_iter=<float> iterations=<n> loop_s=<float>
Usage: launch_loop.py [iterations] [warmup]    (defaults 20000 and 2000)
"""
import sys
import time

import torch

nvtx = torch.cuda.nvtx


def loop(x, iterations):
    for _ in range(iterations):
        nvtx.range_push("step")
        x.add_(1.0)
        nvtx.range_pop()
    torch.cuda.synchronize()


def main():
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    x = torch.zeros(16, device="cuda")
    loop(x, warmup)
    start = time.perf_counter()
    loop(x, iterations)
    seconds = time.perf_counter() - start
    expected = float(warmup + iterations)
    if x[0].item() != expected:  # every launch ran: the trace's kernel count can be trusted
        print(f"wrong result {x[0].item()} != {expected}", file=sys.stderr)
        return 1
    print(f"us_per_iter={seconds * 1e6 / iterations:.3f} iterations={iterations} loop_s={seconds:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
