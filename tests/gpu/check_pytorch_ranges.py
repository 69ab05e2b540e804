#!/usr/bin/env python3
"""Checks a report of tests/pytorch/torch_training.py --cuda under
`prof profile -t cuda,nvtx --pytorch=autograd-shapes-nvtx,functions-trace` (tests/gpu/run.sh's
pytorch section): PyTorch's own emit_nvtx ranges in the default domain with prof's text
(docs/pytorch.md), the functions-trace ranges, and every kernel launched during the 4 training
steps inside an operator range on its launching thread (what nvtx_gpu_proj_sum projects).
Prints PASS/FAIL lines; exits 1 on a failure."""
import sqlite3
import sys

STEPS = 4


def main():
    db = sqlite3.connect(sys.argv[1])
    failed = 0

    def check(what, ok, detail=""):
        nonlocal failed
        failed += not ok
        print("%s %s %s" % ("PASS" if ok else "FAIL", what, detail))

    q = lambda sql: db.execute(sql).fetchall()
    conv = q("SELECT text FROM NVTX_EVENTS WHERE eventType = 59 AND domainId = 0 AND "
             "text GLOB 'aten::conv2d, seq = [0-9]*, op_id = [0-9]*, sizes = [[][[]8, 1, 8, 8]*'")
    check("aten::conv2d ranges with shapes, one a step", len(conv) == STEPS, conv[:1])
    backward = q("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59 AND domainId = 0 AND "
                 "text GLOB 'AddmmBackward0, seq = *'")[0][0]
    check("AddmmBackward0 ranges, one a step", backward == STEPS, backward)
    # Each process that uses the domain announces it (main and DataLoader workers): one id, many rows.
    modules = q("SELECT text, count(*) FROM NVTX_EVENTS WHERE eventType = 59 AND domainId IN "
                "(SELECT domainId FROM NVTX_EVENTS WHERE eventType = 75 AND text = 'PyTorch') "
                "GROUP BY 1")
    counts = dict(modules)
    for name in ("Net (Net)", "Net.conv (Conv2d)", "autograd.backward", "SGD.step"):
        check("functions-trace %s" % name, counts.get(name) == STEPS, counts.get(name))
    # Launches between the first step's zero_grad and the last step's end, each inside an operator.
    outside = q("""
        WITH ops AS (SELECT start, end, globalTid FROM NVTX_EVENTS WHERE eventType = 59
                     AND domainId = 0),
             span AS (SELECT min(start) AS s, max(end) AS e FROM NVTX_EVENTS WHERE eventType = 59
                      AND text IN ('Optimizer.zero_grad', 'SGD.step'))
        SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r, span
        WHERE r.correlationId IN (SELECT correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL)
          AND r.start >= span.s AND r.end <= span.e
          AND NOT EXISTS (SELECT 1 FROM ops o WHERE o.globalTid = r.globalTid
                          AND o.start <= r.start AND o.end >= r.end)""")[0][0]
    check("every kernel launch of the steps inside an operator range", outside == 0, outside)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
