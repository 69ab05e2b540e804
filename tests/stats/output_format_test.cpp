// The output formats on small hand-built tables: exact text.
#include "stats/output_format.h"

#include <catch2/catch.hpp>

#include "stats/cell_text.h"
#include "stats/format_renderers.h"

namespace prof::stats {
namespace {

ResultTable Sample() {
  ResultTable table;
  table.columns = {"Time (%)", "Total Time (ns)", "Avg (ns)", "Name"};
  table.rows.push_back({58.9, int64_t{485565904}, 7882329.0, std::string("pthread_create")});
  table.rows.push_back({0.4, int64_t{-1234}, std::monostate{}, std::string("a, \"b\"")});
  return table;
}

TEST_CASE("cell text follows Python's str()", "[stats][format]") {
  CHECK(CellText(Cell{int64_t{485565904}}) == "485565904");
  CHECK(CellText(Cell{7882329.0}) == "7882329.0");
  CHECK(CellText(Cell{775657.5}) == "775657.5");
  CHECK(CellText(Cell{0.0}) == "0.0");
  CHECK(CellText(Cell{485565.904}) == "485565.904");
  CHECK(CellText(Cell{1e-09}) == "1e-09");
  CHECK(CellText(Cell{1e16}) == "1e+16");
  CHECK(CellText(Cell{std::monostate{}}).empty());
  CHECK(CellText(Cell{std::string("x,y")}) == "x,y");
}

TEST_CASE("grouped cell text separates thousands of numbers only", "[stats][format]") {
  CHECK(GroupedCellText(Cell{int64_t{485565904}}) == "485,565,904");
  CHECK(GroupedCellText(Cell{int64_t{-1234567}}) == "-1,234,567");
  CHECK(GroupedCellText(Cell{int64_t{999}}) == "999");
  CHECK(GroupedCellText(Cell{7882329.0}) == "7,882,329.0");
  CHECK(GroupedCellText(Cell{1234.5678}) == "1,234.5678");
  CHECK(GroupedCellText(Cell{1e16}) == "1e+16");
  CHECK(GroupedCellText(Cell{std::string("1234567")}) == "1234567");
}

TEST_CASE("csv quotes fields like Python's csv module", "[stats][format]") {
  CHECK(RenderCsv(Sample()) ==
        "Time (%),Total Time (ns),Avg (ns),Name\n"
        "58.9,485565904,7882329.0,pthread_create\n"
        "0.4,-1234,,\"a, \"\"b\"\"\"\n");
}

TEST_CASE("tsv separates by tabs", "[stats][format]") {
  CHECK(RenderTsv(Sample()) ==
        "Time (%)\tTotal Time (ns)\tAvg (ns)\tName\n"
        "58.9\t485565904\t7882329.0\tpthread_create\n"
        "0.4\t-1234\t\t\"a, \"\"b\"\"\"\n");
}

TEST_CASE("json writes an array of row objects", "[stats][format]") {
  CHECK(RenderJson(Sample()) ==
        "[\n"
        "  {\"Time (%)\": 58.9, \"Total Time (ns)\": 485565904, \"Avg (ns)\": 7882329.0, "
        "\"Name\": \"pthread_create\"},\n"
        "  {\"Time (%)\": 0.4, \"Total Time (ns)\": -1234, \"Avg (ns)\": null, "
        "\"Name\": \"a, \\\"b\\\"\"}\n"
        "]\n");
}

TEST_CASE("json escapes quotes - backslashes and control characters", "[stats][format]") {
  ResultTable table;
  table.columns = {"a\"b"};
  table.rows.push_back({std::string("x\ny\\z\t\x01")});
  CHECK(RenderJson(table) == "[\n  {\"a\\\"b\": \"x\\ny\\\\z\\t\\u0001\"}\n]\n");
}

TEST_CASE("json stays valid when a report's text is not UTF-8", "[stats][format]") {
  // Names are the report's bytes: valid UTF-8 passes, each invalid byte becomes U+FFFD.
  ResultTable table;
  table.columns = {"Name"};
  table.rows.push_back({std::string("caf\xc3\xa9 \xc3 \xff")});
  CHECK(RenderJson(table) == "[\n  {\"Name\": \"caf\xc3\xa9 \xef\xbf\xbd \xef\xbf\xbd\"}\n]\n");
}

TEST_CASE("column aligns like nsys: centered headers - dashes - numbers right", "[stats][format]") {
  // Widths 8, 15, 11, 14. Python's str.center puts the odd space of "Avg (ns)" in 11 on the left.
  CHECK(RenderColumn(Sample()) ==
        " Time (%)  Total Time (ns)    Avg (ns)        Name\n"
        " --------  ---------------  -----------  --------------\n"
        "     58.9      485,565,904  7,882,329.0  pthread_create\n"
        "      0.4           -1,234               a, \"b\"\n");
}

TEST_CASE("table draws a box", "[stats][format]") {
  CHECK(RenderTable(Sample()) ==
        "+----------+-----------------+-------------+----------------+\n"
        "| Time (%) | Total Time (ns) |   Avg (ns)  |      Name      |\n"
        "+----------+-----------------+-------------+----------------+\n"
        "|     58.9 |     485,565,904 | 7,882,329.0 | pthread_create |\n"
        "|      0.4 |          -1,234 |             | a, \"b\"         |\n"
        "+----------+-----------------+-------------+----------------+\n");
}

TEST_CASE("formats are found by name", "[stats][format]") {
  CHECK(OutputFormatNames() == "column, table, csv, tsv, json");
  REQUIRE(FindOutputFormat("csv") != nullptr);
  CHECK(FindOutputFormat("csv")->extension == "csv");
  CHECK(FindOutputFormat("column")->extension == "txt");
  CHECK(FindOutputFormat("column")->titled);
  CHECK_FALSE(FindOutputFormat("json")->titled);
  CHECK(FindOutputFormat("xml") == nullptr);
}

}  // namespace
}  // namespace prof::stats
