#include "collector/cpu_samples/osrt_backtraces.h"

#include <cstdio>
#include <cstring>

#include "collector/cpu_samples/callchain_rows.h"
#include "collector/symbols/unwind_method.h"
#include "storage/tables/host_tables.h"

namespace prof::collector {
namespace {

// A frame of prof's OS-runtime interposer (a wrapper that called a helper of its own).
bool IsInterposerFrame(const SampleFrame& frame) {
  const size_t slash = frame.module.rfind('/');
  const std::string_view file =
      slash == std::string_view::npos ? frame.module : frame.module.substr(slash + 1);
  return file.substr(0, 13) == "libprof_osrt.";
}

}  // namespace

int64_t OsrtBacktraces::CallchainOf(const RawBacktrace& backtrace) {
  std::string key(sizeof(backtrace.stream), '\0');
  std::memcpy(key.data(), &backtrace.stream, sizeof(backtrace.stream));
  key.append(reinterpret_cast<const char*>(backtrace.ips), backtrace.ip_count * sizeof(uint64_t));
  key.append(reinterpret_cast<const char*>(backtrace.python_pairs),
             backtrace.python_count * 2 * sizeof(uint64_t));
  const auto known = ids_.find(key);
  if (known != ids_.end()) return known->second;
  const int64_t id = next_id_++;
  if (ids_.size() < kMaxRemembered) ids_.emplace(std::move(key), id);
  Name(backtrace);
  WriteCallchain<storage::kOsrtCallchainsTable>(writer_, id, named_.frames);
  return id;
}

void OsrtBacktraces::Name(const RawBacktrace& backtrace) {
  const uint32_t pid = backtrace.pid;
  if (reads_ != nullptr) adopted_maps_.Update(reads_, backtrace.stream, pid, &resolver_);
  resolver_.ResolveChain(pid, backtrace.ips, backtrace.ip_count,
                         static_cast<int32_t>(symbols::UnwindMethod::kFramePointer), &named_);
  size_t own = 0;
  while (own < named_.frames.size() && IsInterposerFrame(named_.frames[own])) ++own;
  named_.frames.erase(named_.frames.begin(), named_.frames.begin() + static_cast<ptrdiff_t>(own));
  if (backtrace.python_count == 0) return;
  std::string interpreter =
      reads_ != nullptr ? reads_->InterpreterOf(backtrace.stream) : std::string();
  // Read now only when the reads lack the interpreter (the process may have run no Python yet).
  PythonStackReader* live = nullptr;
  if (interpreter.empty()) {
    live = LiveReader(pid);
    if (live != nullptr) interpreter = live->interpreter_path();
  }
  if (!interpreter.empty()) {
    // The interpreter's own frames stand for the Python functions that follow.
    named_.frames.resize(InnermostInterpreterFrame(named_.frames, interpreter));
  }
  for (size_t i = 0; i < backtrace.python_count; ++i) {
    const uint64_t code = backtrace.python_pairs[2 * i];
    if (Describe(backtrace, code, backtrace.python_pairs[2 * i + 1], live)) {
      named_.frames.push_back(PythonSampleFrame(python_text_, &strings_));
      continue;
    }
    // Named by the code object's address, as an unresolved native frame is by its own.
    char address[24];
    std::snprintf(address, sizeof(address), "0x%llx", static_cast<unsigned long long>(code));
    SampleFrame frame;
    frame.symbol = strings_.Intern(address);
    frame.module = strings_.Intern("[python]");
    frame.unresolved = true;
    frame.unwind_method = storage::kUnwindPythonFrame;
    named_.frames.push_back(frame);
  }
}

bool OsrtBacktraces::Describe(const RawBacktrace& backtrace, uint64_t code, uint64_t instruction,
                              PythonStackReader* live) {
  if (reads_ != nullptr &&
      reads_->DescribedFrame(backtrace.stream, code, instruction, &python_text_)) {
    return true;
  }
  if (live == nullptr) live = LiveReader(backtrace.pid);
  return live != nullptr && live->DescribeFrame(code, instruction, &python_text_).ok();
}

PythonStackReader* OsrtBacktraces::LiveReader(uint32_t pid) {
  const symbols::ProcessMaps* maps = resolver_.MapsOf(pid);
  return maps != nullptr ? python_.Of(pid, *maps) : nullptr;
}

}  // namespace prof::collector
