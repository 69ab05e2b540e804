"""A Python program whose stacks tests/python_frames reads from outside: python_frames_test.cpp.

Usage: frames_target.py spin|churn|deep|exit
  spin:  the main thread spins in outer -> middle -> inner, a Worker thread in Worker.run ->
         other_loop, a third thread sleeps in sleeper.
  churn: the main thread calls and returns between trunk, branch and leaf as fast as it can.
  deep:  the main thread sleeps 20 frames deep (recurse), for the rate measurement.
  exit:  like spin, then the process exits on its own after 0.3 s.
Before "ready", prints "line <MARKER> <n>" for each marker comment of this file and
"function <qualified name> <first line> <last line>" for each function, then
"ready <pid> <main native id> <worker native id> <sleeper native id>".
"""
import os
import sys
import threading
import time

MODE = sys.argv[1]
worker_started = threading.Event()
sleeper_started = threading.Event()
native_ids = {}


class Worker(threading.Thread):
    def run(self):
        native_ids["worker"] = threading.get_native_id()
        worker_started.set()
        other_loop()


def other_loop():
    n = 0
    while True: n = n + 1  # LINE_OTHER


def sleeper():
    native_ids["sleeper"] = threading.get_native_id()
    sleeper_started.set()
    while True: time.sleep(1000)  # LINE_SLEEP


def inner():
    n = 0
    while True: n = n + 1  # LINE_INNER


def middle():
    inner()  # LINE_MIDDLE


def outer():
    middle()  # LINE_OUTER


def leaf(n):
    return n + 1


def branch(n):
    return leaf(n) + leaf(n + 1)


def trunk():
    n = 0
    while True:
        n = branch(n) % 1000


def recurse(depth):
    if depth > 1:
        return recurse(depth - 1)  # LINE_RECURSE
    while True: time.sleep(1000)  # LINE_DEEP_SLEEP


def describe():
    with open(__file__) as source:
        for number, text in enumerate(source, 1):
            if "# LINE_" in text and "text" not in text:
                print("line", text.split("# ")[-1].strip(), number)
    functions = [Worker.run, other_loop, sleeper, inner, middle, outer, leaf, branch, trunk,
                 recurse, main]
    for function in functions:
        code = function.__code__
        last = max(line for _, _, line in code.co_lines() if line is not None)
        print("function", function.__qualname__, code.co_firstlineno, last, id(code))
    print("file", os.path.abspath(__file__))


def main():
    describe()
    if MODE in ("spin", "exit"):
        Worker(daemon=True).start()
        threading.Thread(target=sleeper, daemon=True).start()
        worker_started.wait()
        sleeper_started.wait()
    print("ready", os.getpid(), threading.get_native_id(), native_ids.get("worker", 0),
          native_ids.get("sleeper", 0), flush=True)
    if MODE == "exit":
        threading.Timer(0.3, lambda: os._exit(0)).start()
    if MODE in ("spin", "exit"):
        outer()
    elif MODE == "churn":
        trunk()
    elif MODE == "deep":
        recurse(20)


main()  # LINE_MAIN
