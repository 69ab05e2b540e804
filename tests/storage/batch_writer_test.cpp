// The report's writer thread: tasks run in order, failures stop later tasks and are reported, the
// submitting thread runs them itself when no writer thread runs; and the row encoding round trip.
#include "storage/batch_writer.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "storage/row_binders.h"

namespace prof::storage {
namespace {

// Logs what it was asked to do: "rows:<first value>" or "commit"; fails the task named fail_at.
class LoggingSink : public BatchSink {
 public:
  Status WriteRows(const RowBatch& batch) override {
    RowBatchReader reader(batch.bytes);
    return Log("rows:" + std::to_string(reader.Next().int64));
  }
  Status CommitRows() override { return Log("commit"); }

  std::vector<std::string> log;
  std::string fail_at;

 private:
  Status Log(const std::string& task) {
    log.push_back(task);
    return task == fail_at ? Status::Error("cannot " + task) : Status::Ok();
  }
};

RowBatch BatchOf(int64_t value) {
  RowBatch batch;
  RowBinder binder(&batch.bytes);
  binder.Int64(value);
  batch.rows = 1;
  return batch;
}

using Log = std::vector<std::string>;

TEST_CASE("the writer thread runs batches and commits in the order submitted", "[storage][batch]") {
  LoggingSink sink;
  BatchWriter writer(&sink, /*max_queued_bytes=*/16);  // a tiny bound: submits wait for the thread
  writer.Start();
  for (int64_t i = 0; i < 100; ++i) {
    REQUIRE(writer.SubmitRows(BatchOf(i)).ok());
    if (i % 40 == 39) REQUIRE(writer.SubmitCommit().ok());
  }
  REQUIRE(writer.Stop().ok());
  Log expected;
  for (int64_t i = 0; i < 100; ++i) {
    expected.push_back("rows:" + std::to_string(i));
    if (i % 40 == 39) expected.push_back("commit");
  }
  CHECK(sink.log == expected);
}

TEST_CASE("the first failure is kept and the tasks after it are skipped", "[storage][batch]") {
  LoggingSink sink;
  sink.fail_at = "rows:2";
  BatchWriter writer(&sink, 1 << 20);
  writer.Start();
  for (int64_t i = 0; i < 5; ++i) (void)writer.SubmitRows(BatchOf(i));  // failures: Stop() says
  (void)writer.SubmitCommit();
  const Status stopped = writer.Stop();
  REQUIRE_FALSE(stopped.ok());
  CHECK(stopped.message() == "cannot rows:2");
  CHECK(sink.log == Log{"rows:0", "rows:1", "rows:2"});
  CHECK(writer.SubmitCommit().message() == "cannot rows:2");
  CHECK(sink.log.size() == 3);
}

TEST_CASE("without a writer thread the submitter runs each task at once", "[storage][batch]") {
  LoggingSink sink;
  BatchWriter writer(&sink, 1 << 20);
  REQUIRE(writer.SubmitRows(BatchOf(7)).ok());
  CHECK(sink.log == Log{"rows:7"});
  writer.Start();
  REQUIRE(writer.SubmitRows(BatchOf(8)).ok());
  REQUIRE(writer.Stop().ok());
  REQUIRE(writer.SubmitCommit().ok());
  CHECK(sink.log == Log{"rows:7", "rows:8", "commit"});
  sink.fail_at = "rows:9";
  CHECK(writer.SubmitRows(BatchOf(9)).message() == "cannot rows:9");
}

TEST_CASE("written batches hand their buffers back for reuse", "[storage][batch]") {
  LoggingSink sink;
  BatchWriter writer(&sink, 1 << 20);
  CHECK(writer.TakeSpareBytes().capacity() == 0);
  RowBatch batch = BatchOf(1);
  batch.bytes.Reserve(65536);
  REQUIRE(writer.SubmitRows(std::move(batch)).ok());
  const ByteBuffer spare = writer.TakeSpareBytes();
  CHECK(spare.capacity() == 65536);
  CHECK(writer.TakeSpareBytes().capacity() == 0);
}

TEST_CASE("rows decode to the values they were encoded from", "[storage][batch]") {
  ByteBuffer bytes;
  RowBinder binder(&bytes);
  binder.Int64(int64_t{-5});
  binder.Null();
  binder.Double(std::optional<double>(2.5));
  binder.Text(std::string_view("event"));
  binder.Text(std::string_view(""));
  binder.Int64(std::optional<int64_t>());
  RowBatchReader reader(bytes);
  const RowValue integer = reader.Next();
  CHECK((integer.tag == ValueTag::kInt64 && integer.int64 == -5));
  CHECK(reader.Next().tag == ValueTag::kNull);
  const RowValue real = reader.Next();
  CHECK((real.tag == ValueTag::kDouble && real.real == 2.5));
  const RowValue text = reader.Next();
  CHECK((text.tag == ValueTag::kText && text.text == "event"));
  const RowValue empty = reader.Next();
  CHECK((empty.tag == ValueTag::kText && empty.text.empty()));
  CHECK(reader.Next().tag == ValueTag::kNull);
  // 9 + 1 + 9 + (5 + 5) + 5 + 1 bytes.
  CHECK(bytes.size() == 35);
}

}  // namespace
}  // namespace prof::storage
