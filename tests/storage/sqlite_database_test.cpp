// Database / Statement / Transaction: opening, binding, reading back, error reporting.
#include "storage/sqlite_database.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/storage/storage_test_util.h"
#include "tests/support/test_support.h"

namespace prof::storage {
namespace {

Database OpenMemory() {
  Database db;
  REQUIRE(Database::OpenReadWrite(":memory:", &db).ok());
  return db;
}

void RequireOk(const Status& status) {
  INFO(status.message());
  REQUIRE(status.ok());
}

TEST_CASE("OpenReadOnly names a missing file", "[storage][sqlite]") {
  Database db;
  const Status status = Database::OpenReadOnly("/nonexistent/dir/report.sqlite", &db);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() == "report file not found: /nonexistent/dir/report.sqlite");
  CHECK_FALSE(db.is_open());
}

TEST_CASE("OpenReadOnly rejects files that are not SQLite databases", "[storage][sqlite]") {
  const std::string dir = prof::test::MakeTempDir("storage-not-sqlite");
  const std::string text_file = dir + "/notes.txt";
  std::ofstream(text_file) << "this is not a database, though it is longer than sixteen bytes\n";
  const std::string empty_file = dir + "/empty.sqlite";
  std::ofstream{empty_file};

  Database db;
  Status status = Database::OpenReadOnly(text_file, &db);
  CHECK(status.message() == text_file + " is not an SQLite database");
  status = Database::OpenReadOnly(empty_file, &db);
  CHECK(status.message() == empty_file + " is not an SQLite database");
}

TEST_CASE("OpenReadOnly reads an existing database and refuses writes", "[storage][sqlite]") {
  const std::string path = prof::test::MakeTempDir("storage-readonly") + "/db.sqlite";
  {
    Database db;
    RequireOk(Database::OpenReadWrite(path, &db));
    RequireOk(db.Exec("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (7)"));
  }
  Database db;
  RequireOk(Database::OpenReadOnly(path, &db));
  bool exists = false;
  RequireOk(db.TableExists("t", &exists));
  CHECK(exists);
  RequireOk(db.TableExists("T_missing", &exists));
  CHECK_FALSE(exists);
  const Status write = db.Exec("INSERT INTO t VALUES (8)");
  REQUIRE_FALSE(write.ok());
  CHECK_THAT(write.message(), Catch::Contains("readonly"));
}

TEST_CASE("OpenReadOnly reads what a write-ahead log beside the file still holds",
          "[storage][sqlite]") {
  const std::string path = prof::test::MakeTempDir("storage-wal") + "/db.sqlite";
  Database writer;  // stays open: its changes stay in db.sqlite-wal, not in db.sqlite
  RequireOk(Database::OpenReadWrite(path, &writer));
  RequireOk(
      writer.Exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
                  "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (7), (8)"));
  REQUIRE(std::filesystem::file_size(path + "-wal") > 0);

  Database reader;
  RequireOk(Database::OpenReadOnly(path, &reader));
  Statement count;
  RequireOk(reader.Prepare("SELECT SUM(a) FROM t", &count));
  bool has_row = false;
  RequireOk(count.Step(&has_row));
  REQUIRE(has_row);
  CHECK(count.ColumnInt64(0) == 15);
}

TEST_CASE("Statement binds and reads every value kind", "[storage][sqlite]") {
  Database db = OpenMemory();
  RequireOk(db.Exec("CREATE TABLE t (i INTEGER, d REAL, s TEXT, n INTEGER)"));
  Statement insert;
  RequireOk(db.Prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4)", &insert));
  CHECK(insert.ParameterCount() == 4);
  insert.BindInt64(1, int64_t{-9007199254740993});
  insert.BindDouble(2, 2.5);
  insert.BindText(3, std::string_view("a\0b", 3));
  insert.BindInt64(4, std::optional<int64_t>());
  RequireOk(insert.Run());
  insert.BindInt64(1, std::optional<int64_t>(1));
  insert.BindDouble(2, std::optional<double>());
  insert.BindText(3, std::optional<std::string>());
  insert.BindNull(4);
  RequireOk(insert.Run());
  CHECK(db.Changes() == 1);
  CHECK(db.LastInsertRowId() == 2);

  Statement select;
  RequireOk(db.Prepare("SELECT i, d, s, n, i + 1 AS next FROM t ORDER BY rowid", &select));
  REQUIRE(select.ColumnCount() == 5);
  CHECK(select.ColumnName(0) == "i");
  CHECK(select.ColumnName(4) == "next");
  CHECK(select.ColumnDeclaredType(0) == "INTEGER");
  CHECK(select.ColumnDeclaredType(1) == "REAL");
  CHECK(select.ColumnDeclaredType(2) == "TEXT");
  CHECK(select.ColumnDeclaredType(4) == "");
  bool has_row = false;
  RequireOk(select.Step(&has_row));
  REQUIRE(has_row);
  CHECK(select.ColumnType(0) == ValueType::kInteger);
  CHECK(select.ColumnInt64(0) == -9007199254740993);
  CHECK(select.ColumnType(1) == ValueType::kFloat);
  CHECK(select.ColumnDouble(1) == 2.5);
  CHECK(select.ColumnText(2) == std::string_view("a\0b", 3));
  CHECK(select.ColumnIsNull(3));
  CHECK(select.ColumnOptionalInt64(3) == std::nullopt);
  CHECK(select.ColumnOptionalText(2) == std::string("a\0b", 3));
  RequireOk(select.Step(&has_row));
  REQUIRE(has_row);
  CHECK(select.ColumnOptionalInt64(0) == 1);
  CHECK(select.ColumnType(1) == ValueType::kNull);
  CHECK(select.ColumnOptionalText(2) == std::nullopt);
  RequireOk(select.Step(&has_row));
  CHECK_FALSE(has_row);

  select.Reset();
  RequireOk(select.Step(&has_row));
  CHECK(has_row);
  CHECK(select.ColumnInt64(0) == -9007199254740993);
}

TEST_CASE("a failed bind is reported by the next Step", "[storage][sqlite]") {
  Database db = OpenMemory();
  Statement statement;
  RequireOk(db.Prepare("SELECT ?1", &statement));
  statement.BindInt64(5, int64_t{1});
  bool has_row = true;
  const Status status = statement.Step(&has_row);
  REQUIRE_FALSE(status.ok());
  CHECK_FALSE(has_row);
  CHECK_THAT(status.message(),
             Catch::StartsWith("cannot bind parameter 5: column index out of range"));
  // The error is reported once; the statement stays usable.
  statement.BindInt64(1, int64_t{3});
  RequireOk(statement.Step(&has_row));
  REQUIRE(has_row);
  CHECK(statement.ColumnInt64(0) == 3);
}

TEST_CASE("SQL errors quote a long statement on one line and shortened", "[storage][sqlite]") {
  Database db = OpenMemory();
  Statement statement;
  const std::string sql = "SELECT a,\n       b\nFROM missing_table\nWHERE " + std::string(200, 'x');
  const Status prepare = db.Prepare(sql, &statement);
  REQUIRE_FALSE(prepare.ok());
  CHECK(prepare.message() ==
        "cannot prepare SQL on :memory:: no such table: missing_table (in: "
        "SELECT a, b FROM missing_table WHERE " +
            std::string(123, 'x') + "...)");
  const Status exec = db.Exec("DELETE FROM\n  missing_table");
  CHECK(exec.message() ==
        "SQL error in :memory:: no such table: missing_table (in: DELETE FROM missing_table)");
}

TEST_CASE("SQL errors carry SQLite's text and the statement", "[storage][sqlite]") {
  Database db = OpenMemory();
  Statement statement;
  const Status prepare = db.Prepare("SELECT * FROM missing_table", &statement);
  REQUIRE_FALSE(prepare.ok());
  CHECK_THAT(prepare.message(), Catch::Contains("no such table: missing_table"));
  CHECK_THAT(prepare.message(), Catch::Contains("(in: SELECT * FROM missing_table)"));
  CHECK_FALSE(statement.is_prepared());

  RequireOk(db.Exec("CREATE TABLE t (a INTEGER NOT NULL)"));
  RequireOk(db.Prepare("INSERT INTO t VALUES (?1)", &statement));
  statement.BindNull(1);
  const Status step = statement.Run();
  REQUIRE_FALSE(step.ok());
  CHECK_THAT(step.message(), Catch::Contains("NOT NULL constraint failed: t.a"));
}

int64_t CountRows(Database* db) {
  Statement count;
  REQUIRE(db->Prepare("SELECT count(*) FROM t", &count).ok());
  bool has_row = false;
  REQUIRE(count.Step(&has_row).ok());
  return count.ColumnInt64(0);
}

TEST_CASE("Transaction commits - or rolls back when dropped", "[storage][sqlite]") {
  Database db = OpenMemory();
  RequireOk(db.Exec("CREATE TABLE t (a INTEGER)"));
  {
    Transaction transaction;
    RequireOk(Transaction::Begin(&db, &transaction));
    RequireOk(db.Exec("INSERT INTO t VALUES (1)"));
  }
  CHECK(CountRows(&db) == 0);
  Transaction transaction;
  RequireOk(Transaction::Begin(&db, &transaction));
  RequireOk(db.Exec("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)"));
  RequireOk(transaction.Commit());
  CHECK_FALSE(transaction.is_active());
  CHECK(CountRows(&db) == 2);
  CHECK_FALSE(transaction.Commit().ok());
}

TEST_CASE("a Statement may outlive a closed Database object", "[storage][sqlite]") {
  Statement statement;
  {
    Database db = OpenMemory();
    RequireOk(db.Prepare("SELECT 42", &statement));
  }
  bool has_row = false;
  RequireOk(statement.Step(&has_row));
  REQUIRE(has_row);
  CHECK(statement.ColumnInt64(0) == 42);
}

}  // namespace
}  // namespace prof::storage
