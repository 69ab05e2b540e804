#include "tests/export/export_test_util.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "export/export_runner.h"
#include "tests/export/perfetto_trace_decoder.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::exporter::test {

void Export(const std::string& report, const std::string& type, const std::string& output) {
  ExportOptions options;
  options.type = type;
  options.output = output;
  options.force_overwrite = true;
  std::string written;
  const Status status = RunExport(report, options, &written);
  INFO(status.message());
  REQUIRE(status.ok());
  REQUIRE(written == output);
}

Lines SummarizeJsonTrace(const std::string& path) {
  const prof::test::CommandResult result = prof::test::RunCommand(
      {PROF_PYTHON3, std::string(PROF_EXPORT_TEST_DIR) + "/trace_summary.py", path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  Lines lines;
  std::istringstream text(result.out);
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  return lines;
}

Lines SummarizePerfettoFile(const std::string& path) {
  return SummarizePerfettoTrace(prof::stats::test::ReadFile(path));
}

Lines WithPrefix(const Lines& lines, const std::string& prefix) {
  Lines matching;
  for (const std::string& line : lines) {
    if (line.compare(0, prefix.size(), prefix) == 0) matching.push_back(line);
  }
  return matching;
}

std::map<std::string, long> CountsByCategory(const Lines& lines) {
  std::map<std::string, long> counts;
  for (const std::string& line : WithPrefix(lines, "count ")) {
    std::istringstream fields(line.substr(6));
    std::string category;
    long pid = 0, tid = 0, n = 0;
    fields >> category >> pid >> tid >> n;
    counts[category] += n;
  }
  return counts;
}

}  // namespace prof::exporter::test
