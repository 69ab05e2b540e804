#include "export/export_runner.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "export/export_types.h"
#include "export/interrupted_output.h"
#include "export/output_stream.h"
#include "export/timeline_reader.h"
#include "stats/output_files.h"
#include "stats/progress_line.h"
#include "stats/report_database.h"

namespace prof::exporter {
namespace {

namespace fs = std::filesystem;

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string OutputPath(const std::string& report_path, const ExportOptions& options,
                       const ExportType& type) {
  if (!options.output.empty()) return options.output;
  std::string path = fs::path(report_path).replace_extension(type.extension).string();
  return options.gzip ? path + ".gz" : path;
}

// The "sqlite" type: the report already is one, so it is copied as it is.
Status CopyReport(const std::string& report_path, OutputStream* out) {
  std::ifstream report(report_path, std::ios::binary);
  std::string chunk(1 << 20, '\0');
  while (report) {
    report.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    out->Append(std::string_view(chunk.data(), static_cast<size_t>(report.gcount())));
  }
  if (!report.eof())
    return Status::Error("cannot read " + report_path + ": " + std::strerror(errno));
  return Status::Ok();
}

Status WriteExport(const std::string& report_path, const ExportType& type, storage::Database* db,
                   OutputStream* out) {
  if (type.make_writer == nullptr) return CopyReport(report_path, out);
  const std::unique_ptr<TimelineSink> writer = type.make_writer(out);
  return ReadTimeline(db, writer.get());
}

}  // namespace

Status RunExport(const std::string& report_path, const ExportOptions& options,
                 std::string* written) {
  PROF_ASSIGN_OR_RETURN(const ExportType* type, FindExportType(options.type));
  storage::Database db;
  PROF_RETURN_IF_ERROR(stats::OpenReportDatabase(report_path, &db));
  const std::string output = OutputPath(report_path, options, *type);
  PROF_RETURN_IF_ERROR(stats::CheckNotAnInput(output, {report_path}));
  PROF_RETURN_IF_ERROR(stats::CheckOutputFile(output, options.force_overwrite));

  const std::string partial = output + ".partial-" + std::to_string(getpid());
  const RemoveWhenInterrupted remove_partial_when_interrupted(partial);
  const Compression compression =
      options.gzip || EndsWith(output, ".gz") ? Compression::kGzip : Compression::kNone;
  std::unique_ptr<OutputStream> out;
  Status status = OutputStream::Open(partial, compression, &out);
  if (status.ok()) {
    stats::ProgressLine progress("export");
    progress.Set("writing " + output);
    status = WriteExport(report_path, *type, &db, out.get());
  }
  if (out) {
    const Status closed = out->Close();
    if (status.ok()) status = closed;
  }
  std::error_code error;
  if (status.ok()) {
    fs::rename(partial, output, error);
    if (error) status = Status::Error("cannot write " + output + ": " + error.message());
  }
  if (!status.ok()) {
    fs::remove(partial, error);
    return status;
  }
  *written = output;
  return Status::Ok();
}

}  // namespace prof::exporter
