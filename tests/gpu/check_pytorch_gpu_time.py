#!/usr/bin/env python3
"""Compares `prof stats -r pytorch_op_sum --format csv` of pytorch_gpu_time.py under
`prof profile -t cuda,nvtx --pytorch=autograd-nvtx -c cudaProfilerApi` with torch.profiler's
key_averages() of the same steps (pytorch_gpu_time.py --torch-profiler), both on the GPU
(tests/gpu/run.sh's pytorch section).

usage: check_pytorch_gpu_time.py PROF_OP_SUM.csv TORCH.csv
Both sides time kernels with CUPTI and give an operator the kernels launched inside it, nested
operators' included, so per operator the calls must be equal and the GPU total within TOLERANCE;
the operators compared are torch's CPU-side ones with at least SHARE of its kernel time. Prints the
side-by-side table and PASS/FAIL lines; exits 1 on a failure."""
import csv
import sys

TOLERANCE = 0.15
SHARE = 0.03


def prof_rows(path):
    with open(path, newline="") as f:
        return {row["Operator"]: row for row in csv.DictReader(f)}


def torch_rows(path):
    # key_averages lists the kernels themselves too (device type CUDA): operators only.
    with open(path, newline="") as f:
        return {row["name"]: row for row in csv.DictReader(f) if row["device_type"] == "CPU"}


def main():
    prof, torch = prof_rows(sys.argv[1]), torch_rows(sys.argv[2])
    failed = 0

    def check(what, ok, detail=""):
        nonlocal failed
        failed += not ok
        print("%s %s %s" % ("PASS" if ok else "FAIL", what, detail))

    kernel_ns = sum(int(row["self_device_ns"]) for row in torch.values())
    prof_kernel_ns = sum(int(row["Self GPU (ns)"] or 0) for row in prof.values())
    check("self GPU time of all operators within %d %% of torch.profiler's" % (TOLERANCE * 100),
          kernel_ns > 0 and abs(prof_kernel_ns / kernel_ns - 1) <= TOLERANCE,
          "prof %d ns, torch %d ns" % (prof_kernel_ns, kernel_ns))
    heavy = sorted((row for row in torch.values() if int(row["device_ns"]) >= SHARE * kernel_ns),
                   key=lambda row: -int(row["device_ns"]))
    print("%-48s %8s %8s %14s %14s %7s" % ("operator", "calls", "prof", "torch GPU ns",
                                             "prof GPU ns", "ratio"))
    compared = 0
    for row in heavy:
        name, mine = row["name"], prof.get(row["name"])
        torch_ns = int(row["device_ns"])
        if mine is None:
            print("%-48s %8s %8s %14d %14s" % (name[:48], row["calls"], "-", torch_ns, "-"))
            continue
        compared += 1
        prof_ns = int(mine["GPU Total (ns)"] or 0)
        ratio = prof_ns / torch_ns
        print("%-48s %8s %8s %14d %14d %7.3f" % (name[:48], row["calls"], mine["Calls"], torch_ns,
                                                  prof_ns, ratio))
        check("%s: calls equal" % name, int(mine["Calls"]) == int(row["calls"]),
              "prof %s, torch %s" % (mine["Calls"], row["calls"]))
        check("%s: GPU total within %d %%" % (name, TOLERANCE * 100),
              abs(ratio - 1) <= TOLERANCE, "%.3f" % ratio)
    check("operators with >= %d %% of the kernel time found in both" % (SHARE * 100),
          compared >= 3, "%d of %d" % (compared, len(heavy)))
    print("%s: %d operators compared, kernel time prof/torch %.3f" % (
        "FAIL" if failed else "PASS", compared, prof_kernel_ns / kernel_ns if kernel_ns else 0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
