#include "injection/nvtx/capture_range_match.h"

#include <cstring>

namespace prof::injection::nvtx {
namespace {

bool SameText(const char* expected, const char* text, size_t length) {
  return std::strlen(expected) == length && std::memcmp(expected, text, length) == 0;
}

}  // namespace

bool MatchesCaptureRange(const protocol::CaptureControl& control, const char* domain_name,
                         size_t domain_length, const char* message, size_t message_length) {
  if (control.nvtx_default_domain != 0 && domain_name != nullptr) return false;
  if (control.nvtx_any_domain == 0 && control.nvtx_default_domain == 0 &&
      (domain_name == nullptr || !SameText(control.nvtx_domain, domain_name, domain_length))) {
    return false;
  }
  return message != nullptr && SameText(control.nvtx_message, message, message_length);
}

bool RegisteredMessagesOnly(const char* register_only_variable) {
  return register_only_variable == nullptr || std::strcmp(register_only_variable, "0") != 0;
}

}  // namespace prof::injection::nvtx
