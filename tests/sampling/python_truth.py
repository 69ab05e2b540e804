"""Python programs whose CPU split is known by construction, for prof's Python samples
(tests/sampling/python_truth_test.cpp). Each phase burns an exact amount of its thread's CPU time
(time.thread_time) in a function of its own, in pieces shorter than a sampling period, so a sample
is named right only if its Python frames are those of its instant. Prints "function=cpu_seconds" per measured
function, the truth the test compares prof's shares with, then the main process's CPU time and
the pids of the main process and its fork child.

Usage: python_truth.py [scale]   (scale 1.0: about 8 s of CPU in all)"""
import multiprocessing
import os
import sys
import threading
import time
import zlib

scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
spent = {}


def account(name, seconds):
    spent[name] = spent.get(name, 0.0) + seconds


# Phase 1: 2 ms of CPU, then 3 ms asleep. Asleep, the thread takes no samples: all of them belong
# to burn_then_sleep's CPU part, none to its caller.
def burn_two_ms():
    start = time.thread_time()
    end = start + 0.002
    while time.thread_time() < end:
        pass
    account("burn_two_ms", time.thread_time() - start)


def busy_then_sleep(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        burn_two_ms()
        time.sleep(0.003)


# Phase 2: a caller alternating two callees, 0.6 ms and 0.4 ms of CPU each time: 60 / 40.
def callee_sixty():
    start = time.thread_time()
    end = start + 0.0006
    while time.thread_time() < end:
        pass
    account("callee_sixty", time.thread_time() - start)


def callee_forty():
    start = time.thread_time()
    end = start + 0.0004
    while time.thread_time() < end:
        pass
    account("callee_forty", time.thread_time() - start)


def alternate(seconds):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        callee_sixty()
        callee_forty()


# Phase 3: a generator that burns 0.7 ms per item and a consumer that burns 0.3 ms: 70 / 30.
# A generator's frame lives in the generator object, not on the thread's data stack.
def produce(seconds):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        start = time.thread_time()
        stop = start + 0.0007
        while time.thread_time() < stop:
            pass
        account("produce", time.thread_time() - start)
        yield 1


def consume(seconds):
    for _ in produce(seconds):
        start = time.thread_time()
        stop = start + 0.0003
        while time.thread_time() < stop:
            pass
        account("consume", time.thread_time() - start)


# Phase 4: C code called from Python: the samples belong to the Python line that made the call.
def compress_blocks(seconds):
    data = os.urandom(1 << 18)
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        start = time.thread_time()
        zlib.compress(data, 6)  # LINE_ZLIB
        account("compress_blocks", time.thread_time() - start)


# Phase 5: two threads, each with work of its own.
def thread_one(seconds):
    start = time.thread_time()
    while time.thread_time() < start + seconds:
        pass
    account("thread_one", time.thread_time() - start)


def thread_two(seconds):
    start = time.thread_time()
    while time.thread_time() < start + seconds:
        pass
    account("thread_two", time.thread_time() - start)


# Phase 6: a fork child (a DataLoader worker's way) splitting 70 / 30 between two functions.
def child_seventy():
    stop = time.thread_time() + 0.0007
    while time.thread_time() < stop:
        pass


def child_thirty():
    stop = time.thread_time() + 0.0003
    while time.thread_time() < stop:
        pass


def child_work(seconds):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        child_seventy()
        child_thirty()


def main():
    busy_then_sleep(2.0 * scale)
    alternate(2.0 * scale)
    consume(2.0 * scale)
    compress_blocks(1.0 * scale)
    threads = [threading.Thread(target=thread_one, args=(1.0 * scale,)),
               threading.Thread(target=thread_two, args=(1.0 * scale,))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    child = multiprocessing.get_context("fork").Process(target=child_work, args=(1.5 * scale,))
    child.start()
    child.join()
    for name, seconds in sorted(spent.items()):
        print(f"{name}={seconds:.6f}")
    print(f"process_cpu={time.process_time():.6f}")
    print(f"main_pid={os.getpid()}")
    print(f"child_pid={child.pid}")
    sys.exit(child.exitcode)


if __name__ == "__main__":
    main()
