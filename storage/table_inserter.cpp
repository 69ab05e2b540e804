#include "storage/table_inserter.h"

#include <algorithm>

namespace prof::storage {
namespace {

int ColumnCount(const InsertSpec& spec) {
  return 1 + static_cast<int>(std::count(spec.columns.begin(), spec.columns.end(), ','));
}

void BindValue(const BufferedValue& value, int index, Statement* statement) {
  switch (value.kind) {
    case BufferedValue::Kind::kInt64:
      statement->BindInt64(index, value.int64);
      break;
    case BufferedValue::Kind::kDouble:
      statement->BindDouble(index, value.real);
      break;
    case BufferedValue::Kind::kText:
      // The buffer is not touched before the statement has run.
      statement->BindTextUnowned(index, value.text);
      break;
    case BufferedValue::Kind::kNull:
      statement->BindNull(index);
      break;
  }
}

}  // namespace

TableInserter::TableInserter(const InsertSpec& spec)
    : spec_(spec),
      column_count_(ColumnCount(spec)),
      values_(static_cast<size_t>(kBatchRows * column_count_)) {}

std::string TableInserter::InsertSql(const InsertSpec& spec, int rows) {
  std::string row_parameters = "(?";
  for (int c = 1; c < ColumnCount(spec); ++c) row_parameters += ", ?";
  row_parameters += ")";
  std::string sql = "INSERT INTO " + std::string(spec.table) + " (" + std::string(spec.columns) +
                    ") VALUES " + row_parameters;
  for (int r = 1; r < rows; ++r) sql += ", " + row_parameters;
  return sql;
}

Status TableInserter::Prepare(ReportSchema* schema, Database* db) {
  if (Status status = schema->EnsureTable(spec_.table); !status.ok()) return status;
  if (Status status = db->Prepare(InsertSql(spec_, 1), &row_insert_); !status.ok()) return status;
  return db->Prepare(InsertSql(spec_, kBatchRows), &batch_insert_);
}

Status TableInserter::Insert(Statement* statement, int first_row, int rows) {
  const size_t first = static_cast<size_t>(first_row * column_count_);
  const int count = rows * column_count_;
  for (int i = 0; i < count; ++i) {
    BindValue(values_[first + static_cast<size_t>(i)], i + 1, statement);
  }
  return statement->Run();
}

Status TableInserter::Flush() {
  const int rows = pending_;
  pending_ = 0;
  if (rows == kBatchRows) return Insert(&batch_insert_, 0, rows);
  for (int row = 0; row < rows; ++row) {
    if (Status status = Insert(&row_insert_, row, 1); !status.ok()) return status;
  }
  return Status::Ok();
}

void TableInserter::Release() {
  pending_ = 0;
  batch_insert_ = Statement();
  row_insert_ = Statement();
}

}  // namespace prof::storage
