// The adding half of one report table: encodes its rows into batches (row_batch.h) on the thread
// that adds them and hands full batches over (TakeBatch); a row's strings need to live only for
// the Add() call. Where batches go from there: batch_writer.h, then chunk_pipeline.h.
#pragma once

#include "storage/row_batch.h"
#include "storage/row_binders.h"

namespace prof::storage {

class TableInserter {
 public:
  // Rows handed over at once: amortises the writer queue's locking.
  static constexpr int kBatchRows = 1024;

  explicit TableInserter(const InsertSpec& spec) : spec_(spec) { open_.table = this; }

  const InsertSpec& spec() const { return spec_; }

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

 private:
  InsertSpec spec_;
  RowBatch open_;
};

}  // namespace prof::storage
