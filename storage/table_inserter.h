// Inserts the rows of one report table in batches, creating the table on its first row so that
// tables without rows never appear in the report.
//
// Add() buffers the row's values; every kBatchRows rows one multi-row INSERT
// (INSERT INTO t (columns) VALUES (...), (...), ...) stores the batch, which costs about half as
// much per row as one single-row INSERT per row (docs/report-schema.md). Flush() stores a partial
// batch row by row. Text is copied into the buffer, so a row's strings need to live only for the
// Add() call.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "storage/report_schema.h"
#include "storage/row_binders.h"
#include "storage/sqlite_database.h"

namespace prof::storage {

class TableInserter {
 public:
  static constexpr int kBatchRows = 32;

  explicit TableInserter(const InsertSpec& spec);

  template <typename Row>
  Status Add(const Row& row, ReportSchema* schema, Database* db) {
    if (!batch_insert_.is_prepared()) {
      if (Status status = Prepare(schema, db); !status.ok()) return status;
    }
    RowBinder binder(&values_[static_cast<size_t>(pending_ * column_count_)]);
    Bind(row, &binder);
    if (++pending_ == kBatchRows) return Flush();
    return Status::Ok();
  }

  // Inserts the rows added since the last flush.
  Status Flush();
  int pending() const { return pending_; }
  // Finalizes the statements; pending rows are dropped (flush first).
  void Release();

  // "INSERT INTO <table> (<columns>) VALUES (?, ...), ..." for `rows` rows (exposed for tests).
  static std::string InsertSql(const InsertSpec& spec, int rows);

 private:
  Status Prepare(ReportSchema* schema, Database* db);
  // Binds `rows` buffered rows starting at row `first_row` to `statement` and runs it.
  Status Insert(Statement* statement, int first_row, int rows);

  InsertSpec spec_;
  int column_count_;
  int pending_ = 0;
  std::vector<BufferedValue> values_;  // kBatchRows rows of column_count_ values
  Statement batch_insert_;             // kBatchRows rows
  Statement row_insert_;               // one row, for partial batches
};

}  // namespace prof::storage
