#!/usr/bin/env python3
"""Workload torch_cpu_train: a small PyTorch training loop on the CPU (conv net, SGD, batches made
in the loop), the cost of one range per operator: about 110 operators a step, each a few us. After
WARMUP untimed steps, times STEPS steps with its own clock and prints:
    ms_per_step=<float> steps=<n>
Usage: torch_cpu_train.py [steps] [warmup]    (defaults 300 and 20)
"""
import sys
import time

import torch


def make_model():
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Flatten(), torch.nn.Linear(8 * 8 * 8, 10))


def train(model, optimizer, images, labels, count):
    for _ in range(count):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(images), labels)
        loss.backward()
        optimizer.step()


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    images, labels = torch.randn(16, 3, 16, 16), torch.randint(0, 10, (16,))
    train(model, optimizer, images, labels, warmup)
    start = time.perf_counter()
    train(model, optimizer, images, labels, steps)
    elapsed = time.perf_counter() - start
    print("ms_per_step=%.4f steps=%d" % (elapsed * 1e3 / steps, steps))


if __name__ == "__main__":
    main()
