// JSON text pieces shared by the chrome and jsonl writers: strings from arbitrary bytes and
// nanosecond times as exact decimal microseconds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "export/timeline.h"

namespace prof::exporter {

// Appends `text` as a quoted JSON string. Report text is bytes, not necessarily UTF-8: valid UTF-8
// passes through, each byte of an invalid sequence becomes U+FFFD, so the output is always valid
// JSON. Quotes, backslashes and control characters are escaped.
void AppendJsonString(std::string_view text, std::string* out);

// Appends `ns` nanoseconds as microseconds with exactly three decimals (1234567 -> 1234.567): no
// rounding through a double, so every nanosecond survives.
void AppendMicroseconds(int64_t ns, std::string* out);

// Appends `args` as a JSON object ({"bytes":8,"grid":"4x2x1"}).
void AppendJsonArgs(const std::vector<EventArg>& args, std::string* out);

}  // namespace prof::exporter
