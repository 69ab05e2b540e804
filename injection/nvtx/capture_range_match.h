// --capture-range=nvtx: does an NVTX range match `-p/--nvtx-capture`? nsys's rules:
//   -p MESSAGE          the range's message, in NVTX's default domain
//   -p MESSAGE@DOMAIN   the message in the domain of that name
//   -p MESSAGE@*        the message in any domain
// Messages compare as whole UTF-8 strings, case-sensitively. Which messages take part (registered
// strings only, unless NSYS_NVTX_PROFILER_REGISTER_ONLY=0) is the caller's decision.
// Allocation-free; no event-stream dependency, so it is unit-tested alone.
#pragma once

#include <cstddef>

#include "injection/protocol/capture_control.h"

namespace prof::injection::nvtx {

// `domain_name` is nullptr for NVTX's default domain.
bool MatchesCaptureRange(const protocol::CaptureControl& control, const char* domain_name,
                         size_t domain_length, const char* message, size_t message_length);

// NSYS_NVTX_PROFILER_REGISTER_ONLY's value (nullptr when unset): true unless it is "0".
bool RegisteredMessagesOnly(const char* register_only_variable);

}  // namespace prof::injection::nvtx
