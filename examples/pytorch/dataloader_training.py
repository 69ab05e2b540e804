#!/usr/bin/env python3
"""A small conv-net training loop with the seed tutorial's three classic slow-downs, and their fixes.

    python3 dataloader_training.py           # as people first write it
    python3 dataloader_training.py --fixed   # after the tutorial's fixes

As first written: the Dataset decodes each sample on the CPU (a sleep stands in for JPEG decoding
and augmentation) in the main process (num_workers=0), batches are copied from pageable memory
with a blocking .cuda(), and loss.item() synchronizes with the GPU every step. --fixed uses
DataLoader workers with prefetching, pinned batches copied with non_blocking=True, and reads the
loss only every LOG_EVERY steps. Each step is inside an NVTX range "train_step" (with "data",
"h2d", "forward", "backward", "optimizer" inside), so `prof analyze` and `prof stats` see the
phases. Prints the steady-state time per step: from the start of step WARMUP_STEPS to the end of
the last step, GPU work included (the loop ends with a synchronize), divided by the steps.
"""
import argparse
import time

import torch
from torch.utils.data import DataLoader, Dataset

nvtx = torch.cuda.nvtx

STEPS = 60
WARMUP_STEPS = 10
BATCH = 32
LOG_EVERY = 20
DECODE_SECONDS = 0.0005  # per sample: 16 ms of CPU work per batch


class DecodedImages(Dataset):
    def __len__(self):
        return STEPS * BATCH

    def __getitem__(self, index):
        time.sleep(DECODE_SECONDS)
        return torch.randn(3, 96, 96), index % 10


def make_model():
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 64, 3, padding=1), torch.nn.ReLU(),
        torch.nn.Conv2d(64, 128, 3, padding=1), torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(128, 128, 3, padding=1), torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
        torch.nn.Linear(128, 10)).cuda()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fixed", action="store_true", help="apply the tutorial's fixes")
    fixed = parser.parse_args().fixed

    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    if fixed:
        loader = DataLoader(DecodedImages(), batch_size=BATCH, num_workers=8, pin_memory=True,
                            prefetch_factor=4, persistent_workers=True)
    else:
        loader = DataLoader(DecodedImages(), batch_size=BATCH, num_workers=0)

    losses = []
    batches = iter(loader)
    for step in range(STEPS):
        if step == WARMUP_STEPS:
            steady_start = time.perf_counter()
        nvtx.range_push("train_step")
        with nvtx.range("data"):
            x, y = next(batches)
        with nvtx.range("h2d"):
            x, y = x.cuda(non_blocking=fixed), y.cuda(non_blocking=fixed)
        with nvtx.range("forward"):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        with nvtx.range("backward"):
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
        with nvtx.range("optimizer"):
            optimizer.step()
        if fixed:
            losses.append(loss.detach())
            if (step + 1) % LOG_EVERY == 0:
                print(f"step {step + 1} loss {torch.stack(losses).mean().item():.3f}")
                losses.clear()
        else:
            print(f"step {step + 1} loss {loss.item():.3f}")
        nvtx.range_pop()
    torch.cuda.synchronize()
    step_ms = (time.perf_counter() - steady_start) * 1e3 / (STEPS - WARMUP_STEPS)
    print(f"steady_step_ms={step_ms:.2f} steps={STEPS} fixed={fixed}")


if __name__ == "__main__":
    main()
