// Rows written through ReportWriter read back exactly as given; unset optionals become NULL.
#include <catch2/catch.hpp>

#include "storage/global_id.h"
#include "tests/storage/storage_test_util.h"
#include "tests/support/test_support.h"

namespace prof::storage {
namespace {

using prof::test::QueryRows;
using test::CreateWriter;
using test::FinishWriter;
using test::FreshReportPath;
using Rows = std::vector<std::vector<std::string>>;

constexpr char kNvtxColumns[] =
    "start, end, eventType, rangeId, category, color, text, globalTid, endGlobalTid, textId, "
    "domainId, uint64Value, int64Value, doubleValue, uint32Value, int32Value, floatValue, "
    "jsonTextId, jsonText, binaryData";

TEST_CASE("NVTX rows round-trip - unset fields as NULL", "[storage][rows]") {
  const std::string path = FreshReportPath("rows-nvtx");
  auto writer = CreateWriter(path);
  NvtxEventRow full;
  full.start = 4785384924;
  full.end = 5270950828;
  full.event_type = 60;
  full.range_id = 7;
  full.category = 3;
  full.color = 0xFF00FF00;
  full.text = "setup";
  full.global_tid = GlobalTid(490, 490);
  full.end_global_tid = GlobalTid(490, 500);
  full.text_id = writer->InternString("registered");
  full.domain_id = 2;
  full.uint64_value = -1;  // UINT64_MAX as its bit pattern
  full.double_value = 0.25;
  full.json_text_id = writer->InternString("{\"k\": 1}");
  writer->Add<kNvtxEventsTable>(full);

  NvtxEventRow mark;  // a mark: no end, no text
  mark.start = 99;
  mark.event_type = 34;
  mark.global_tid = GlobalTid(490, 490);
  mark.int64_value = -5;
  mark.uint32_value = 4294967295;
  mark.int32_value = -2147483648;
  mark.float_value = 1.5;
  writer->Add<kNvtxEventsTable>(mark);
  FinishWriter(writer.get());

  CHECK(
      QueryRows(path, std::string("SELECT ") + kNvtxColumns + " FROM NVTX_EVENTS ORDER BY rowid") ==
      Rows{{"4785384924",
            "5270950828",
            "60",
            "7",
            "3",
            "4278255360",
            "setup",
            "281483197546986",
            "281483197546996",
            "0",
            "2",
            "-1",
            "NULL",
            "0.25",
            "NULL",
            "NULL",
            "NULL",
            "1",
            "NULL",
            "NULL"},
           {"99",   "NULL", "34",   "NULL", "NULL", "NULL", "NULL",       "281483197546986",
            "NULL", "NULL", "NULL", "NULL", "-5",   "NULL", "4294967295", "-2147483648",
            "1.5",  "NULL", "NULL", "NULL"}});
  CHECK(QueryRows(path,
                  "SELECT typeof(doubleValue), typeof(floatValue), typeof(color) "
                  "FROM NVTX_EVENTS ORDER BY rowid") ==
        Rows{{"real", "null", "integer"}, {"null", "real", "null"}});
}

TEST_CASE("OS runtime rows round-trip with nsys's event class and no callchain",
          "[storage][rows]") {
  const std::string path = FreshReportPath("rows-osrt");
  auto writer = CreateWriter(path);
  OsrtCallRow row;
  row.start = 60749477;
  row.end = 60751965;
  row.global_tid = GlobalTid(490, 490);
  row.name_id = writer->InternString("mmap64");
  row.return_value = -1;
  row.nesting_level = 1;
  writer->Add<kOsrtApiTable>(row);
  FinishWriter(writer.get());
  CHECK(QueryRows(path,
                  "SELECT start, end, eventClass, globalTid, nameId, returnValue, "
                  "nestingLevel, callchainId FROM OSRT_API") ==
        Rows{{"60749477", "60751965", "27", "281483197546986", "0", "-1", "1", "0"}});
}

TEST_CASE("rows spanning many batches and commits keep their order and values", "[storage][rows]") {
  const std::string path = FreshReportPath("rows-batches");
  auto writer = CreateWriter(path);
  // Two full batches for the writer thread and a partial one, each of full 32-row statements
  // and single rows, with commits between.
  constexpr int kRows = 2500;
  for (int i = 0; i < kRows; ++i) {
    OsrtCallRow row;
    row.start = i;
    row.end = i * 2;
    row.global_tid = GlobalTid(1, static_cast<uint32_t>(i % 3));
    row.name_id = writer->InternString("call" + std::to_string(i % 7));
    writer->Add<kOsrtApiTable>(row);
    if (i % 833 == 0) REQUIRE(writer->Commit().ok());
  }
  FinishWriter(writer.get());
  CHECK(QueryRows(path,
                  "SELECT count(*), sum(start = rowid - 1), sum(end = 2 * start), "
                  "sum(nameId = start % 7), count(DISTINCT globalTid) FROM OSRT_API") ==
        Rows{{"2500", "2500", "2500", "2500", "3"}});
  CHECK(QueryRows(path, "SELECT id, value FROM StringIds ORDER BY id") == Rows{{"0", "call0"},
                                                                               {"1", "call1"},
                                                                               {"2", "call2"},
                                                                               {"3", "call3"},
                                                                               {"4", "call4"},
                                                                               {"5", "call5"},
                                                                               {"6", "call6"}});
}

TEST_CASE("StringIds holds each interned string once - numbered from 0", "[storage][rows]") {
  const std::string path = FreshReportPath("rows-strings");
  auto writer = CreateWriter(path);
  CHECK(writer->InternString("python3") == 0);
  CHECK(writer->InternString("[NSys]") == 1);
  CHECK(writer->InternString("python3") == 0);
  CHECK(writer->InternString("") == 2);
  FinishWriter(writer.get());
  CHECK(QueryRows(path, "SELECT id, value FROM StringIds ORDER BY id") ==
        Rows{{"0", "python3"}, {"1", "[NSys]"}, {"2", ""}});
}

TEST_CASE("thread names: last name wins - priority as given", "[storage][rows]") {
  const std::string path = FreshReportPath("rows-threads");
  auto writer = CreateWriter(path);
  writer->SetThreadName(GlobalTid(490, 500), "pt_autograd_0", 10);
  writer->SetThreadName(GlobalTid(490, 490), "python3", 20);
  writer->SetThreadName(GlobalTid(490, 500), "[NSys Comms]", 10);
  writer->AddProcess(GlobalPid(490), 490, "python3");
  writer->AddProcess(GlobalPid(421), 421, "bash");
  FinishWriter(writer.get());
  CHECK(QueryRows(path,
                  "SELECT s.value, t.priority, t.globalTid FROM ThreadNames t "
                  "JOIN StringIds s ON s.id = t.nameId ORDER BY t.rowid") ==
        Rows{{"python3", "20", "281483197546986"}, {"[NSys Comms]", "10", "281483197546996"}});
  CHECK(QueryRows(path, "SELECT globalPid, pid, name FROM PROCESSES ORDER BY rowid") ==
        Rows{{"281482039918592", "421", "bash"}, {"281483197546496", "490", "python3"}});
}

TEST_CASE("capture metadata rows keep repeated names", "[storage][rows]") {
  const std::string path = FreshReportPath("rows-capture");
  auto writer = CreateWriter(path);
  writer->Add<kMetaDataCaptureTable>({"CAPTURE_EVENT_TYPE", "OSRuntime"});
  writer->Add<kMetaDataCaptureTable>({"CAPTURE_EVENT_TYPE", "NvtxEvents"});
  FinishWriter(writer.get());
  CHECK(QueryRows(path, "SELECT name, value FROM META_DATA_CAPTURE ORDER BY rowid") ==
        Rows{{"CAPTURE_EVENT_TYPE", "OSRuntime"}, {"CAPTURE_EVENT_TYPE", "NvtxEvents"}});
}

}  // namespace
}  // namespace prof::storage
