#!/usr/bin/env python3
"""Allocates and frees device memory through PyTorch's caching allocator in a known order, for
`prof profile --cuda-memory-usage=true` (tests/gpu/check_memory_report.py checks the report).

  memory_usage.py <expected.json>

Every tensor is a multiple of 2 MiB and at least 10 MiB, so the allocator asks cudaMalloc for
exactly its size (large segments are rounded to 2 MiB); torch.cuda.empty_cache() after each del
hands the segment back with cudaFree, so each step is one allocation or free row. Writes what
the report must show, and torch.cuda.max_memory_reserved(), to <expected.json>.
"""
import json
import sys

import torch

MIB = 1 << 20
# (step, tensor name, MiB): "alloc" creates the tensor, "free" deletes it and empties the cache.
STEPS = [("alloc", "a", 64), ("alloc", "b", 32), ("free", "a", 64), ("alloc", "c", 128),
         ("free", "b", 32), ("free", "c", 128), ("alloc", "d", 16), ("free", "d", 16)]


def main(path):
    torch.cuda.init()
    torch.cuda.synchronize()
    tensors = {}
    for step, name, mib in STEPS:
        if step == "alloc":
            tensors[name] = torch.empty(mib * MIB, dtype=torch.uint8, device="cuda")
        else:
            del tensors[name]
            torch.cuda.empty_cache()
        torch.cuda.synchronize()
    reserved = torch.cuda.max_memory_reserved()
    expected = {"steps": [[step, mib * MIB] for step, _, mib in STEPS],
                "max_memory_reserved": reserved, "device": torch.cuda.current_device()}
    with open(path, "w", encoding="utf-8") as file:
        json.dump(expected, file)
    print(f"torch.cuda.max_memory_reserved() = {reserved}")


if __name__ == "__main__":
    main(sys.argv[1])
