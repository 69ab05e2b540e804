#include "merge/merge_runner.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "merge/merge_inputs.h"
#include "merge/merge_table_plan.h"
#include "merge/merged_metadata.h"
#include "merge/merged_metric_types.h"
#include "merge/merged_strings.h"
#include "merge/table_copier.h"
#include "stats/output_files.h"
#include "stats/progress_line.h"
#include "storage/schema_catalog.h"
#include "storage/sqlite_database.h"

namespace prof::merge {
namespace {

constexpr const char* kInputSchema = "merge_input";

std::string ReportPath(const std::string& output) {
  const std::string extension = ".sqlite";
  const bool has_extension =
      output.size() > extension.size() &&
      output.compare(output.size() - extension.size(), std::string::npos, extension) == 0;
  return has_extension ? output : output + extension;
}

Status CheckOutput(const std::string& path, const std::vector<MergeInput>& inputs, bool force) {
  std::vector<std::string> input_paths;
  for (const MergeInput& input : inputs) input_paths.push_back(input.path);
  PROF_RETURN_IF_ERROR(stats::CheckNotAnInput(path, input_paths));
  return stats::CheckOutputFile(path, force);
}

// Removes the partial file unless the merge got as far as renaming it.
class PartialFile {
 public:
  explicit PartialFile(std::string path) : path_(std::move(path)) { std::remove(path_.c_str()); }
  ~PartialFile() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;
  const std::string& path() const { return path_; }
  Status RenameTo(const std::string& final_path) {
    if (std::rename(path_.c_str(), final_path.c_str()) != 0) {
      return Status::Error("cannot rename " + path_ + " to " + final_path);
    }
    path_.clear();
    return Status::Ok();
  }

 private:
  std::string path_;
};

Status InputTables(storage::Database* out, std::vector<std::string>* tables) {
  storage::Statement statement;
  const std::string sql = std::string("SELECT name FROM ") + kInputSchema +
                          ".sqlite_master WHERE type = 'table' ORDER BY rowid";
  PROF_RETURN_IF_ERROR(out->Prepare(sql, &statement));
  bool has_row = false;
  for (;;) {
    PROF_RETURN_IF_ERROR(statement.Step(&has_row));
    if (!has_row) return Status::Ok();
    tables->emplace_back(statement.ColumnText(0));
  }
}

// Everything one input adds, in one transaction (ATTACH and DETACH must run outside one).
class InputCopier {
 public:
  InputCopier(storage::Database* out, SessionRowsMerger* session, MergeOutcome* outcome)
      : out_(out), session_(session), outcome_(outcome) {}

  Status Copy(const MergeInput& input, int64_t offset_ns) {
    PROF_RETURN_IF_ERROR(out_->AttachReadOnly(input.path, kInputSchema));
    Status copied = CopyAttached(input, offset_ns);
    const Status detached = out_->Exec(std::string("DETACH DATABASE ") + kInputSchema);
    return copied.ok() ? detached : copied;
  }

 private:
  Status CopyAttached(const MergeInput& input, int64_t offset_ns) {
    storage::Transaction transaction;
    PROF_RETURN_IF_ERROR(storage::Transaction::Begin(out_, &transaction));
    PROF_RETURN_IF_ERROR(CheckPlainData(out_, kInputSchema, input.path));
    PROF_RETURN_IF_ERROR(MapInputStrings(out_, kInputSchema));
    PROF_RETURN_IF_ERROR(MapInputMetricTypes(out_, kInputSchema, inputs_copied_++));
    PROF_RETURN_IF_ERROR(session_->AddInput(kInputSchema, offset_ns));
    // Before any table of the input is copied: both sample tables shift by the same offset.
    PROF_RETURN_IF_ERROR(SampleIdOffset(out_, kInputSchema, &sample_id_offset_));
    std::vector<std::string> tables;
    PROF_RETURN_IF_ERROR(InputTables(out_, &tables));
    for (const std::string& table : tables) {
      PROF_RETURN_IF_ERROR(CopyOne(input, table, offset_ns));
    }
    return transaction.Commit();
  }

  Status CopyOne(const MergeInput& input, const std::string& table, int64_t offset_ns) {
    const TablePlan* plan = FindTablePlan(table);
    if (plan == nullptr) {
      std::vector<std::string>& left_out = outcome_->left_out_tables;
      if (std::find(left_out.begin(), left_out.end(), table) == left_out.end()) {
        left_out.push_back(table);
      }
      return Status::Ok();
    }
    if (plan->merge == TableMerge::kRebuilt) return Status::Ok();
    return CopyTable(
        out_,
        {kInputSchema, table, input.path, offset_ns, input.process_id_bits, sample_id_offset_},
        *plan);
  }

  storage::Database* out_;
  SessionRowsMerger* session_;
  MergeOutcome* outcome_;
  int64_t sample_id_offset_ = 0;  // of the input being copied
  int64_t inputs_copied_ = 0;
};

Status WriteMerged(const std::vector<MergeInput>& inputs, const std::string& final_path,
                   storage::Database* out, MergeOutcome* outcome) {
  PROF_RETURN_IF_ERROR(out->Exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF"));
  SessionRowsMerger session;
  PROF_RETURN_IF_ERROR(SessionRowsMerger::Create(out, &session));
  PROF_RETURN_IF_ERROR(CreateStringTables(out));
  PROF_RETURN_IF_ERROR(CreateMetricTypeTables(out));
  const int64_t start_ns =
      std::min_element(inputs.begin(), inputs.end(), [](const auto& a, const auto& b) {
        return a.session_start_ns < b.session_start_ns;
      })->session_start_ns;
  InputCopier copier(out, &session, outcome);
  std::vector<std::string> paths;
  stats::ProgressLine progress("merge");
  for (const MergeInput& input : inputs) {
    progress.Set("copying " + input.path + " (" + std::to_string(paths.size() + 1) + " of " +
                 std::to_string(inputs.size()) + ")");
    const int64_t offset_ns = input.session_start_ns - start_ns;
    outcome->offsets_ns.push_back(offset_ns);
    paths.push_back(input.path);
    PROF_RETURN_IF_ERROR(copier.Copy(input, offset_ns));
  }
  progress.Set("writing strings and session tables");
  storage::Transaction transaction;
  PROF_RETURN_IF_ERROR(storage::Transaction::Begin(out, &transaction));
  PROF_RETURN_IF_ERROR(WriteStringIds(out));
  const std::string& schema_version = inputs.front().schema_version;
  PROF_RETURN_IF_ERROR(WriteExportMetadata(out, final_path, schema_version));
  PROF_RETURN_IF_ERROR(WriteSessionStart(out, start_ns));
  PROF_RETURN_IF_ERROR(session.Write(start_ns, paths));
  return transaction.Commit();
}

}  // namespace

Status RunMerge(const MergeOptions& options, MergeOutcome* outcome) {
  std::vector<MergeInput> inputs;
  PROF_RETURN_IF_ERROR(ReadMergeInputs(options.inputs, &inputs));
  const std::string final_path = ReportPath(options.output);
  PROF_RETURN_IF_ERROR(CheckOutput(final_path, inputs, options.force_overwrite));
  MergeOutcome merged;
  merged.output_path = final_path;
  PartialFile partial(final_path + ".partial-" + std::to_string(getpid()));
  {
    storage::Database out;
    PROF_RETURN_IF_ERROR(storage::Database::OpenReadWrite(partial.path(), &out));
    PROF_RETURN_IF_ERROR(WriteMerged(inputs, final_path, &out, &merged));
  }  // closed before the rename
  PROF_RETURN_IF_ERROR(partial.RenameTo(final_path));
  *outcome = std::move(merged);
  return Status::Ok();
}

}  // namespace prof::merge
