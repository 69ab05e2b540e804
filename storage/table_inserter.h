// The adding half of one report table: encodes its rows into batches (row_batch.h) on the thread
// that adds them and hands full batches over (TakeBatch); a row's strings need to live only for
// the Add() call. Where batches go from there: batch_writer.h, then chunk_pipeline.h.
#pragma once

#include "storage/row_batch.h"
#include "storage/row_binder.h"
#include "storage/table_definition.h"

namespace prof::storage {

class TableInserter {
 public:
  // Rows handed over at once: amortises the writer queue's locking.
  static constexpr int kBatchRows = 1024;

  explicit TableInserter(const TableSpec& spec) : spec_(&spec) { open_.table = this; }

  const TableSpec& spec() const { return *spec_; }

  // Encodes `row` (bound by the table's definition) into the open batch; true when the batch is
  // full and should be taken.
  bool Add(RowBindFunction bind, const void* row) {
    RowBinder binder(&open_.bytes);
    bind(row, &binder);
    return ++open_.rows == kBatchRows;
  }
  int pending() const { return open_.rows; }
  // The rows added from now on are a new write of the whole table (TableSpec::rewritten_whole):
  // their first batch says so. Call with no rows pending.
  void StartRewrite() { open_.starts_rewrite = true; }
  // Hands over the open batch and starts a new one in `spare_bytes` (a recycled buffer).
  RowBatch TakeBatch(ByteBuffer spare_bytes);

 private:
  const TableSpec* spec_;  // KnownTables() lives as long as the program
  RowBatch open_;
};

}  // namespace prof::storage
