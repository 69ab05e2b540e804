#include "tests/robustness/hostile_reports.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "tests/diff/report_builder.h"
#include "tests/support/test_support.h"

namespace prof::robustness::test {
namespace {

// The columns of `table` lose their types and NOT NULL constraints, so that tests can store
// anything in them (CREATE TABLE ... AS SELECT keeps only the column names).
std::string Loosened(const std::string& table) {
  return "CREATE TABLE loose AS SELECT * FROM " + table + "; DROP TABLE " + table +
         "; CREATE TABLE " + table + " AS SELECT * FROM loose; DROP TABLE loose;";
}

constexpr const char* kReportTables[] = {"StringIds",
                                         "NVTX_EVENTS",
                                         "OSRT_API",
                                         "CUPTI_ACTIVITY_KIND_KERNEL",
                                         "CUPTI_ACTIVITY_KIND_RUNTIME",
                                         "CUPTI_ACTIVITY_KIND_MEMCPY"};

std::string LoosenedReportTables() {
  std::string sql;
  for (const char* table : kReportTables) sql += Loosened(table);
  return sql;
}

class Writer {
 public:
  explicit Writer(std::string valid) : valid_(std::move(valid)), bytes_(ReadBytes(valid_)) {}

  const std::vector<HostileReport>& reports() const { return reports_; }

  void Bytes(const std::string& name, const std::string& bytes) {
    WriteBytes(NewPath(name, name + ".sqlite"), bytes);
  }
  // A fresh SQLite file holding only what `sql` creates.
  void Fresh(const std::string& name, const std::string& sql) {
    ExecSql(NewPath(name, name + ".sqlite"), sql);
  }
  // The valid report with its tables loosened, then changed by `sql`.
  void Altered(const std::string& name, const std::string& sql) {
    const std::string path = NewPath(name, name + ".sqlite");
    WriteBytes(path, bytes_);
    ExecSql(path, LoosenedReportTables() + sql);
  }
  void Copy(const std::string& name, const std::string& file_name) {
    WriteBytes(NewPath(name, file_name), bytes_);
  }
  const std::string& valid_bytes() const { return bytes_; }

 private:
  std::string NewPath(const std::string& name, const std::string& file_name) {
    const std::string dir = prof::test::MakeTempDir("hostile_" + name);
    reports_.push_back({name, dir + "/" + file_name});
    return reports_.back().path;
  }

  std::string valid_;
  std::string bytes_;
  std::vector<HostileReport> reports_;
};

void AddDamagedFiles(Writer* w) {
  const std::string& valid = w->valid_bytes();
  w->Bytes("empty", "");
  w->Bytes("text", "not a report\n");
  w->Bytes("header_only", valid.substr(0, 100));
  w->Bytes("truncated_page", valid.substr(0, 4096));
  w->Bytes("truncated_half", valid.substr(0, valid.size() / 2));
  std::string scrambled = valid;
  for (size_t at = 4096; at + 1 < scrambled.size(); at += 397) scrambled[at] ^= 0x5A;
  w->Bytes("scrambled", scrambled);
  // Bytes 18-19 of the header say WAL mode: a plain read-only open would create -wal and -shm
  // files beside the report.
  std::string wal = valid;
  wal[18] = wal[19] = 2;
  w->Bytes("wal_header", wal);
}

void AddForeignFiles(Writer* w) {
  w->Fresh("foreign", "CREATE TABLE foo (a, b); INSERT INTO foo VALUES (1, 2);");
  w->Fresh("meta_only", "CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);");
}

void AddCraftedFiles(Writer* w) {
  w->Altered("wrong_types",
             "UPDATE NVTX_EVENTS SET start = 'abc', end = x'00ff', text = 12345;"
             "UPDATE OSRT_API SET start = 'zz', end = NULL, nameId = 'q';"
             "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET gridX = 'wide', deviceId = 0.5;");
  w->Altered("nulls",
             "UPDATE NVTX_EVENTS SET start = NULL, end = NULL, globalTid = NULL, textId = NULL;"
             "UPDATE OSRT_API SET start = NULL, end = NULL, nameId = NULL, globalTid = NULL;"
             "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL, demangledName = NULL;"
             "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET correlationId = NULL, nameId = NULL;"
             "UPDATE StringIds SET value = NULL;");
  w->Altered("extreme_numbers",
             "UPDATE NVTX_EVENTS SET start = -9223372036854775808, end = 9223372036854775807;"
             "UPDATE OSRT_API SET start = 9223372036854775807, end = -9223372036854775808;"
             "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 1e300, end = -1e300;");
  w->Altered("huge_strings", "UPDATE StringIds SET value = printf('%.*c', 3000000, 'y');");
  w->Altered("quotes_and_sql",
             "UPDATE StringIds SET value = 'a''b\"c); DROP TABLE StringIds; --' || id;"
             "UPDATE NVTX_EVENTS SET text = 'a''b\"c); DROP TABLE NVTX_EVENTS; --', textId = NULL;"
             "CREATE TABLE \"evil\"\"; DROP TABLE StringIds; --\" "
             "(start INTEGER, end INTEGER, globalTid INTEGER);"
             "INSERT INTO \"evil\"\"; DROP TABLE StringIds; --\" VALUES (1, 2, 3);");
  w->Altered("missing_columns",
             "DROP TABLE NVTX_EVENTS; CREATE TABLE NVTX_EVENTS (start); "
             "INSERT INTO NVTX_EVENTS VALUES (1);"
             "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL "
             "(start, end); INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 5);");
  w->Altered("planted_views",
             "DROP TABLE StringIds; CREATE VIEW StringIds AS SELECT 1 AS id, 'x' AS value;"
             "DROP TABLE OSRT_API; CREATE VIEW OSRT_API AS SELECT 'a' AS start;");
  // Any query that read this view would never end.
  w->Altered("endless_view",
             "DROP TABLE NVTX_EVENTS; CREATE VIEW NVTX_EVENTS AS WITH RECURSIVE n(x) AS "
             "(SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x AS start, x + 1 AS end, "
             "x AS globalTid, 59 AS eventType, 'r' AS text, NULL AS textId, 0 AS domainId, "
             "NULL AS endGlobalTid, NULL AS rangeId, NULL AS category, NULL AS color FROM n;");
  w->Altered("planted_trigger",
             "CREATE TABLE log (x); CREATE TRIGGER spy AFTER INSERT ON StringIds "
             "BEGIN INSERT INTO log VALUES (1); END;");
}

}  // namespace

std::string WriteValidReport(const std::string& name) {
  diff::test::ReportBuilder builder;
  builder.Kernel("void scale<float>(float*)", 1000, 500)
      .Memcpy(1, 100, 200)
      .ApiCall("cudaLaunchKernel", 900, 50)
      .Range("step", 800, 1000)
      .OsrtCall("read", 50, 30);
  return builder.Write(name);
}

std::vector<HostileReport> WriteHostileReports(const std::string& valid_report) {
  Writer writer(valid_report);
  AddDamagedFiles(&writer);
  AddForeignFiles(&writer);
  AddCraftedFiles(&writer);
  writer.Copy("odd_path", "we'ird \"name\"; DROP TABLE StringIds;--.sqlite");
  return writer.reports();
}

void ExecSql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  INFO((error != nullptr ? error : "") << " in: " << sql);
  sqlite3_free(error);
  sqlite3_close(db);
  REQUIRE(rc == SQLITE_OK);
}

std::string ReadBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << bytes;
  REQUIRE(file.good());
}

}  // namespace prof::robustness::test
