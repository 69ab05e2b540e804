// --timeunit: parsing and the conversion of "(ns)" columns.
#include "stats/time_unit.h"

#include <catch2/catch.hpp>

#include "stats/cell_text.h"

namespace prof::stats {
namespace {

ResultTable Sample() {
  ResultTable table;
  table.columns = {"Time (%)", "Total Time (ns)", "Avg (ns)", "Num Calls", "Name (ns) x"};
  table.rows.push_back({58.9, int64_t{485565904}, 775657.5, int64_t{3}, std::string("a")});
  table.rows.push_back({0.1, int64_t{1}, std::monostate{}, int64_t{4}, std::string("b")});
  return table;
}

std::vector<std::string> Row(const ResultTable& table, size_t row) {
  std::vector<std::string> texts;
  for (const Cell& cell : table.rows[row]) texts.push_back(CellText(cell));
  return texts;
}

TimeUnit Parsed(const std::string& name) {
  const StatusOr<TimeUnit> unit = ParseTimeUnit(name);
  REQUIRE(unit.ok());
  return *unit;
}

TEST_CASE("nsec leaves a table unchanged", "[stats][timeunit]") {
  ResultTable table = Sample();
  ApplyTimeUnit(Parsed("nsec"), &table);
  CHECK(table.columns == Sample().columns);
  CHECK(Row(table, 0) == std::vector<std::string>{"58.9", "485565904", "775657.5", "3", "a"});
}

TEST_CASE("usec divides the (ns) columns and renames them", "[stats][timeunit]") {
  ResultTable table = Sample();
  ApplyTimeUnit(Parsed("usec"), &table);
  CHECK(table.columns == std::vector<std::string>{"Time (%)", "Total Time (us)", "Avg (us)",
                                                  "Num Calls", "Name (ns) x"});
  CHECK(Row(table, 0) == std::vector<std::string>{"58.9", "485565.904", "775.6575", "3", "a"});
  CHECK(Row(table, 1) == std::vector<std::string>{"0.1", "0.001", "", "4", "b"});
}

TEST_CASE("converted REAL values print without binary noise", "[stats][timeunit]") {
  ResultTable table;
  table.columns = {"Avg (ns)"};
  table.rows.push_back({539907026.3});  // 539907026.3 / 1000 is 539907.0262999999 in doubles
  ApplyTimeUnit(Parsed("usec"), &table);
  CHECK(Row(table, 0) == std::vector<std::string>{"539907.0263"});
}

TEST_CASE("msec and sec keep every ns digit", "[stats][timeunit]") {
  ResultTable msec = Sample();
  ApplyTimeUnit(Parsed("msec"), &msec);
  CHECK(msec.columns[1] == "Total Time (ms)");
  CHECK(Row(msec, 0)[1] == "485.565904");
  ResultTable sec = Sample();
  ApplyTimeUnit(Parsed("sec"), &sec);
  CHECK(sec.columns[2] == "Avg (s)");
  CHECK(Row(sec, 0)[1] == "0.485565904");
  CHECK(Row(sec, 1)[1] == "1e-09");
}

TEST_CASE("an unknown time unit is an error listing the valid ones", "[stats][timeunit]") {
  const StatusOr<TimeUnit> unit = ParseTimeUnit("minutes");
  REQUIRE_FALSE(unit.ok());
  CHECK(unit.status().message() ==
        "unknown time unit 'minutes'; valid units: nsec, usec, msec, sec");
}

}  // namespace
}  // namespace prof::stats
