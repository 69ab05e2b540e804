#include "injection/nvtx/library_domains.h"

namespace prof::injection::nvtx {

protocol::NvtxLibrary TracedLibraryOfDomain(std::string_view name,
                                            const protocol::InjectionSettings& settings) {
  if (name == "cuBLAS" && settings.traces(protocol::kTraceCublas)) {
    return protocol::NvtxLibrary::kCublas;
  }
  if (name == "cuDNN" && settings.traces(protocol::kTraceCudnn)) {
    return protocol::NvtxLibrary::kCudnn;
  }
  return protocol::NvtxLibrary::kNone;
}

bool IsDomainRecorded(protocol::NvtxLibrary library, const protocol::InjectionSettings& settings) {
  return library != protocol::NvtxLibrary::kNone || settings.traces(protocol::kTraceNvtx);
}

}  // namespace prof::injection::nvtx
