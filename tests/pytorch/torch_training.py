"""The program of the --pytorch tests (tests/pytorch/pytorch_ranges_test.cpp), for Debian's
python3-torch (CPU): a conv + linear model trained for STEPS steps by SGD from a DataLoader with two
worker processes; every step sees the same shapes. Prints its pid and each worker's:
    main=<pid>
    worker=<pid>
Then, in a forked child that dies by os._exit right after a burst of BURST additions, prints
    burst=<pid>
With --cuda the model and the batches live on the GPU (tests/gpu/run.sh's pytorch section)."""
import os
import sys

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

STEPS = 4
BATCH = 8
BURST = 50


class Images(Dataset):
    def __init__(self):
        generator = torch.Generator().manual_seed(0)
        self.images = torch.randn(STEPS * BATCH, 1, 8, 8, generator=generator)
        self.labels = torch.randint(0, 2, (STEPS * BATCH,), generator=generator)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        return self.images[index], self.labels[index]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 8 * 8, 2)

    def forward(self, images):
        return self.fc(torch.relu(self.conv(images)).flatten(1))


def announce_worker(worker_id):
    # One write: the two workers' lines must not interleave in the pipe.
    os.write(1, b"worker=%d\n" % os.getpid())


def train(model, loader, device):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for images, labels in loader:
        if device != "cpu":
            images, labels = images.to(device), labels.to(device)
        optimizer.zero_grad()
        loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()


def burst_then_exit():
    pid = os.fork()
    if pid == 0:
        print("burst=%d" % os.getpid(), flush=True)
        value = torch.zeros(4)
        for _ in range(BURST):
            value = value + 1
        os._exit(0)
    os.waitpid(pid, 0)


def main():
    print("main=%d" % os.getpid(), flush=True)
    torch.set_num_threads(1)
    torch.manual_seed(0)
    device = "cuda" if "--cuda" in sys.argv else "cpu"
    model = Net().to(device)
    loader = DataLoader(Images(), batch_size=BATCH, num_workers=2, worker_init_fn=announce_worker)
    train(model, loader, device)
    if device == "cpu":
        burst_then_exit()


if __name__ == "__main__":
    main()
