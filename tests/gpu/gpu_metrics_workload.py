"""GPU metrics workload (tests/gpu/run.sh, section gpu_metrics): three NVTX ranges of about a second
each with known use of the GPU, so that the sampled metrics can be checked against them:
  copy  large device-to-device copies (DRAM read and write bandwidth high)
  gemm  fp16 matrix products (tensor pipes busy)
  idle  the GPU has nothing to do (SMs idle)
usage: python3 gpu_metrics_workload.py [seconds per range]
"""

import sys
import time

import torch

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0


def for_about(seconds, step):
    """Repeats step() for about `seconds` of GPU time, synchronizing every few steps."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for _ in range(8):
            step()
        torch.cuda.synchronize()


def main():
    device = torch.device("cuda:0")
    source = torch.empty(1 << 30, dtype=torch.uint8, device=device)  # 1 GiB
    target = torch.empty_like(source)
    a = torch.randn(8192, 8192, dtype=torch.float16, device=device)
    b = torch.randn(8192, 8192, dtype=torch.float16, device=device)
    # Warm-up outside the ranges: cuBLAS's handles and kernels, the copy engines' first use.
    target.copy_(source)
    torch.matmul(a, b)
    torch.cuda.synchronize()

    torch.cuda.nvtx.range_push("copy")
    for_about(SECONDS, lambda: target.copy_(source))
    torch.cuda.nvtx.range_pop()

    torch.cuda.nvtx.range_push("gemm")
    for_about(SECONDS, lambda: torch.matmul(a, b))
    torch.cuda.nvtx.range_pop()

    torch.cuda.nvtx.range_push("idle")
    time.sleep(SECONDS)
    torch.cuda.nvtx.range_pop()
    print("done")


if __name__ == "__main__":
    main()
