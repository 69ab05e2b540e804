// The --trace value: a comma list of cuda, nvtx, osrt, cublas, cudnn (both trace cuda too, as in
// nsys), nccl (NCCL's NVTX ranges: the same as nvtx), cuda-sw (the same as cuda), or none (alone).
// nsys's values for APIs prof does not trace are refused by name.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"

namespace prof::cli {

inline constexpr const char* kDefaultTrace = "cuda,nvtx,osrt";

// Parses `text` into protocol::TraceFlag bits; an unknown value is an error naming the valid ones.
Status ParseTraceList(const std::string& text, uint32_t* flags);

}  // namespace prof::cli
