"""The workload of tests/gpu/run.sh's pytorch section that compares `prof stats -r pytorch_op_sum`'s
GPU columns with torch.profiler's CUDA time per operator (check_pytorch_gpu_time.py).

A conv net trained on the GPU from batches already there: WARMUP steps, then STEPS steps inside
torch.cuda.profiler.start()/stop() (prof's `-c cudaProfilerApi` window), synchronized at both
edges so every kernel of the window ends inside it. With `--torch-profiler CSV` the same STEPS run
under torch.profiler (CPU and CUDA activities) and its key_averages() rows go to CSV: name,
device type, calls, self and total device time in ns. Prints "done" last."""
import argparse
import csv

import torch
from torch import nn

WARMUP = 5
STEPS = 50
BATCH = 64


def model_and_batches():
    torch.manual_seed(0)
    torch.backends.cudnn.benchmark = False
    model = nn.Sequential(
        nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(),
        nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(),
        nn.Flatten(), nn.Linear(64 * 32 * 32, 10)).cuda()
    images = torch.randn(BATCH, 3, 32, 32, device="cuda")
    labels = torch.randint(0, 10, (BATCH,), device="cuda")
    return model, images, labels


def steps(count, model, images, labels, optimizer, criterion):
    for _ in range(count):
        optimizer.zero_grad()
        criterion(model(images), labels).backward()
        optimizer.step()
    torch.cuda.synchronize()


def microseconds(event, self_time):
    # torch >= 2.4 names it device time, older releases CUDA time.
    names = ("self_device_time_total", "self_cuda_time_total") if self_time else \
        ("device_time_total", "cuda_time_total")
    return next((getattr(event, name) for name in names if hasattr(event, name)), 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--torch-profiler", metavar="CSV")
    args = parser.parse_args()
    model, images, labels = model_and_batches()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    criterion = nn.CrossEntropyLoss()
    steps(WARMUP, model, images, labels, optimizer, criterion)
    if args.torch_profiler:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as profiler:
            steps(STEPS, model, images, labels, optimizer, criterion)
        with open(args.torch_profiler, "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["name", "device_type", "calls", "self_device_ns", "device_ns"])
            for event in profiler.key_averages():
                writer.writerow([event.key, str(event.device_type).split(".")[-1], event.count,
                                 round(microseconds(event, True) * 1000),
                                 round(microseconds(event, False) * 1000)])
    else:
        torch.cuda.profiler.start()
        steps(STEPS, model, images, labels, optimizer, criterion)
        torch.cuda.profiler.stop()
    print("done", flush=True)


if __name__ == "__main__":
    main()
