#include "export/json_text.h"

#include <cstdio>

namespace prof::exporter {

void AppendMicroseconds(int64_t ns, std::string* out) {
  // Through uint64_t so that INT64_MIN has a magnitude too.
  const bool negative = ns < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  char text[32];
  std::snprintf(text, sizeof text, "%s%llu.%03llu", negative ? "-" : "",
                static_cast<unsigned long long>(magnitude / 1000),
                static_cast<unsigned long long>(magnitude % 1000));
  *out += text;
}

void AppendJsonArgs(const std::vector<EventArg>& args, std::string* out) {
  *out += '{';
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) *out += ',';
    AppendJsonString(args[i].key, out);
    *out += ':';
    if (args[i].is_text) {
      AppendJsonString(args[i].text, out);
    } else {
      *out += std::to_string(args[i].number);
    }
  }
  *out += '}';
}

}  // namespace prof::exporter
