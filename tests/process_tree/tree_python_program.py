"""Process-tree test subject: Python starting the C leaf program.

Usage: tree_python_program.py subprocess LEAF
       tree_python_program.py spawn LEAF NVTX_LIBRARY
subprocess: subprocess.run([LEAF, "leaf", "py-subprocess"]).
spawn: a multiprocessing worker started with the 'spawn' method emits the NVTX range "py-worker"
through ctypes on NVTX_LIBRARY (a stand-in for libnvtx3interop.so) and runs
[LEAF, "leaf", "py-spawned"]. Prints "worker=PID" and the leaf's output.
"""
import ctypes
import multiprocessing
import subprocess
import sys


def run_leaf(leaf, tag):
    done = subprocess.run([leaf, "leaf", tag], check=True, capture_output=True, text=True)
    print(done.stdout, end="", flush=True)


def worker(leaf, nvtx_library):
    import os

    # One write: concurrent workers' lines must not interleave in the pipe.
    os.write(1, b"worker=%d\n" % os.getpid())
    nvtx = ctypes.CDLL(nvtx_library)
    nvtx.nvtxRangePushA(b"py-worker")
    run_leaf(leaf, "py-spawned")
    nvtx.nvtxRangePop()


def main():
    mode, leaf = sys.argv[1], sys.argv[2]
    if mode == "subprocess":
        run_leaf(leaf, "py-subprocess")
        return 0
    if mode == "spawn":
        context = multiprocessing.get_context("spawn")
        process = context.Process(target=worker, args=(leaf, sys.argv[3]))
        process.start()
        process.join()
        return process.exitcode
    return 64


if __name__ == "__main__":
    sys.exit(main())
