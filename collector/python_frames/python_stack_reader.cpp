#include "collector/python_frames/python_stack_reader.h"

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <utility>

#include "injection/protocol/cpython_line_table.h"

namespace prof::collector {
namespace {

using protocol::cpython::kNone;
using protocol::cpython::kObjectType;
using protocol::cpython::kUnicodeLength;
using protocol::cpython::kUnicodeState;
using protocol::cpython::Layout;
using protocol::cpython::LineOfLineTable310;
using protocol::cpython::LineOfLocationTable;

constexpr size_t kMaxThreads = 4096;          // a longer thread list is taken for a torn one
constexpr int64_t kMaxStringChars = 1 << 16;  // names and paths
constexpr int64_t kMaxLineTableBytes = 1 << 20;
constexpr size_t kPthreadScanBytes = 2048;       // 3.10: where struct pthread's tid is looked for
constexpr int64_t kGlibcPthreadTidOffset = 720;  // x86-64 glibc 2.x: tried first
constexpr size_t kObjectSize = 16;               // PyVarObject.ob_size: a code object's code units

template <typename T>
T Field(const char* base, size_t offset) {
  T value;
  std::memcpy(&value, base + offset, sizeof(value));
  return value;
}

size_t End(size_t offset, size_t size) { return offset == kNone ? 0 : offset + size; }

void AppendUtf8(uint32_t point, std::string* out) {
  if (point < 0x80) {
    out->push_back(static_cast<char>(point));
  } else if (point < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (point >> 6)));
    out->push_back(static_cast<char>(0x80 | (point & 0x3f)));
  } else if (point < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (point >> 12)));
    out->push_back(static_cast<char>(0x80 | ((point >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (point & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | ((point >> 18) & 0x07)));
    out->push_back(static_cast<char>(0x80 | ((point >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((point >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (point & 0x3f)));
  }
}

std::set<int> TasksOf(int pid) {
  std::set<int> tasks;
  DIR* dir = opendir(("/proc/" + std::to_string(pid) + "/task").c_str());
  if (dir == nullptr) return tasks;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') tasks.insert(std::atoi(entry->d_name));
  }
  closedir(dir);
  return tasks;
}

}  // namespace

StatusOr<std::unique_ptr<PythonStackReader>> PythonStackReader::Attach(
    int pid, const symbols::ProcessMaps& maps) {
  PROF_ASSIGN_OR_RETURN(PythonRuntime runtime, FindPythonRuntime(pid, maps));
  std::unique_ptr<PythonStackReader> reader(new PythonStackReader(pid, std::move(runtime)));
  PROF_RETURN_IF_ERROR(reader->CheckLayout());
  return reader;
}

// The first thread state must point back at the interpreter that lists it: offsets of another
// layout (a patch release that moved a field) would not.
Status PythonStackReader::CheckLayout() {
  const Layout& layout = *runtime_.layout;
  uint64_t interpreter = 0;
  if (!memory_.ReadValue(runtime_.runtime + layout.runtime_interpreters_head, &interpreter)) {
    return Status::Error(memory_.ErrorText());
  }
  if (interpreter == 0) return Status::Ok();  // not initialized yet
  uint64_t thread = 0;
  uint64_t back = 0;
  if (!memory_.ReadValue(interpreter + layout.interpreter_threads_head, &thread) ||
      (thread != 0 && !memory_.ReadValue(thread + layout.thread_interpreter, &back))) {
    return Status::Error("CPython " + runtime_.version + " (" + runtime_.path +
                         "): the interpreter cannot be read: " + memory_.ErrorText());
  }
  if (thread != 0 && back != interpreter) {
    return Status::Error("CPython " + runtime_.version + " (" + runtime_.path +
                         "): its thread state does not point back at its interpreter, a struct "
                         "layout prof does not know");
  }
  return Status::Ok();
}

Status PythonStackReader::ReadStack(int tid, std::vector<PythonFrameText>* frames) {
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    if (attempt > 0) ++stats_.retries;
    frames->clear();
    Outcome outcome = TryRead(tid, frames);
    if (outcome == Outcome::kDone) {
      ++stats_.stacks;
      return Status::Ok();
    }
    if (outcome == Outcome::kFailed) {
      frames->clear();
      if (memory_.ProcessGone()) {
        return Status::Error("process " + std::to_string(memory_.pid()) + " has exited (" +
                             memory_.ErrorText() + ")");
      }
      return Status::Error(memory_.ErrorText());
    }
  }
  // Every attempt was torn: what the last one validated, innermost first.
  ++stats_.stacks;
  ++stats_.torn_stacks;
  return Status::Ok();
}

PythonStackReader::Outcome PythonStackReader::TryRead(int tid,
                                                      std::vector<PythonFrameText>* frames) {
  uint64_t thread = 0;
  if (Outcome found = FindThread(tid, &thread, &thread_state_); found != Outcome::kDone) {
    return found;
  }
  if (thread == 0) return Outcome::kDone;  // no thread state: the thread runs no Python
  uint64_t first = 0;
  if (Outcome current = CurrentFrame(thread_state_, &first); current != Outcome::kDone) {
    return current;
  }
  if (first == 0) return Outcome::kDone;
  Outcome walked = WalkFrames(first);
  if (walked == Outcome::kFailed) return walked;
  if (Outcome described = Describe(frames); described != Outcome::kDone) return described;
  if (walked != Outcome::kDone) return walked;
  // The thread moved on (called or returned) while its frames were read: they may mix moments.
  uint64_t last = 0;
  if (!memory_.Read(thread, thread_state_.data(), thread_state_.size())) {
    return memory_.ProcessGone() ? Outcome::kFailed : Outcome::kTorn;
  }
  if (CurrentFrame(thread_state_, &last) != Outcome::kDone || last != first) return Outcome::kTorn;
  return Outcome::kDone;
}

size_t PythonStackReader::ThreadStateReadSize() const {
  const Layout& layout = *runtime_.layout;
  return std::max({End(layout.thread_next, 8), End(layout.thread_interpreter, 8),
                   End(layout.thread_id, 8), End(layout.thread_native_id, 8),
                   End(layout.thread_cframe, 8),
                   layout.thread_cframe == kNone ? End(layout.frame_pointer, 8) : 0});
}

PythonStackReader::Outcome PythonStackReader::MatchesThread(int tid, const std::vector<char>& state,
                                                            bool* matches) {
  const Layout& layout = *runtime_.layout;
  *matches = false;
  if (layout.thread_native_id != kNone) {
    *matches = Field<uint64_t>(state.data(), layout.thread_native_id) == static_cast<uint64_t>(tid);
    return Outcome::kDone;
  }
  // 3.10 keeps only the pthread_t, the address of glibc's struct pthread, which holds the tid.
  if (pthread_tid_offset_ < 0) return Outcome::kDone;
  int32_t thread_tid = 0;
  uint64_t pthread = Field<uint64_t>(state.data(), layout.thread_id);
  if (!memory_.ReadValue(pthread + static_cast<uint64_t>(pthread_tid_offset_), &thread_tid)) {
    return memory_.ProcessGone() ? Outcome::kFailed : Outcome::kDone;
  }
  *matches = thread_tid == tid;
  return Outcome::kDone;
}

PythonStackReader::Outcome PythonStackReader::FindThread(int tid, uint64_t* address,
                                                         std::vector<char>* state) {
  const Layout& layout = *runtime_.layout;
  state->resize(ThreadStateReadSize());
  *address = 0;
  if (auto cached = thread_states_.find(tid); cached != thread_states_.end()) {
    bool matches = false;
    if (memory_.Read(cached->second, state->data(), state->size())) {
      if (MatchesThread(tid, *state, &matches) == Outcome::kFailed) return Outcome::kFailed;
    } else if (memory_.ProcessGone()) {
      return Outcome::kFailed;
    }
    if (matches) {
      *address = cached->second;
      return Outcome::kDone;
    }
    thread_states_.erase(cached);
  }
  // _PyRuntime is static memory: failing to read it means the process is gone or out of reach.
  uint64_t interpreter = 0;
  if (!memory_.ReadValue(runtime_.runtime + layout.runtime_interpreters_head, &interpreter)) {
    return Outcome::kFailed;
  }
  if (interpreter == 0) return Outcome::kDone;
  uint64_t thread = 0;
  if (!memory_.ReadValue(interpreter + layout.interpreter_threads_head, &thread)) {
    return memory_.ProcessGone() ? Outcome::kFailed : Outcome::kTorn;
  }
  // A thread found in no thread state stays absent while the list's head is the same thread state
  // of the same thread: CPython puts new thread states at the head.
  uint64_t head = thread;
  uint64_t head_identity = 0;
  if (head != 0) {
    if (!memory_.Read(head, state->data(), state->size())) {
      return memory_.ProcessGone() ? Outcome::kFailed : Outcome::kTorn;
    }
    head_identity =
        Field<uint64_t>(state->data(), layout.thread_native_id != kNone ? layout.thread_native_id
                                                                        : layout.thread_id);
  }
  if (head != absent_head_ || head_identity != absent_head_identity_) {
    absent_tids_.clear();
    absent_head_ = head;
    absent_head_identity_ = head_identity;
  } else if (absent_tids_.count(tid) != 0) {
    return Outcome::kDone;
  }
  ++stats_.thread_walks;
  std::vector<std::pair<uint64_t, uint64_t>> pthreads;  // 3.10: (thread state, pthread_t)
  for (size_t count = 0; thread != 0; ++count) {
    if (count == kMaxThreads || !memory_.Read(thread, state->data(), state->size())) {
      return memory_.ProcessGone() ? Outcome::kFailed : Outcome::kTorn;
    }
    if (layout.thread_native_id != kNone) {
      auto native = Field<uint64_t>(state->data(), layout.thread_native_id);
      thread_states_[static_cast<int>(native)] = thread;
      if (native == static_cast<uint64_t>(tid)) *address = thread;
    } else {
      pthreads.emplace_back(thread, Field<uint64_t>(state->data(), layout.thread_id));
    }
    thread = Field<uint64_t>(state->data(), layout.thread_next);
  }
  if (!pthreads.empty()) {
    if (pthread_tid_offset_ < 0) {
      std::vector<uint64_t> addresses;
      for (const auto& pair : pthreads) addresses.push_back(pair.second);
      FindPthreadTidOffset(addresses);
    }
    for (const auto& [state_address, pthread] : pthreads) {
      int32_t thread_tid = 0;
      if (pthread_tid_offset_ < 0 ||
          !memory_.ReadValue(pthread + static_cast<uint64_t>(pthread_tid_offset_), &thread_tid)) {
        continue;
      }
      thread_states_[thread_tid] = state_address;
      if (thread_tid == tid) *address = state_address;
    }
  }
  if (*address == 0) {
    absent_tids_.insert(tid);
    return Outcome::kDone;
  }
  if (!memory_.Read(*address, state->data(), state->size())) {
    return memory_.ProcessGone() ? Outcome::kFailed : Outcome::kTorn;
  }
  return Outcome::kDone;
}

// The offset in struct pthread at which every listed thread's int is a live thread of the
// process, each a different one: glibc's `tid`. Tried at glibc's x86-64 offset first.
bool PythonStackReader::FindPthreadTidOffset(const std::vector<uint64_t>& pthreads) {
  std::set<int> tasks = TasksOf(memory_.pid());
  std::vector<std::vector<char>> blocks;
  for (uint64_t pthread : pthreads) {
    std::vector<char> block(kPthreadScanBytes);
    if (memory_.Read(pthread, block.data(), block.size())) blocks.push_back(std::move(block));
  }
  if (blocks.empty() || tasks.empty()) return false;
  auto fits = [&](int64_t offset) {
    std::set<int> seen;
    for (const auto& block : blocks) {
      int value = Field<int32_t>(block.data(), static_cast<size_t>(offset));
      if (tasks.count(value) == 0 || !seen.insert(value).second) return false;
    }
    return true;
  };
  if (fits(kGlibcPthreadTidOffset)) {
    pthread_tid_offset_ = kGlibcPthreadTidOffset;
    return true;
  }
  for (int64_t offset = 0; offset + 4 <= static_cast<int64_t>(kPthreadScanBytes); offset += 4) {
    if (fits(offset)) {
      pthread_tid_offset_ = offset;
      return true;
    }
  }
  return false;
}

PythonStackReader::Outcome PythonStackReader::CurrentFrame(const std::vector<char>& state,
                                                           uint64_t* frame) {
  const Layout& layout = *runtime_.layout;
  if (layout.thread_cframe == kNone) {
    *frame = Field<uint64_t>(state.data(), layout.frame_pointer);
    return Outcome::kDone;
  }
  auto cframe = Field<uint64_t>(state.data(), layout.thread_cframe);
  *frame = 0;
  if (cframe == 0) return Outcome::kDone;
  if (!memory_.ReadValue(cframe + layout.frame_pointer, frame)) {
    return memory_.ProcessGone() ? Outcome::kFailed : Outcome::kTorn;
  }
  return Outcome::kDone;
}

PythonStackReader::Outcome PythonStackReader::WalkFrames(uint64_t frame) {
  const Layout& layout = *runtime_.layout;
  raw_frames_.clear();
  char buffer[128];
  static_assert(sizeof(buffer) >= 100, "a frame's fields must fit");
  for (size_t walked = 0; frame != 0; ++walked) {
    if (walked == kMaxFrames) return Outcome::kTorn;
    if (!memory_.Read(frame, buffer, layout.frame_read_size)) {
      return memory_.ProcessGone() ? Outcome::kFailed : Outcome::kTorn;
    }
    // The C stack's shim frames (3.12+) run no code of the program.
    bool shim = layout.frame_owner != kNone &&
                static_cast<int>(Field<int8_t>(buffer, layout.frame_owner)) == layout.shim_owner;
    if (!shim) {
      RawFrame raw{Field<uint64_t>(buffer, layout.frame_code), 0};
      raw.instruction = layout.instruction_is_index
                            ? static_cast<uint64_t>(static_cast<int64_t>(
                                  Field<int32_t>(buffer, layout.frame_instruction)))
                            : Field<uint64_t>(buffer, layout.frame_instruction);
      raw_frames_.push_back(raw);
    }
    frame = Field<uint64_t>(buffer, layout.frame_previous);
  }
  return Outcome::kDone;
}

// Turns raw_frames_ into text, innermost first; stops at the first frame that does not validate.
Status PythonStackReader::DescribeFrame(uint64_t code, uint64_t instruction,
                                        PythonFrameText* frame) {
  raw_frames_.assign(1, RawFrame{code, instruction});
  described_.clear();
  if (Describe(&described_) != Outcome::kDone) {
    return Status::Error(memory_.ProcessGone() ? "the process is gone"
                                               : "no code object at that address");
  }
  *frame = std::move(described_.front());
  return Status::Ok();
}

PythonStackReader::Outcome PythonStackReader::Describe(std::vector<PythonFrameText>* frames) {
  const Layout& layout = *runtime_.layout;
  const size_t size = layout.code_read_size;
  // Every frame's code object header in one system call.
  code_headers_.resize(raw_frames_.size() * size);
  std::vector<iovec> local(raw_frames_.size()), remote(raw_frames_.size());
  for (size_t i = 0; i < raw_frames_.size(); ++i) {
    local[i] = {code_headers_.data() + i * size, size};
    remote[i] = {reinterpret_cast<void*>(raw_frames_[i].code), size};
  }
  // At most kMaxFrames ranges: within IOV_MAX (1024), one call.
  static_assert(kMaxFrames <= 1024, "one process_vm_readv call reads every header");
  size_t complete = memory_.ReadMany(local, remote) / size;
  for (size_t i = 0; i < raw_frames_.size(); ++i) {
    const char* header = code_headers_.data() + i * size;
    if (i >= complete || Field<uint64_t>(header, kObjectType) != runtime_.code_type) {
      return memory_.ProcessGone() ? Outcome::kFailed : Outcome::kTorn;
    }
    const CodeText* text = Text(raw_frames_[i].code, header);
    if (text == nullptr) return memory_.ProcessGone() ? Outcome::kFailed : Outcome::kTorn;
    int line = -1;
    if (layout.instruction_is_index) {
      auto lasti = static_cast<int64_t>(raw_frames_[i].instruction);
      line = LineOfLineTable310(text->table, text->first_line, static_cast<int>(lasti * 2));
    } else {
      // The instruction's byte offset in co_code_adaptive; one code unit before it before the
      // frame's first instruction ran (3.11, 3.12).
      auto offset = static_cast<int64_t>(raw_frames_[i].instruction -
                                         (raw_frames_[i].code + layout.code_bytecode));
      auto code_units = Field<int64_t>(header, kObjectSize);
      if (offset < -2 || offset > code_units * 2) return Outcome::kTorn;
      line = LineOfLocationTable(text->table, text->first_line, static_cast<int>(offset));
    }
    // An instruction without a line of its own (CPython's artificial ones): the function's line.
    if (line < 0) line = text->first_line;
    frames->push_back({text->function, text->file, line});
  }
  return Outcome::kDone;
}

const PythonStackReader::CodeText* PythonStackReader::Text(uint64_t code, const char* header) {
  const Layout& layout = *runtime_.layout;
  CodeText fields;
  fields.filename = Field<uint64_t>(header, layout.code_filename);
  fields.name = Field<uint64_t>(header, layout.code_name);
  fields.line_table = Field<uint64_t>(header, layout.code_line_table);
  fields.first_line = Field<int32_t>(header, layout.code_first_line);
  auto cached = code_texts_.find(code);
  if (cached != code_texts_.end() && cached->second.filename == fields.filename &&
      cached->second.name == fields.name && cached->second.line_table == fields.line_table &&
      cached->second.first_line == fields.first_line) {
    return &cached->second;
  }
  if (!ReadString(fields.name, &fields.function) || !ReadString(fields.filename, &fields.file) ||
      !ReadBytes(fields.line_table, &fields.table)) {
    return nullptr;
  }
  ++stats_.code_objects;
  CodeText& entry = code_texts_[code];
  entry = std::move(fields);
  return &entry;
}

// A compact str object's text as UTF-8 (names and paths are compact: CPython makes them so).
bool PythonStackReader::ReadString(uint64_t object, std::string* text) {
  const Layout& layout = *runtime_.layout;
  char header[80];
  static_assert(sizeof(header) >= 72, "PyCompactUnicodeObject must fit");
  if (object == 0 || !memory_.Read(object, header, layout.ascii_size) ||
      Field<uint64_t>(header, kObjectType) != runtime_.unicode_type) {
    return false;
  }
  auto state = Field<uint32_t>(header, kUnicodeState);
  auto length = Field<int64_t>(header, kUnicodeLength);
  const bool compact = (state >> 5) & 1;
  const bool ascii = (state >> 6) & 1;
  const unsigned kind = (state >> 2) & 7;
  if (!compact || length < 0 || length > kMaxStringChars) return false;
  if (ascii) {
    text->resize(static_cast<size_t>(length));
    return memory_.Read(object + layout.ascii_size, text->data(), text->size());
  }
  if (kind != 1 && kind != 2 && kind != 4) return false;
  std::vector<char> data(static_cast<size_t>(length) * kind);
  if (!memory_.Read(object + layout.compact_size, data.data(), data.size())) return false;
  text->clear();
  for (int64_t i = 0; i < length; ++i) {
    const char* unit = data.data() + i * kind;
    uint32_t point = kind == 1   ? static_cast<uint8_t>(*unit)
                     : kind == 2 ? Field<uint16_t>(unit, 0)
                                 : Field<uint32_t>(unit, 0);
    AppendUtf8(point, text);
  }
  return true;
}

bool PythonStackReader::ReadBytes(uint64_t object, std::string* bytes) {
  const Layout& layout = *runtime_.layout;
  char header[32];
  if (object == 0 || layout.bytes_data > sizeof(header) ||
      !memory_.Read(object, header, layout.bytes_data) ||
      Field<uint64_t>(header, kObjectType) != runtime_.bytes_type) {
    return false;
  }
  auto size = Field<int64_t>(header, layout.bytes_size);
  if (size < 0 || size > kMaxLineTableBytes) return false;
  bytes->resize(static_cast<size_t>(size));
  return memory_.Read(object + layout.bytes_data, bytes->data(), bytes->size());
}

}  // namespace prof::collector
