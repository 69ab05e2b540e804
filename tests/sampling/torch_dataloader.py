"""A program for CPU sampling tests with real PyTorch (Debian's python3-torch): a tiny model trained
on CPU from a DataLoader with two worker processes, whose Dataset spends the workers' time in
slow_transform, pure Python. Prints its own pid first, then each worker's as the worker starts:
    main=<pid>
    worker=<pid>"""
import os
import sys

import torch
from torch.utils.data import DataLoader, Dataset

FEATURES = 16


def slow_transform(index):
    total = 0
    for i in range(250000):
        total += (i * index) % 7
    return total


class SlowDataset(Dataset):
    def __len__(self):
        return 256

    def __getitem__(self, index):
        value = slow_transform(index)
        return torch.full((FEATURES,), (value % 10) / 10.0), torch.tensor([float(index % 2)])


def announce_worker(worker_id):
    # One write: the two workers' lines must not interleave in the pipe.
    os.write(1, b"worker=%d\n" % os.getpid())


def main():
    print("main=%d" % os.getpid(), flush=True)
    # One intra-op thread: the two workers have the machine's cores.
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = torch.nn.Linear(FEATURES, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_function = torch.nn.MSELoss()
    loader = DataLoader(SlowDataset(), batch_size=8, num_workers=2,
                        worker_init_fn=announce_worker)
    batches = 0
    for features, targets in loader:
        optimizer.zero_grad()
        loss = loss_function(model(features), targets)
        loss.backward()
        optimizer.step()
        batches += 1
    print("batches=%d loss=%.3f" % (batches, loss.item()), flush=True)
    return 0 if batches == 32 else 1


if __name__ == "__main__":
    sys.exit(main())
