// StringInterner numbers strings as nsys numbers StringIds: from 0, in order of first use.
#include "storage/string_interner.h"

#include <catch2/catch.hpp>
#include <string>

namespace prof::storage {
namespace {

TEST_CASE("ids are dense from 0 in order of first use", "[storage][strings]") {
  StringInterner strings;
  const auto first = strings.Intern("read");
  CHECK(first.id == 0);
  CHECK(first.added);
  const auto second = strings.Intern("pthread_mutex_lock");
  CHECK(second.id == 1);
  CHECK(second.added);
  const auto again = strings.Intern("read");
  CHECK(again.id == 0);
  CHECK_FALSE(again.added);
  CHECK(strings.Intern("").id == 2);
  CHECK(strings.Intern("").id == 2);
  CHECK(strings.size() == 3);
}

TEST_CASE("interned strings survive the caller's buffer and many insertions",
          "[storage][strings]") {
  StringInterner strings;
  std::string buffer = "a string long enough to live on the heap, not in the SSO buffer";
  CHECK(strings.Intern(buffer).id == 0);
  buffer.assign(buffer.size(), 'x');
  for (int i = 0; i < 10000; ++i) strings.Intern("name" + std::to_string(i));
  CHECK(strings.Intern("a string long enough to live on the heap, not in the SSO buffer").id == 0);
  CHECK(strings.Intern("name9999").id == 10000);
  CHECK(strings.Intern(std::string_view("name12", 5)).id == 2);  // "name1", already known
  CHECK(strings.size() == 10001);
}

}  // namespace
}  // namespace prof::storage
