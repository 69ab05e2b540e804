// RAII wrappers around the SQLite C API for the launcher side: the report writer and `prof stats`.
//
// Contract:
// - No exceptions: fallible calls return prof::Status whose message names the file or the SQL and
//   carries SQLite's error text, on one line (the SQL is quoted shortened, its newlines removed).
// - Database, Statement and Transaction are move-only. A Statement may outlive its Database object
//   and stays usable: the connection really closes once its last statement is finalized.
// - A Transaction must not outlive the Database it was begun on.
// - Bind* calls do not return a Status: the first bind failure is remembered and returned by the
// next
//   Step()/Run(), which keeps per-row binding cheap and the call sites short.
// - Not thread-safe: a connection and its statements belong to one thread at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace prof::storage {

class Statement;

class Database {
 public:
  Database() = default;  // closed
  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Opens an existing SQLite file without write access (a prof report or an nsys export). Fails
  // with "... not found" when the file is missing and "... is not an SQLite database" when its
  // header is not SQLite's (an empty file included), "cannot open ...: <reason>" for other errors.
  // Reads the changes a write-ahead log beside the file (`<path>-wal`) still holds, as another
  // connection would see them. The file's own views are disabled (a query that reads one fails)
  // and its schema may not call application-defined SQL functions: reports are untrusted input.
  static Status OpenReadOnly(const std::string& path, Database* out);
  // Opens `path` for reading and writing, creating an empty database when it does not exist.
  // ":memory:" opens a private in-memory database.
  static Status OpenReadWrite(const std::string& path, Database* out);

  // Attaches the SQLite file `path` as schema `schema`, read-only and immutable (no lock, nothing
  // written beside it; a -wal beside it is not read), for copying rows out of an untrusted
  // report: from then on
  // this connection runs no views or triggers and its schemas may call no application-defined or
  // side-effecting SQL function. The caller DETACHes it.
  Status AttachReadOnly(const std::string& path, std::string_view schema);

  bool is_open() const { return db_ != nullptr; }
  const std::string& path() const { return path_; }

  // Runs one or more `;`-separated statements that return no rows the caller needs.
  Status Exec(std::string_view sql);
  // Compiles one statement; `sql` may contain ?N parameters.
  Status Prepare(std::string_view sql, Statement* out);
  // Whether a table named `name` (exact case) exists in the main schema. Fails when a view holds
  // the name: readers expect tables, and a report's views are not run (OpenReadOnly).
  Status TableExists(std::string_view name, bool* exists);

  // SQLite's text for the connection's most recent error.
  std::string ErrorText() const;
  // Whether the connection's most recent SQLite call failed (ErrorText() then says why); false
  // after a failure that a wrapper found by itself, such as TableExists' view check.
  bool HasSqliteError() const;
  // Rows changed by the last INSERT/UPDATE/DELETE; rowid of the last INSERT.
  int64_t Changes() const;
  int64_t LastInsertRowId() const;

  // The raw handle, for the few things these wrappers do not cover (sql_function.h registers C++
  // functions through it). Remains owned by this object.
  sqlite3* handle() const { return db_; }

  // Closes the connection; a no-op when closed. Statements still alive keep it open until
  // finalized.
  void Close();

 private:
  // `filename` is what SQLite opens (a URI for read-only opens); `path` names the file in messages.
  static Status Open(const std::string& path, const std::string& filename, int flags,
                     Database* out);

  sqlite3* db_ = nullptr;
  std::string path_;
};

// The storage class of a result value (SQLite's dynamic type, not the declared column type).
enum class ValueType { kInteger, kFloat, kText, kBlob, kNull };
// Maps SQLite's type code (SQLITE_INTEGER, ...) of a column or function argument.
ValueType ValueTypeFromSqlite(int type_code);

class Statement {
 public:
  Statement() = default;
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  bool is_prepared() const { return stmt_ != nullptr; }
  std::string_view sql() const;

  // Parameter indexes start at 1, as in SQLite. Text is copied. nullopt binds NULL.
  void BindInt64(int index, int64_t value);
  void BindInt64(int index, const std::optional<int64_t>& value);
  void BindDouble(int index, double value);
  void BindDouble(int index, const std::optional<double>& value);
  void BindText(int index, std::string_view value);
  void BindText(int index, const std::optional<std::string>& value);
  // Binds without copying: `value` must stay valid and unchanged until the statement has run.
  void BindTextUnowned(int index, std::string_view value);
  void BindNull(int index);
  int ParameterCount() const;

  // Advances to the next row: *has_row is true while a row is available, false when done.
  Status Step(bool* has_row);
  // Runs a statement that returns no rows to completion and resets it for reuse (bindings kept).
  Status Run();
  // Rewinds so that the statement can run again; bindings are kept until ClearBindings().
  void Reset();
  void ClearBindings();

  // Result columns (index from 0), valid after Step() reported a row; names and declared types are
  // available right after Prepare().
  int ColumnCount() const;
  std::string ColumnName(int column) const;
  // The declared type of a result column that comes straight from a table column ("INTEGER",
  // "TEXT", ...), or "" for an expression.
  std::string ColumnDeclaredType(int column) const;
  ValueType ColumnType(int column) const;
  bool ColumnIsNull(int column) const;
  int64_t ColumnInt64(int column) const;
  double ColumnDouble(int column) const;
  // Valid until the next Step/Reset or until another getter converts this column.
  std::string_view ColumnText(int column) const;
  std::optional<int64_t> ColumnOptionalInt64(int column) const;
  std::optional<std::string> ColumnOptionalText(int column) const;

  sqlite3_stmt* handle() const { return stmt_; }

 private:
  friend class Database;
  void NoteBindResult(int rc, int index);
  Status Error(std::string_view what) const;

  sqlite3_stmt* stmt_ = nullptr;
  Status bind_status_ = Status::Ok();
};

// BEGIN on construction via Begin(); ROLLBACK on destruction unless Commit() succeeded.
class Transaction {
 public:
  Transaction() = default;
  ~Transaction();
  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&& other) noexcept;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  static Status Begin(Database* db, Transaction* out);
  bool is_active() const { return db_ != nullptr; }
  Status Commit();
  Status Rollback();

 private:
  Database* db_ = nullptr;
};

}  // namespace prof::storage
