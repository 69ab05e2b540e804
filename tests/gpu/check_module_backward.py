#!/usr/bin/env python3
"""Checks the PyTorch module backward slices that `prof export --type jsonl` derives from a report
of tests/pytorch/torch_training.py --cuda under `--pytorch=autograd-shapes-nvtx,functions-trace`
(tests/gpu/run.sh's pytorch section; docs/pytorch.md, "Module backward"). On a CUDA build autograd
runs the backward nodes on its device thread, not the thread that called backward(): each module
whose forward made nodes gets a slice a step there, one run each in the order autograd ran them.
Usage: check_module_backward.py <report.sqlite> <export.jsonl>. Prints PASS/FAIL lines; exits 1
on a failure."""
import collections
import json
import sqlite3
import sys

STEPS = 4
# In start order, the enclosing slice first: Net's holds its children's (and its own nodes).
MODULES = ("CrossEntropyLoss (CrossEntropyLoss)", "Net (Net)", "Net.fc (Linear)",
           "Net.conv (Conv2d)")


def main():
    db = sqlite3.connect(sys.argv[1])
    slices = [event for event in map(json.loads, open(sys.argv[2]))
              if event.get("kind") == "pytorch_module_backward"]
    failed = 0

    def check(what, ok, detail=""):
        nonlocal failed
        failed += not ok
        print("%s %s %s" % ("PASS" if ok else "FAIL", what, detail))

    names = collections.Counter(event["name"] for event in slices)
    for module in MODULES:
        count = names.get(module + " backward", 0)
        check("a slice a step: %s backward" % module, count == STEPS, count)
    # The thread that called backward(): the one with the autograd.backward ranges.
    callers = {tid for (tid,) in db.execute(
        "SELECT DISTINCT globalTid & 16777215 FROM NVTX_EVENTS WHERE eventType = 59 AND "
        "text = 'autograd.backward'")}
    engine = {event["tid"] for event in slices}
    check("slices on autograd's device thread, not the caller's", engine and not engine & callers,
          "slices on %s, backward() called on %s" % (sorted(engine), sorted(callers)))
    order = [event["name"] for event in sorted(slices, key=lambda e: (e["start_ns"], -e["end_ns"]))]
    expected = [module + " backward" for module in MODULES] * STEPS
    check("autograd's order each step: the loss, then Net around fc and conv", order == expected,
          order[:5])
    net = [event for event in slices if event["name"] == "Net (Net) backward"]
    inside = all(any(n["tid"] == e["tid"] and n["start_ns"] <= e["start_ns"] and
                     e["end_ns"] <= n["end_ns"] for n in net)
                 for e in slices if e["name"].startswith("Net."))
    check("Net's slices enclose Net.fc's and Net.conv's", inside)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
