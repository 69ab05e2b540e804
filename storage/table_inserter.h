// Inserts the rows of one report table, creating the table on its first row so that tables
// without rows never appear in the report.
//
// Two threads share an inserter, each with its own half (report_writer.h says when which runs):
// - the adding thread encodes rows into the open batch (Add) and hands full batches over
//   (TakeBatch); a row's strings need to live only for the Add() call;
// - the writing thread stores batches (Write): every kStatementRows rows go in one multi-row
//   INSERT (INSERT INTO t (columns) VALUES (...), (...), ...), which costs about half as much per
//   row as one single-row INSERT per row (docs/report-schema.md); the rest of a batch row by row.
#pragma once

#include <string>

#include "common/status.h"
#include "storage/report_schema.h"
#include "storage/row_batch.h"
#include "storage/row_binders.h"
#include "storage/sqlite_database.h"

namespace prof::storage {

class TableInserter {
 public:
  static constexpr int kStatementRows = 32;
  // Rows handed to the writing thread at once: amortises its queue's locking.
  static constexpr int kBatchRows = 1024;

  explicit TableInserter(const InsertSpec& spec);

  // ---- adding thread ----
  // Encodes `row` into the open batch; true when the batch is full and should be taken.
  template <typename Row>
  bool Add(const Row& row) {
    RowBinder binder(&open_.bytes);
    Bind(row, &binder);
    return ++open_.rows == kBatchRows;
  }
  int pending() const { return open_.rows; }
  // Hands over the open batch and starts a new one in `spare_bytes` (a recycled buffer).
  RowBatch TakeBatch(ByteBuffer spare_bytes);

  // ---- writing thread ----
  Status Write(const RowBatch& batch, ReportSchema* schema, Database* db);
  // Finalizes the statements.
  void Release();

  // "INSERT INTO <table> (<columns>) VALUES (?, ...), ..." for `rows` rows (exposed for tests).
  static std::string InsertSql(const InsertSpec& spec, int rows);

 private:
  Status Prepare(ReportSchema* schema, Database* db);
  // Binds the next `rows` rows of `reader` to `statement` and runs it.
  Status Insert(Statement* statement, int rows, RowBatchReader* reader);

  InsertSpec spec_;
  int column_count_;
  RowBatch open_;           // adding thread
  Statement batch_insert_;  // writing thread: kStatementRows rows
  Statement row_insert_;    // writing thread: one row
};

}  // namespace prof::storage
