// Which CUDA API calls become rows, on the CUPTI test double (cupti_double.cpp): a driver call that a
// runtime call makes is nested in it and has no row of its own, even when the runtime call is one
// prof does not record (cudaFuncGetAttributes loading a module lazily), as nsys counts them; the
// same driver function called by the program itself is an outermost call and has its row.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace prof::test {
namespace {

int64_t RowsNamed(const std::string& report, const std::string& name) {
  const auto rows = QueryRows(report,
                              "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
                              "ON s.id = r.nameId WHERE s.value = '" +
                                  name + "'");
  REQUIRE(rows.size() == 1);
  return std::stoll(rows[0][0]);
}

TEST_CASE("driver calls nested in an unrecorded runtime call have no rows, direct ones do",
          "[cuda_api]") {
  constexpr int kLaunches = 300;
  constexpr int kDirectCalls = 7;
  const std::string report = MakeTempDir("cuda_api_nesting") + "/r.sqlite";
  const CommandResult result =
      RunCommand({ProfBinary(), "profile", "-q", "-t", "cuda", "-s", "none", "-o", report,
                  TestProgram("cuda_end_program"), "nesting", std::to_string(kLaunches),
                  std::to_string(kDirectCalls)});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  REQUIRE(std::filesystem::exists(report));
  CHECK(RowsNamed(report, "cudaLaunchKernel_v7000") == kLaunches);
  CHECK(RowsNamed(report, "cudaFuncGetAttributes_v3020") == 0);
  CHECK(RowsNamed(report, "cuLibraryLoadData") == 0);
  CHECK(RowsNamed(report, "cuKernelGetFunction") == kDirectCalls);
}

}  // namespace
}  // namespace prof::test
