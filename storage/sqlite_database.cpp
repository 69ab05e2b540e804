#include "storage/sqlite_database.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

namespace prof::storage {
namespace {

constexpr char kSqliteHeader[] = "SQLite format 3";  // 16 bytes with its terminating NUL

// Why a file cannot be a readable database, checked before SQLite opens it lazily and reports a
// vague "file is not a database" at the first query. Errors carry the system's reason.
Status CheckReadableDatabaseFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status::Error("report file not found: " + path);
    return Status::Error("cannot open " + path + ": " + std::strerror(errno));
  }
  char header[sizeof(kSqliteHeader)] = {};
  const ssize_t got = pread(fd, header, sizeof(header), 0);
  const int read_errno = errno;
  close(fd);
  if (got < 0) return Status::Error("cannot read " + path + ": " + std::strerror(read_errno));
  if (got != sizeof(header) || std::memcmp(header, kSqliteHeader, sizeof(header)) != 0) {
    return Status::Error(path + " is not an SQLite database");
  }
  return Status::Ok();
}

// The SQL an error message quotes, on one line and cut short: messages reach the user as one
// "prof: error: ..." line, and the compiled-in queries span dozens of lines.
std::string SqlExcerpt(std::string_view sql) {
  constexpr size_t kMaxExcerpt = 160;
  std::string excerpt;
  bool in_space = false;
  for (char c : sql) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && (in_space || excerpt.empty())) continue;
    in_space = space;
    excerpt += space ? ' ' : c;
    if (excerpt.size() == kMaxExcerpt) return excerpt + "...";
  }
  if (!excerpt.empty() && excerpt.back() == ' ') excerpt.pop_back();
  return excerpt;
}

// `path` as a file URI with `query`: URIs are how a read-only open is asked for, and the only form
// in which SQLite takes a file name literally once a connection interprets URIs.
std::string FileUri(const std::string& path, const char* query) {
  // An absolute path gets an empty authority ("file:///a"): "file://a" would name host a.
  std::string uri = path.rfind('/', 0) == 0 ? "file://" : "file:";
  for (unsigned char c : path) {
    if (std::isalnum(c) || std::strchr("/-._~", c) != nullptr) {
      uri += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      uri += escaped;
    }
  }
  return uri + query;
}

// A non-empty write-ahead log beside the file holds committed changes the file does not have yet
// (a WAL-mode writer still open, or killed): only a normal, not immutable, open reads them.
bool HasWriteAheadLog(const std::string& path) {
  std::error_code error;
  return std::filesystem::file_size(path + "-wal", error) > 0 && !error;
}

// A read-only file URI; immutable: SQLite then takes no locks and creates no -wal, -shm or
// -journal file beside the report, whatever its header says, so reading writes nothing.
std::string ReadOnlyFileUri(const std::string& path) {
  return FileUri(path, HasWriteAheadLog(path) ? "?mode=ro" : "?mode=ro&immutable=1");
}

}  // namespace

// ---- Database ----

Database::~Database() { Close(); }

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    Close();
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

void Database::Close() {
  // close_v2 defers the close until outstanding statements are finalized instead of failing.
  if (db_ != nullptr) sqlite3_close_v2(db_);
  db_ = nullptr;
}

Status Database::Open(const std::string& path, const std::string& filename, int flags,
                      Database* out) {
  // SQLite's allocation statistics take one process-wide mutex per malloc and free; with the
  // report's encoder threads (chunk_pipeline.h) that mutex was the most waited-for lock. prof reads
  // no statistics. Only possible before SQLite initializes, i.e. before the first open.
  static const bool kStatisticsOff = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
  (void)kStatisticsOff;
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(filename.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message =
        "cannot open " + path + ": " + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close_v2(db);
    return Status::Error(std::move(message));
  }
  sqlite3_extended_result_codes(db, 1);
  out->Close();
  out->db_ = db;
  out->path_ = path;
  return Status::Ok();
}

Status Database::OpenReadOnly(const std::string& path, Database* out) {
  PROF_RETURN_IF_ERROR(CheckReadableDatabaseFile(path));
  Database db;
  PROF_RETURN_IF_ERROR(Open(path, ReadOnlyFileUri(path),
                            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, &db));
  // A report is untrusted input: its own views could run any amount of work (a recursive view
  // that never ends) under a table's name, and its schema must not call prof's SQL functions.
  // Views of the temp schema, prof's own, stay allowed.
  sqlite3_db_config(db.handle(), SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
  sqlite3_db_config(db.handle(), SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  // Reading the schema catches files with a valid header but a damaged body.
  if (Status status = db.Exec("SELECT count(*) FROM sqlite_master"); !status.ok()) {
    return Status::Error(path + " is not a readable SQLite database: " + db.ErrorText());
  }
  *out = std::move(db);
  return Status::Ok();
}

Status Database::OpenReadWrite(const std::string& path, Database* out) {
  // Through a URI so that the connection interprets the URIs AttachReadOnly gives ATTACH.
  const std::string filename = path == ":memory:" ? path : FileUri(path, "?mode=rwc");
  return Open(path, filename,
              SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
              out);
}

Status Database::AttachReadOnly(const std::string& path, std::string_view schema) {
  PROF_RETURN_IF_ERROR(CheckReadableDatabaseFile(path));
  // The report's schema is text from elsewhere: nothing in it may run (a trigger, a view's query,
  // a generated column's or a default's non-innocuous function), here or later.
  sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
  sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
  sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  Statement attach;
  PROF_RETURN_IF_ERROR(Prepare("ATTACH DATABASE ?1 AS ?2", &attach));
  // Always immutable: a log beside a report from elsewhere is not read (a normal read-only open
  // would parse it and write a -shm file beside the input).
  const std::string uri = FileUri(path, "?mode=ro&immutable=1");
  attach.BindText(1, std::string_view(uri));
  attach.BindText(2, schema);
  if (Status status = attach.Run(); !status.ok()) {
    return Status::Error("cannot read " + path + ": " + ErrorText());
  }
  return Status::Ok();
}

Status Database::Exec(std::string_view sql) {
  if (db_ == nullptr) return Status::Error("database is not open");
  const std::string text(sql);
  char* error = nullptr;
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  if (rc == SQLITE_OK) return Status::Ok();
  std::string message = "SQL error in " + path_ + ": " + (error != nullptr ? error : ErrorText());
  sqlite3_free(error);
  return Status::Error(std::move(message) + " (in: " + SqlExcerpt(text) + ")");
}

Status Database::Prepare(std::string_view sql, Statement* out) {
  if (db_ == nullptr) return Status::Error("database is not open");
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return Status::Error("cannot prepare SQL on " + path_ + ": " + ErrorText() +
                         " (in: " + SqlExcerpt(sql) + ")");
  }
  if (stmt == nullptr) return Status::Error("no SQL statement in: " + SqlExcerpt(sql));
  Statement prepared;
  prepared.stmt_ = stmt;
  *out = std::move(prepared);
  return Status::Ok();
}

Status Database::TableExists(std::string_view name, bool* exists) {
  *exists = false;
  Statement query;
  // NOCASE: SQLite resolves names regardless of case, so a view "nvtx_events" would stand in for
  // NVTX_EVENTS; tables and views share one namespace, so at most one row names either.
  Status status = Prepare(
      "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?1 "
      "COLLATE NOCASE",
      &query);
  if (!status.ok()) return status;
  query.BindText(1, name);
  bool has_row = false;
  if (!(status = query.Step(&has_row)).ok() || !has_row) return status;
  if (query.ColumnText(0) == "view") {
    // Reports hold only tables; a view under a table's name could run any amount of work.
    return Status::Error(path_ + ": " + std::string(query.ColumnText(1)) +
                         " is a view, not a table");
  }
  *exists = query.ColumnText(1) == name;
  return Status::Ok();
}

std::string Database::ErrorText() const {
  return db_ != nullptr ? sqlite3_errmsg(db_) : "database is not open";
}

bool Database::HasSqliteError() const {
  return db_ != nullptr && sqlite3_errcode(db_) != SQLITE_OK;
}

int64_t Database::Changes() const { return db_ != nullptr ? sqlite3_changes64(db_) : 0; }

int64_t Database::LastInsertRowId() const {
  return db_ != nullptr ? sqlite3_last_insert_rowid(db_) : 0;
}

// ---- Statement ----

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement&& other) noexcept
    : stmt_(std::exchange(other.stmt_, nullptr)),
      bind_status_(std::exchange(other.bind_status_, Status::Ok())) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
    bind_status_ = std::exchange(other.bind_status_, Status::Ok());
  }
  return *this;
}

std::string_view Statement::sql() const {
  const char* text = stmt_ != nullptr ? sqlite3_sql(stmt_) : nullptr;
  return text != nullptr ? std::string_view(text) : std::string_view();
}

void Statement::NoteBindResult(int rc, int index) {
  if (rc == SQLITE_OK || !bind_status_.ok()) return;
  bind_status_ = Status::Error("cannot bind parameter " + std::to_string(index) + ": " +
                               sqlite3_errstr(rc) + " (in: " + SqlExcerpt(sql()) + ")");
}

void Statement::BindInt64(int index, int64_t value) {
  NoteBindResult(sqlite3_bind_int64(stmt_, index, value), index);
}

void Statement::BindInt64(int index, const std::optional<int64_t>& value) {
  if (value) {
    BindInt64(index, *value);
  } else {
    BindNull(index);
  }
}

void Statement::BindDouble(int index, double value) {
  NoteBindResult(sqlite3_bind_double(stmt_, index, value), index);
}

void Statement::BindDouble(int index, const std::optional<double>& value) {
  if (value) {
    BindDouble(index, *value);
  } else {
    BindNull(index);
  }
}

void Statement::BindText(int index, std::string_view value) {
  NoteBindResult(
      sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
      index);
}

void Statement::BindTextUnowned(int index, std::string_view value) {
  NoteBindResult(
      sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_STATIC, SQLITE_UTF8),
      index);
}

void Statement::BindText(int index, const std::optional<std::string>& value) {
  if (value) {
    BindText(index, std::string_view(*value));
  } else {
    BindNull(index);
  }
}

void Statement::BindNull(int index) { NoteBindResult(sqlite3_bind_null(stmt_, index), index); }

int Statement::ParameterCount() const { return sqlite3_bind_parameter_count(stmt_); }

Status Statement::Error(std::string_view what) const {
  sqlite3* db = sqlite3_db_handle(stmt_);
  return Status::Error(std::string(what) + ": " + sqlite3_errmsg(db) +
                       " (in: " + SqlExcerpt(sql()) + ")");
}

Status Statement::Step(bool* has_row) {
  *has_row = false;
  if (stmt_ == nullptr) return Status::Error("statement is not prepared");
  if (!bind_status_.ok()) return std::exchange(bind_status_, Status::Ok());
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) {
    *has_row = true;
    return Status::Ok();
  }
  if (rc == SQLITE_DONE) return Status::Ok();
  Status error = Error("SQL step failed");
  sqlite3_reset(stmt_);
  return error;
}

Status Statement::Run() {
  bool has_row = false;
  Status status = Step(&has_row);
  while (status.ok() && has_row) status = Step(&has_row);
  Reset();
  return status;
}

void Statement::Reset() { sqlite3_reset(stmt_); }

void Statement::ClearBindings() { sqlite3_clear_bindings(stmt_); }

int Statement::ColumnCount() const { return sqlite3_column_count(stmt_); }

std::string Statement::ColumnName(int column) const {
  const char* name = sqlite3_column_name(stmt_, column);
  return name != nullptr ? name : "";
}

ValueType ValueTypeFromSqlite(int type_code) {
  switch (type_code) {
    case SQLITE_INTEGER:
      return ValueType::kInteger;
    case SQLITE_FLOAT:
      return ValueType::kFloat;
    case SQLITE_TEXT:
      return ValueType::kText;
    case SQLITE_BLOB:
      return ValueType::kBlob;
    default:
      return ValueType::kNull;
  }
}

std::string Statement::ColumnDeclaredType(int column) const {
  const char* type = sqlite3_column_decltype(stmt_, column);
  return type != nullptr ? type : "";
}

ValueType Statement::ColumnType(int column) const {
  return ValueTypeFromSqlite(sqlite3_column_type(stmt_, column));
}

bool Statement::ColumnIsNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

int64_t Statement::ColumnInt64(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::ColumnDouble(int column) const { return sqlite3_column_double(stmt_, column); }

std::string_view Statement::ColumnText(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (text == nullptr) return {};
  return std::string_view(text, static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

std::optional<int64_t> Statement::ColumnOptionalInt64(int column) const {
  if (ColumnIsNull(column)) return std::nullopt;
  return ColumnInt64(column);
}

std::optional<std::string> Statement::ColumnOptionalText(int column) const {
  if (ColumnIsNull(column)) return std::nullopt;
  return std::string(ColumnText(column));
}

// ---- Transaction ----

Transaction::~Transaction() {
  if (db_ != nullptr) (void)Rollback();
}

Transaction::Transaction(Transaction&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}

Transaction& Transaction::operator=(Transaction&& other) noexcept {
  if (this != &other) {
    if (db_ != nullptr) (void)Rollback();
    db_ = std::exchange(other.db_, nullptr);
  }
  return *this;
}

Status Transaction::Begin(Database* db, Transaction* out) {
  PROF_RETURN_IF_ERROR(db->Exec("BEGIN"));
  Transaction started;
  started.db_ = db;
  *out = std::move(started);
  return Status::Ok();
}

Status Transaction::Commit() {
  if (db_ == nullptr) return Status::Error("no transaction to commit");
  Status status = db_->Exec("COMMIT");
  // A failed COMMIT leaves the transaction open; the destructor then rolls it back.
  if (status.ok()) db_ = nullptr;
  return status;
}

Status Transaction::Rollback() {
  if (db_ == nullptr) return Status::Error("no transaction to roll back");
  Database* db = std::exchange(db_, nullptr);
  return db->Exec("ROLLBACK");
}

}  // namespace prof::storage
