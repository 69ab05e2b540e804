#include "collector/record_dispatcher.h"

#include <catch2/catch.hpp>

using namespace prof::protocol;
using prof::collector::ProcessStream;
using prof::collector::RecordDispatcher;

TEST_CASE("records reach the handler of their kind - unknown and short ones are counted") {
  RecordDispatcher dispatcher;
  int calls = 0;
  uint32_t seen_pid = 0;
  dispatcher.Register(RecordKind::kOsrtCall, sizeof(OsrtCallRecord),
                      [&](const ProcessStream& process, const RecordHeader&) {
                        ++calls;
                        seen_pid = process.pid;
                      });
  ProcessStream process;
  process.pid = 77;
  OsrtCallRecord call{};
  call.header = {RecordKind::kOsrtCall, sizeof(call), 1, 0};
  dispatcher.Dispatch(process, call.header);
  RecordHeader unknown{static_cast<RecordKind>(200), 16, 1, 0};
  dispatcher.Dispatch(process, unknown);
  RecordHeader beyond_table{static_cast<RecordKind>(60000), 16, 1, 0};
  dispatcher.Dispatch(process, beyond_table);
  RecordHeader short_call{RecordKind::kOsrtCall, 16, 1, 0};
  dispatcher.Dispatch(process, short_call);

  CHECK(calls == 1);
  CHECK(seen_pid == 77);
  CHECK(dispatcher.unknown_records() == 2);
  CHECK(dispatcher.malformed_records() == 1);
}

TEST_CASE("session time and global ids follow nsys's encoding") {
  ProcessStream process;
  process.pid = 490;
  process.session_start_ns = 1000;
  CHECK(process.SessionTime(1500) == 500);
  CHECK(process.SessionTime(900) == -100);
  CHECK(process.GlobalTid(490) == 281483197546986);
  CHECK(process.GlobalTid(500) == 281483197546996);
  CHECK(process.GlobalPid() == 281483197546496);
}
