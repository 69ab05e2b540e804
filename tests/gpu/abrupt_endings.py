# Processes that end abruptly while prof traces CUDA (issue 31's exact-capture cases on the GPU).
#   abrupt_endings.py workers LOG   a training step fed by DataLoader workers (forked, ended by
#                                   os._exit) and a fork Pool that is terminated (SIGTERM); every
#                                   worker appends its pid to LOG inside each NVTX range "item"
#   abrupt_endings.py END N         N kernel launches after an NVTX mark "launches", a
#                                   synchronize, then END: "sigkill" (SIGKILL of itself after
#                                   0.5 s, more than prof's flush period), "sigkill_now" (at once),
#                                   "_exit" (os._exit(3)), "sigterm" (SIGTERM of itself),
#                                   "segv" (a read of address 0)
import ctypes
import multiprocessing
import os
import signal
import sys
import time

import torch
from torch.utils.data import DataLoader, Dataset

nvtx = torch.cuda.nvtx
LOG = None


def logged_item(index):
    nvtx.range_push("item")
    with open(LOG, "a") as log:  # O_APPEND: one whole line per write, whatever the writers
        log.write(f"{os.getpid()}\n")
    value = sum(range(2000)) * 0 + index
    nvtx.range_pop()
    return value


class LoggedDataset(Dataset):
    def __len__(self):
        return 256

    def __getitem__(self, index):
        logged_item(index)
        return torch.randn(64, 64), index % 10


def workers():
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(64 * 64, 10)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(LoggedDataset(), batch_size=8, num_workers=3)
    for step, (x, y) in enumerate(loader):
        with nvtx.range("step"):
            loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loss.item()
        if step == 20:
            break  # prefetched items stay unconsumed; the workers are shut down
    pool = multiprocessing.get_context("fork").Pool(4)
    pool.map(logged_item, range(400), chunksize=1)
    pool.terminate()
    pool.join()
    print("steps", step + 1)


def launch_then_end(end, launches):
    x = torch.zeros(1024, device="cuda")
    torch.cuda.synchronize()
    nvtx.mark("launches")
    for _ in range(launches):
        x.add_(1)
    torch.cuda.synchronize()
    print("launched", launches, flush=True)
    if end == "sigkill":
        time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGKILL)
    elif end == "sigkill_now":
        os.kill(os.getpid(), signal.SIGKILL)
    elif end == "_exit":
        os._exit(3)
    elif end == "sigterm":
        os.kill(os.getpid(), signal.SIGTERM)
    elif end == "segv":
        ctypes.string_at(0)  # a real fault, not a sent signal


if __name__ == "__main__":
    if sys.argv[1] == "workers":
        LOG = sys.argv[2]
        workers()
    else:
        launch_then_end(sys.argv[1], int(sys.argv[2]))
