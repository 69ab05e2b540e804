// Samples a program's whole process tree with perf_event_open, from outside the program: the
// launcher opens the session on its held child (forked, waiting before exec), then releases it.
//
// What the session opens: one software cpu-clock event per online CPU, for the child (pid = child,
// cpu = each), inherited by every thread and child process the program starts, enabled by the
// child's exec, user space only. Each CPU's event has its own ring; the inherited copies write
// into their parent event's ring. docs/sampling.md explains the choices.
//
// Threads: Open, Drain and Close on one thread (the reader's); poll_fd() may be waited on from it.
// Sink callbacks run inside Drain/Close on that thread. Errors are Status values; features the
// kernel refuses that sampling can do without (context switches, build ids) are turned off and
// named in notes() instead of failing.
#pragma once

#include <linux/perf_event.h>
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "collector/perf_events/perf_attributes.h"
#include "collector/perf_events/perf_record_parser.h"
#include "collector/perf_events/perf_records.h"
#include "common/status.h"

namespace prof::collector::perf {

// perf_event_open(attr, pid, cpu, group_fd = -1, flags): a file descriptor or -1 with errno set.
// The real system call unless a test passes its own.
using PerfEventOpener = std::function<int(perf_event_attr* attr, pid_t pid, int cpu)>;
int OpenPerfEvent(perf_event_attr* attr, pid_t pid, int cpu);

class PerfSession {
 public:
  // Whether perf sampling works here: opens (and maps) a tiny disabled event on this process.
  // OK, or the one-line reason, e.g. "perf_event_open refused: Permission denied (errno 13,
  // perf_event_paranoid 3)" or "perf_event_open refused (PROF_PERF_EVENTS=off)".
  static Status Probe();

  // Opens the events for `held_child`, which must not have exec'd yet (sampling starts at its
  // exec). With PROF_PERF_EVENTS=off in prof's environment, fails as Probe() does.
  static StatusOr<PerfSession> Open(pid_t held_child, const PerfSamplingOptions& options,
                                    const PerfEventOpener& opener = OpenPerfEvent);

  PerfSession(PerfSession&&) noexcept;
  PerfSession& operator=(PerfSession&&) noexcept;
  ~PerfSession();  // Close() with the remaining records discarded

  // Reads every ring up to the head it finds, delivering records in timestamp order across the
  // CPUs for this pass (perf_ring_merge.h: a later pass may deliver older records). Returns the
  // number of records delivered.
  size_t Drain(PerfRecordSink& sink);

  // Disables the events (the program's and all inherited copies), drains what is left into
  // `sink`, unmaps the rings and closes the descriptors. Returns the records of that last drain.
  // Idempotent; Drain() afterwards delivers nothing.
  size_t Close(PerfRecordSink& sink);

  // An epoll descriptor that is readable when a ring has filled past its wake-up mark (half the
  // ring) or, with EPOLLHUP on every event, once every task of the tree has exited (observed on
  // 6.18): poll it with a timeout (records below the mark wait for the next timeout's Drain), and
  // after the program exited, drain once more instead of waiting on it again. -1 after Close().
  int poll_fd() const { return epoll_fd_; }
  // The per-CPU event descriptors, in cpus() order, for callers that poll them themselves.
  std::vector<int> event_fds() const;

  const std::vector<int>& cpus() const { return cpus_; }
  uint64_t ring_data_bytes() const { return ring_data_bytes_; }
  const perf_event_attr& attributes() const { return attr_; }
  // Cumulative over all drains: records, samples, lost samples (lost_records), throttles...
  const PerfCounters& counters() const { return counters_; }
  // What was turned off or shrunk to make sampling work here, one line each (e.g. "context
  // switches refused by the kernel (Permission denied); sampling without them").
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  struct CpuRing;  // an event descriptor, its mapping and its reader
  PerfSession();

  std::vector<int> cpus_;
  std::vector<std::unique_ptr<CpuRing>> rings_;
  int epoll_fd_ = -1;
  perf_event_attr attr_{};
  PerfRecordLayout layout_;
  uint64_t ring_data_bytes_ = 0;
  PerfCounters counters_;
  std::vector<std::string> notes_;
};

}  // namespace prof::collector::perf
