#include "merge/merged_metric_types.h"

#include <string>

#include "storage/sql_identifier.h"

namespace prof::merge {

Status CreateMetricTypeTables(storage::Database* out) {
  return out->Exec(
      "CREATE TEMP TABLE merged_metric_types (typeId INTEGER PRIMARY KEY);"
      "CREATE TEMP TABLE metric_type_map (old_id INTEGER PRIMARY KEY, new_id INTEGER NOT NULL);");
}

Status MapInputMetricTypes(storage::Database* out, std::string_view schema, int64_t position) {
  PROF_RETURN_IF_ERROR(out->Exec("DELETE FROM temp.metric_type_map"));
  storage::Statement has_table;
  PROF_RETURN_IF_ERROR(out->Prepare("SELECT 1 FROM " + storage::QuoteIdentifier(schema) +
                                        ".sqlite_master WHERE name = 'TARGET_INFO_GPU_METRICS'",
                                    &has_table));
  bool has_row = false;
  PROF_RETURN_IF_ERROR(has_table.Step(&has_row));
  if (!has_row) return Status::Ok();
  const std::string types = "SELECT DISTINCT typeId FROM " + storage::QuoteIdentifier(schema) +
                            ".TARGET_INFO_GPU_METRICS";
  // ?1: bits 63..48 of the input, which replace the typeId's own.
  storage::Statement map;
  PROF_RETURN_IF_ERROR(
      out->Prepare("INSERT INTO temp.metric_type_map (old_id, new_id) SELECT typeId, "
                   "(typeId & 281474976710655) | ?1 FROM (" +
                       types + ") WHERE typeId IN (SELECT typeId FROM temp.merged_metric_types)",
                   &map));
  map.BindInt64(1, static_cast<int64_t>(static_cast<uint64_t>(position + 1) << 48));
  PROF_RETURN_IF_ERROR(map.Run());
  return out->Exec(
      "INSERT OR IGNORE INTO temp.merged_metric_types (typeId) SELECT coalesce(m.new_id, t.typeId) "
      "FROM (" +
      types + ") AS t LEFT JOIN temp.metric_type_map AS m ON m.old_id = t.typeId");
}

}  // namespace prof::merge
