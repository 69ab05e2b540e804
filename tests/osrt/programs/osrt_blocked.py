"""A Python program whose main thread blocks in a multiprocessing queue's get, inside
wait_for_batch, while a worker process sleeps before each put (the backtrace tests: a DataLoader
wait seen from the main process). Prints pid=<main pid>."""
import multiprocessing
import os
import time


def produce(queue):
    for item in range(4):
        time.sleep(0.03)
        queue.put(item)


def wait_for_batch(queue):
    return queue.get()


def main():
    os.write(1, b"pid=%d\n" % os.getpid())
    queue = multiprocessing.Queue()
    producer = multiprocessing.Process(target=produce, args=(queue,))
    producer.start()
    for _ in range(4):
        wait_for_batch(queue)
    producer.join()


if __name__ == "__main__":
    main()
