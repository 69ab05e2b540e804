// Rows of one report table on their way from the thread that adds them to the report's writer
// thread (batch_writer.h): the values of each row in column order, encoded back to back.
//
// Encoding: each value is a one-byte ValueTag; an integer or a real is followed by its 8 bytes
// (host order), a text by its u32 length and its bytes; NULL has nothing more. An NVTX_EVENTS row
// takes about 70 bytes, so a queue of batches costs a fraction of the rows as objects.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace prof::storage {

class TableInserter;

enum class ValueTag : uint8_t { kNull, kInt64, kDouble, kText };

// A growable byte array whose appends are an inline capacity check and a copy: encoding a row
// is on the collector's per-record path. Keeps its capacity when cleared or recycled, so that
// steady-state batches allocate nothing.
class ByteBuffer {
 public:
  ByteBuffer() = default;
  ByteBuffer(ByteBuffer&& other) noexcept
      : storage_(std::move(other.storage_)), size_(std::exchange(other.size_, 0)) {}
  ByteBuffer& operator=(ByteBuffer&& other) noexcept {
    storage_ = std::move(other.storage_);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }

  void Append(const void* data, size_t size) {
    if (size_ + size > storage_.size()) Grow(size_ + size);
    std::memcpy(storage_.data() + size_, data, size);
    size_ += size;
  }
  // Makes room for `size` more bytes and returns where they go (to be filled by the caller).
  char* AppendSpace(size_t size) {
    if (size_ + size > storage_.size()) Grow(size_ + size);
    size_ += size;
    return storage_.data() + size_ - size;
  }
  void Clear() { size_ = 0; }
  void Reserve(size_t capacity) {
    if (capacity > storage_.size()) storage_.resize(capacity);
  }
  const char* data() const { return storage_.data(); }
  size_t size() const { return size_; }
  size_t capacity() const { return storage_.size(); }

 private:
  static constexpr size_t kMinCapacity = 4096;
  void Grow(size_t needed) {
    storage_.resize(std::max({needed, 2 * storage_.size(), kMinCapacity}));
  }

  std::vector<char> storage_;  // its size is the capacity; size_ bytes are in use
  size_t size_ = 0;
};

struct RowBatch {
  TableInserter* table = nullptr;  // where the rows go
  int rows = 0;
  // The first batch of a write of a table rewritten whole (TableSpec::rewritten_whole): the
  // table's rows in the report go first.
  bool starts_rewrite = false;
  ByteBuffer bytes;
};

// One decoded value; `text` points into the batch's bytes.
struct RowValue {
  ValueTag tag = ValueTag::kNull;
  int64_t int64 = 0;
  double real = 0;
  std::string_view text;
};

// Reads the values of a batch in order. The batch must have been written by RowBinder.
class RowBatchReader {
 public:
  explicit RowBatchReader(const char* data) : next_(data) {}
  explicit RowBatchReader(const ByteBuffer& bytes) : next_(bytes.data()) {}

  RowValue Next() {
    RowValue value;
    value.tag = static_cast<ValueTag>(*next_++);
    switch (value.tag) {
      case ValueTag::kInt64:
        next_ = Read(next_, &value.int64);
        break;
      case ValueTag::kDouble:
        next_ = Read(next_, &value.real);
        break;
      case ValueTag::kText: {
        uint32_t length = 0;
        next_ = Read(next_, &length);
        value.text = std::string_view(next_, length);
        next_ += length;
        break;
      }
      case ValueTag::kNull:
        break;
    }
    return value;
  }

 private:
  template <typename T>
  static const char* Read(const char* from, T* out) {
    std::memcpy(out, from, sizeof(T));
    return from + sizeof(T);
  }

  const char* next_;
};

}  // namespace prof::storage
