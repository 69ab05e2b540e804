#include "injection/pytorch/operator_range_text.h"

namespace prof::injection::pytorch {
namespace {

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

std::string OperatorRangeText(const char* name, int64_t sequence_nr, uint64_t op_id,
                              const std::vector<Shape>& shapes,
                              const std::vector<InputProducer>& producers) {
  // PyTorch keeps the bare name only for sequence numbers below -1 without shapes (ROCm's).
  if (sequence_nr < -1 && shapes.empty()) return name;
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
