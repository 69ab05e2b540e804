"""A program for CPU sampling tests: two multiprocessing workers spend their time in
slow_transform; the main process waits on a queue for their results. Prints the workers' pids:
    workers=<pid>,<pid>
With the argument "pool", the two workers are a multiprocessing.Pool's."""
import multiprocessing
import sys


def slow_transform(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def worker(results):
    for _ in range(30):
        results.put(slow_transform(150000))


def main():
    results = multiprocessing.Queue()
    workers = [multiprocessing.Process(target=worker, args=(results,)) for _ in range(2)]
    for process in workers:
        process.start()
    print("workers=" + ",".join(str(process.pid) for process in workers), flush=True)
    for _ in range(60):
        results.get()
    for process in workers:
        process.join()


def pool_main():
    with multiprocessing.Pool(2) as pool:
        print("workers=" + ",".join(str(process.pid) for process in pool._pool), flush=True)
        pool.map(slow_transform, [150000] * 60, chunksize=1)


if __name__ == "__main__":
    if sys.argv[1:] == ["pool"]:
        pool_main()
    else:
        main()
