// The line table decoders (injection/protocol/cpython_line_table.h): hand-made 3.11+ location
// tables for each entry form, then every code object of the threading module as each CPython here
// compiles it, against that interpreter's own co_lines().
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "injection/protocol/cpython_line_table.h"
#include "tests/python_frames/python_target.h"
#include "tests/support/test_support.h"

namespace prof::collector {
namespace {

using protocol::cpython::LineOfLineTable310;
using protocol::cpython::LineOfLocationTable;

std::string Bytes(std::initializer_list<int> values) {
  std::string bytes;
  for (int value : values) bytes.push_back(static_cast<char>(value));
  return bytes;
}

std::string FromHex(const std::string& hex) {
  std::string bytes;
  if (hex == "-") return bytes;
  for (size_t at = 0; at + 1 < hex.size(); at += 2) {
    bytes.push_back(static_cast<char>(std::stoi(hex.substr(at, 2), nullptr, 16)));
  }
  return bytes;
}

TEST_CASE("location table entry forms decode to their lines") {
  const std::string table = Bytes({
      0xE8, 0x04,                    // no columns, 1 unit, line +2: [0, 2) line 12
      0xD1, 0x05, 0x06,              // one line form +0, 2 units: [2, 6) line 12
      0xD8, 0x01, 0x02,              // one line form +1, 1 unit: [6, 8) line 13
      0xF8,                          // no location, 1 unit: [8, 10)
      0xF0, 0x07, 0x00, 0x01, 0x02,  // long form, line -3: [10, 12) line 10
      0x80, 0x03,                    // short form, 1 unit: [12, 14) line 10
      0xE8, 0x48, 0x03,              // no columns, line +200 / 2 = +100 (two varint groups)
  });
  CHECK(LineOfLocationTable(table, 10, -2) == 10);
  CHECK(LineOfLocationTable(table, 10, 0) == 12);
  CHECK(LineOfLocationTable(table, 10, 4) == 12);
  CHECK(LineOfLocationTable(table, 10, 6) == 13);
  CHECK(LineOfLocationTable(table, 10, 8) == -1);
  CHECK(LineOfLocationTable(table, 10, 10) == 10);
  CHECK(LineOfLocationTable(table, 10, 12) == 10);
  CHECK(LineOfLocationTable(table, 10, 14) == 110);
  CHECK(LineOfLocationTable(table, 10, 16) == -1);
  CHECK(LineOfLocationTable(Bytes({0x05}), 10, 0) == -1);  // not an entry's first byte
}

TEST_CASE("3.10 line table pairs decode to their lines") {
  // [0, 6) +1, [6, 6) +2 (empty), [6, 10) no line, [10, 12) +3
  const std::string table = Bytes({6, 1, 0, 2, 4, 0x80, 2, 3});
  CHECK(LineOfLineTable310(table, 5, -2) == 5);
  CHECK(LineOfLineTable310(table, 5, 0) == 6);
  CHECK(LineOfLineTable310(table, 5, 4) == 6);
  CHECK(LineOfLineTable310(table, 5, 6) == -1);
  CHECK(LineOfLineTable310(table, 5, 10) == 11);
  CHECK(LineOfLineTable310(table, 5, 12) == -1);
}

TEST_CASE("line tables of the threading module match co_lines on every CPython here") {
  for (const std::string& python : test::SupportedPythons()) {
    INFO(python);
    test::CommandResult dump = test::RunCommand({python, PROF_TEST_LINE_TABLE_SCRIPT});
    REQUIRE(dump.exit_code == 0);
    const bool is310 = test::MinorVersionOf(python) == "3.10";
    std::istringstream lines(dump.out);
    std::string line;
    size_t checked = 0;
    while (std::getline(lines, line)) {
      std::istringstream words(line);
      int first_line = 0;
      std::string hex, range;
      words >> first_line >> hex;
      const std::string table = FromHex(hex);
      while (words >> range) {
        int start = 0, end = 0, expected = 0;
        REQUIRE(std::sscanf(range.c_str(), "%d:%d:%d", &start, &end, &expected) == 3);
        for (int offset = start; offset < end; offset += 2) {
          int got = is310 ? LineOfLineTable310(table, first_line, offset)
                          : LineOfLocationTable(table, first_line, offset);
          INFO("first line " << first_line << " table " << hex << " offset " << offset);
          REQUIRE(got == expected);
          ++checked;
        }
      }
    }
    CHECK(checked > 1000);
  }
}

}  // namespace
}  // namespace prof::collector
