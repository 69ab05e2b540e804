"""A fork child that a signal kills (SIGSEGV) while its parent waits for it, then the program itself
killed by SIGABRT: prof must say both, at once, and keep them in the report."""
import os
import signal
import time

child = os.fork()
if child == 0:
    time.sleep(0.2)
    os.kill(os.getpid(), signal.SIGSEGV)
print(f"child={child}", flush=True)
os.waitpid(child, 0)
time.sleep(0.1)
os.kill(os.getpid(), signal.SIGABRT)
