/* A shared library exporting the NVTX C API from the vendored headers (NVTX_EXPORT_API), like the
   toolkit's libnvtx3interop.so: what Python reaches through ctypes in the end-to-end test. */
#define NVTX_EXPORT_API
#include <nvtx3/nvToolsExt.h>
