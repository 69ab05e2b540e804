// Creates the tables of one report as they are needed (schema_catalog.h says which and when) and
// builds their indexes at the end. Knows which tables exist so that each DDL runs once.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::storage {

class ReportSchema {
 public:
  explicit ReportSchema(Database* db) : db_(db) {}

  // Creates every TableCreation::kAlways table.
  Status CreateAlwaysTables();
  // Creates `table` unless it exists, with the ENUM_* tables it refers to; an ENUM_* table gets its
  // fixed rows when created. Fails for a table schema_catalog.h does not know.
  Status EnsureTable(std::string_view table);

  bool HasTable(std::string_view table) const;
  // Created tables, in creation order.
  const std::vector<std::string>& tables() const { return tables_; }

 private:
  Status CreateTable(std::string_view table);
  Status InsertEnumRows(std::string_view table);

  Database* db_;
  std::vector<std::string> tables_;
};

}  // namespace prof::storage
