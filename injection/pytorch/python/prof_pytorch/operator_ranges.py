"""autograd-nvtx / autograd-shapes-nvtx: one NVTX range per autograd operator.

CUDA builds of PyTorch emit them themselves: emit_nvtx(record_shapes=...) is entered at import and
kept for the life of the process, as nsys does. CPU-only builds refuse emit_nvtx, so prof registers
the same callback from libprof_torch.so, built against libtorch's headers (where prof's build
found them) and loaded only into that very libtorch: same text, same domain."""
import ctypes
import os
import re

_LIBRARY_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The emit_nvtx context of a CUDA build, referenced for the life of the process.
_entered = []


def _start_emit_nvtx(torch, with_shapes):
    context = torch.autograd.profiler.emit_nvtx(record_shapes=with_shapes)
    # emit_nvtx synchronizes the GPU first, which would initialize CUDA at `import torch` (and
    # break programs that fork or pick devices later): there is nothing to wait for yet.
    synchronize = torch.cuda.synchronize
    torch.cuda.synchronize = lambda *args, **kwargs: None
    try:
        context.__enter__()
    finally:
        torch.cuda.synchronize = synchronize
    _entered.append(context)


def _loaded_libtorch_cpu():
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if os.path.basename(path).startswith("libtorch_cpu.so"):
                return os.path.realpath(path)
    return None


def _start_callback_library(torch, with_shapes):
    try:
        from prof_pytorch import libprof_torch_build as build
    except ImportError:
        return ("this PyTorch has no NVTX (a CPU-only build) and prof was built without libtorch's "
                "headers (libtorch-dev)")
    loaded = _loaded_libtorch_cpu()
    version = re.match(r"\d+\.\d+\.\d+", torch.__version__)
    if (loaded != os.path.realpath(build.LIBTORCH_CPU) or version is None or
            version.group(0) != build.TORCH_VERSION):
        return ("this PyTorch has no NVTX (a CPU-only build), and it is not the one prof's "
                "libprof_torch.so was built for (torch %s, %s; prof's: %s, %s)" %
                (torch.__version__, loaded, build.TORCH_VERSION, build.LIBTORCH_CPU))
    library = ctypes.CDLL(os.path.join(_LIBRARY_DIR, "libprof_torch.so"))
    library.prof_torch_operator_ranges_start(1 if with_shapes else 0)
    return None


def start(torch, with_shapes):
    """Starts the ranges; returns None, or why there are none (one line)."""
    if getattr(torch.version, "cuda", None):  # a CUDA build (its NVTX needs no GPU to run)
        _start_emit_nvtx(torch, with_shapes)
        return None
    return _start_callback_library(torch, with_shapes)
