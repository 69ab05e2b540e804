// libprof_osrt.so exports exactly the interposers of the function table, unversioned: its version
// script (injection/osrt/exports.map) and injection/protocol/osrt_functions.h must agree.
#include <catch2/catch.hpp>
#include <set>
#include <sstream>
#include <string>

#include "injection/protocol/osrt_functions.h"
#include "tests/support/test_support.h"

namespace {

// Names of the defined dynamic symbols of `library`, as `nm -D` prints them (name@version when
// versioned).
std::set<std::string> DefinedDynamicSymbols(const std::string& library) {
  const prof::test::CommandResult nm =
      prof::test::RunCommand({"nm", "-D", "--defined-only", library});
  INFO(nm.err);
  REQUIRE(nm.exit_code == 0);
  std::set<std::string> names;
  std::istringstream lines(nm.out);
  std::string address, type, name;
  while (lines >> address >> type >> name) names.insert(name);
  return names;
}

}  // namespace

TEST_CASE("the library exports exactly the table's functions - unversioned") {
  std::set<std::string> expected;
  for (const char* name : prof::protocol::kOsrtFunctionNames) expected.insert(name);
  const std::set<std::string> exported = DefinedDynamicSymbols(PROF_OSRT_LIBRARY_PATH);
  for (const std::string& name : expected) {
    INFO("missing export " << name);
    CHECK(exported.count(name) == 1);
  }
  for (const std::string& name : exported) {
    INFO("unexpected export " << name);
    CHECK(expected.count(name) == 1);
  }
  CHECK(exported.size() == prof::protocol::kOsrtFunctionCount);
}
