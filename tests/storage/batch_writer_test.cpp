// The report's writer thread: tasks run in order, failures stop later tasks and are reported, the
// submitting thread runs them itself when no writer thread runs; and the row encoding round trip.
#include "storage/batch_writer.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "storage/row_binder.h"
#include "tests/support/test_support.h"

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
  binder.Value(value);
  batch.rows = 1;
  return batch;
}

using Log = std::vector<std::string>;

// Logs each task with all its values ("rows:<n>:<i>,<text>,<null>,<real>;..." or "commit"),
// so that a batch read back from the spill file is checked byte for byte. Holds the first task
// until Release(): the writer thread is busy, so everything submitted meanwhile must queue.
class GatedSink : public BatchSink {
 public:
  Status WriteRows(const RowBatch& batch) override {
    WaitForRelease();
    RowBatchReader reader(batch.bytes);
    std::string entry = "rows:" + std::to_string(batch.rows) + ":";
    for (int row = 0; row < batch.rows; ++row) {
      const RowValue number = reader.Next();
      const RowValue text = reader.Next();
      const RowValue null = reader.Next();
      const RowValue real = reader.Next();
      entry += std::to_string(number.int64) + "," + std::string(text.text) + "," +
               (null.tag == ValueTag::kNull ? "null" : "?") + "," + std::to_string(real.real) + ";";
    }
    Append(entry);
    return entry == fail_at ? Status::Error("cannot " + entry) : Status::Ok();
  }
  Status CommitRows() override {
    WaitForRelease();
    Append("commit");
    return Status::Ok();
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }
  // Returns once the writer thread holds a task here (it is no longer in the queue).
  void WaitUntilHeld() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return held_; });
  }

  // Read once the writer has stopped.
  Log log;
  std::string fail_at;

 private:
  void Append(const std::string& entry) {
    std::lock_guard<std::mutex> lock(mutex_);
    log.push_back(entry);
  }
  void WaitForRelease() {
    std::unique_lock<std::mutex> lock(mutex_);
    held_ = true;
    changed_.notify_all();
    changed_.wait(lock, [&] { return released_; });
  }
  std::mutex mutex_;
  std::condition_variable changed_;
  bool held_ = false;
  bool released_ = false;
};

// Releases the sink after `delay`, unless destroyed first.
class DelayedRelease {
 public:
  DelayedRelease(GatedSink* sink, std::chrono::milliseconds delay)
      : thread_([this, sink, delay] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (!cancelled_changed_.wait_for(lock, delay, [&] { return cancelled_; }))
            sink->Release();
        }) {}
  ~DelayedRelease() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      cancelled_ = true;
    }
    cancelled_changed_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cancelled_changed_;
  bool cancelled_ = false;
  std::thread thread_;  // last: starts once the members it uses exist
};

// Batch `i` of `rows` rows: (i * 100 + row, "t<i>-<row>", NULL, i + row / 2.0).
RowBatch WideBatchOf(int64_t i, int rows) {
  RowBatch batch;
  RowBinder binder(&batch.bytes);
  for (int row = 0; row < rows; ++row) {
    binder.Value(i * 100 + row);
    binder.Value(std::string_view("t" + std::to_string(i) + "-" + std::to_string(row)));
    binder.Null();
    binder.Value(std::optional<double>(static_cast<double>(i) + row / 2.0));
  }
  batch.rows = rows;
  return batch;
}

std::string WideEntryOf(int64_t i, int rows) {
  std::string entry = "rows:" + std::to_string(rows) + ":";
  for (int row = 0; row < rows; ++row) {
    entry += std::to_string(i * 100 + row) + ",t" + std::to_string(i) + "-" + std::to_string(row) +
             ",null," + std::to_string(static_cast<double>(i) + row / 2.0) + ";";
  }
  return entry;
}

bool IsEmptyDirectory(const std::string& path) {
  return std::filesystem::is_empty(std::filesystem::path(path));
}

// Submits 60 batches (1 to 3 rows) and a commit after every 20th while the sink holds the first
// task; returns what the sink must log once released. The second batch takes the memory queue's
// one place, so with a spill file 61 tasks wait there.
Log SubmitWhileHeld(BatchWriter* writer, GatedSink* sink) {
  Log expected;
  for (int64_t i = 0; i < 60; ++i) {
    const int rows = 1 + static_cast<int>(i % 3);
    REQUIRE(writer->SubmitRows(WideBatchOf(i, rows)).ok());
    if (i == 0) sink->WaitUntilHeld();
    expected.push_back(WideEntryOf(i, rows));
    if (i % 20 == 19) {
      REQUIRE(writer->SubmitCommit().ok());
      expected.push_back("commit");
    }
  }
  return expected;
}

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

TEST_CASE("batches beyond the memory bound wait in a spill file, in order and intact",
          "[storage][batch][spill]") {
  const std::string dir = test::MakeTempDir("spill");
  GatedSink sink;
  // Room for one batch in memory: with the sink held, every later submit must spill, or wait
  // for the sink (released after 10 s then, and the counts below fail).
  BatchWriter writer(&sink, /*max_queued_bytes=*/16, {dir, /*max_bytes=*/1 << 20});
  writer.Start();
  Log expected;
  {
    DelayedRelease watchdog(&sink, std::chrono::seconds(10));
    expected = SubmitWhileHeld(&writer, &sink);
    CHECK(writer.spilled_tasks() == 61);
    CHECK(writer.rows_waiting_on_disk() == 117);  // batches 2 to 59, 1 + i % 3 rows each
  }
  sink.Release();
  REQUIRE(writer.Stop().ok());
  CHECK(writer.rows_waiting_on_disk() == 0);
  CHECK(sink.log == expected);
  CHECK(IsEmptyDirectory(dir));  // the file never had a name
}

TEST_CASE("once the spill file is empty again new batches go to memory",
          "[storage][batch][spill]") {
  const std::string dir = test::MakeTempDir("spill_again");
  GatedSink sink;
  BatchWriter writer(&sink, 16, {dir, 1 << 20});
  writer.Start();
  REQUIRE(writer.SubmitRows(WideBatchOf(0, 1)).ok());
  sink.WaitUntilHeld();
  {
    DelayedRelease watchdog(&sink, std::chrono::seconds(10));  // should spilling fail
    REQUIRE(writer.SubmitRows(WideBatchOf(1, 2)).ok());        // the memory queue's one place
    REQUIRE(writer.SubmitRows(WideBatchOf(2, 3)).ok());        // spilled
    CHECK(writer.spilled_tasks() == 1);
  }
  sink.Release();
  // Rows left the spill file in the same step that emptied it.
  for (int i = 0; i < 10000 && writer.rows_waiting_on_disk() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  REQUIRE(writer.rows_waiting_on_disk() == 0);
  REQUIRE(writer.SubmitRows(WideBatchOf(3, 1)).ok());
  REQUIRE(writer.Stop().ok());
  CHECK(writer.spilled_tasks() == 1);
  CHECK(sink.log ==
        Log{WideEntryOf(0, 1), WideEntryOf(1, 2), WideEntryOf(2, 3), WideEntryOf(3, 1)});
}

TEST_CASE("a full spill file makes submits wait, and the order still holds",
          "[storage][batch][spill]") {
  const std::string dir = test::MakeTempDir("spill_full");
  GatedSink sink;
  // Room for about two batches on disk: the third waits until the writer runs.
  BatchWriter writer(&sink, 16, {dir, /*max_bytes=*/200});
  writer.Start();
  DelayedRelease release(&sink, std::chrono::milliseconds(200));
  const Log expected = SubmitWhileHeld(&writer, &sink);
  REQUIRE(writer.Stop().ok());
  CHECK(sink.log == expected);
  CHECK(writer.spilled_tasks() > 0);
  CHECK(writer.spilled_tasks() < 61);
}

TEST_CASE("without a usable spill directory submits wait as before", "[storage][batch][spill]") {
  GatedSink sink;
  BatchWriter writer(&sink, 16, {test::MakeTempDir("spill_missing") + "/no/such/dir", 1 << 20});
  writer.Start();
  DelayedRelease release(&sink, std::chrono::milliseconds(100));
  const Log expected = SubmitWhileHeld(&writer, &sink);
  REQUIRE(writer.Stop().ok());
  CHECK(sink.log == expected);
  CHECK(writer.spilled_tasks() == 0);
}

TEST_CASE("a failing spilled task is kept and the spilled tasks after it are skipped",
          "[storage][batch][spill]") {
  GatedSink sink;
  sink.fail_at = WideEntryOf(3, 1);
  BatchWriter writer(&sink, 16, {test::MakeTempDir("spill_fail"), 1 << 20});
  writer.Start();
  {
    DelayedRelease watchdog(&sink, std::chrono::seconds(10));  // should spilling fail
    for (int64_t i = 0; i < 8; ++i) (void)writer.SubmitRows(WideBatchOf(i, 1));
    CHECK(writer.spilled_tasks() >= 6);
  }
  sink.Release();
  const Status stopped = writer.Stop();
  REQUIRE_FALSE(stopped.ok());
  CHECK(stopped.message() == "cannot " + WideEntryOf(3, 1));
  CHECK(sink.log ==
        Log{WideEntryOf(0, 1), WideEntryOf(1, 1), WideEntryOf(2, 1), WideEntryOf(3, 1)});
}

TEST_CASE("a cancelled writer skips its backlog in memory and on disk", "[storage][batch][spill]") {
  GatedSink sink;
  BatchWriter writer(&sink, 16, {test::MakeTempDir("spill_cancel"), 1 << 20});
  writer.Start();
  {
    DelayedRelease watchdog(&sink, std::chrono::seconds(10));  // should spilling fail
    for (int64_t i = 0; i < 8; ++i) {
      REQUIRE(writer.SubmitRows(WideBatchOf(i, 1)).ok());
      if (i == 0) sink.WaitUntilHeld();
    }
    CHECK(writer.spilled_tasks() == 6);
  }
  DelayedRelease release(&sink, std::chrono::milliseconds(50));  // while Cancel() waits
  writer.Cancel();
  CHECK(sink.log == Log{WideEntryOf(0, 1)});  // the task in the sink's hands when cancelled
  CHECK(writer.status().ok());
  REQUIRE(writer.SubmitRows(WideBatchOf(9, 1)).ok());  // runs on the caller now
  CHECK(sink.log == Log{WideEntryOf(0, 1), WideEntryOf(9, 1)});
}

TEST_CASE("rows decode to the values they were encoded from", "[storage][batch]") {
  ByteBuffer bytes;
  RowBinder binder(&bytes);
  binder.Value(int64_t{-5});
  binder.Null();
  binder.Value(std::optional<double>(2.5));
  binder.Value(std::string_view("event"));
  binder.Value(std::string_view(""));
  binder.Value(std::optional<int64_t>());
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
