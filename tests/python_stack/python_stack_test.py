"""prof's Python stack reader (injection/python) inside a real CPython: exact frames, lines and
qualified names, read alike with the GIL held and released (as PyTorch calls CUDA); depth capped;
checked against the interpreter's own traceback module. Usage:
python_stack_test.py <path of libprof_python_stack_probe.so>"""
import ctypes
import sys
import threading

probe_path = sys.argv[1]
holding_gil = ctypes.PyDLL(probe_path)   # calls keep the GIL, like a CUDA call from PyTorch
without_gil = ctypes.CDLL(probe_path)    # ctypes releases the GIL around CDLL calls
failures = []


def check(name, got, want):
    if got != want:
        failures.append(f"{name}: got {got!r}, want {want!r}")


def stack(library, max_frames=64):
    buffer = ctypes.create_string_buffer(1 << 16)
    count = library.prof_probe_stack(buffer, len(buffer), max_frames)
    frames = [line.split("\t") for line in buffer.value.decode().splitlines()]
    check("frame count", count, len(frames))
    return [(int(line), function, file) for line, function, file in frames]


class Model:
    def forward(self):
        return stack(holding_gil)                         # LINE_FORWARD


def outer():
    return Model().forward()                             # LINE_OUTER


def line_of(marker):
    source = open(__file__).read().splitlines()
    return next(i + 1 for i, text in enumerate(source) if text.rstrip().endswith(marker))


version = ctypes.create_string_buffer(256)
support = holding_gil.prof_probe_interpreter(version, len(version))
check("interpreter support", support, 1)
check("version", version.value.decode().split()[0], sys.version.split()[0])

frames = outer()
here = __file__
want_top = [
    (frames[0][0], "stack", here),
    (line_of("# LINE_FORWARD"), "Model.forward" if sys.version_info >= (3, 11) else "forward", here),
    (line_of("# LINE_OUTER"), "outer", here),
]
check("innermost frames", frames[:3], want_top)
check("outermost frame is the module", (frames[-1][1], frames[-1][2]), ("<module>", here))
check("stack depth", len(frames), 4)
check("capped depth", len(stack(holding_gil, 2)), 2)
released = stack(without_gil)                            # LINE_RELEASED
check("GIL released: the same reading", [(f[0], f[1]) for f in released[1:]],
      [(line_of("# LINE_RELEASED"), "<module>")])


def compare_with_traceback():
    import traceback
    here_stack = traceback.extract_stack()[::-1]          # innermost first, like prof
    mine = stack(holding_gil)                            # LINE_COMPARE
    check("matches traceback", [(f[0], f[2]) for f in mine[2:]],
          [(f.lineno, f.filename) for f in here_stack[1:]])
    check("compare line", mine[1][0], line_of("# LINE_COMPARE"))


compare_with_traceback()

thread_frames = []
worker = threading.Thread(target=lambda: thread_frames.extend(stack(holding_gil)))
worker.start()
worker.join()
check("another thread's own stack", [f[1] for f in thread_frames[:2]], ["stack", "<lambda>"])

for failure in failures:
    print("FAIL", failure)
print("PASS" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
