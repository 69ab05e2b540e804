// The injection's allocation-free helpers: UTF-8 conversion and cutting, per-thread nesting levels.
#include <catch2/catch.hpp>
#include <string>
#include <thread>

#include "injection/nvtx/nesting_levels.h"
#include "injection/nvtx/utf8_text.h"

namespace prof::injection::nvtx {
namespace {

std::string Convert(const wchar_t* wide, size_t capacity) {
  std::string out(capacity, '\0');
  out.resize(WideToUtf8(wide, out.data(), capacity));
  return out;
}

TEST_CASE("WideToUtf8 encodes every UTF-8 length", "[nvtx][utf8]") {
  CHECK(Convert(L"", 16) == "");
  CHECK(Convert(L"A\u00e9\u20ac\U0001F600", 16) == "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  CHECK(Convert(L"\u007f\u0080\u07ff\u0800\uffff\U00010000\U0010FFFF", 32) ==
        "\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF");
}

TEST_CASE("WideToUtf8 replaces values that are not Unicode scalar values", "[nvtx][utf8]") {
  const wchar_t text[] = {static_cast<wchar_t>(0xDFFF), static_cast<wchar_t>(0x110000), L'x', 0};
  CHECK(Convert(text, 16) == "\xEF\xBF\xBD\xEF\xBF\xBDx");
}

TEST_CASE("WideToUtf8 stops before a character that does not fit", "[nvtx][utf8]") {
  CHECK(Convert(L"ab\u20ac", 4) == "ab");
  CHECK(Convert(L"ab\u20ac", 5) == "ab\xE2\x82\xAC");
  CHECK(Convert(L"\U0001F600", 3) == "");
}

TEST_CASE("Utf8PrefixLength never ends inside a character", "[nvtx][utf8]") {
  const std::string text =
      "a\xE2\x82\xAC"
      "b";  // a, euro sign (3 bytes), b
  CHECK(Utf8PrefixLength(text.data(), text.size(), 10) == 5);
  CHECK(Utf8PrefixLength(text.data(), text.size(), 5) == 5);
  CHECK(Utf8PrefixLength(text.data(), text.size(), 4) == 4);
  CHECK(Utf8PrefixLength(text.data(), text.size(), 3) == 1);
  CHECK(Utf8PrefixLength(text.data(), text.size(), 2) == 1);
  CHECK(Utf8PrefixLength(text.data(), text.size(), 1) == 1);
  CHECK(Utf8PrefixLength(text.data(), text.size(), 0) == 0);
}

TEST_CASE("Utf8Text clips narrow text to the record limit and reads null as empty",
          "[nvtx][utf8]") {
  const Utf8Text empty(static_cast<const char*>(nullptr));
  CHECK(empty.size() == 0);
  const std::string long_text(protocol::kMaxTextLength + 100, 'x');
  const Utf8Text clipped(long_text.c_str());
  CHECK(clipped.data() == long_text.c_str());
  CHECK(clipped.size() == protocol::kMaxTextLength);
  const std::wstring long_wide(protocol::kMaxTextLength, L'\u00e9');  // 2 bytes each in UTF-8
  const Utf8Text converted(long_wide.c_str());
  CHECK(converted.size() == protocol::kMaxTextLength);
  CHECK(std::string(converted.data(), 2) == "\xC3\xA9");
}

TEST_CASE("nesting levels count per domain and per thread", "[nvtx][levels]") {
  CHECK(PopLevel(0) == -1);
  CHECK(PushLevel(0) == 0);
  CHECK(PushLevel(0) == 1);
  CHECK(PushLevel(5) == 0);
  // Domain ids past the inline table grow the heap table, also for sparse ids.
  CHECK(PushLevel(1000) == 0);
  CHECK(PushLevel(1000) == 1);
  CHECK(PopLevel(40) == -1);
  int other_thread_push = -2;
  std::thread other([&] { other_thread_push = PushLevel(0); });
  other.join();
  CHECK(other_thread_push == 0);
  CHECK(PopLevel(1000) == 1);
  CHECK(PopLevel(1000) == 0);
  CHECK(PopLevel(1000) == -1);
  CHECK(PopLevel(5) == 0);
  CHECK(PopLevel(0) == 1);
  CHECK(PopLevel(0) == 0);
  CHECK(PopLevel(0) == -1);
}

}  // namespace
}  // namespace prof::injection::nvtx
