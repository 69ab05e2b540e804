#include "tests/stats/stats_test_util.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "stats/cell_text.h"
#include "stats/report_database.h"
#include "stats/report_query.h"
#include "storage/global_id.h"
#include "storage/schema_catalog.h"
#include "storage/sqlite_database.h"
#include "tests/support/test_support.h"

namespace prof::stats::test {
namespace {

void Exec(storage::Database* db, const std::string& sql) {
  const Status status = db->Exec(sql);
  INFO(status.message());
  REQUIRE(status.ok());
}

void CreateTable(storage::Database* db, const std::string& table) {
  const auto ddl = storage::TableDdl(table);
  INFO(table);
  REQUIRE(ddl.has_value());
  Exec(db, std::string(*ddl));
}

}  // namespace

std::string MakeReport(const std::string& name, const std::vector<std::string>& tables,
                       const std::string& rows_sql) {
  const std::string path = prof::test::MakeTempDir("stats_" + name) + "/" + name + ".sqlite";
  storage::Database db;
  REQUIRE(storage::Database::OpenReadWrite(path, &db).ok());
  CreateTable(&db, "META_DATA_EXPORT");
  CreateTable(&db, "StringIds");
  for (const std::string& table : tables) CreateTable(&db, table);
  Exec(&db, "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_NAME', 'prof test')");
  Exec(&db, rows_sql);
  return path;
}

ResultTable RunReport(const std::string& path, const std::string& report,
                      const std::vector<std::string>& options) {
  storage::Database db;
  Status status = OpenReportDatabase(path, &db);
  INFO(status.message());
  REQUIRE(status.ok());
  const ReportSpec* spec = FindReport(report);
  REQUIRE(spec != nullptr);
  ResultTable table;
  status = RunReportQuery(&db, *spec, options, &table);
  INFO(status.message());
  REQUIRE(status.ok());
  return table;
}

TextRows Texts(const ResultTable& table) {
  TextRows rows;
  for (const auto& row : table.rows) {
    std::vector<std::string> texts;
    for (const Cell& cell : row) texts.push_back(CellText(cell));
    rows.push_back(std::move(texts));
  }
  return rows;
}

std::string Tid(uint32_t pid, uint32_t tid) { return std::to_string(storage::GlobalTid(pid, tid)); }

std::string ReplaceAll(std::string text,
                       const std::vector<std::pair<std::string, std::string>>& replacements) {
  for (const auto& [from, to] : replacements) {
    for (size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
    }
  }
  return text;
}

TextRows ParseCsv(const std::string& text) {
  TextRows rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      row.push_back(std::move(field));
      field.clear();
      rows.push_back(std::move(row));
      row.clear();
    } else {
      field += c;
    }
  }
  return rows;
}

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  INFO(path);
  REQUIRE(file.good());
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace prof::stats::test
