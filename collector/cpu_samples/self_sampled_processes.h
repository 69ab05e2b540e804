// The processes that take their own CPU samples while the kernel samples the rest: a process that
// runs CPython samples itself with a CPU-time timer signal, so that a sample's Python frames are
// the ones of its instant (injection/core/timer_sampler.h). The kernel's perf events are inherited
// by every process of the tree and cannot be turned off for one, so its samples of such a process
// are dropped instead, for the time the process samples itself: each moment is sampled once.
//
// A process says so in its stream's hello (StreamHello::flags, kHelloSamplesItself) before its
// first own sample; its exit record, or the stream's end when it died, closes the span. Spans are
// per stream: an exec'd image decides afresh (its hello may come before the old image's stream is
// seen to end), and a reused pid is another span.
//
// Thread-safe: the session's reader thread writes (hello, exit, stream end), prof-sampler and the
// collector thread ask. The reader reads a hello as it arrives, while the kernel's samples reach
// the collector thread at least a drain interval (10 ms) later, so a span is known before the
// samples it covers are written.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace prof::collector {

class SelfSampledProcesses {
 public:
  // Process `pid` said hello on `stream` (ProcessStream::stream_id) at `at_ns` (CLOCK_MONOTONIC):
  // the spans of its earlier streams end there (an exec'd image's hello may come before the old
  // image's stream is seen to end), and when it samples itself a span of this stream starts.
  void Hello(uint64_t stream, uint32_t pid, uint64_t at_ns, bool samples_itself);
  // The stream's own sampling stopped at `at_ns` (its exit record), or the stream ended: closes
  // its span, if open; a later call changes nothing.
  void Ended(uint64_t stream, uint64_t at_ns);
  // Whether `pid` sampled itself at `time_ns`: the kernel's sample of it then is not written.
  bool Covers(uint32_t pid, uint64_t time_ns) const;

 private:
  struct Span {
    uint64_t stream;
    uint64_t since_ns;
    uint64_t until_ns;  // UINT64_MAX while open
  };
  mutable std::mutex mutex_;
  std::unordered_map<uint32_t, std::vector<Span>> spans_;  // by pid
  std::unordered_map<uint64_t, uint32_t> pids_;            // of the streams with a span
};

}  // namespace prof::collector
