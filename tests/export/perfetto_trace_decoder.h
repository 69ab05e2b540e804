// A small protobuf decoder for the tests: reads a Perfetto trace written by `prof export --type
// perfetto` back and summarizes it in the same lines as trace_summary.py does the JSON exports,
// so that both formats can be compared with one expectation.
#pragma once

#include <string>
#include <vector>

namespace prof::exporter::test {

// The sorted summary lines of the trace in `bytes` (see trace_summary.py); decoding problems
// (bad wire format, unknown interned ids, unmatched slice ends) become "error ..." lines.
std::vector<std::string> SummarizePerfettoTrace(const std::string& bytes);

}  // namespace prof::exporter::test
