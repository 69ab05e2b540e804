// JSON text pieces shared by the chrome and jsonl writers: strings from arbitrary bytes
// (stats/json_string.h) and nanosecond times as exact decimal microseconds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "export/timeline.h"
#include "stats/json_string.h"

namespace prof::exporter {

using stats::AppendJsonString;

// Appends `ns` nanoseconds as microseconds with exactly three decimals (1234567 -> 1234.567): no
// rounding through a double, so every nanosecond survives.
void AppendMicroseconds(int64_t ns, std::string* out);

// Appends `args` as a JSON object ({"bytes":8,"grid":"4x2x1"}).
void AppendJsonArgs(const std::vector<EventArg>& args, std::string* out);

}  // namespace prof::exporter
