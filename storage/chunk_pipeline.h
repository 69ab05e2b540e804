// Moves row batches into the report on more than one thread (docs/architecture.md, "Report").
// Binding rows into SQLite is most of a report's cost, and one thread of it keeps up with
// ~1.2-2 M rows/s depending on the host. So:
// - encoder threads each take a chunk of batches (about kChunkRows rows), insert it into a private
//   in-memory database with the report's DDL and serialize that database (sqlite3_serialize);
// - the writer thread, the only one that touches the report, attaches each image in turn
//   (sqlite3_deserialize) and copies its tables with INSERT INTO main.t SELECT * FROM chunk.t,
//   which SQLite runs as raw record copies (its transfer optimisation: same DDL, and the report's
//   tables have no indexes while they load).
//
// Contract:
// - Runs as a BatchWriter's sink: WriteRows() copies the batch into the open chunk; CommitRows()
//   closes it early, so that its rows reach the report now. Both are called from one thread at a
//   time (batch_writer.h).
// - The writer commits the report's transaction (`commit_rows`) after each chunk it copies.
// - Order: chunks reach the report in the order they were closed, a table's rows within a chunk
//   in the order they came, so every table gets its rows in arrival order, as with one thread.
// - Tables are created in the report (ReportSchema::EnsureTable, with their ENUM_* rows) when the
//   first chunk with rows for them is copied.
// - Bounded: at most (encoders + 2) chunks exist between closing and copied; WriteRows() and
//   CommitRows() wait beyond that, which holds the BatchWriter's queue back in turn.
// - The first failure of any thread is kept; later chunks are dropped. WriteRows(), CommitRows()
//   and Stop() return it (a chunk or two late).
// - Start() before the first chunk; Stop() copies every chunk and ends the threads, after which
//   the report connection is the caller's again; Cancel() drops what is not copied yet.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "common/status.h"
#include "storage/batch_writer.h"
#include "storage/report_schema.h"
#include "storage/row_batch.h"
#include "storage/sqlite_database.h"

namespace prof::storage {

class ChunkPipeline : public BatchSink {
 public:
  // Rows per chunk: the per-chunk costs (a fresh database, statements, attaching the image) stay
  // below 1 % of inserting the rows, and a chunk is a few MB.
  static constexpr int64_t kChunkRows = 32768;

  // `report` and `schema` are used by the writer thread between Start() and Stop();
  // `commit_rows` commits the report's transaction and opens the next one (on the writer thread).
  ChunkPipeline(Database* report, ReportSchema* schema, std::function<Status()> commit_rows,
                int encoder_threads);
  ~ChunkPipeline() override;
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;

  // How many encoder threads suit this machine: 2 with 8 CPUs or more, else 1.
  static int DefaultEncoderThreads();

  Status Start();
  Status Stop();
  void Cancel();

  // BatchSink
  Status WriteRows(const RowBatch& batch) override;
  Status CommitRows() override;

 private:
  struct Chunk;
  using ChunkPtr = std::unique_ptr<Chunk>;

  // Hands the open chunk to the encoders (waits while max_chunks_in_flight_ are out).
  Status CloseChunk();
  void EncoderLoop();
  void WriterLoop();
  // Encoder thread: the chunk's rows into a fresh in-memory database, serialized into the chunk.
  static Status Encode(Chunk* chunk);
  // Writer thread: the chunk's image into the report.
  Status Copy(Chunk* chunk);
  uint64_t ChunksInFlight() const { return next_sequence_ - next_to_copy_; }  // holds mutex_
  void Note(Status status);                                                   // caller holds mutex_
  // Lets the threads finish what is queued (or skip it after a failure) and joins them.
  void EndThreads();

  Database* report_;
  ReportSchema* schema_;
  std::function<Status()> commit_rows_;
  const int encoder_count_;
  const uint64_t max_chunks_in_flight_;

  ChunkPtr open_;  // the submitting thread's

  std::mutex mutex_;
  std::condition_variable encode_ready_;  // encoders wait for chunks
  std::condition_variable copy_ready_;    // the writer waits for the next chunk in order
  std::condition_variable copied_;        // the submitter waits for room
  std::deque<ChunkPtr> to_encode_;
  std::map<uint64_t, ChunkPtr> encoded_;  // by sequence, for the writer to take in order
  // Chunks closed so far, and copied so far: the difference is what is in flight.
  uint64_t next_sequence_ = 0;
  uint64_t next_to_copy_ = 0;
  std::vector<ChunkPtr> spare_;  // copied chunks whose buffers the next ones reuse
  bool stopping_ = false;
  bool running_ = false;
  Status status_ = Status::Ok();
  std::vector<std::thread> encoders_;
  std::thread writer_;
};

}  // namespace prof::storage
