"""Workload python_loop: a CPU-bound pure-Python loop, a fixed amount of work. Prints the CPU
time it used, which sampling's interrupts add to:
    cpu_s=<seconds>
Usage: python_loop.py [rounds]   (default 20: about 0.4 s on the build machine)"""
import sys
import time


def work(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 20):
    work(300000)
print(f"cpu_s={time.process_time():.4f}")
