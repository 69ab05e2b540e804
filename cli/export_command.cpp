#include "cli/export_command.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <string>

#include "common/number_text.h"
#include "common/one_line.h"
#include "export/export_runner.h"
#include "export/export_types.h"

namespace prof::cli {
namespace {

constexpr const char* kExamples = R"(
Examples:
  prof export --type chrome report1.sqlite
      Write report1.json; open it in https://ui.perfetto.dev or chrome://tracing.
  prof export --type perfetto -o run.pftrace report1.sqlite
      Write Perfetto's protobuf trace: smaller and faster to load for big runs.
  prof export --type chrome -o run.json.gz report1.sqlite
      The same JSON, gzip-compressed (also with --gzip true).
  prof export --type jsonl report1.sqlite
      Write report1.jsonl: one JSON object per track and per event, for scripts (nsys-style
      --type jsonlines is the same).
  prof export --type folded report1.sqlite
      Write report1.folded: the CPU samples' collapsed stacks, for flamegraph.pl or speedscope.)";

class ExportCommand : public Command {
 public:
  CLI::App* Register(CLI::App& app) override {
    CLI::App* sub = app.add_subcommand(
        "export", "Export a report (prof's or an nsys SQLite export) as a timeline or JSON lines.");
    sub->footer(kExamples);
    sub->add_option(
           "-t,--type", options_.type,
           "Output format: " + exporter::ExportTypeNames() +
               " (chrome: Trace Event Format JSON; perfetto: Perfetto protobuf trace; folded: "
               "collapsed CPU sample stacks)")
        ->required();
    sub->add_option("-o,--output", options_.output,
                    "Output file (default: the report's name with the format's extension: .json, "
                    ".pftrace, .jsonl, .folded, .sqlite); a name ending in .gz is gzip-compressed");
    sub->add_option("-f,--force-overwrite", options_.force_overwrite,
                    "Replace an existing output file (true|false)")
        ->default_str("false");
    sub->add_option("--gzip", options_.gzip,
                    "Compress the output with gzip; the default name gets .gz (true|false)")
        ->default_str("false");
    sub->add_flag("-q,--quiet", quiet_, "Print only errors");
    sub->add_option("report", report_path_,
                    "The report: a .sqlite file from prof profile or nsys export")
        ->required();
    return sub;
  }

  int Run() override {
    if (quiet_) spdlog::set_level(spdlog::level::err);
    std::string written;
    const Status status = exporter::RunExport(report_path_, options_, &written);
    if (!status.ok()) {
      spdlog::error("error: {}", OneLine(status.message()));
      return 1;
    }
    std::error_code error;
    const uintmax_t size = std::filesystem::file_size(written, error);
    spdlog::info("wrote {} ({})", written, error ? "size unknown" : ByteSizeText(size));
    return 0;
  }

 private:
  exporter::ExportOptions options_;
  std::string report_path_;
  bool quiet_ = false;
};

}  // namespace

std::unique_ptr<Command> MakeExportCommand() { return std::make_unique<ExportCommand>(); }

}  // namespace prof::cli
