#!/usr/bin/env python3
"""`prof profile -c cudaProfilerApi` on the H200: kernels before, inside and after one
torch.cuda.profiler.start()/stop() window, each phase in its own NVTX range. The report must hold
the "inside" phase only: its 30 fill kernels (one torch.fill_ each), its NVTX range and its API calls.
Usage: capture_profiler_api.py  (prints one line per phase)"""
import torch

nvtx = torch.cuda.nvtx
KERNELS = {"before": 10, "inside": 30, "after": 20}


def phase(name, x):
    nvtx.range_push(name)
    for value in range(KERNELS[name]):
        x.fill_(value)
    torch.cuda.synchronize()
    nvtx.range_pop()
    print(name, KERNELS[name])


def main():
    x = torch.empty(1024, device="cuda")
    phase("before", x)
    torch.cuda.profiler.start()
    phase("inside", x)
    torch.cuda.profiler.stop()
    phase("after", x)


if __name__ == "__main__":
    main()
