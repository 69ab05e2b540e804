// Appends one row's values, in the order of its table's INSERT columns, to a batch's bytes
// (row_batch.h says how they are encoded). An empty optional is NULL.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "storage/row_batch.h"

namespace prof::storage {

class RowBinder {
 public:
  explicit RowBinder(ByteBuffer* out) : out_(out) {}

  template <typename Integer, std::enable_if_t<std::is_integral_v<Integer>, int> = 0>
  void Value(Integer value) {
    const auto wide = static_cast<int64_t>(value);
    Put(ValueTag::kInt64, &wide, sizeof(wide));
  }
  void Value(double value) { Put(ValueTag::kDouble, &value, sizeof(value)); }
  void Value(std::string_view value) {
    const auto length = static_cast<uint32_t>(value.size());
    Put(ValueTag::kText, &length, sizeof(length));
    out_->Append(value.data(), value.size());
  }
  void Value(const std::string& value) { Value(std::string_view(value)); }
  template <typename T>
  void Value(const std::optional<T>& value) {
    if (value) {
      Value(*value);
    } else {
      Null();
    }
  }
  void Null() {
    const auto tag = ValueTag::kNull;
    out_->Append(&tag, sizeof(tag));
  }

 private:
  // The tag and a payload of at most 8 bytes, in one append.
  void Put(ValueTag tag, const void* payload, size_t size) {
    char value[1 + sizeof(int64_t)];
    value[0] = static_cast<char>(tag);
    std::memcpy(value + 1, payload, size);
    out_->Append(value, 1 + size);
  }

  ByteBuffer* out_;
};

}  // namespace prof::storage
