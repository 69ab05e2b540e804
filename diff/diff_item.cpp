#include "diff/diff_item.h"

#include <array>

namespace prof::diff {

std::string_view ItemKindName(ItemKind kind) {
  // In ItemKind order.
  constexpr std::array<std::string_view, 8> kNames = {"gpu_busy", "gpu_span", "range", "kernel",
                                                      "memop",    "cuda_api", "nvtx",  "osrt"};
  return kNames[static_cast<size_t>(kind)];
}

}  // namespace prof::diff
