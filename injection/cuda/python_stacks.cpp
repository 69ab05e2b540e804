#include "injection/cuda/python_stacks.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

#include "injection/core/event_stream.h"
#include "injection/protocol/cuda_records.h"
#include "injection/python/python_interpreter.h"

namespace prof::injection::cuda {
namespace {

using python::PythonFrame;

// Frames kept per stack, innermost first: enough to reach the script's line from inside
// torch.nn.Module's call wrappers and torch's Python layers.
constexpr size_t kMaxFrames = 24;
// Distinct stacks per process; calls from further stacks go without one.
constexpr size_t kMaxStacks = size_t{1} << 16;

// Guarded by g_tables_mutex (Python threads call CUDA concurrently: PyTorch releases the GIL).
// Never freed: CUDA calls can come from exit handlers after static destructors ran.
std::mutex g_tables_mutex;
// Ordered with a transparent comparator, so a call finds its stack by a view of a key built on the
// stack: a stack seen before costs no allocation.
auto* g_stack_ids = new std::map<std::string, uint32_t, std::less<>>();   // frames → stack id
auto* g_code_texts = new std::unordered_map<const void*, std::string>();  // "function\tfile"
uint32_t g_next_stack_id = 1;
std::atomic<bool> g_unsupported_said{false};

constexpr size_t kFrameKeySize = 2 * sizeof(const void*);

// The stack's identity, written into `key`: each frame's code object and instruction addresses.
// Lines are left out: computing one walks a line table, so that is done once per new stack (two
// instructions of one line make two stacks with the same frames, which the reports group back
// together).
std::string_view StackKey(const PythonFrame* frames, size_t count,
                          char (&key)[kMaxFrames * kFrameKeySize]) {
  for (size_t i = 0; i < count; ++i) {
    std::memcpy(key + i * kFrameKeySize, &frames[i].code, sizeof(const void*));
    std::memcpy(key + i * kFrameKeySize + sizeof(const void*), &frames[i].instruction,
                sizeof(const void*));
  }
  return {key, count * kFrameKeySize};
}

void AppendField(std::string_view text, std::string* out) {
  for (const char c : text) out->push_back(c == '\t' || c == '\n' ? ' ' : c);
}

// "function\tfile" of a code object, described once.
const std::string& CodeText(const void* code) {
  auto [entry, added] = g_code_texts->try_emplace(code);
  if (added) {
    std::string file, function;
    python::DescribeCode(code, &file, &function);
    AppendField(function, &entry->second);
    entry->second.push_back('\t');
    AppendField(file, &entry->second);
  }
  return entry->second;
}

void SendStack(uint32_t stack_id, const PythonFrame* frames, size_t count, uint64_t now) {
  std::string text;
  uint32_t sent = 0;
  for (size_t i = 0; i < count; ++i) {
    std::string frame =
        std::to_string(python::LineOf(frames[i])) + "\t" + CodeText(frames[i].code) + "\n";
    if (text.size() + frame.size() > protocol::kMaxTextLength) break;  // outer frames go first
    text += frame;
    ++sent;
  }
  protocol::CudaPythonStackRecord record{};
  record.header.kind = protocol::RecordKind::kCudaPythonStack;
  record.header.timestamp_ns = now;
  record.stack_id = stack_id;
  record.frame_count = sent;
  record.text_length = static_cast<uint32_t>(text.size());
  EmitRecordWithText(&record.header, sizeof(record), text.data(), text.size());
}

void SayUnsupportedOnce(uint64_t now) {
  if (python::FindInterpreter(nullptr) != python::InterpreterSupport::kUnsupported ||
      g_unsupported_said.exchange(true)) {
    return;
  }
  std::string version;
  python::FindInterpreter(&version);
  protocol::CudaInitStatusRecord record{};
  record.header.kind = protocol::RecordKind::kCudaInitStatus;
  record.header.timestamp_ns = now;
  record.status = protocol::CudaInitStatus::kPythonUnsupported;
  const size_t length = std::min(version.size(), protocol::kMaxTextLength);
  record.text_length = static_cast<uint32_t>(length);
  EmitRecordWithText(&record.header, sizeof(record), version.data(), length);
}

}  // namespace

uint32_t CurrentPythonStackId(uint64_t now) {
  PythonFrame frames[kMaxFrames];
  python::FindInterpreter(nullptr);
  const size_t count = python::ReadCurrentStack(frames, kMaxFrames);
  if (count == 0) {
    if (!g_unsupported_said.load(std::memory_order_relaxed)) SayUnsupportedOnce(now);
    return 0;
  }
  char key_bytes[kMaxFrames * kFrameKeySize];
  const std::string_view key = StackKey(frames, count, key_bytes);
  std::lock_guard<std::mutex> lock(g_tables_mutex);
  const auto found = g_stack_ids->find(key);
  if (found != g_stack_ids->end()) return found->second;
  if (g_stack_ids->size() >= kMaxStacks) return 0;
  const uint32_t id = g_next_stack_id++;
  g_stack_ids->emplace(std::string(key), id);
  SendStack(id, frames, count, now);
  return id;
}

}  // namespace prof::injection::cuda
