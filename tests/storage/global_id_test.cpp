// GlobalId encoding checked against values of a real nsys export (torch_mix.sqlite: python3, pid
// 490).
#include "storage/global_id.h"

#include <catch2/catch.hpp>

namespace prof::storage {
namespace {

TEST_CASE("GlobalTid matches nsys's serialized ids", "[storage][global_id]") {
  CHECK(GlobalTid(490, 490) == 281483197546986);  // the main thread of python3
  CHECK(GlobalTid(490, 500) == 281483197546996);  // one of its worker threads
  CHECK(GlobalPid(490) == 281483197546496);       // PROCESSES.globalPid of python3
  CHECK(GlobalPid(1) == 281474993487872);         // process_api (pid 1)
}

TEST_CASE("PidOf and TidOf invert the encoding", "[storage][global_id]") {
  CHECK(PidOf(281483197546996) == 490);
  CHECK(TidOf(281483197546996) == 500);
  CHECK(PidOf(GlobalPid(0xABCDEF)) == 0xABCDEF);
  CHECK(TidOf(GlobalPid(0xABCDEF)) == 0);
}

TEST_CASE("pids and tids wider than 24 bits are truncated - not spilled", "[storage][global_id]") {
  const int64_t id = GlobalTid(0x1000001, 0x1000002);
  CHECK(PidOf(id) == 1);
  CHECK(TidOf(id) == 2);
  CHECK((id >> 48) == 1);  // the VM id stays 1
}

}  // namespace
}  // namespace prof::storage
