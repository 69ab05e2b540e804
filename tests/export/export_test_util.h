// Helpers for the export tests: export a report in-process and summarize the result with
// trace_summary.py (JSON formats) or the protobuf decoder (perfetto), as sorted lines.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace prof::exporter::test {

using Lines = std::vector<std::string>;

// Exports `report` as `type` to `output` (replacing it); fails the test on error.
void Export(const std::string& report, const std::string& type, const std::string& output);

// trace_summary.py's lines for a chrome or jsonl export (gzipped when the name ends in .gz).
Lines SummarizeJsonTrace(const std::string& path);
// The decoder's lines for a perfetto export.
Lines SummarizePerfettoFile(const std::string& path);

// The lines that start with `prefix` (e.g. "error ").
Lines WithPrefix(const Lines& lines, const std::string& prefix);
// Sums the "count <category> <pid> <tid> <n>" lines by category.
std::map<std::string, long> CountsByCategory(const Lines& lines);

}  // namespace prof::exporter::test
