"""End-to-end subject: NVTX from Python through ctypes on a library exporting the NVTX C API.

Usage: nvtx_ctypes_program.py <path to the NVTX API library>
Prints the push/pop return values and the kernel tid of each thread for the test.
"""
import ctypes
import sys
import threading


class EventAttributes(ctypes.Structure):
    """nvtxEventAttributes_t (version 3, 48 bytes)."""

    _fields_ = [
        ("version", ctypes.c_uint16),
        ("size", ctypes.c_uint16),
        ("category", ctypes.c_uint32),
        ("colorType", ctypes.c_int32),
        ("color", ctypes.c_uint32),
        ("payloadType", ctypes.c_int32),
        ("reserved0", ctypes.c_int32),
        ("payload", ctypes.c_uint64),
        ("messageType", ctypes.c_int32),
        ("message", ctypes.c_char_p),
    ]


NVTX_COLOR_ARGB = 1
NVTX_MESSAGE_TYPE_ASCII = 1
NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1

nvtx = ctypes.CDLL(sys.argv[1])
nvtx.nvtxDomainCreateA.restype = ctypes.c_void_p
nvtx.nvtxDomainCreateA.argtypes = [ctypes.c_char_p]
nvtx.nvtxDomainRangePushEx.argtypes = [ctypes.c_void_p, ctypes.POINTER(EventAttributes)]
nvtx.nvtxDomainRangePop.argtypes = [ctypes.c_void_p]

print("tid main", threading.get_native_id())
levels = [nvtx.nvtxRangePushA(b"py-outer"), nvtx.nvtxRangePushA(b"py-inner")]
levels.append(nvtx.nvtxRangePop())
nvtx.nvtxMarkA(b"py-mark")


def worker():
    print("tid worker", threading.get_native_id())
    nvtx.nvtxRangePushA(b"py-thread")
    nvtx.nvtxRangePop()


thread = threading.Thread(target=worker)
thread.start()
thread.join()

domain = nvtx.nvtxDomainCreateA(b"pydomain")
attributes = EventAttributes(
    version=3, size=ctypes.sizeof(EventAttributes), colorType=NVTX_COLOR_ARGB,
    color=0xFF00FF00, payloadType=NVTX_PAYLOAD_TYPE_UNSIGNED_INT64, payload=77,
    messageType=NVTX_MESSAGE_TYPE_ASCII, message=b"py-domain-range")
levels.append(nvtx.nvtxDomainRangePushEx(domain, ctypes.byref(attributes)))
levels.append(nvtx.nvtxDomainRangePop(domain))
levels.append(nvtx.nvtxRangePop())
levels.append(nvtx.nvtxRangePop())
print("levels", " ".join(str(level) for level in levels))
sys.stdout.flush()
