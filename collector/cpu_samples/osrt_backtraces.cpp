#include "collector/cpu_samples/osrt_backtraces.h"

#include <cstring>

#include "collector/cpu_samples/callchain_rows.h"
#include "collector/symbols/unwind_method.h"
#include "storage/tables/host_tables.h"

namespace prof::collector {
namespace {

// A frame of prof's interposers: the OS-runtime tracer's wrapper (that called a helper of its
// own), or libprof_core's in front of it (pthread_create, the wait family).
bool IsInterposerFrame(const SampleFrame& frame) {
  const size_t slash = frame.module.rfind('/');
  const std::string_view file =
      slash == std::string_view::npos ? frame.module : frame.module.substr(slash + 1);
  return file.substr(0, 13) == "libprof_osrt." || file.substr(0, 13) == "libprof_core.";
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
  python_frames_.Splice(backtrace.stream, pid, backtrace.python_pairs, backtrace.python_count,
                        resolver_, &named_.frames);
}

}  // namespace prof::collector
