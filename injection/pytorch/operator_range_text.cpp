#include "injection/pytorch/operator_range_text.h"

#include <charconv>
#include <cstring>

namespace prof::injection::pytorch {
namespace {

// Appends to [*at, end): false when it does not fit.
bool Append(const char* text, size_t length, char** at, char* end) {
  if (static_cast<size_t>(end - *at) < length) return false;
  std::memcpy(*at, text, length);
  *at += length;
  return true;
}

template <typename Integer>
bool AppendNumber(Integer value, char** at, char* end) {
  const std::to_chars_result written = std::to_chars(*at, end, value);
  if (written.ec != std::errc()) return false;
  *at = written.ptr;
  return true;
}

void AppendShapes(const std::vector<Shape>& shapes, std::string* text) {
  *text += '[';
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i > 0) *text += ", ";
    *text += '[';
    for (size_t d = 0; d < shapes[i].size(); ++d) {
      if (d > 0) *text += ", ";
      *text += std::to_string(shapes[i][d]);
    }
    *text += ']';
  }
  *text += ']';
}

void AppendProducers(const std::vector<InputProducer>& producers, std::string* text) {
  *text += '[';
  for (size_t i = 0; i < producers.size(); ++i) {
    if (i > 0) *text += ", ";
    *text +=
        '(' + std::to_string(producers[i].first) + ',' + std::to_string(producers[i].second) + ')';
  }
  *text += ']';
}

}  // namespace

bool FormatOperatorRange(const char* name, int64_t sequence_nr, uint64_t op_id, char* buffer,
                         size_t capacity) {
  if (capacity == 0) return false;
  char* at = buffer;
  char* const end = buffer + capacity - 1;  // room for the NUL
  // PyTorch keeps the bare name only for sequence numbers below -1 without shapes (ROCm's).
  if (!Append(name, std::strlen(name), &at, end)) return false;
  if (sequence_nr >= 0) {
    constexpr char kSeq[] = ", seq = ";
    if (!Append(kSeq, sizeof(kSeq) - 1, &at, end) || !AppendNumber(sequence_nr, &at, end)) {
      return false;
    }
  }
  if (op_id > 0 && sequence_nr >= -1) {
    constexpr char kOpId[] = ", op_id = ";
    if (!Append(kOpId, sizeof(kOpId) - 1, &at, end) || !AppendNumber(op_id, &at, end)) {
      return false;
    }
  }
  *at = '\0';
  return true;
}

std::string OperatorRangeText(const char* name, int64_t sequence_nr, uint64_t op_id,
                              const std::vector<Shape>& shapes,
                              const std::vector<InputProducer>& producers) {
  if (shapes.empty()) {
    // Room for the name and two 20-digit numbers with their labels.
    std::string text(std::strlen(name) + 64, '\0');
    FormatOperatorRange(name, sequence_nr, op_id, text.data(), text.size());
    text.resize(std::strlen(text.c_str()));
    return text;
  }
  // With shapes, a sequence number below -1 drops the name but keeps the op id (emit_nvtx's).
  std::string text = sequence_nr < -1 ? std::string() : std::string(name);
  if (sequence_nr >= 0) text += ", seq = " + std::to_string(sequence_nr);
  if (op_id > 0) text += ", op_id = " + std::to_string(op_id);
  if (!shapes.empty()) {
    text += ", sizes = ";
    AppendShapes(shapes, &text);
  }
  if (!producers.empty()) {
    text += ", input_op_ids = ";
    AppendProducers(producers, &text);
  }
  return text;
}

}  // namespace prof::injection::pytorch
