"""Resets every signal's disposition to SIG_DFL, as daemons do, then burns 0.5 s of CPU in burn():
under prof's defaults the process samples itself with a real-time signal whose default action is
to terminate, so it must keep its handler whatever the program asks."""
import signal
import time

for number in range(1, signal.NSIG):
    try:
        signal.signal(number, signal.SIG_DFL)
    except (OSError, ValueError):
        pass  # SIGKILL, SIGSTOP and the numbers glibc keeps for itself


def burn(seconds):
    end = time.process_time() + seconds
    total = 0
    while time.process_time() < end:
        total += sum(range(200))
    return total


burn(0.5)
print("done", flush=True)
