// The report's encoder threads and writer thread: every row arrives once, in order, across
// chunks finished out of order by several encoders; commits follow their chunk; failures of
// either side are reported and stop the copying.
#include "storage/chunk_pipeline.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "storage/report_tables.h"
#include "storage/report_writer.h"
#include "storage/schema_catalog.h"
#include "storage/table_inserter.h"
#include "tests/storage/storage_test_util.h"
#include "tests/support/test_support.h"

namespace prof::storage {
namespace {

const TableSpec& Spec(std::string_view table) { return *FindTableSpec(table); }

// Adds a row of table definition `kTable` to `table`; true when its batch is full.
template <const auto& kTable>
bool AddRow(TableInserter* table, const TableRow<kTable>& row) {
  return table->Add(&BindTableRow<kTable>, &row);
}

using test::FreshReportPath;

// A report database driven directly: the pipeline's writer commits through `commits`.
struct PipelineFixture {
  explicit PipelineFixture(const std::string& name, int encoders) : path(FreshReportPath(name)) {
    REQUIRE(Database::OpenReadWrite(path, &db).ok());
    REQUIRE(db.Exec("PRAGMA journal_mode = OFF").ok());
    REQUIRE(Transaction::Begin(&db, &transaction).ok());
    pipeline = std::make_unique<ChunkPipeline>(
        &db, &schema, [this] { return Commit(); }, encoders);
    REQUIRE(pipeline->Start().ok());
  }

  Status Commit() {
    if (before_commit) before_commit();
    ++commits;
    // The rows of every earlier chunk are in the report when its commit runs.
    int64_t rows = 0;
    Statement count;
    if (schema.HasTable("OSRT_API") && db.Prepare("SELECT count(*) FROM OSRT_API", &count).ok()) {
      bool has_row = false;
      if (count.Step(&has_row).ok() && has_row) rows = count.ColumnInt64(0);
    }
    rows_at_commit.push_back(rows);
    if (Status status = transaction.Commit(); !status.ok()) return status;
    return Transaction::Begin(&db, &transaction);
  }

  // Adds `count` OSRT_API rows whose start is their sequence number, a batch at a time.
  Status AddOsrtRows(TableInserter* table, int64_t first, int64_t count) {
    for (int64_t i = first; i < first + count; ++i) {
      OsrtCallRow row;
      row.start = i;
      row.end = i + 1;
      row.name_id = 7;
      if (AddRow<kOsrtApiTable>(table, row) || i + 1 == first + count) {
        if (Status status = pipeline->WriteRows(table->TakeBatch(ByteBuffer())); !status.ok()) {
          return status;
        }
      }
    }
    return Status::Ok();
  }

  std::vector<std::vector<std::string>> Query(const std::string& sql) {
    return prof::test::QueryRows(path, sql);
  }

  std::string path;
  Database db;
  ReportSchema schema{&db};
  Transaction transaction;
  std::unique_ptr<ChunkPipeline> pipeline;
  std::function<void()> before_commit;  // runs on the writer thread
  int commits = 0;
  std::vector<int64_t> rows_at_commit;
};

void Finish(PipelineFixture* fixture) {
  REQUIRE(fixture->pipeline->Stop().ok());
  REQUIRE(fixture->transaction.Commit().ok());
}

TEST_CASE("Rows of several chunks reach the report once each, in order", "[storage][pipeline]") {
  // Three encoders finish chunks out of order; the writer must still copy them in order.
  PipelineFixture fixture("pipeline-order", 3);
  TableInserter osrt(Spec("OSRT_API"));
  TableInserter strings(Spec("StringIds"));
  const int64_t rows = 5 * ChunkPipeline::kChunkRows + 123;
  REQUIRE(fixture.AddOsrtRows(&osrt, 0, rows / 2).ok());
  for (int64_t id = 1; id <= 3; ++id) {
    AddRow<kStringIdsTable>(&strings, {id, "name " + std::to_string(id)});
  }
  REQUIRE(fixture.pipeline->WriteRows(strings.TakeBatch(ByteBuffer())).ok());
  REQUIRE(fixture.pipeline->CommitRows().ok());
  REQUIRE(fixture.AddOsrtRows(&osrt, rows / 2, rows - rows / 2).ok());
  Finish(&fixture);

  using Rows = std::vector<std::vector<std::string>>;
  CHECK(fixture.Query("SELECT count(*), min(start), max(start) FROM OSRT_API") ==
        Rows{{std::to_string(rows), "0", std::to_string(rows - 1)}});
  // rowid order is arrival order: every row's start is its rowid - 1.
  CHECK(fixture.Query("SELECT count(*) FROM OSRT_API WHERE start != rowid - 1") == Rows{{"0"}});
  CHECK(fixture.Query("SELECT id, value FROM StringIds ORDER BY id") ==
        Rows{{"1", "name 1"}, {"2", "name 2"}, {"3", "name 3"}});
  // Each chunk is committed right after its rows (SQLite 3.53.4 and later refuse to attach the
  // next image while the transaction still reads the last): two full chunks, the one CommitRows()
  // closed early, two full chunks again and the rest at Stop().
  constexpr int64_t kChunk = ChunkPipeline::kChunkRows;
  CHECK(fixture.commits == 6);
  CHECK(fixture.rows_at_commit == std::vector<int64_t>{kChunk, 2 * kChunk, rows / 2,
                                                       rows / 2 + kChunk, rows / 2 + 2 * kChunk,
                                                       rows});
  // The report's tables come with their ENUM_* rows, once.
  CHECK(fixture.Query("SELECT count(*) FROM ENUM_NSYS_EVENT_CLASS") == Rows{{"89"}});
}

TEST_CASE("A batch without rows creates no table", "[storage][pipeline]") {
  PipelineFixture fixture("pipeline-empty-batch", 1);
  TableInserter kernels(Spec("CUPTI_ACTIVITY_KIND_KERNEL"));
  TableInserter osrt(Spec("OSRT_API"));
  REQUIRE(fixture.AddOsrtRows(&osrt, 0, 10).ok());
  REQUIRE(fixture.pipeline->WriteRows(kernels.TakeBatch(ByteBuffer())).ok());
  REQUIRE(fixture.pipeline->CommitRows().ok());
  Finish(&fixture);
  CHECK(fixture.commits == 1);
  CHECK(fixture.schema.HasTable("OSRT_API"));
  CHECK_FALSE(fixture.schema.HasTable("CUPTI_ACTIVITY_KIND_KERNEL"));
}

TEST_CASE("A table the report does not know fails the pipeline with its name",
          "[storage][pipeline]") {
  PipelineFixture fixture("pipeline-unknown-table", 2);
  // Rows the chunk's own database takes, for a table the report's schema does not know.
  const TableSpec spec{"NO_SUCH_TABLE",
                       TableCreation::kOnFirstRow,
                       {},
                       "CREATE TABLE NO_SUCH_TABLE (id INTEGER, value TEXT);",
                       "id, value",
                       2,
                       ""};
  TableInserter unknown(spec);
  AddRow<kStringIdsTable>(&unknown, {1, "x"});
  REQUIRE(fixture.pipeline->WriteRows(unknown.TakeBatch(ByteBuffer())).ok());
  TableInserter osrt(Spec("OSRT_API"));
  (void)fixture.pipeline->CommitRows();  // the encoder's failure may be known by now, or not
  // Later chunks are dropped, and the first failure is what Stop() reports.
  (void)fixture.AddOsrtRows(&osrt, 0, 2 * ChunkPipeline::kChunkRows);
  const Status stopped = fixture.pipeline->Stop();
  REQUIRE_FALSE(stopped.ok());
  CHECK(stopped.message() == "unknown report table NO_SUCH_TABLE");
  CHECK(fixture.commits == 0);
  CHECK_FALSE(fixture.schema.HasTable("OSRT_API"));
}

TEST_CASE("A failed copy into the report is reported and stops later chunks",
          "[storage][pipeline]") {
  PipelineFixture fixture("pipeline-copy-fails", 1);
  TableInserter strings(Spec("StringIds"));
  AddRow<kStringIdsTable>(&strings, {1, "first"});
  REQUIRE(fixture.pipeline->WriteRows(strings.TakeBatch(ByteBuffer())).ok());
  REQUIRE(fixture.pipeline->CommitRows().ok());
  // The same id again: fine in the chunk's own database, a conflict in the report's.
  AddRow<kStringIdsTable>(&strings, {1, "again"});
  REQUIRE(fixture.pipeline->WriteRows(strings.TakeBatch(ByteBuffer())).ok());
  (void)fixture.pipeline->CommitRows();  // the copy's failure may be known by now, or not
  AddRow<kStringIdsTable>(&strings, {2, "later"});
  (void)fixture.pipeline->WriteRows(strings.TakeBatch(ByteBuffer()));
  (void)fixture.pipeline->CommitRows();
  const Status stopped = fixture.pipeline->Stop();
  REQUIRE_FALSE(stopped.ok());
  CHECK_THAT(stopped.message(),
             Catch::Contains("UNIQUE constraint failed: StringIds.id") &&
                 Catch::Contains("INSERT INTO main.StringIds SELECT * FROM prof_chunk.StringIds"));
  CHECK(fixture.commits == 1);
  REQUIRE(fixture.transaction.Commit().ok());
  CHECK(fixture.Query("SELECT id, value FROM StringIds") ==
        std::vector<std::vector<std::string>>{{"1", "first"}});
}

TEST_CASE("Cancel drops the chunks not yet copied and ends the threads", "[storage][pipeline]") {
  PipelineFixture fixture("pipeline-cancel", 2);
  // The writer is held in the first chunk's commit until Cancel() has taken effect, so that the
  // two chunks behind it are still to copy (the waits are bounded: a broken pipeline fails, not
  // hangs).
  std::promise<void> in_commit;
  std::promise<void> cancelled;
  std::shared_future<void> cancelled_seen = cancelled.get_future().share();
  fixture.before_commit = [&, first = true]() mutable {
    if (!first) return;
    first = false;
    in_commit.set_value();
    cancelled_seen.wait_for(std::chrono::seconds(30));
  };
  TableInserter osrt(Spec("OSRT_API"));
  REQUIRE(fixture.AddOsrtRows(&osrt, 0, 3 * ChunkPipeline::kChunkRows).ok());
  REQUIRE(in_commit.get_future().wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  std::thread canceller([&] { fixture.pipeline->Cancel(); });
  // Cancel() notes its failure before it waits for the threads: WriteRows() reports it then.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  bool cancel_seen = false;
  while (!cancel_seen && std::chrono::steady_clock::now() < deadline) {
    cancel_seen =
        fixture.pipeline->WriteRows(osrt.TakeBatch(ByteBuffer())).message() == "cancelled";
    if (!cancel_seen) std::this_thread::yield();
  }
  cancelled.set_value();
  canceller.join();
  CHECK(cancel_seen);
  CHECK(fixture.commits == 1);
  // Closed for good: rows after Cancel go nowhere.
  CHECK(fixture.pipeline->WriteRows(osrt.TakeBatch(ByteBuffer())).message() ==
        "the report is closed");
  REQUIRE(fixture.transaction.Commit().ok());
  // The first chunk, whole; not the two that waited behind it.
  CHECK(fixture.Query("SELECT count(*), max(start) FROM OSRT_API") ==
        std::vector<std::vector<std::string>>{{std::to_string(ChunkPipeline::kChunkRows),
                                               std::to_string(ChunkPipeline::kChunkRows - 1)}});
}

}  // namespace
}  // namespace prof::storage
