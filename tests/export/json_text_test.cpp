// JSON strings from arbitrary bytes and exact microsecond times (export/json_text.h).
#include "export/json_text.h"

#include <catch2/catch.hpp>

namespace prof::exporter {
namespace {

std::string Json(std::string_view text) {
  std::string out;
  AppendJsonString(text, &out);
  return out;
}

std::string Micros(int64_t ns) {
  std::string out;
  AppendMicroseconds(ns, &out);
  return out;
}

TEST_CASE("JSON strings escape quotes backslashes and control characters", "[export]") {
  CHECK(Json("plain") == "\"plain\"");
  CHECK(Json("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(Json("tab\there\nnew\rret") == "\"tab\\there\\nnew\\rret\"");
  CHECK(Json(std::string_view("\x01\x1f\x7f", 3)) == "\"\\u0001\\u001f\\u007f\"");
  CHECK(Json(std::string_view("nul\0byte", 8)) == "\"nul\\u0000byte\"");
}

TEST_CASE("JSON strings keep valid UTF-8 as it is", "[export]") {
  CHECK(Json("caf\xC3\xA9") == "\"caf\xC3\xA9\"");            // é
  CHECK(Json("\xE2\x82\xAC") == "\"\xE2\x82\xAC\"");          // €
  CHECK(Json("\xF0\x9F\x98\x80") == "\"\xF0\x9F\x98\x80\"");  // U+1F600
  CHECK(Json("\xF4\x8F\xBF\xBF") == "\"\xF4\x8F\xBF\xBF\"");  // U+10FFFF
}

TEST_CASE("JSON strings replace each invalid UTF-8 byte by U+FFFD", "[export]") {
  const std::string r = "\xEF\xBF\xBD";
  CHECK(Json("a\xFF"
             "b") == "\"a" + r + "b\"");
  CHECK(Json("\xE2\x82") == "\"" + r + r + "\"");                  // truncated sequence
  CHECK(Json("\xC0\xAF") == "\"" + r + r + "\"");                  // overlong '/'
  CHECK(Json("\xED\xA0\x80") == "\"" + r + r + r + "\"");          // UTF-16 surrogate
  CHECK(Json("\xF4\x90\x80\x80") == "\"" + r + r + r + r + "\"");  // above U+10FFFF
  CHECK(Json("\x80x") == "\"" + r + "x\"");                        // lone continuation byte
}

TEST_CASE("microseconds keep every nanosecond", "[export]") {
  CHECK(Micros(0) == "0.000");
  CHECK(Micros(999) == "0.999");
  CHECK(Micros(1000) == "1.000");
  CHECK(Micros(1234567) == "1234.567");
  CHECK(Micros(5704924074) == "5704924.074");
  CHECK(Micros(-1500) == "-1.500");
  CHECK(Micros(INT64_MAX) == "9223372036854775.807");
  CHECK(Micros(INT64_MIN) == "-9223372036854775.808");
}

TEST_CASE("args become a JSON object in their order", "[export]") {
  std::string out;
  AppendJsonArgs({{"bytes", false, 8, {}}, {"grid", true, 0, "4x2x1"}, {"rc", false, -1, {}}},
                 &out);
  CHECK(out == R"({"bytes":8,"grid":"4x2x1","rc":-1})");
  out.clear();
  AppendJsonArgs({}, &out);
  CHECK(out == "{}");
}

}  // namespace
}  // namespace prof::exporter
