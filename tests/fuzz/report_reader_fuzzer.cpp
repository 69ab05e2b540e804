// libFuzzer target: arbitrary bytes as a report file, read by every `prof stats` report and the
// default `prof analyze` rules, their output written to files as `-o PREFIX` does.
#include <spdlog/spdlog.h>
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "analyze/analyze_runner.h"
#include "stats/report_registry.h"
#include "stats/stats_runner.h"

namespace {

const std::string& WorkDir() {
  static const std::string dir = [] {
    char path[] = "/tmp/prof-fuzz-reader-XXXXXX";
    return std::string(mkdtemp(path));
  }();
  return dir;
}

prof::stats::StatsOptions AllReports() {
  prof::stats::StatsOptions options;
  for (const prof::stats::ReportSpec& report : prof::stats::AllReports()) {
    options.reports.emplace_back(report.name);
  }
  options.output = WorkDir() + "/stats";
  options.force_overwrite = true;
  options.quiet = true;
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  spdlog::set_level(spdlog::level::off);
  const std::string report = WorkDir() + "/report.sqlite";
  {
    std::ofstream file(report, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  static const prof::stats::StatsOptions stats_options = AllReports();
  (void)prof::stats::RunStats(report, stats_options);
  prof::analyze::AnalyzeOptions analyze_options;
  analyze_options.output = WorkDir() + "/analyze";
  analyze_options.force_overwrite = true;
  analyze_options.quiet = true;
  (void)prof::analyze::RunAnalyze(report, analyze_options);
  return 0;
}
