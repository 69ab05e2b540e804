// NvtxTracker fed records built in memory, writing a real report through storage::ReportWriter;
// each test asserts the exact NVTX_EVENTS rows (and StringIds) that come out.
#include "collector/nvtx_tracker.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "storage/global_id.h"
#include "tests/nvtx/nvtx_record_builder.h"
#include "tests/support/test_support.h"

namespace prof::test {
namespace {

using protocol::NvtxMessageKind;
using protocol::NvtxPayloadKind;
using protocol::NvtxRangeEnding;
using protocol::RecordKind;
using Rows = std::vector<std::vector<std::string>>;

constexpr uint32_t kPid = 1234;
constexpr uint64_t kSessionStart = 1000;  // record time T is report time T - 1000

std::string Tid(uint32_t tid) { return std::to_string(storage::GlobalTid(kPid, tid)); }

// The columns every test compares, in schema order.
constexpr const char* kColumns =
    "start, end, eventType, rangeId, category, color, text, globalTid, endGlobalTid, textId, "
    "domainId, uint64Value, int64Value, doubleValue, uint32Value, int32Value, floatValue";

class TrackerHarness {
 public:
  explicit TrackerHarness(const std::string& test_name)
      : path_(MakeTempDir(test_name) + "/report.sqlite") {
    process_.stream_id = 1;
    process_.pid = kPid;
    process_.name = "program";
    process_.session_start_ns = kSessionStart;
    auto created = storage::ReportWriter::Create(path_);
    REQUIRE(created.ok());
    writer_ = std::move(created).value();
    tracker_ = std::make_unique<collector::NvtxTracker>(writer_.get());
    tracker_->RegisterHandlers(&dispatcher_);
  }

  void Feed(const BuiltRecord& record) { Feed(process_, record); }
  void Feed(const collector::ProcessStream& process, const BuiltRecord& record) {
    dispatcher_.Dispatch(process, record.header());
  }
  void EndProcess() { tracker_->OnProcessEnd(process_, 999999); }
  const collector::NvtxTrackerStats& stats() const { return tracker_->stats(); }
  const collector::RecordDispatcher& dispatcher() const { return dispatcher_; }

  // Finishes the report and returns `SELECT <columns> FROM NVTX_EVENTS ORDER BY <order>`.
  Rows Finish(const std::string& order = "start") {
    REQUIRE(writer_->Finish(storage::SessionInfo{}).ok());
    return QueryRows(path_,
                     std::string("SELECT ") + kColumns + " FROM NVTX_EVENTS ORDER BY " + order);
  }
  Rows Query(const std::string& sql) { return QueryRows(path_, sql); }

 private:
  std::string path_;
  collector::ProcessStream process_;
  std::unique_ptr<storage::ReportWriter> writer_;
  std::unique_ptr<collector::NvtxTracker> tracker_;
  collector::RecordDispatcher dispatcher_;
};

// A row of kColumns: the common columns first, payload columns NULL unless given.
std::vector<std::string> Row(std::string start, std::string end, std::string type,
                             std::string range_id, std::string category, std::string color,
                             std::string text, std::string global_tid, std::string end_global_tid,
                             std::string text_id, std::string domain_id) {
  return {start,  end,        type,           range_id, category,  color,
          text,   global_tid, end_global_tid, text_id,  domain_id, "NULL",
          "NULL", "NULL",     "NULL",         "NULL",   "NULL"};
}

TEST_CASE("push/pop ranges become eventType 59 rows like nsys's", "[nvtx][tracker]") {
  TrackerHarness harness("nvtx_tracker_pushpop");
  // As they arrive: each at its pop, innermost first.
  harness.Feed(Range(11, 1200, 1300, "inner"));
  harness.Feed(Range(12, 1250, 1260, "other thread"));
  harness.Feed(Range(11, 1100, 1400, "outer"));
  harness.Feed(Range(11, 1500, 1600, "in domain 3", 3));
  CHECK(harness.Finish() ==
        Rows{Row("100", "400", "59", "NULL", "NULL", "NULL", "outer", Tid(11), "NULL", "NULL", "0"),
             Row("200", "300", "59", "NULL", "NULL", "NULL", "inner", Tid(11), "NULL", "NULL", "0"),
             Row("250", "260", "59", "NULL", "NULL", "NULL", "other thread", Tid(12), "NULL",
                 "NULL", "0"),
             Row("500", "600", "59", "NULL", "NULL", "NULL", "in domain 3", Tid(11), "NULL", "NULL",
                 "3")});
}

TEST_CASE("ranges their process ended with: NULL end at an exit, the death's end at a death",
          "[nvtx][tracker]") {
  TrackerHarness harness("nvtx_tracker_open_at_end");
  harness.Feed(Range(11, 1100, 0, "open at exit", 0, NvtxRangeEnding::kOpenAtExit));
  harness.Feed(Range(11, 1200, 2000, "open at death", 0, NvtxRangeEnding::kOpenAtDeath));
  harness.Feed(Range(11, 1300, 1400, "unknown ending", 0, static_cast<NvtxRangeEnding>(7)));
  CHECK(harness.stats().unclosed_ranges == 1);
  CHECK(harness.stats().ranges_ended_by_death == 1);
  CHECK(harness.stats().malformed_records == 1);
  // Ended by the death: endGlobalTid is the process's, a tid of 0.
  CHECK(harness.Finish() ==
        Rows{Row("100", "NULL", "59", "NULL", "NULL", "NULL", "open at exit", Tid(11), "NULL",
                 "NULL", "0"),
             Row("200", "1000", "59", "NULL", "NULL", "NULL", "open at death", Tid(11),
                 std::to_string(storage::GlobalPid(kPid)), "NULL", "0")});
}

TEST_CASE("start/end ranges are eventType 60 rows with rangeId and endGlobalTid",
          "[nvtx][tracker]") {
  TrackerHarness harness("nvtx_tracker_startend");
  harness.Feed(Start(11, 1100, 7, "crosses threads"));
  harness.Feed(Start(11, 1150, 8, "same thread"));
  harness.Feed(End(12, 1500, 7));
  harness.Feed(End(11, 1600, 8));
  // The end of range 9 reaches the collector before its start (another thread's buffer).
  harness.Feed(End(13, 1900, 9));
  harness.Feed(Start(11, 1800, 9, "end arrived first"));
  CHECK(harness.stats().unmatched_range_ends == 0);
  CHECK(harness.Finish() == Rows{Row("100", "500", "60", "7", "NULL", "NULL", "crosses threads",
                                     Tid(11), Tid(12), "NULL", "0"),
                                 Row("150", "600", "60", "8", "NULL", "NULL", "same thread",
                                     Tid(11), "NULL", "NULL", "0"),
                                 Row("800", "900", "60", "9", "NULL", "NULL", "end arrived first",
                                     Tid(11), Tid(13), "NULL", "0")});
}

TEST_CASE("marks carry colour - category and each payload in its own column", "[nvtx][tracker]") {
  TrackerHarness harness("nvtx_tracker_payloads");
  EventFields fields;
  fields.text = "mark";
  fields.category = 5;
  fields.has_color = true;
  fields.color = 0xFF00AA11u;
  const std::pair<NvtxPayloadKind, uint64_t> payloads[] = {
      {NvtxPayloadKind::kUnsignedInt64, 0xFFFFFFFFFFFFFFFEull},
      {NvtxPayloadKind::kInt64, static_cast<uint64_t>(-5ll)},
      {NvtxPayloadKind::kDouble, 0x4004000000000000ull},  // 2.5
      {NvtxPayloadKind::kUnsignedInt32, 0xFFFFFFFFull},
      {NvtxPayloadKind::kInt32, 0xFFFFFFFDull},  // -3
      {NvtxPayloadKind::kFloat, 0xBFA00000ull},  // -1.25f
      {NvtxPayloadKind::kNone, 0}};
  uint64_t time = 1100;
  for (const auto& [kind, bits] : payloads) {
    fields.payload_kind = kind;
    fields.payload_bits = bits;
    harness.Feed(EventRecord(RecordKind::kNvtxMark, 11, time++, 0, fields));
  }
  const Rows rows = harness.Finish();
  REQUIRE(rows.size() == 7);
  const std::vector<std::string> common = {"NULL", "34",    "NULL", "5",    "4278233617",
                                           "mark", Tid(11), "NULL", "NULL", "0"};
  const std::string expected_payload[7][6] = {
      {"-2", "NULL", "NULL", "NULL", "NULL", "NULL"},  // uint64 stored as its bit pattern
      {"NULL", "-5", "NULL", "NULL", "NULL", "NULL"},
      {"NULL", "NULL", "2.5", "NULL", "NULL", "NULL"},
      {"NULL", "NULL", "NULL", "4294967295", "NULL", "NULL"},
      {"NULL", "NULL", "NULL", "NULL", "-3", "NULL"},
      {"NULL", "NULL", "NULL", "NULL", "NULL", "-1.25"},
      {"NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}};
  for (size_t i = 0; i < rows.size(); ++i) {
    INFO("row " << i);
    CHECK(rows[i][0] == std::to_string(100 + i));
    CHECK(std::vector<std::string>(rows[i].begin() + 1, rows[i].begin() + 11) == common);
    CHECK(std::vector<std::string>(rows[i].begin() + 11, rows[i].end()) ==
          std::vector<std::string>(std::begin(expected_payload[i]), std::end(expected_payload[i])));
  }
}

TEST_CASE("registered strings go to StringIds and events reference them by textId",
          "[nvtx][tracker]") {
  TrackerHarness harness("nvtx_tracker_registered");
  harness.Feed(Domain(RecordKind::kNvtxDomainCreate, 11, 1100, 2, "my domain"));
  harness.Feed(RegisterString(11, 1150, 2, 1, "registered name"));
  harness.Feed(RegisterString(11, 1160, 2, 2, "never used"));
  EventFields fields;
  fields.message_kind = NvtxMessageKind::kRegistered;
  fields.registered_string_id = 1;
  fields.text = "registered name";
  fields.range_id = 1300;  // its end
  harness.Feed(EventRecord(RecordKind::kNvtxPushPopRange, 11, 1200, 2, fields));
  fields.message_kind = NvtxMessageKind::kNone;
  fields.text = {};
  harness.Feed(EventRecord(RecordKind::kNvtxMark, 11, 1400, 2, fields));
  const Rows rows = harness.Finish();
  const Rows ids = harness.Query(
      "SELECT id FROM StringIds WHERE value = 'registered name' UNION ALL "
      "SELECT count(*) FROM StringIds WHERE value = 'never used'");
  REQUIRE(ids.size() == 2);
  CHECK(ids[1][0] == "1");
  CHECK(
      rows ==
      Rows{Row("100", "NULL", "75", "NULL", "NULL", "NULL", "my domain", Tid(11), "NULL", "NULL",
               "2"),
           Row("200", "300", "59", "NULL", "NULL", "NULL", "NULL", Tid(11), "NULL", ids[0][0], "2"),
           Row("400", "NULL", "34", "NULL", "NULL", "NULL", "NULL", Tid(11), "NULL", "NULL", "2")});
}

TEST_CASE("domain destroy and category names are rows of their own", "[nvtx][tracker]") {
  TrackerHarness harness("nvtx_tracker_categories");
  harness.Feed(CategoryName(11, 1100, 0, 3, "default domain category"));
  harness.Feed(CategoryName(11, 1200, 4, 9, "domain 4 category"));
  harness.Feed(Domain(RecordKind::kNvtxDomainDestroy, 11, 1300, 4, {}));
  CHECK(harness.Finish() == Rows{Row("100", "NULL", "33", "NULL", "3", "NULL",
                                     "default domain category", Tid(11), "NULL", "NULL", "0"),
                                 Row("200", "NULL", "33", "NULL", "9", "NULL", "domain 4 category",
                                     Tid(11), "NULL", "NULL", "4"),
                                 Row("300", "NULL", "76", "NULL", "NULL", "NULL", "NULL", Tid(11),
                                     "NULL", "NULL", "4")});
}

TEST_CASE("ranges open at process end are written with a NULL end", "[nvtx][tracker]") {
  TrackerHarness harness("nvtx_tracker_unclosed");
  harness.Feed(Range(11, 1100, 0, "never popped", 0, NvtxRangeEnding::kOpenAtExit));
  harness.Feed(Start(11, 1200, 4, "never ended"));
  harness.Feed(End(12, 1300, 99));  // its start never comes
  harness.EndProcess();
  CHECK(harness.stats().unclosed_ranges == 2);
  CHECK(harness.stats().unmatched_range_ends == 1);
  CHECK(harness.Finish() == Rows{Row("100", "NULL", "59", "NULL", "NULL", "NULL", "never popped",
                                     Tid(11), "NULL", "NULL", "0"),
                                 Row("200", "NULL", "60", "4", "NULL", "NULL", "never ended",
                                     Tid(11), "NULL", "NULL", "0")});
}

TEST_CASE("processes keep separate state even with equal tids", "[nvtx][tracker]") {
  TrackerHarness harness("nvtx_tracker_processes");
  collector::ProcessStream other;
  other.stream_id = 2;
  other.pid = 77;
  other.session_start_ns = kSessionStart;
  harness.Feed(other, Range(11, 1150, 1200, "pid 77"));
  harness.Feed(Range(11, 1100, 1300, "pid 1234"));
  CHECK(harness.Finish() ==
        Rows{Row("100", "300", "59", "NULL", "NULL", "NULL", "pid 1234", Tid(11), "NULL", "NULL",
                 "0"),
             Row("150", "200", "59", "NULL", "NULL", "NULL", "pid 77",
                 std::to_string(storage::GlobalTid(77, 11)), "NULL", "NULL", "0")});
}

TEST_CASE("the streams before and after exec keep separate state under one pid",
          "[nvtx][tracker]") {
  TrackerHarness harness("nvtx_tracker_exec");
  collector::ProcessStream after_exec;
  after_exec.stream_id = 2;
  after_exec.pid = kPid;
  after_exec.session_start_ns = kSessionStart;
  harness.Feed(Range(11, 1100, 0, "before exec", 0, NvtxRangeEnding::kOpenAtExit));
  harness.Feed(Start(11, 1150, 1, "started before exec"));
  harness.Feed(after_exec, Start(11, 1250, 1, "started after exec"));
  harness.Feed(after_exec, Range(11, 1200, 1300, "after exec"));
  harness.Feed(after_exec, End(11, 1350, 1));
  harness.EndProcess();
  CHECK(harness.stats().unclosed_ranges == 2);
  CHECK(harness.Finish() == Rows{Row("100", "NULL", "59", "NULL", "NULL", "NULL", "before exec",
                                     Tid(11), "NULL", "NULL", "0"),
                                 Row("150", "NULL", "60", "1", "NULL", "NULL",
                                     "started before exec", Tid(11), "NULL", "NULL", "0"),
                                 Row("200", "300", "59", "NULL", "NULL", "NULL", "after exec",
                                     Tid(11), "NULL", "NULL", "0"),
                                 Row("250", "350", "60", "1", "NULL", "NULL", "started after exec",
                                     Tid(11), "NULL", "NULL", "0")});
}

TEST_CASE("the tracker registers each kind's struct size: shorter records never reach it",
          "[nvtx][tracker]") {
  TrackerHarness harness("nvtx_tracker_malformed");
  BuiltRecord short_range = Range(11, 1100, 1150, "short");
  short_range.mutable_header()->size = sizeof(protocol::NvtxEventRecord) - 8;
  harness.Feed(short_range);
  BuiltRecord not_nvtx = Range(11, 1100, 1150, "wrong kind");
  not_nvtx.mutable_header()->kind = RecordKind::kOsrtCall;
  harness.Feed(not_nvtx);
  harness.Feed(Range(11, 1200, 1300, "fine"));
  CHECK(harness.dispatcher().malformed_records() == 1);
  CHECK(harness.dispatcher().unknown_records() == 1);
  CHECK(harness.stats().malformed_records == 0);
  CHECK(harness.Finish() == Rows{Row("200", "300", "59", "NULL", "NULL", "NULL", "fine", Tid(11),
                                     "NULL", "NULL", "0")});
}

}  // namespace
}  // namespace prof::test
