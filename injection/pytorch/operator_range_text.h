// The text of an operator's NVTX range, exactly as PyTorch's emit_nvtx writes it on a CUDA build
// (torch 1.13 to 2.x), so that both of prof's paths give the same ranges:
//   <name>[, seq = <N>][, op_id = <id>][, sizes = [[d, ...], ...]][, input_op_ids = [(id,nr), ...]]
// `seq` appears for operators that autograd records (N >= 0); a sequence number below -1 without
// shapes gives the bare name. Shapes and input op ids only with autograd-shapes-nvtx.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace prof::injection::pytorch {

using Shape = std::vector<int64_t>;
// (op id of the operator that produced an input tensor, its output number); (0, -1) when unknown.
using InputProducer = std::pair<uint64_t, int>;

std::string OperatorRangeText(const char* name, int64_t sequence_nr, uint64_t op_id,
                              const std::vector<Shape>& shapes,
                              const std::vector<InputProducer>& producers);

// The text without shapes (autograd-nvtx: every operator of every step), written NUL-terminated
// into `buffer` without allocating; false when it does not fit (`capacity` bytes).
bool FormatOperatorRange(const char* name, int64_t sequence_nr, uint64_t op_id, char* buffer,
                         size_t capacity);

}  // namespace prof::injection::pytorch
