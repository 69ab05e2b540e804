#include "merge/merged_strings.h"

#include <string>

#include "storage/schema_catalog.h"
#include "storage/sql_identifier.h"

namespace prof::merge {

Status CreateStringTables(storage::Database* out) {
  return out->Exec(
      "CREATE TEMP TABLE merged_strings (value TEXT PRIMARY KEY, id INTEGER NOT NULL UNIQUE);"
      "CREATE TEMP TABLE string_map (old_id INTEGER PRIMARY KEY, new_id INTEGER NOT NULL);");
}

Status MapInputStrings(storage::Database* out, std::string_view schema) {
  const std::string strings = storage::QuoteIdentifier(schema) + ".StringIds";
  // The new strings get the next ids, in the order of their first id in the input. The count is
  // read in a scalar subquery that SQLite evaluates once, before the INSERT adds rows.
  const std::string add_new =
      "INSERT INTO temp.merged_strings (value, id) "
      "SELECT value, (SELECT COUNT(*) FROM temp.merged_strings) - 1 + "
      "ROW_NUMBER() OVER (ORDER BY MIN(id)) FROM " +
      strings +
      " WHERE value NOT IN (SELECT value FROM temp.merged_strings) GROUP BY value "
      "ORDER BY MIN(id);";
  const std::string map =
      "DELETE FROM temp.string_map;"
      "INSERT INTO temp.string_map (old_id, new_id) SELECT s.id, m.id FROM " +
      strings + " s JOIN temp.merged_strings m ON m.value = s.value;";
  return out->Exec(add_new + map);
}

Status WriteStringIds(storage::Database* out) {
  const std::optional<std::string_view> ddl = storage::TableDdl("StringIds");
  if (!ddl) return Status::Error("this build of prof lacks the StringIds DDL");
  PROF_RETURN_IF_ERROR(out->Exec(*ddl));
  return out->Exec(
      "INSERT INTO main.StringIds (id, value) SELECT id, value FROM temp.merged_strings "
      "ORDER BY id");
}

}  // namespace prof::merge
