#!/usr/bin/env python3
"""Workload train_loop: a small PyTorch training loop on the GPU, a conv net on synthetic 32x32
images served by a DataLoader with worker processes, one NVTX range per step. After WARMUP untimed
steps, times STEPS steps with its own clock (including the final synchronize) and prints:
    ms_per_step=<float> steps=<n>
    peak_rss_kb=<k>
Usage: train_loop.py [steps] [warmup] [workers]    (defaults 300, 20 and 2)
"""
import sys
import time

import torch
from torch.utils.data import DataLoader, Dataset

nvtx = torch.cuda.nvtx


class SyntheticImages(Dataset):
    """Deterministic random images, generated in the workers as a decoder would."""

    def __init__(self, size):
        self.size = size

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        generator = torch.Generator().manual_seed(index)
        return torch.randn(3, 32, 32, generator=generator), index % 10


def peak_rss_kb():
    """VmHWM: getrusage's ru_maxrss would carry the forked launcher's peak across execve."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))


def make_model():
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(32, 64, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Flatten(), torch.nn.Linear(64 * 8 * 8, 10)).cuda()


def train(model, optimizer, batches, count):
    for _ in range(count):
        x, y = next(batches)
        with nvtx.range("step"):
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    torch.cuda.synchronize()


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    torch.manual_seed(0)
    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loader = DataLoader(SyntheticImages((steps + warmup) * 64), batch_size=64,
                        num_workers=workers, pin_memory=True)
    batches = iter(loader)
    train(model, optimizer, batches, warmup)
    start = time.perf_counter()
    train(model, optimizer, batches, steps)
    seconds = time.perf_counter() - start
    print(f"ms_per_step={seconds * 1e3 / steps:.3f} steps={steps}")
    print(f"peak_rss_kb={peak_rss_kb()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
