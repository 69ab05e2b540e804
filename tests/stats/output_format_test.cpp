// The output formats on small hand-built tables: exact text.
#include "stats/output_format.h"

#include <catch2/catch.hpp>
#include <cstdint>

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
  CHECK(RenderCsv(Sample(), {}) ==
        "Time (%),Total Time (ns),Avg (ns),Name\n"
        "58.9,485565904,7882329.0,pthread_create\n"
        "0.4,-1234,,\"a, \"\"b\"\"\"\n");
}

TEST_CASE("tsv separates by tabs", "[stats][format]") {
  CHECK(RenderTsv(Sample(), {}) ==
        "Time (%)\tTotal Time (ns)\tAvg (ns)\tName\n"
        "58.9\t485565904\t7882329.0\tpthread_create\n"
        "0.4\t-1234\t\t\"a, \"\"b\"\"\"\n");
}

TEST_CASE("json writes an array of row objects", "[stats][format]") {
  CHECK(RenderJson(Sample(), {}) ==
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
  CHECK(RenderJson(table, {}) == "[\n  {\"a\\\"b\": \"x\\ny\\\\z\\t\\u0001\"}\n]\n");
}

TEST_CASE("json stays valid when a report's text is not UTF-8", "[stats][format]") {
  // Names are the report's bytes: valid UTF-8 passes, each invalid byte becomes U+FFFD.
  ResultTable table;
  table.columns = {"Name"};
  table.rows.push_back({std::string("caf\xc3\xa9 \xc3 \xff")});
  CHECK(RenderJson(table, {}) == "[\n  {\"Name\": \"caf\xc3\xa9 \xef\xbf\xbd \xef\xbf\xbd\"}\n]\n");
}

TEST_CASE("column aligns like nsys: centered headers - dashes - numbers right", "[stats][format]") {
  // Widths 8, 15, 11, 14. Python's str.center puts the odd space of "Avg (ns)" in 11 on the left.
  CHECK(RenderColumn(Sample(), {}) ==
        " Time (%)  Total Time (ns)    Avg (ns)        Name\n"
        " --------  ---------------  -----------  --------------\n"
        "     58.9      485,565,904  7,882,329.0  pthread_create\n"
        "      0.4           -1,234               a, \"b\"\n");
}

TEST_CASE("table draws a box", "[stats][format]") {
  CHECK(RenderTable(Sample(), {}) ==
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

TEST_CASE("nsys's format arguments: nohdr, nolimit", "[stats][format]") {
  const StatusOr<FormatChoice> csv = ParseFormat("csv:nohdr");
  REQUIRE(csv.ok());
  CHECK(csv->Render(Sample()) ==
        "58.9,485565904,7882329.0,pthread_create\n0.4,-1234,,\"a, \"\"b\"\"\"\n");
  const StatusOr<FormatChoice> column = ParseFormat("column:nohdr:nolimit");
  REQUIRE(column.ok());
  CHECK_FALSE(column->args.header);
  CHECK_FALSE(column->args.width_limit);
  CHECK(column->Render(Sample()) ==
        "     58.9      485,565,904  7,882,329.0  pthread_create\n"
        "      0.4           -1,234               a, \"b\"\n");
  CHECK(ParseFormat("table:nohdr")->Render(Sample()) ==
        "+----------+-----------------+-------------+----------------+\n"
        "|     58.9 |     485,565,904 | 7,882,329.0 | pthread_create |\n"
        "|      0.4 |          -1,234 |             | a, \"b\"         |\n"
        "+----------+-----------------+-------------+----------------+\n");
  CHECK(ParseFormat("tsv:nohdr")->Render(Sample()) ==
        "58.9\t485565904\t7882329.0\tpthread_create\n0.4\t-1234\t\t\"a, \"\"b\"\"\"\n");
  CHECK(ParseFormat("csv:nolimit").status().message() ==
        "unknown argument 'nolimit' of format csv; valid arguments: nohdr");
  CHECK(ParseFormat("column:wide").status().message() ==
        "unknown argument 'wide' of format column; valid arguments: nohdr, nolimit");
  CHECK(ParseFormat("json:nohdr").status().message() ==
        "format json takes no arguments (got 'nohdr')");
  CHECK(ParseFormat("xml").status().message() ==
        "unknown format 'xml'; valid formats: column, table, csv, tsv, json");
}

TEST_CASE("column and table cap a column at 100 characters, as nsys", "[stats][format]") {
  ResultTable table;
  table.columns = {"Instances", "Name"};
  // 150 characters, the 100th an "é" (two bytes, one character).
  const std::string name = std::string(99, 'k') + "\xc3\xa9" + std::string(50, 'x');
  table.rows.push_back({int64_t{3}, name});
  const std::string cut = std::string(99, 'k') + "\u2026";  // 99 characters and the ellipsis
  CHECK(RenderColumn(table, {}) == " Instances  " + std::string(48, ' ') + "Name\n" +
                                       " ---------  " + std::string(100, '-') + "\n" +
                                       "         3  " + cut + "\n");
  CHECK(RenderColumn(table, {true, false}).find(name) != std::string::npos);  // nolimit
  CHECK(RenderTable(table, {}).find("| " + cut + " |") != std::string::npos);
  // Exactly 100 characters stay whole.
  table.rows[0][1] = std::string(100, 'y');
  CHECK(RenderColumn(table, {}).find(std::string(100, 'y') + "\n") != std::string::npos);
}

TEST_CASE("column widths come from the first 100 rows, as nsys's", "[stats][format]") {
  ResultTable table;
  table.columns = {"Count", "Name"};
  for (int64_t i = 0; i < 100; ++i) table.rows.push_back({i, std::string("abc")});
  table.rows.push_back({int64_t{1'234'567}, std::string("abcdefg")});  // row 101: wider
  const auto ends_with = [](const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() &&
           text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
  };
  // "Count" (5) and "Name" (4) set the widths; row 101's cells are clipped to them.
  CHECK(ends_with(RenderColumn(table, {}), "\n 1,23\u2026  abc\u2026\n"));
  // With every row sizing the columns (prof diff's setting), nothing is clipped.
  CHECK(ends_with(RenderColumn(table, WithWholeCells({})),
                  "\n        99  abc\n 1,234,567  abcdefg\n"));
}

}  // namespace
}  // namespace prof::stats
