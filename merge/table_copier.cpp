#include "merge/table_copier.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "merge/sql_identifier.h"

namespace prof::merge {
namespace {

bool Contains(const std::vector<std::string_view>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The column names of `schema`.`table`, in order; empty when the table does not exist.
Status ColumnNames(storage::Database* db, std::string_view schema, std::string_view table,
                   std::vector<std::string>* out) {
  storage::Statement statement;
  const std::string sql = "SELECT name FROM pragma_table_info(?1, ?2) ORDER BY cid";
  PROF_RETURN_IF_ERROR(db->Prepare(sql, &statement));
  statement.BindText(1, table);
  statement.BindText(2, schema);
  bool has_row = false;
  for (;;) {
    PROF_RETURN_IF_ERROR(statement.Step(&has_row));
    if (!has_row) return Status::Ok();
    out->emplace_back(statement.ColumnText(0));
  }
}

// Creates the output table from the input's own DDL.
Status CreateLike(storage::Database* out, const TableSource& source) {
  storage::Statement statement;
  const std::string sql = "SELECT sql FROM " + QuoteIdentifier(source.schema) +
                          ".sqlite_master WHERE type = 'table' AND name = ?1";
  PROF_RETURN_IF_ERROR(out->Prepare(sql, &statement));
  statement.BindText(1, source.table);
  bool has_row = false;
  PROF_RETURN_IF_ERROR(statement.Step(&has_row));
  if (!has_row)
    return Status::Error(std::string(source.input_path) + " lost table " +
                         std::string(source.table) + " while being read");
  const std::string ddl(statement.ColumnText(0));
  return out->Exec(ddl);  // unqualified: SQLite creates it in main, the output
}

// nsys's names of serialized GlobalIds (bits 63..56 hardware, 55..48 VM, 47..24 pid, 23..0 tid),
// the same in every table that has one.
bool IsGlobalId(const std::string& column) {
  return column == "globalPid" || column == "globalTid" || column == "endGlobalTid";
}

// ?1: the time offset; ?2: the input's bits 63..48, in place; ?3: the sample id offset.
std::string SelectExpression(const TablePlan& plan, const TableSource& source,
                             const std::string& column) {
  const std::string quoted = QuoteIdentifier(column);
  if (Contains(plan.string_id_columns, column)) {
    return "(SELECT new_id FROM temp.string_map WHERE old_id = " + quoted + ")";
  }
  if (Contains(plan.metric_type_columns, column)) {
    return "coalesce((SELECT new_id FROM temp.metric_type_map WHERE old_id = " + quoted + "), " +
           quoted + ")";
  }
  if (Contains(plan.time_columns, column)) return quoted + " + ?1";
  if (Contains(plan.sample_id_columns, column)) return quoted + " + ?3";
  if (Contains(plan.stack_reference_columns, column)) {
    return "CASE " + quoted + " WHEN 0 THEN 0 ELSE " + quoted + " + ?3 END";
  }
  // NULL stays NULL: NULL & x is NULL.
  if (source.process_id_bits != 0 && IsGlobalId(column)) {
    return "((" + quoted + " & 281474976710655) | ?2)";  // keeps bits 47..0
  }
  return quoted;
}

}  // namespace

Status CopyTable(storage::Database* out, const TableSource& source, const TablePlan& plan) {
  std::vector<std::string> input_columns;
  PROF_RETURN_IF_ERROR(ColumnNames(out, source.schema, source.table, &input_columns));
  std::vector<std::string> output_columns;
  PROF_RETURN_IF_ERROR(ColumnNames(out, "main", source.table, &output_columns));
  if (output_columns.empty()) {
    PROF_RETURN_IF_ERROR(CreateLike(out, source));
    output_columns = input_columns;
  }
  std::string columns;
  std::string expressions;
  for (const std::string& column : input_columns) {
    if (std::find(output_columns.begin(), output_columns.end(), column) == output_columns.end()) {
      return Status::Error(std::string(source.input_path) + " has a column " + column + " in " +
                           std::string(source.table) + " that the reports before it lack");
    }
    columns += (columns.empty() ? "" : ", ") + QuoteIdentifier(column);
    expressions += (expressions.empty() ? "" : ", ") + SelectExpression(plan, source, column);
  }
  const std::string table = QuoteIdentifier(source.table);
  std::string sql = "INSERT INTO main." + table + " (" + columns + ") SELECT " + expressions +
                    " FROM " + QuoteIdentifier(source.schema) + "." + table;
  // Rows two inputs share (the GPUs of one host, enum rows) are described once.
  if (plan.merge == TableMerge::kDescriptionRows) {
    sql += " EXCEPT SELECT " + columns + " FROM main." + table;
  }
  storage::Statement statement;
  PROF_RETURN_IF_ERROR(out->Prepare(sql, &statement));
  // ?3 in the SQL numbers ?1 and ?2 too, used or not.
  if (statement.ParameterCount() >= 1) statement.BindInt64(1, source.time_offset_ns);
  if (statement.ParameterCount() >= 2) {
    statement.BindInt64(2, static_cast<int64_t>(uint64_t{source.process_id_bits} << 48));
  }
  if (statement.ParameterCount() >= 3) statement.BindInt64(3, source.sample_id_offset);
  return statement.Run();
}

Status SampleIdOffset(storage::Database* out, std::string_view schema, int64_t* offset) {
  // max() over the output's sample tables and min() over the input's; a table one side lacks
  // reads as no ids. Fixed table names from kSampleIdTables, not input text.
  std::optional<int64_t> output_max, input_min;
  for (std::string_view table : kSampleIdTables) {
    for (const bool input : {false, true}) {
      const std::string_view side = input ? schema : std::string_view("main");
      std::vector<std::string> columns;
      PROF_RETURN_IF_ERROR(ColumnNames(out, side, table, &columns));
      if (columns.empty()) continue;
      storage::Statement statement;
      const std::string sql = std::string(input ? "SELECT min(id)" : "SELECT max(id)") + " FROM " +
                              QuoteIdentifier(side) + "." + QuoteIdentifier(table);
      PROF_RETURN_IF_ERROR(out->Prepare(sql, &statement));
      bool has_row = false;
      PROF_RETURN_IF_ERROR(statement.Step(&has_row));
      const std::optional<int64_t> value = statement.ColumnOptionalInt64(0);
      if (!value) continue;
      std::optional<int64_t>& bound = input ? input_min : output_max;
      bound = !bound ? *value : input ? std::min(*bound, *value) : std::max(*bound, *value);
    }
  }
  *offset = output_max && input_min ? *output_max + 1 - *input_min : 0;
  return Status::Ok();
}

}  // namespace prof::merge
