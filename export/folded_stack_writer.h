// Writes a report's CPU samples as collapsed ("folded") stacks, the input of flame graph tools
// (Brendan Gregg's flamegraph.pl, speedscope, inferno): one line per distinct stack of a thread,
//   <process> (<pid>);<thread> (<tid>);<outermost frame>;...;<innermost frame> <samples>
// A native frame is its function name (the hex address when unresolved), a Python frame
// "<function> (<file base name>)"; ';' inside a name becomes ':' and line breaks spaces, so that
// every line splits back into its frames. A process or thread without a recorded name is called
// "process" or "thread". Lines are sorted by their text (bytes), so equal reports export equal
// files. Events and counters are not read; a report without samples gives an empty file.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "export/output_stream.h"
#include "export/timeline.h"

namespace prof::exporter {

class FoldedStackWriter : public TimelineSink {
 public:
  explicit FoldedStackWriter(OutputStream* out) : out_(out) {}

  bool TakesEvents() const override { return false; }
  void AddTrack(const Track& track) override;
  void AddEvent(const TimelineEvent&) override {}
  void AddCounter(const CounterSample&) override {}
  void AddCpuSample(const CpuSample& sample) override;
  // Writes the lines: the stacks are counted in memory until then (one entry per distinct stack).
  void Finish() override;

 private:
  OutputStream* out_;
  std::map<int64_t, std::string> process_labels_;                     // pid -> "name (pid)"
  std::map<std::pair<int64_t, int64_t>, std::string> thread_labels_;  // (pid, tid) -> "name (tid)"
  std::map<std::string, int64_t> counts_;                             // stack line -> samples
  std::string line_;                                                  // reused
};

}  // namespace prof::exporter
