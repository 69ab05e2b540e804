#include "storage/table_inserter.h"

#include <algorithm>
#include <utility>

namespace prof::storage {
namespace {

int ColumnCount(const InsertSpec& spec) {
  return 1 + static_cast<int>(std::count(spec.columns.begin(), spec.columns.end(), ','));
}

void BindValue(const RowValue& value, int index, Statement* statement) {
  switch (value.tag) {
    case ValueTag::kInt64:
      statement->BindInt64(index, value.int64);
      break;
    case ValueTag::kDouble:
      statement->BindDouble(index, value.real);
      break;
    case ValueTag::kText:
      // The batch is not touched before the statement has run.
      statement->BindTextUnowned(index, value.text);
      break;
    case ValueTag::kNull:
      break;  // cleared before binding
  }
}

}  // namespace

TableInserter::TableInserter(const InsertSpec& spec)
    : spec_(spec), column_count_(ColumnCount(spec)) {
  open_.table = this;
}

std::string TableInserter::InsertSql(const InsertSpec& spec, int rows) {
  std::string row_parameters = "(?";
  for (int c = 1; c < ColumnCount(spec); ++c) row_parameters += ", ?";
  row_parameters += ")";
  std::string sql = "INSERT INTO " + std::string(spec.table) + " (" + std::string(spec.columns) +
                    ") VALUES " + row_parameters;
  for (int r = 1; r < rows; ++r) sql += ", " + row_parameters;
  return sql;
}

RowBatch TableInserter::TakeBatch(ByteBuffer spare_bytes) {
  RowBatch batch = std::move(open_);
  open_ = RowBatch();
  open_.table = this;
  open_.bytes = std::move(spare_bytes);
  open_.bytes.Clear();
  return batch;
}

Status TableInserter::Prepare(ReportSchema* schema, Database* db) {
  if (Status status = schema->EnsureTable(spec_.table); !status.ok()) return status;
  if (Status status = db->Prepare(InsertSql(spec_, 1), &row_insert_); !status.ok()) return status;
  return db->Prepare(InsertSql(spec_, kStatementRows), &batch_insert_);
}

Status TableInserter::Insert(Statement* statement, int rows, RowBatchReader* reader) {
  // Most columns of most rows are NULL (NVTX_EVENTS: 12 of 18): one call sets them all, instead
  // of one bind call each.
  statement->ClearBindings();
  const int count = rows * column_count_;
  for (int i = 0; i < count; ++i) BindValue(reader->Next(), i + 1, statement);
  return statement->Run();
}

Status TableInserter::Write(const RowBatch& batch, ReportSchema* schema, Database* db) {
  if (!batch_insert_.is_prepared()) {
    if (Status status = Prepare(schema, db); !status.ok()) return status;
  }
  RowBatchReader reader(batch.bytes);
  int row = 0;
  for (; row + kStatementRows <= batch.rows; row += kStatementRows) {
    if (Status status = Insert(&batch_insert_, kStatementRows, &reader); !status.ok()) {
      return status;
    }
  }
  for (; row < batch.rows; ++row) {
    if (Status status = Insert(&row_insert_, 1, &reader); !status.ok()) return status;
  }
  return Status::Ok();
}

void TableInserter::Release() {
  batch_insert_ = Statement();
  row_insert_ = Statement();
}

}  // namespace prof::storage
