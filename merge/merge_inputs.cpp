#include "merge/merge_inputs.h"

#include <filesystem>
#include <optional>
#include <utility>

#include "stats/report_database.h"
#include "storage/sqlite_database.h"

namespace prof::merge {
namespace {

// The single value of a one-column query, NULL or no row giving nullopt.
Status QueryText(storage::Database* db, std::string_view sql, std::optional<std::string>* out) {
  storage::Statement statement;
  PROF_RETURN_IF_ERROR(db->Prepare(sql, &statement));
  bool has_row = false;
  PROF_RETURN_IF_ERROR(statement.Step(&has_row));
  *out = has_row ? statement.ColumnOptionalText(0) : std::nullopt;
  return Status::Ok();
}

Status ReadSchemaVersion(storage::Database* db, MergeInput* input) {
  bool exists = false;
  PROF_RETURN_IF_ERROR(db->TableExists("META_DATA_EXPORT", &exists));
  std::optional<std::string> version;
  if (exists) {
    const Status status = QueryText(
        db, "SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION'", &version);
    if (!status.ok()) return status;
  }
  if (!version) return Status::Error(input->path + " has no EXPORT_SCHEMA_VERSION");
  input->schema_version = *version;
  return Status::Ok();
}

Status ReadSessionStart(storage::Database* db, MergeInput* input) {
  const Status missing = Status::Error(
      input->path + " has no session start time (TARGET_INFO_SESSION_START_TIME.utcEpochNs)");
  bool exists = false;
  PROF_RETURN_IF_ERROR(db->TableExists("TARGET_INFO_SESSION_START_TIME", &exists));
  if (!exists) return missing;
  storage::Statement statement;
  const Status prepared =
      db->Prepare("SELECT MIN(utcEpochNs) FROM TARGET_INFO_SESSION_START_TIME", &statement);
  if (!prepared.ok()) return prepared;
  bool has_row = false;
  PROF_RETURN_IF_ERROR(statement.Step(&has_row));
  const std::optional<int64_t> start = statement.ColumnOptionalInt64(0);
  if (!start) return missing;
  // Before 1970 is no capture's time, and keeping starts non-negative keeps the offsets between
  // inputs (differences of starts) inside int64.
  if (*start < 0) {
    return Status::Error(input->path + " has an invalid session start time (utcEpochNs " +
                         std::to_string(*start) + ")");
  }
  input->session_start_ns = *start;
  return Status::Ok();
}

// The tables whose rows name a traced process; nsys's PROCESSES also lists every other process
// of the machine, which two captures of one host share harmlessly.
constexpr std::pair<std::string_view, std::string_view> kProcessColumns[] = {
    {"NVTX_EVENTS", "globalTid"},
    {"OSRT_API", "globalTid"},
    {"COMPOSITE_EVENTS", "globalTid"},
    {"SCHED_EVENTS", "globalTid"},
    {"CUPTI_ACTIVITY_KIND_RUNTIME", "globalTid"},
    {"CUPTI_ACTIVITY_KIND_KERNEL", "globalPid"},
    {"CUPTI_ACTIVITY_KIND_MEMCPY", "globalPid"},
    {"CUPTI_ACTIVITY_KIND_MEMSET", "globalPid"},
};

Status ReadPids(storage::Database* db, MergeInput* input) {
  for (const auto& [table, column] : kProcessColumns) {
    bool exists = false;
    PROF_RETURN_IF_ERROR(db->TableExists(table, &exists));
    if (!exists) continue;
    // Fixed identifiers from the list above, not input text.
    const std::string sql = "SELECT DISTINCT (" + std::string(column) + " >> 24) & 16777215 FROM " +
                            std::string(table) + " WHERE " + std::string(column) + " IS NOT NULL";
    storage::Statement statement;
    PROF_RETURN_IF_ERROR(db->Prepare(sql, &statement));
    bool has_row = false;
    for (;;) {
      PROF_RETURN_IF_ERROR(statement.Step(&has_row));
      if (!has_row) break;
      input->pids.insert(statement.ColumnInt64(0));
    }
  }
  return Status::Ok();
}

Status ReadInput(const std::string& path, MergeInput* out) {
  storage::Database db;
  PROF_RETURN_IF_ERROR(stats::OpenReportDatabase(path, &db));
  MergeInput input;
  input.path = path;
  for (auto read : {ReadSchemaVersion, ReadSessionStart, ReadPids}) {
    PROF_RETURN_IF_ERROR(read(&db, &input));
  }
  *out = std::move(input);
  return Status::Ok();
}

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code error;
  return std::filesystem::equivalent(a, b, error);
}

// Compares `input` with the inputs read before it.
Status CheckAgainstEarlier(const MergeInput& input, const std::vector<MergeInput>& earlier) {
  for (const MergeInput& other : earlier) {
    if (SameFile(input.path, other.path)) {
      return Status::Error(input.path + " is given twice (also as " + other.path + ")");
    }
    if (input.schema_version != other.schema_version) {
      return Status::Error(
          "cannot merge reports of different export schema versions: " + other.path + " has " +
          other.schema_version + ", " + input.path + " has " + input.schema_version);
    }
  }
  return Status::Ok();
}

bool SharesPids(const MergeInput& input, const std::vector<MergeInput>& earlier) {
  for (const MergeInput& other : earlier) {
    for (int64_t pid : input.pids) {
      if (other.pids.count(pid) != 0) return true;
    }
  }
  return false;
}

// Bits 63..48 hold 16 bits: inputs beyond this position could not be told apart.
constexpr size_t kMaxInputs = 65535;

}  // namespace

Status ReadMergeInputs(const std::vector<std::string>& paths, std::vector<MergeInput>* out) {
  if (paths.size() < 2) {
    return Status::Error("merge needs at least two reports (got " + std::to_string(paths.size()) +
                         ")");
  }
  if (paths.size() > kMaxInputs) {
    return Status::Error("merge takes at most " + std::to_string(kMaxInputs) + " reports (got " +
                         std::to_string(paths.size()) + ")");
  }
  std::vector<MergeInput> inputs;
  for (const std::string& path : paths) {
    MergeInput input;
    PROF_RETURN_IF_ERROR(ReadInput(path, &input));
    PROF_RETURN_IF_ERROR(CheckAgainstEarlier(input, inputs));
    if (SharesPids(input, inputs)) input.process_id_bits = static_cast<uint16_t>(inputs.size() + 1);
    inputs.push_back(std::move(input));
  }
  *out = std::move(inputs);
  return Status::Ok();
}

}  // namespace prof::merge
