// The function slots prof fills in every NVTX instance that attaches to it: the CORE module (the
// default-domain calls: mark, range start/end, push/pop, category and thread names in their A, W
// and Ex variants) and the CORE2 module (domains, registered strings, domain categories). Slots
// not listed (resource naming, CUDA/OpenCL object naming, sync) stay NVTX no-ops.
#pragma once

#include <nvtx3/nvToolsExt.h>

#include <cstddef>
#include <cstdint>

namespace prof::injection::nvtx {

struct CallbackSlot {
  uint32_t callback_id;  // NvtxCallbackIdCore or NvtxCallbackIdCore2
  NvtxFunctionPointer function;
};

struct ModuleCallbacks {
  NvtxCallbackModule module;
  const CallbackSlot* slots;
  size_t count;
};

ModuleCallbacks CoreCallbacks();
ModuleCallbacks Core2Callbacks();

}  // namespace prof::injection::nvtx
