# The seed tutorial's situation in miniature: a training loop whose DataLoader workers (forked
# processes) are slower than the GPU step, NVTX ranges around the phases, and a loss.item() sync.
import time

import torch
from torch.utils.data import DataLoader, Dataset

nvtx = torch.cuda.nvtx


class SlowDataset(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, index):
        time.sleep(0.004)  # decoding / augmentation on the CPU
        return torch.randn(256, 256), torch.randint(0, 10, (1,)).item()


def main():
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(256 * 256, 10)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(SlowDataset(), batch_size=8, num_workers=2)
    for step, (x, y) in enumerate(loader):
        nvtx.range_push("step")
        with nvtx.range("h2d"):
            x, y = x.cuda(), y.cuda()
        with nvtx.range("forward"):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        with nvtx.range("backward"):
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with nvtx.range("sync"):
            value = loss.item()
        nvtx.range_pop()
    print("steps", step + 1, "loss", round(value, 3))


if __name__ == "__main__":
    main()
