// JSON strings from arbitrary report text, for every JSON prof writes (stats, analyze and diff
// tables; the chrome and jsonl exports).
#pragma once

#include <string>
#include <string_view>

namespace prof::stats {

// Appends `text` as a quoted JSON string. Report text is bytes, not necessarily UTF-8: valid UTF-8
// passes through, each byte of an invalid sequence becomes U+FFFD, so the output is always valid
// JSON. Quotes, backslashes and control characters are escaped.
void AppendJsonString(std::string_view text, std::string* out);

}  // namespace prof::stats
