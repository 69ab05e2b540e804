// Inserts encoded rows (row_batch.h) of one table into one database: every kStatementRows rows go
// in one multi-row INSERT (INSERT INTO t (columns) VALUES (...), (...), ...), which costs about
// half as much per row as one single-row INSERT per row (docs/report-schema.md); the rest row by
// row. The statements are prepared on first use; the table must exist by then.
#pragma once

#include <string>

#include "common/status.h"
#include "storage/row_batch.h"
#include "storage/sqlite_database.h"
#include "storage/table_definition.h"

namespace prof::storage {

class BatchInserter {
 public:
  static constexpr int kStatementRows = 32;

  BatchInserter(const TableSpec& spec, Database* db);

  // Inserts `rows` rows encoded back to back from `data`.
  Status Write(const char* data, int rows);

  // "INSERT INTO <table> (<columns>) VALUES (?, ...), ..." for `rows` rows (exposed for tests).
  static std::string InsertSql(const TableSpec& spec, int rows);

 private:
  // Binds the next `rows` rows of `reader` to `statement` and runs it.
  Status Insert(Statement* statement, int rows, RowBatchReader* reader);

  const TableSpec& spec_;
  Database* db_;
  Statement batch_insert_;  // kStatementRows rows
  Statement row_insert_;    // one row
};

}  // namespace prof::storage
