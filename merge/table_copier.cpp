#include "merge/table_copier.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "storage/schema_catalog.h"
#include "storage/sql_identifier.h"

namespace prof::merge {
namespace {

bool Contains(const std::vector<std::string_view>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// A column of a table as PRAGMA table_xinfo describes it.
struct Column {
  std::string name;
  std::string declared_type;
  bool not_null = false;
  int64_t primary_key_place = 0;  // 1-based place in the primary key, 0 when not part of it
  int64_t hidden = 0;             // 2 and 3: a generated column
};

// The columns of `schema`.`table`, in order; empty when the table does not exist.
Status TableColumns(storage::Database* db, std::string_view schema, std::string_view table,
                    std::vector<Column>* out) {
  storage::Statement statement;
  const std::string sql =
      "SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo(?1, ?2) ORDER BY cid";
  PROF_RETURN_IF_ERROR(db->Prepare(sql, &statement));
  statement.BindText(1, table);
  statement.BindText(2, schema);
  bool has_row = false;
  for (;;) {
    PROF_RETURN_IF_ERROR(statement.Step(&has_row));
    if (!has_row) return Status::Ok();
    out->push_back({std::string(statement.ColumnText(0)), std::string(statement.ColumnText(1)),
                    statement.ColumnInt64(2) != 0, statement.ColumnInt64(3),
                    statement.ColumnInt64(4)});
  }
}

bool HasColumn(const std::vector<Column>& columns, const std::string& name) {
  return std::any_of(columns.begin(), columns.end(),
                     [&](const Column& column) { return column.name == name; });
}

// The column's type as one of SQLite's affinity names, by SQLite's own rules for a declared
// type; the declared text itself never reaches SQL.
std::string_view AffinityName(std::string declared) {
  std::transform(declared.begin(), declared.end(), declared.begin(),
                 [](unsigned char c) { return std::toupper(c); });
  const auto has = [&](const char* part) { return declared.find(part) != std::string::npos; };
  if (has("INT")) return "INTEGER";
  if (has("CHAR") || has("CLOB") || has("TEXT")) return "TEXT";
  if (declared.empty() || has("BLOB")) return "BLOB";
  if (has("REAL") || has("FLOA") || has("DOUB")) return "REAL";
  return "NUMERIC";
}

// A column definition built from what the input's table says of the column.
std::string ColumnDefinition(const Column& column) {
  std::string definition =
      storage::QuoteIdentifier(column.name) + " " + std::string(AffinityName(column.declared_type));
  if (column.not_null) definition += " NOT NULL";
  return definition;
}

// Creates the output's table: prof's own definition of it when prof knows the table, else one
// built from the input's column list (names, affinities, NOT NULL, primary key); columns of the
// input that prof's definition lacks (a newer nsys's) are added to it. The input's CREATE TABLE
// text is never run: a report from elsewhere is data.
Status CreateOutputTable(storage::Database* out, const TableSource& source,
                         const std::vector<Column>& input_columns) {
  const std::string table = "main." + storage::QuoteIdentifier(source.table);
  if (const std::optional<std::string_view> ddl = storage::TableDdl(source.table)) {
    PROF_RETURN_IF_ERROR(out->Exec(*ddl));  // unqualified: SQLite creates it in main, the output
    std::vector<Column> known;
    PROF_RETURN_IF_ERROR(TableColumns(out, "main", source.table, &known));
    for (const Column& column : input_columns) {
      if (HasColumn(known, column.name)) continue;
      Column added = column;
      added.not_null = false;  // ADD COLUMN NOT NULL needs a default; the rows before have none
      PROF_RETURN_IF_ERROR(
          out->Exec("ALTER TABLE " + table + " ADD COLUMN " + ColumnDefinition(added)));
    }
    return Status::Ok();
  }
  std::vector<const Column*> key(input_columns.size(), nullptr);
  std::string definitions;
  for (const Column& column : input_columns) {
    definitions += (definitions.empty() ? "" : ", ") + ColumnDefinition(column);
    const int64_t place = column.primary_key_place;
    if (place >= 1 && place <= static_cast<int64_t>(key.size())) key[place - 1] = &column;
  }
  std::string key_columns;
  for (const Column* column : key) {
    if (column != nullptr) {
      key_columns += (key_columns.empty() ? "" : ", ") + storage::QuoteIdentifier(column->name);
    }
  }
  if (!key_columns.empty()) definitions += ", PRIMARY KEY (" + key_columns + ")";
  return out->Exec("CREATE TABLE " + table + " (" + definitions + ")");
}

// nsys's names of serialized GlobalIds (bits 63..56 hardware, 55..48 VM, 47..24 pid, 23..0 tid),
// the same in every table that has one.
bool IsGlobalId(const std::string& column) {
  return column == "globalPid" || column == "globalTid" || column == "endGlobalTid";
}

// ?1: the time offset; ?2: the input's bits 63..48, in place; ?3: the sample id offset.
std::string SelectExpression(const TablePlan& plan, const TableSource& source,
                             const std::string& column) {
  const std::string quoted = storage::QuoteIdentifier(column);
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
  std::vector<Column> input_columns;
  PROF_RETURN_IF_ERROR(TableColumns(out, source.schema, source.table, &input_columns));
  std::vector<Column> output_columns;
  PROF_RETURN_IF_ERROR(TableColumns(out, "main", source.table, &output_columns));
  if (output_columns.empty()) {
    PROF_RETURN_IF_ERROR(CreateOutputTable(out, source, input_columns));
    PROF_RETURN_IF_ERROR(TableColumns(out, "main", source.table, &output_columns));
  }
  std::string columns;
  std::string expressions;
  for (const Column& input_column : input_columns) {
    const std::string& column = input_column.name;
    if (!HasColumn(output_columns, column)) {
      return Status::Error(std::string(source.input_path) + " has a column " + column + " in " +
                           std::string(source.table) + " that the reports before it lack");
    }
    columns += (columns.empty() ? "" : ", ") + storage::QuoteIdentifier(column);
    expressions += (expressions.empty() ? "" : ", ") + SelectExpression(plan, source, column);
  }
  const std::string table = storage::QuoteIdentifier(source.table);
  std::string sql = "INSERT INTO main." + table + " (" + columns + ") SELECT " + expressions +
                    " FROM " + storage::QuoteIdentifier(source.schema) + "." + table;
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

Status CheckPlainData(storage::Database* out, std::string_view schema,
                      std::string_view input_path) {
  const std::string refused = std::string(input_path) + " cannot be merged: its table ";
  const std::string master = storage::QuoteIdentifier(schema) + ".sqlite_master";
  // Virtual tables first, found in the schema's text read as data: listing one's columns, or
  // pragma_table_list, would connect its module (fts, rtree, dbstat over crafted data).
  constexpr std::string_view kVirtual = "sql LIKE 'CREATE%VIRTUAL%TABLE%'";
  storage::Statement virtual_table;
  PROF_RETURN_IF_ERROR(out->Prepare("SELECT name FROM " + master + " WHERE type = 'table' AND " +
                                        std::string(kVirtual) + " ORDER BY name LIMIT 1",
                                    &virtual_table));
  bool has_row = false;
  PROF_RETURN_IF_ERROR(virtual_table.Step(&has_row));
  if (has_row) {
    return Status::Error(refused + std::string(virtual_table.ColumnText(0)) +
                         " is not an ordinary table");
  }
  storage::Statement generated;
  PROF_RETURN_IF_ERROR(out->Prepare(
      "SELECT t.name, c.name FROM " + master + " AS t JOIN pragma_table_xinfo(t.name, ?1) AS c " +
          "WHERE t.type = 'table' AND c.hidden <> 0 ORDER BY t.name LIMIT 1",
      &generated));
  generated.BindText(1, schema);
  PROF_RETURN_IF_ERROR(generated.Step(&has_row));
  if (has_row) {
    return Status::Error(refused + std::string(generated.ColumnText(0)) +
                         " has a generated column " + std::string(generated.ColumnText(1)));
  }
  return Status::Ok();
}

Status SampleIdOffset(storage::Database* out, std::string_view schema, int64_t* offset) {
  // max() over the output's sample tables and min() over the input's; a table one side lacks
  // reads as no ids. Fixed table names from kSampleIdTables, not input text.
  std::optional<int64_t> output_max, input_min;
  for (std::string_view table : kSampleIdTables) {
    for (const bool input : {false, true}) {
      const std::string_view side = input ? schema : std::string_view("main");
      std::vector<Column> columns;
      PROF_RETURN_IF_ERROR(TableColumns(out, side, table, &columns));
      if (columns.empty()) continue;
      storage::Statement statement;
      const std::string sql = std::string(input ? "SELECT min(id)" : "SELECT max(id)") + " FROM " +
                              storage::QuoteIdentifier(side) + "." +
                              storage::QuoteIdentifier(table);
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
