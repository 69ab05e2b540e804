"""Frames that come and go as fast as CPython can make them, for prof's in-process reads of Python
stacks (OS-runtime backtraces, the sampling signal): recursion that crosses CPython's data-stack
chunks, returning, raising, and calling a generator function at every depth (when its frame is the
first of a new chunk, CPython 3.11 frees that chunk with munmap as the generator takes the frame,
while the thread's current frame still points into it: a plain read of it is a SIGSEGV),
generators (frames in heap objects), code compiled and dropped (freed code objects), in three
threads, a fork child that _exits right after its burst, and one its parent SIGKILLs mid-burst.
Prints "ok" when it survived. Usage: frame_churn.py [rounds]"""
import os
import signal
import sys
import threading
import time

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 100


def recurse(n):
    if n == 0:
        return 0
    return recurse(n - 1) + 1


def recurse_then_raise(n):
    if n == 0:
        raise LookupError("unwinds through every frame")
    return recurse_then_raise(n - 1) + 1


def recurse_then_generate(n):
    if n == 0:
        return sum(numbers(3))
    return recurse_then_generate(n - 1)


def numbers(n):
    for i in range(n):
        yield i


def compiled(i):
    namespace = {}
    exec(compile(f"def made_{i}(x):\n    return x + {i}\n", "<churn>", "exec"), namespace)
    return namespace[f"made_{i}"](i)


def churn(count):
    for i in range(count):
        recurse(400)
        try:
            recurse_then_raise(400)
        except LookupError:
            pass
        for depth in range(i % 40, 400, 40):
            recurse_then_generate(depth)
        sum(numbers(50))
        compiled(i)


def burst_then(ending):
    pid = os.fork()
    if pid == 0:
        churn(rounds // 4 + 1)
        if ending == "exit":
            os._exit(0)
        while True:  # until the parent's SIGKILL
            churn(1)
    if ending == "kill":
        time.sleep(0.2)
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    return status


def main():
    threads = [threading.Thread(target=churn, args=(rounds,)) for _ in range(3)]
    for thread in threads:
        thread.start()
    churn(rounds)
    for thread in threads:
        thread.join()
    exited = burst_then("exit")
    killed = burst_then("kill")
    if not (os.WIFEXITED(exited) and os.WEXITSTATUS(exited) == 0):
        sys.exit(f"the _exiting child ended with status {exited}")
    if not (os.WIFSIGNALED(killed) and os.WTERMSIG(killed) == signal.SIGKILL):
        sys.exit(f"the killed child ended with status {killed}")
    print("ok")


if __name__ == "__main__":
    main()
