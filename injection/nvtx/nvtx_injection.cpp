// Entry point of libprof_nvtx.so. NVTX v3 loads the library named by NVTX_INJECTION64_PATH at the
// first NVTX call of each shared object that uses NVTX (the program and every library with its own
// copy of the headers) and calls InitializeInjectionNvtx2 once per copy; each call fills that
// copy's function slots, so every copy reports into the same tracer state.
#include <nvtx3/nvToolsExt.h>

#include "injection/core/event_stream.h"
#include "injection/core/static_program.h"
#include "injection/nvtx/nvtx_callbacks.h"
#include "injection/nvtx/nvtx_capture.h"
#include "injection/nvtx/nvtx_handles.h"

namespace prof::injection::nvtx {
namespace {

// Points `module`'s slots at prof's functions. False when the NVTX instance lacks the module.
bool FillModule(const NvtxExportTableCallbacks& exports, const ModuleCallbacks& callbacks) {
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (exports.GetModuleFunctionTable(callbacks.module, &table, &size) == 0 || table == nullptr) {
    return false;
  }
  for (size_t i = 0; i < callbacks.count; ++i) {
    const CallbackSlot& slot = callbacks.slots[i];
    if (slot.callback_id < size && table[slot.callback_id] != nullptr) {
      *table[slot.callback_id] = slot.function;
    }
  }
  return true;
}

void ReportVersion(NvtxGetExportTableFunc_t get_export_table) {
  const auto* version =
      static_cast<const NvtxExportTableVersionInfo*>(get_export_table(NVTX_ETID_VERSIONINFO));
  if (version != nullptr && version->struct_size >= sizeof(NvtxExportTableVersionInfo) &&
      version->SetInjectionNvtxVersion != nullptr) {
    version->SetInjectionNvtxVersion(NVTX_VERSION);
  }
}

}  // namespace
}  // namespace prof::injection::nvtx

// Returns 1 when the slots are filled; 0 (NVTX then turns every call into a no-op) when prof traces
// neither NVTX nor a library that reports through it (library_domains.h) in this process, when the
// program is statically linked (static_program.h), or the NVTX instance is unusable.
extern "C" PROF_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  using namespace prof::injection;
  constexpr uint32_t kNvtxUsers =
      prof::protocol::kTraceNvtx | prof::protocol::kTraceCublas | prof::protocol::kTraceCudnn;
  if (get_export_table == nullptr || MainProgramIsStatic() ||
      (Settings().trace_flags & kNvtxUsers) == 0) {
    return 0;
  }
  const auto* exports =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (exports == nullptr || exports->struct_size < sizeof(NvtxExportTableCallbacks) ||
      exports->GetModuleFunctionTable == nullptr) {
    return 0;
  }
  nvtx::InstallForkHandler();
  nvtx::ArmCaptureTriggers();
  if (!nvtx::FillModule(*exports, nvtx::CoreCallbacks())) return 0;
  // CORE2 (domains) exists in every NVTX that has domains; an instance without it keeps CORE.
  nvtx::FillModule(*exports, nvtx::Core2Callbacks());
  nvtx::ReportVersion(get_export_table);
  return 1;
}
