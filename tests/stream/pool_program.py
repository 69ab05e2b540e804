"""A multiprocessing pool whose workers wrap each item in an NVTX range, the way PyTorch's DataLoader
runs its workers (for the exact-capture tests).

Usage: pool_program.py <NVTX API library> fork|spawn terminate|close ITEMS
Workers end through os._exit (multiprocessing's own ending) or Pool.terminate()'s SIGTERM.
"""
import ctypes
import multiprocessing
import sys

LIBRARY = sys.argv[1]


def work(item):
    nvtx = ctypes.CDLL(LIBRARY)
    nvtx.nvtxRangePushA(b"item")
    total = sum(range(1000))
    nvtx.nvtxRangePop()
    return item + total * 0


if __name__ == "__main__":
    method, ending, items = sys.argv[2], sys.argv[3], int(sys.argv[4])
    pool = multiprocessing.get_context(method).Pool(4)
    done = pool.map(work, range(items), chunksize=1)
    if ending == "terminate":
        pool.terminate()
    else:
        pool.close()
    pool.join()
    print(len(done))
