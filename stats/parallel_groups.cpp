#include "stats/parallel_groups.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "stats/duration_groups.h"
#include "stats/report_pool.h"
#include "storage/sql_identifier.h"

namespace prof::stats {
namespace {

// A slice smaller than this costs more in connection setup and merging than its scan saves.
constexpr int64_t kMinRowsPerSlice = 250000;
// Past this many threads the scans compete for memory bandwidth rather than CPU.
constexpr int64_t kMaxSlices = 16;

// A prepared statement of a raw connection (the calling connection belongs to SQLite's context,
// so storage::Database cannot own it).
class RawStatement {
 public:
  RawStatement(sqlite3* db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) {
      error_ = sqlite3_errmsg(db);
    }
  }
  ~RawStatement() { sqlite3_finalize(stmt_); }
  RawStatement(const RawStatement&) = delete;
  RawStatement& operator=(const RawStatement&) = delete;

  sqlite3_stmt* get() const { return stmt_; }
  // False at the end or on an error (then error() says which).
  bool Step() {
    if (stmt_ == nullptr) return false;
    const int rc = sqlite3_step(stmt_);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) error_ = sqlite3_errmsg(db_);
    return rc == SQLITE_ROW;
  }
  const std::string& error() const { return error_; }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string error_;
};

// A TEMP table or view of the calling connection, to recreate on a worker connection.
struct TempObject {
  std::string create_sql;
  std::string insert_sql;                   // tables only
  std::vector<std::vector<KeyValue>> rows;  // tables only
};

// sqlite_temp_master keeps CREATE statements without their TEMP keyword.
std::string AsTempCreate(const std::string& type, const std::string& sql) {
  const std::string prefix = "CREATE ";
  if (type == "index" || sql.compare(0, prefix.size(), prefix) != 0) return sql;
  return "CREATE TEMP " + sql.substr(prefix.size());
}

Status ReadTempSchema(sqlite3* db, std::vector<TempObject>* out) {
  RawStatement objects(db,
                       "SELECT type, name, sql FROM temp.sqlite_master WHERE sql IS NOT NULL "
                       "AND type IN ('table', 'index', 'view') "
                       "ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, "
                       "rowid");
  while (objects.Step()) {
    const std::string type = reinterpret_cast<const char*>(sqlite3_column_text(objects.get(), 0));
    const std::string name = reinterpret_cast<const char*>(sqlite3_column_text(objects.get(), 1));
    const std::string sql = reinterpret_cast<const char*>(sqlite3_column_text(objects.get(), 2));
    TempObject object;
    object.create_sql = AsTempCreate(type, sql);
    if (type == "table") {
      RawStatement rows(db, "SELECT * FROM temp." + storage::QuoteIdentifier(name));
      const int columns = sqlite3_column_count(rows.get());
      while (rows.Step()) {
        std::vector<KeyValue> row(static_cast<size_t>(columns));
        for (int i = 0; i < columns; ++i) row[i].Read(sqlite3_column_value(rows.get(), i));
        object.rows.push_back(std::move(row));
      }
      if (!rows.error().empty()) return Status::Error(rows.error());
      std::string marks;
      for (int i = 0; i < columns; ++i) marks += i == 0 ? "?" : ", ?";
      object.insert_sql =
          "INSERT INTO temp." + storage::QuoteIdentifier(name) + " VALUES (" + marks + ")";
    }
    out->push_back(std::move(object));
  }
  return objects.error().empty() ? Status::Ok() : Status::Error(objects.error());
}

void Bind(sqlite3_stmt* stmt, int index, const KeyValue& value) {
  switch (value.type) {
    case SQLITE_INTEGER:
      sqlite3_bind_int64(stmt, index, value.integer);
      break;
    case SQLITE_FLOAT:
      sqlite3_bind_double(stmt, index, value.real);
      break;
    case SQLITE_TEXT:
      sqlite3_bind_text64(stmt, index, value.bytes.data(), value.bytes.size(), SQLITE_STATIC,
                          SQLITE_UTF8);
      break;
    case SQLITE_BLOB:
      sqlite3_bind_blob64(stmt, index, value.bytes.data(), value.bytes.size(), SQLITE_STATIC);
      break;
    default:
      sqlite3_bind_null(stmt, index);
      break;
  }
}

Status CreateTempSchema(sqlite3* db, const std::vector<TempObject>& objects) {
  for (const TempObject& object : objects) {
    if (sqlite3_exec(db, object.create_sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
      return Status::Error(sqlite3_errmsg(db));
    }
    if (object.rows.empty()) continue;
    RawStatement insert(db, object.insert_sql);
    for (const std::vector<KeyValue>& row : object.rows) {
      for (size_t i = 0; i < row.size(); ++i) Bind(insert.get(), static_cast<int>(i + 1), row[i]);
      insert.Step();
      if (!insert.error().empty()) return Status::Error(insert.error());
      sqlite3_reset(insert.get());
    }
  }
  return Status::Ok();
}

// Runs `sql` over the rowids first..last; *blob receives its duration_groups() BLOB.
Status RunSlice(sqlite3* db, const std::string& sql, int64_t first, int64_t last,
                std::string* blob) {
  RawStatement statement(db, sql);
  sqlite3_bind_int64(statement.get(), 1, first);
  sqlite3_bind_int64(statement.get(), 2, last);
  if (!statement.Step()) {
    return Status::Error(statement.error().empty() ? "the query returned no row"
                                                   : statement.error());
  }
  if (sqlite3_column_type(statement.get(), 0) != SQLITE_BLOB) {
    return Status::Error("the query did not return a duration_groups() value");
  }
  const auto* data = static_cast<const char*>(sqlite3_column_blob(statement.get(), 0));
  blob->assign(data, static_cast<size_t>(sqlite3_column_bytes(statement.get(), 0)));
  return Status::Ok();
}

struct Slice {
  int64_t first = 0, last = 0;
  GroupTable groups;
  Status status = Status::Ok();
};

void ScanSlice(const std::string& path, ConnectionSetup setup,
               const std::vector<TempObject>& temp_schema, const std::string& sql, Slice* slice) {
  storage::Database worker;
  std::string blob;
  if (Status status = storage::Database::OpenReadOnly(path, &worker); !status.ok()) {
    slice->status = status;
  } else if (Status setup_status = setup(&worker); !setup_status.ok()) {
    slice->status = setup_status;
  } else if (Status schema = CreateTempSchema(worker.handle(), temp_schema); !schema.ok()) {
    slice->status = schema;
  } else if (Status run = RunSlice(worker.handle(), sql, slice->first, slice->last, &blob);
             !run.ok()) {
    slice->status = run;
  } else if (!GroupTable::Decode(blob.data(), blob.size(), &slice->groups)) {
    slice->status = Status::Error("the query did not return a duration_groups() value");
  }
}

// The rowid range of `table`; first > last when it is empty.
Status RowidRange(sqlite3* db, const std::string& table, int64_t* first, int64_t* last) {
  // Two subqueries: SQLite finds a lone min() or max() of the rowid at the B-tree's edge, but
  // scans the whole table for both in one SELECT.
  const std::string quoted = storage::QuoteIdentifier(table);
  RawStatement range(db, "SELECT (SELECT min(rowid) FROM " + quoted +
                             "), (SELECT max(rowid) FROM " + quoted + ")");
  if (!range.Step()) return Status::Error(range.error());
  *first = 1;
  *last = 0;
  if (sqlite3_column_type(range.get(), 0) == SQLITE_NULL) return Status::Ok();
  *first = sqlite3_column_int64(range.get(), 0);
  *last = sqlite3_column_int64(range.get(), 1);
  return Status::Ok();
}

Status ScanInSlices(sqlite3* db, ConnectionSetup setup, const std::string& sql, int64_t first,
                    int64_t last, int64_t count, std::string* blob) {
  std::vector<TempObject> temp_schema;
  PROF_RETURN_IF_ERROR(ReadTempSchema(db, &temp_schema));
  const std::string path = sqlite3_db_filename(db, "main");
  // 128 bits: a crafted report's rowids may span most of int64, times the slice index.
  const auto span = static_cast<unsigned __int128>(static_cast<uint64_t>(last - first)) + 1;
  std::vector<Slice> slices(static_cast<size_t>(count));
  for (size_t i = 0; i < slices.size(); ++i) {
    slices[i].first = first + static_cast<int64_t>(span * i / slices.size());
    slices[i].last = first + static_cast<int64_t>(span * (i + 1) / slices.size()) - 1;
  }
  std::vector<std::thread> threads;
  for (Slice& slice : slices) {
    try {
      threads.emplace_back(ScanSlice, std::cref(path), setup, std::cref(temp_schema),
                           std::cref(sql), &slice);
    } catch (const std::system_error&) {  // no thread to be had: this one reads the slice
      ScanSlice(path, setup, temp_schema, sql, &slice);
    }
  }
  for (std::thread& thread : threads) thread.join();
  for (const Slice& slice : slices) {
    if (!slice.status.ok()) return slice.status;
  }
  GroupTable merged = std::move(slices[0].groups);
  for (size_t i = 1; i < slices.size(); ++i) merged.Merge(std::move(slices[i].groups));
  *blob = merged.Encode();
  return Status::Ok();
}

void ParallelGroups(sqlite3_context* context, int argc, sqlite3_value** argv) {
  const auto setup = reinterpret_cast<ConnectionSetup>(sqlite3_user_data(context));
  sqlite3* db = sqlite3_context_db_handle(context);
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT || sqlite3_value_type(argv[1]) != SQLITE_TEXT) {
    return sqlite3_result_error(context, "duration_groups_parallel: table and sql must be text",
                                -1);
  }
  const std::string table = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  const std::string sql = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  int64_t first = 0, last = 0;
  Status status = RowidRange(db, table, &first, &last);
  const int64_t rows = last >= first ? last - first + 1 : 0;
  int64_t slices = argc > 2 ? sqlite3_value_int64(argv[2])
                            : std::min<int64_t>(UsableCpus(), rows / kMinRowsPerSlice);
  slices = std::clamp<int64_t>(std::min(slices, rows), 1, kMaxSlices);
  // A database without a file (":memory:") cannot be opened again by the workers, and an SQLite
  // built without thread safety must not be used from several threads.
  const char* path = sqlite3_db_filename(db, "main");
  if (path == nullptr || *path == '\0' || sqlite3_threadsafe() == 0) slices = 1;
  std::string blob;
  if (status.ok()) {
    status = slices == 1 ? RunSlice(db, sql, first, last, &blob)
                         : ScanInSlices(db, setup, sql, first, last, slices, &blob);
  }
  // SQLite's reason as it is: the report's own error says which report failed.
  if (!status.ok()) return sqlite3_result_error(context, status.message().c_str(), -1);
  sqlite3_result_blob64(context, blob.data(), blob.size(), SQLITE_TRANSIENT);
}

}  // namespace

Status RegisterParallelGroups(storage::Database* db, ConnectionSetup setup) {
  for (int args = 2; args <= 3; ++args) {
    if (sqlite3_create_function_v2(db->handle(), "duration_groups_parallel", args, SQLITE_UTF8,
                                   reinterpret_cast<void*>(setup), ParallelGroups, nullptr, nullptr,
                                   nullptr) != SQLITE_OK) {
      return Status::Error("cannot register SQL function duration_groups_parallel: " +
                           db->ErrorText());
    }
  }
  return Status::Ok();
}

}  // namespace prof::stats
