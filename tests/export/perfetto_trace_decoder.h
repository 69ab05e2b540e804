// A small protobuf decoder for the tests: reads a Perfetto trace written by `prof export --type
// perfetto` back and summarizes it in the same lines as trace_summary.py does the JSON exports,
// so that both formats can be compared with one expectation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace prof::exporter::test {

// One field of a protobuf message.
struct Field {
  uint32_t number = 0;
  uint32_t wire_type = 0;
  uint64_t value = 0;      // varint and fixed64
  std::string_view bytes;  // length-delimited
};

// Reads the next field of a message; false at the end or on malformed input (`*ok` says which).
bool NextField(std::string_view* data, Field* field, bool* ok);

// The sorted summary lines of the trace in `bytes` (see trace_summary.py); decoding problems
// (bad wire format, unknown interned ids, unmatched slice ends) become "error ..." lines.
std::vector<std::string> SummarizePerfettoTrace(const std::string& bytes);

// "<ts> <value>" of each value of the counter `name` on the process track `pid` of the trace in
// `bytes`, in time order.
std::vector<std::string> PerfettoCounterValues(const std::string& bytes, int64_t pid,
                                               const std::string& name);

}  // namespace prof::exporter::test
