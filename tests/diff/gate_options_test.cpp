// The least change that counts (diff/min_time.h) and the OS runtime functions that are waits
// (diff/waits.h).
#include <catch2/catch.hpp>

#include "diff/min_time.h"
#include "diff/waits.h"
#include "injection/protocol/osrt_functions.h"

namespace prof::diff {
namespace {

TEST_CASE("min-time is the larger of --min-time and --min-share of the base run", "[diff]") {
  CHECK(MinTimeNs(MinTime{}, 85234992) == 5000000);  // the defaults: 5 ms, 1%
  CHECK(MinTimeNs(MinTime{}, 6091462657) == 60914627);
  CHECK(MinTimeNs({0, 1}, 33000) == 330);
  CHECK(MinTimeNs({0, 2.5}, 1000000) == 25000);
  CHECK(MinTimeNs({100000, 0}, 6091462657) == 100000);
  CHECK(MinTimeNs({0, 0}, 6091462657) == 0);
  CHECK(DescribeMinTime(MinTime{}, 85234992) ==
        "min-time 5000000 ns, 1% of the 85234992 ns run: 5000000 ns");
  CHECK(DescribeMinTime({0, 0.5}, 33000) == "min-time 0 ns, 0.5% of the 33000 ns run: 165 ns");
}

TEST_CASE("waits are traced OS runtime functions that block", "[diff]") {
  CHECK(WaitFunctions().size() == 32);
  for (std::string_view name : WaitFunctions()) {
    INFO(name);
    CHECK(protocol::OsrtFunctionId(name) < protocol::kOsrtFunctionCount);
    CHECK(IsWait({ItemKind::kOsrt, std::string(name)}));
  }
  CHECK(IsWait({ItemKind::kOsrt, "pthread_cond_wait"}));
  CHECK(IsWait({ItemKind::kOsrt, "nanosleep"}));
  CHECK_FALSE(IsWait({ItemKind::kOsrt, "read"}));
  CHECK_FALSE(IsWait({ItemKind::kOsrt, "pthread_create"}));
  CHECK_FALSE(IsWait({ItemKind::kOsrt, "pthread_cond_signal"}));
  CHECK_FALSE(IsWait({ItemKind::kNvtx, "nanosleep"}));
}

}  // namespace
}  // namespace prof::diff
