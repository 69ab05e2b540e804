#include "cli/trace_options.h"

#include <algorithm>

#include "injection/protocol/launch_settings.h"

namespace prof::cli {
namespace {

struct TraceName {
  const char* name;
  uint32_t flag;
};

// nccl is NCCL's own NVTX ranges (ncclAllReduce, ... in the domain "NCCL"), which NVTX tracing
// records with every other domain: it is another name for nvtx (docs/multi-gpu.md). cuda-sw is
// nsys's name for CUPTI's software trace, the only kind prof uses. As in nsys, tracing a CUDA
// library traces CUDA too.
constexpr TraceName kTraceNames[] = {
    {"cuda", protocol::kTraceCuda},
    {"nvtx", protocol::kTraceNvtx},
    {"osrt", protocol::kTraceOsrt},
    {"cublas", protocol::kTraceCublas | protocol::kTraceCuda},
    {"cudnn", protocol::kTraceCudnn | protocol::kTraceCuda},
    {"nccl", protocol::kTraceNvtx},
    {"cuda-sw", protocol::kTraceCuda},
    {"none", 0},
};

constexpr const char* kValidValues = "cuda, nvtx, osrt, cublas, cudnn, nccl, cuda-sw, none";

// nsys's other --trace values: APIs prof does not trace.
constexpr const char* kNsysOnlyValues[] = {
    "opengl",
    "opengl-annotations",
    "cublas-verbose",
    "cusparse",
    "cusparse-verbose",
    "cusolver",
    "cusolver-verbose",
    "cudla",
    "cudla-verbose",
    "openacc",
    "openmp",
    "mpi",
    "ucx",
    "oshmem",
    "nvvideo",
    "vulkan",
    "vulkan-annotations",
    "dx11",
    "dx11-annotations",
    "dx12",
    "dx12-annotations",
    "wddm",
    "openxr",
    "openxr-annotations",
    "python-gil",
    "gds",
    "s3",
    "s3-verbose",
    "tegra-accelerators",
    "syscall",
};

}  // namespace

Status ParseTraceList(const std::string& text, uint32_t* flags) {
  if (text.empty()) return Status::Error(std::string("--trace needs a value: ") + kValidValues);
  uint32_t parsed = 0;
  int values = 0;
  bool saw_none = false;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t comma = std::min(text.find(',', begin), text.size());
    const std::string item = text.substr(begin, comma - begin);
    begin = comma + 1;
    ++values;
    const TraceName* match = nullptr;
    for (const auto& candidate : kTraceNames) {
      if (item == candidate.name) match = &candidate;
    }
    if (match == nullptr) {
      for (const char* nsys_only : kNsysOnlyValues) {
        if (item == nsys_only) {
          return Status::Error("--trace=" + item + " is not supported: prof does not trace it; " +
                               "prof traces " + kValidValues);
        }
      }
      return Status::Error("unknown --trace value '" + item + "'; valid values: " + kValidValues);
    }
    saw_none |= match->flag == 0;
    parsed |= match->flag;
  }
  if (saw_none && values > 1) {
    return Status::Error("--trace=none cannot be combined with other values");
  }
  *flags = parsed;
  return Status::Ok();
}

}  // namespace prof::cli
