#include "storage/chunk_pipeline.h"

#include <pthread.h>
#include <sqlite3.h>

#include <algorithm>
#include <string>
#include <system_error>
#include <utility>

#include "common/signals_blocked.h"
#include "storage/batch_inserter.h"
#include "storage/schema_catalog.h"
#include "storage/table_inserter.h"

namespace prof::storage {
namespace {

// The report's name for the attached chunk image.
constexpr std::string_view kChunkSchema = "prof_chunk";

// A chunk's database lives in memory and is thrown away once serialized: no rollback journal.
constexpr std::string_view kChunkPragmas = "PRAGMA journal_mode = OFF";

struct SqliteFree {
  void operator()(unsigned char* data) const { sqlite3_free(data); }
};

}  // namespace

struct ChunkPipeline::Chunk {
  // Consecutive rows of one table in `bytes`.
  struct Part {
    const TableInserter* table;
    int rows;
    size_t offset;
  };

  uint64_t sequence = 0;
  int64_t rows = 0;
  ByteBuffer bytes;
  std::vector<Part> parts;
  // Tables rewritten whole whose write starts in this chunk (RowBatch::starts_rewrite).
  std::vector<const TableInserter*> rewrites;
  // Filled by the encoder: the serialized database and the tables in it, in first-row order.
  std::unique_ptr<unsigned char, SqliteFree> image;
  sqlite3_int64 image_size = 0;
  std::vector<const TableInserter*> tables;

  void Clear() {
    rows = 0;
    bytes.Clear();
    parts.clear();
    rewrites.clear();
    image.reset();
    image_size = 0;
    tables.clear();
  }
};

ChunkPipeline::ChunkPipeline(Database* report, ReportSchema* schema,
                             std::function<Status()> commit_rows, int encoder_threads)
    : report_(report),
      schema_(schema),
      commit_rows_(std::move(commit_rows)),
      encoder_count_(std::max(1, encoder_threads)),
      // Each encoder busy, one chunk being copied and one ready for the writer.
      max_chunks_in_flight_(static_cast<uint64_t>(encoder_count_) + 2) {}

ChunkPipeline::~ChunkPipeline() { Cancel(); }

int ChunkPipeline::DefaultEncoderThreads() {
  return std::thread::hardware_concurrency() >= 8 ? 2 : 1;
}

Status ChunkPipeline::Start() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (running_) return status_;
    PROF_RETURN_IF_ERROR(report_->Exec("ATTACH ':memory:' AS " + std::string(kChunkSchema)));
    running_ = true;
    stopping_ = false;
    open_ = std::make_unique<Chunk>();
  }
  const ScopedSignalsBlocked for_the_threads;
  try {
    for (int i = 0; i < encoder_count_; ++i) {
      encoders_.emplace_back(&ChunkPipeline::EncoderLoop, this);
      pthread_setname_np(encoders_.back().native_handle(), "prof-encoder");
    }
    writer_ = std::thread(&ChunkPipeline::WriterLoop, this);
    pthread_setname_np(writer_.native_handle(), "prof-report");
  } catch (const std::system_error& error) {  // e.g. a process or thread limit reached
    {
      std::lock_guard<std::mutex> lock(mutex_);
      Note(Status::Error(std::string("cannot start the report's threads: ") + error.what()));
    }
    EndThreads();  // those already started
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

Status ChunkPipeline::WriteRows(const RowBatch& batch) {
  if (!open_) return Status::Error("the report is closed");
  Chunk& chunk = *open_;
  // A batch without rows adds no part: a table without rows must not be created.
  if (batch.rows > 0) {
    if (batch.starts_rewrite) chunk.rewrites.push_back(batch.table);
    if (chunk.parts.empty() || chunk.parts.back().table != batch.table) {
      chunk.parts.push_back({batch.table, 0, chunk.bytes.size()});
    }
    chunk.parts.back().rows += batch.rows;
    chunk.bytes.Append(batch.bytes.data(), batch.bytes.size());
    chunk.rows += batch.rows;
  }
  if (chunk.rows >= kChunkRows) return CloseChunk();
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

Status ChunkPipeline::CommitRows() { return CloseChunk(); }

Status ChunkPipeline::CloseChunk() {
  if (!open_) return Status::Error("the report is closed");
  std::unique_lock<std::mutex> lock(mutex_);
  if (open_->rows == 0) return status_;  // nothing to copy, and nothing left to commit
  copied_.wait(lock, [&] { return ChunksInFlight() < max_chunks_in_flight_; });
  open_->sequence = next_sequence_++;
  to_encode_.push_back(std::move(open_));
  if (spare_.empty()) {
    open_ = std::make_unique<Chunk>();
  } else {
    open_ = std::move(spare_.back());
    spare_.pop_back();
  }
  lock.unlock();
  encode_ready_.notify_one();
  lock.lock();
  return status_;
}

Status ChunkPipeline::Encode(Chunk* chunk) {
  Database db;
  PROF_RETURN_IF_ERROR(Database::OpenReadWrite(":memory:", &db));
  PROF_RETURN_IF_ERROR(db.Exec(kChunkPragmas));
  PROF_RETURN_IF_ERROR(db.Exec("BEGIN"));
  // A chunk holds rows of a few tables: a short list beats a map.
  std::vector<std::unique_ptr<BatchInserter>> inserters;
  for (const Chunk::Part& part : chunk->parts) {
    const auto known = std::find(chunk->tables.begin(), chunk->tables.end(), part.table);
    BatchInserter* inserter = nullptr;
    if (known == chunk->tables.end()) {
      PROF_RETURN_IF_ERROR(db.Exec(part.table->spec().ddl));
      chunk->tables.push_back(part.table);
      inserters.push_back(std::make_unique<BatchInserter>(part.table->spec(), &db));
      inserter = inserters.back().get();
    } else {
      inserter = inserters[static_cast<size_t>(known - chunk->tables.begin())].get();
    }
    PROF_RETURN_IF_ERROR(inserter->Write(chunk->bytes.data() + part.offset, part.rows));
  }
  PROF_RETURN_IF_ERROR(db.Exec("COMMIT"));
  chunk->image.reset(sqlite3_serialize(db.handle(), "main", &chunk->image_size, 0));
  if (!chunk->image) return Status::Error("cannot serialize a report chunk: out of memory");
  return Status::Ok();
}

Status ChunkPipeline::Copy(Chunk* chunk) {
  // SQLite owns (and frees) the image from here on, whether or not this succeeds.
  const int rc = sqlite3_deserialize(report_->handle(), kChunkSchema.data(), chunk->image.release(),
                                     chunk->image_size, chunk->image_size,
                                     SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
  if (rc != SQLITE_OK) {
    return Status::Error("cannot attach a report chunk: " + report_->ErrorText());
  }
  for (const TableInserter* table : chunk->tables) {
    const std::string& name = table->spec().name;
    PROF_RETURN_IF_ERROR(schema_->EnsureTable(name));
    // A write of a table rewritten whole sits between two commits (each closes a chunk): the
    // chunk with its first batch holds none of the write before.
    if (std::find(chunk->rewrites.begin(), chunk->rewrites.end(), table) != chunk->rewrites.end()) {
      PROF_RETURN_IF_ERROR(report_->Exec("DELETE FROM main." + name));
    }
    // Same DDL on both sides and no index in the report: SQLite copies records as they are.
    const std::string copy =
        "INSERT INTO main." + name + " SELECT * FROM " + std::string(kChunkSchema) + "." + name;
    PROF_RETURN_IF_ERROR(report_->Exec(copy));
  }
  // Committed at once: the copy leaves the transaction reading the attached image, and SQLite
  // 3.53.4 and later refuse to replace an image that a transaction reads (SQLITE_BUSY).
  return commit_rows_();
}

void ChunkPipeline::EncoderLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    encode_ready_.wait(lock, [&] { return !to_encode_.empty() || stopping_; });
    if (to_encode_.empty()) return;
    ChunkPtr chunk = std::move(to_encode_.front());
    to_encode_.pop_front();
    if (status_.ok()) {
      lock.unlock();
      Status status = Encode(chunk.get());
      lock.lock();
      Note(std::move(status));
    }
    const uint64_t sequence = chunk->sequence;
    encoded_.emplace(sequence, std::move(chunk));
    if (sequence == next_to_copy_) copy_ready_.notify_one();
  }
}

void ChunkPipeline::WriterLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    copy_ready_.wait(lock, [&] {
      return encoded_.count(next_to_copy_) > 0 || (stopping_ && ChunksInFlight() == 0);
    });
    const auto next = encoded_.find(next_to_copy_);
    if (next == encoded_.end()) return;
    ChunkPtr chunk = std::move(next->second);
    encoded_.erase(next);
    if (status_.ok()) {
      lock.unlock();
      Status status = Copy(chunk.get());
      lock.lock();
      Note(std::move(status));
    }
    ++next_to_copy_;
    chunk->Clear();
    spare_.push_back(std::move(chunk));  // at most max_chunks_in_flight_ + 1 chunks ever exist
    copied_.notify_all();
  }
}

Status ChunkPipeline::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!running_) return status_;
  }
  (void)CloseChunk();  // its failure is status_
  EndThreads();
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

void ChunkPipeline::Cancel() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!running_) return;
    Note(Status::Error("cancelled"));  // the threads skip what a failure leaves
  }
  EndThreads();
}

void ChunkPipeline::EndThreads() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  encode_ready_.notify_all();
  copy_ready_.notify_all();
  for (std::thread& encoder : encoders_) encoder.join();
  // The writer may be waiting for an encoder's last chunk: wake it once they are done.
  copy_ready_.notify_all();
  if (writer_.joinable()) writer_.join();
  encoders_.clear();
  std::lock_guard<std::mutex> lock(mutex_);
  running_ = false;
  spare_.clear();
  open_.reset();
}

void ChunkPipeline::Note(Status status) {
  if (!status.ok() && status_.ok()) status_ = std::move(status);
}

}  // namespace prof::storage
