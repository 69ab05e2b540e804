// Which NVTX domains prof records. cuBLAS, cuBLASLt and cuDNN annotate every API call with an NVTX
// range in a domain of their own ("cuBLAS" for both cuBLAS libraries, "cuDNN") once
// CUBLAS_NVTX_LEVEL, CUBLASLT_NVTX_LEVEL or CUDNN_NVTX_LEVEL is set: those domains are recorded as
// library calls with --trace=cublas / --trace=cudnn, every other domain (and the default one) as
// NVTX with --trace=nvtx. A library's domain without its --trace value counts as an ordinary NVTX
// domain.
#pragma once

#include <string_view>

#include "injection/protocol/launch_settings.h"
#include "injection/protocol/record_format.h"

namespace prof::injection::nvtx {

// The library that annotates its calls in the domain named `name`, when prof traces that library.
protocol::NvtxLibrary TracedLibraryOfDomain(std::string_view name,
                                            const protocol::InjectionSettings& settings);

// Whether prof records the events of a domain annotating `library` (kNone: an ordinary domain).
bool IsDomainRecorded(protocol::NvtxLibrary library, const protocol::InjectionSettings& settings);

}  // namespace prof::injection::nvtx
