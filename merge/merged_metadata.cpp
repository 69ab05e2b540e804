#include "merge/merged_metadata.h"

#include <chrono>

#include "common/split.h"
#include "storage/report_metadata.h"
#include "storage/schema_catalog.h"
#include "storage/sql_identifier.h"

namespace prof::merge {
namespace {

Status CreateFromProfDdl(storage::Database* out, std::string_view table) {
  const std::optional<std::string_view> ddl = storage::TableDdl(table);
  if (!ddl) return Status::Error("this build of prof lacks the DDL of " + std::string(table));
  return out->Exec(*ddl);
}

int64_t NowUtcNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Status InsertNameValue(storage::Statement* insert, const std::string& name,
                       const std::string& value) {
  insert->BindText(1, std::string_view(name));
  insert->BindText(2, std::string_view(value));
  return insert->Run();
}

}  // namespace

Status WriteExportMetadata(storage::Database* out, const std::string& final_path,
                           const std::string& schema_version) {
  PROF_RETURN_IF_ERROR(CreateFromProfDdl(out, "META_DATA_EXPORT"));
  storage::NameValues rows = storage::ExportMetadata(final_path, NowUtcNs());
  // "3.20.3" -> the _MAJOR, _MINOR and _MICRO rows' values (absent parts are left out).
  const std::vector<std::string> parts = Split(schema_version, '.');
  const char* const kPartNames[] = {"EXPORT_SCHEMA_VERSION_MAJOR", "EXPORT_SCHEMA_VERSION_MINOR",
                                    "EXPORT_SCHEMA_VERSION_MICRO"};
  for (auto& [name, value] : rows) {
    if (name == "EXPORT_SCHEMA_VERSION") value = schema_version;
    for (size_t i = 0; i < 3; ++i) {
      if (name == kPartNames[i]) value = i < parts.size() ? parts[i] : "";
    }
  }
  storage::Statement insert;
  const Status prepared =
      out->Prepare("INSERT INTO main.META_DATA_EXPORT (name, value) VALUES (?1, ?2)", &insert);
  if (!prepared.ok()) return prepared;
  for (const auto& [name, value] : rows) {
    PROF_RETURN_IF_ERROR(InsertNameValue(&insert, name, value));
  }
  return Status::Ok();
}

Status WriteSessionStart(storage::Database* out, int64_t start_ns) {
  PROF_RETURN_IF_ERROR(CreateFromProfDdl(out, "TARGET_INFO_SESSION_START_TIME"));
  storage::Statement insert;
  const Status prepared = out->Prepare(
      "INSERT INTO main.TARGET_INFO_SESSION_START_TIME (utcEpochNs, utcTime, localTime) "
      "VALUES (?1, ?2, ?3)",
      &insert);
  if (!prepared.ok()) return prepared;
  insert.BindInt64(1, start_ns);
  insert.BindText(2, std::string_view(storage::FormatUtcTime(start_ns)));
  insert.BindText(3, std::string_view(storage::FormatLocalTime(start_ns)));
  return insert.Run();
}

Status SessionRowsMerger::Create(storage::Database* out, SessionRowsMerger* merger) {
  merger->out_ = out;
  PROF_RETURN_IF_ERROR(out->Exec(
      "CREATE TEMP TABLE merged_session (input INTEGER NOT NULL, name TEXT NOT NULL, value TEXT, "
      "offset_ns INTEGER NOT NULL)"));
  return out->Exec(
      "CREATE TEMP TABLE merged_stats (name TEXT NOT NULL, severity TEXT NOT NULL, value INTEGER "
      "NOT NULL, description TEXT NOT NULL)");
}

Status SessionRowsMerger::HasTable(std::string_view schema, std::string_view table, bool* out) {
  storage::Statement statement;
  const std::string sql = "SELECT 1 FROM " + storage::QuoteIdentifier(schema) +
                          ".sqlite_master WHERE type = 'table' AND name = ?1";
  PROF_RETURN_IF_ERROR(out_->Prepare(sql, &statement));
  statement.BindText(1, table);
  return statement.Step(out);
}

Status SessionRowsMerger::AddInput(std::string_view schema, int64_t offset_ns) {
  const int64_t input = next_input_++;
  bool has_stats = false;
  PROF_RETURN_IF_ERROR(HasTable(schema, "PROF_STATS", &has_stats));
  if (has_stats) {
    ++inputs_with_stats_;
    PROF_RETURN_IF_ERROR(
        out_->Exec("INSERT INTO temp.merged_stats SELECT name, severity, value, "
                   "description FROM " +
                   storage::QuoteIdentifier(schema) + ".PROF_STATS"));
  }
  bool has_table = false;
  PROF_RETURN_IF_ERROR(HasTable(schema, "PROF_SESSION", &has_table));
  if (!has_table) return Status::Ok();
  ++inputs_with_rows_;
  storage::Statement insert;
  const std::string copy = "INSERT INTO temp.merged_session SELECT ?1, name, value, ?2 FROM " +
                           storage::QuoteIdentifier(schema) + ".PROF_SESSION";
  PROF_RETURN_IF_ERROR(out_->Prepare(copy, &insert));
  insert.BindInt64(1, input);
  insert.BindInt64(2, offset_ns);
  return insert.Run();
}

Status SessionRowsMerger::Write(int64_t start_ns, const std::vector<std::string>& input_paths) {
  PROF_RETURN_IF_ERROR(WriteStats());
  if (inputs_with_rows_ == 0) return Status::Ok();
  PROF_RETURN_IF_ERROR(CreateFromProfDdl(out_, "PROF_SESSION"));
  constexpr const char* kCombine = R"sql(
    WITH counters(name) AS (VALUES ('dropped_records'), ('torn_records'), ('unknown_records'),
                                   ('malformed_records'), ('broken_streams'),
                                   ('cuda_dropped_records'))
    INSERT INTO main.PROF_SESSION (name, value)
    SELECT name, value FROM (
      SELECT MIN(rowid) AS position, name, value FROM temp.merged_session
      WHERE name NOT IN (SELECT name FROM counters)
        AND name NOT IN ('duration_ns', 'utc_epoch_ns_at_start')
      GROUP BY name, value
      UNION ALL
      SELECT MIN(rowid), name, CAST(SUM(CAST(value AS INTEGER)) AS TEXT) FROM temp.merged_session
      WHERE name IN (SELECT name FROM counters) GROUP BY name
      UNION ALL
      SELECT MIN(rowid), name, CAST(MAX(offset_ns + CAST(value AS INTEGER)) AS TEXT)
      FROM temp.merged_session WHERE name = 'duration_ns' GROUP BY name
      UNION ALL
      SELECT MIN(rowid), name, CAST(?1 AS TEXT) FROM temp.merged_session
      WHERE name = 'utc_epoch_ns_at_start' GROUP BY name)
    ORDER BY position)sql";
  storage::Statement combine;
  PROF_RETURN_IF_ERROR(out_->Prepare(kCombine, &combine));
  combine.BindInt64(1, start_ns);
  PROF_RETURN_IF_ERROR(combine.Run());
  storage::Statement insert;
  const Status prepared =
      out_->Prepare("INSERT INTO main.PROF_SESSION (name, value) VALUES (?1, ?2)", &insert);
  if (!prepared.ok()) return prepared;
  for (const std::string& path : input_paths) {
    PROF_RETURN_IF_ERROR(InsertNameValue(&insert, "merged_from", path));
  }
  return Status::Ok();
}

// Each counter once, its values summed over the inputs, in the order of its first appearance.
Status SessionRowsMerger::WriteStats() {
  if (inputs_with_stats_ == 0) return Status::Ok();
  PROF_RETURN_IF_ERROR(CreateFromProfDdl(out_, "PROF_STATS"));
  return out_->Exec(
      "INSERT INTO main.PROF_STATS (name, severity, value, description) "
      "SELECT name, severity, SUM(value), description FROM temp.merged_stats "
      "GROUP BY name ORDER BY MIN(rowid)");
}

}  // namespace prof::merge
