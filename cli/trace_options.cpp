#include "cli/trace_options.h"

#include <sstream>

#include "injection/protocol/launch_settings.h"

namespace prof::cli {
namespace {

struct TraceName {
  const char* name;
  uint32_t flag;
};

constexpr TraceName kTraceNames[] = {
    {"cuda", protocol::kTraceCuda},     {"nvtx", protocol::kTraceNvtx},
    {"osrt", protocol::kTraceOsrt},     {"cublas", protocol::kTraceCublas},
    {"cudnn", protocol::kTraceCudnn},   {"none", 0},
};

}  // namespace

Status ParseTraceList(const std::string& text, uint32_t* flags) {
  uint32_t parsed = 0;
  int values = 0;
  bool saw_none = false;
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    ++values;
    const TraceName* match = nullptr;
    for (const auto& candidate : kTraceNames) {
      if (item == candidate.name) match = &candidate;
    }
    if (match == nullptr) {
      return Status::Error("unknown --trace value '" + item +
                           "'; valid values: cuda, nvtx, osrt, cublas, cudnn, none");
    }
    saw_none |= match->flag == 0;
    parsed |= match->flag;
  }
  if (values == 0) return Status::Error("--trace needs a value: cuda, nvtx, osrt, cublas, cudnn, none");
  if (saw_none && values > 1) return Status::Error("--trace=none cannot be combined with other values");
  *flags = parsed;
  return Status::Ok();
}

}  // namespace prof::cli
