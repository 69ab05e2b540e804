"""Calls native_chain.c's chain_outer (a library without frame pointers) through ctypes for
SECONDS of CPU time: the stacks of those samples must be whole from chain_inner up to call_into_c.
    native_chain.py LIBRARY SECONDS"""
import ctypes
import sys
import time


def call_into_c(library, seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        library.chain_outer(2_000_000)


if __name__ == "__main__":
    chain = ctypes.CDLL(sys.argv[1])
    chain.chain_outer.argtypes = [ctypes.c_uint64]
    chain.chain_outer.restype = ctypes.c_uint64
    call_into_c(chain, float(sys.argv[2]))
