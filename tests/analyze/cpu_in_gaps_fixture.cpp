#include "tests/analyze/cpu_in_gaps_fixture.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <vector>

#include "storage/global_id.h"
#include "storage/report_writer.h"
#include "tests/support/test_support.h"

namespace prof::analyze::test {
namespace {

using storage::GlobalPid;
using storage::GlobalTid;

const int64_t kMainThread = GlobalTid(100, 100);
const int64_t kWorker = GlobalTid(100, 101);

struct Frame {
  const char* symbol;
  const char* module;
  int32_t unwind_method;
  int64_t ip_or_line;
};

const Frame kModule{"<module>", "/w/train.py", storage::kUnwindPythonFrame, 90};
const Frame kTrain{"train", "/w/train.py", storage::kUnwindPythonFrame, 60};
const Frame kCollate{"collate", "/w/train.py", storage::kUnwindPythonFrame, 42};
const Frame kMemcpy{"memcpy", "/usr/lib/libc.so.6", storage::kUnwindFramePointer, 0x7f0000000100};
const Frame kLaunch{"cudaLaunchKernel", "/usr/lib/libcudart.so", storage::kUnwindFramePointer,
                    0x7f0000000200};
const Frame kDecode{"decode_jpeg", "/usr/lib/libjpeg.so", storage::kUnwindFramePointer,
                    0x7f0000000300};

const Frame kQueueGet{"Queue.get", "/usr/lib/python3.11/multiprocessing/queues.py",
                      storage::kUnwindPythonFrame, 103};
const Frame kWorkerLoop{"_worker_loop", "/w/worker.py", storage::kUnwindPythonFrame, 30};
const Frame kWorkerModule{"<module>", "/w/worker.py", storage::kUnwindPythonFrame, 1};

const std::vector<Frame> kInCollate = {kModule, kTrain, kCollate};
const std::vector<Frame> kInMemcpy = {kModule, kTrain, kCollate, kMemcpy};

// The writer of a fresh report <temp dir>/<name>.sqlite with process 100 and its two threads.
class FixtureWriter {
 public:
  explicit FixtureWriter(const std::string& name)
      : path_(prof::test::MakeTempDir("cpu_in_gaps_" + name) + "/" + name + ".sqlite") {
    auto created = storage::ReportWriter::Create(path_);
    REQUIRE(created.ok());
    writer_ = std::move(created).value();
    writer_->AddProcess(GlobalPid(100), 100, "python");
    writer_->SetThreadName(kMainThread, "MainThread", 0);
    writer_->SetThreadName(kWorker, "worker", 0);
  }

  // A sample of `thread` with `stack` (outermost frame first), its frames from the leaf.
  void Sample(int64_t thread, int64_t start, const std::vector<Frame>& stack) {
    storage::CpuSampleRow sample;
    sample.id = ++sample_id_;
    sample.start = start;
    sample.global_tid = thread;
    writer_->Add<storage::kCompositeEventsTable>(sample);
    for (size_t depth = 0; depth < stack.size(); ++depth) {
      writer_->Add<storage::kSamplingCallchainsTable>(
          FrameRow(sample.id, stack[stack.size() - 1 - depth], depth));
    }
  }

  // Frame `depth` (0: the innermost) of stack `id`.
  storage::SamplingFrameRow FrameRow(int64_t id, const Frame& frame, size_t depth) {
    storage::SamplingFrameRow row;
    row.id = id;
    row.symbol = writer_->InternString(frame.symbol);
    row.module = writer_->InternString(frame.module);
    row.original_ip = frame.ip_or_line;
    row.unwind_method = frame.unwind_method;
    row.stack_depth = static_cast<int32_t>(depth);
    return row;
  }

  // A switch of `thread` onto the CPU, or off it blocked (threadState 2, threadBlock 1) or
  // preempted (threadState 1, threadBlock 44).
  enum class Switch { kIn, kBlocked, kPreempted };
  void Sched(int64_t thread, int64_t start, Switch kind) {
    storage::SchedEventRow row;
    row.start = start;
    row.global_tid = thread;
    row.is_sched_in = kind == Switch::kIn ? 1 : 0;
    if (kind == Switch::kBlocked) {
      row.thread_state = 2;
      row.thread_block = 1;
    } else if (kind == Switch::kPreempted) {
      row.thread_state = 1;
      row.thread_block = 44;
    }
    writer_->Add<storage::kSchedEventsTable>(row);
  }

  // A kernel of device 0 [start,end] launched by MainThread at `launch`.
  void Kernel(int64_t start, int64_t end, int64_t launch) {
    const int64_t correlation = ++correlation_id_;
    storage::CudaApiCallRow call;
    call.start = launch;
    call.end = launch + 5;
    call.global_tid = kMainThread;
    call.correlation_id = correlation;
    call.name_id = writer_->InternString("cudaLaunchKernel_v7000");
    writer_->Add<storage::kCuptiActivityKindRuntimeTable>(call);
    storage::CudaKernelRow kernel;
    kernel.operation.start = start;
    kernel.operation.end = end;
    kernel.operation.context_id = 1;
    kernel.operation.stream_id = 7;
    kernel.operation.correlation_id = correlation;
    kernel.operation.global_pid = GlobalPid(100);
    kernel.demangled_name = writer_->InternString("kern");
    kernel.short_name = kernel.demangled_name;
    writer_->Add<storage::kCuptiActivityKindKernelTable>(kernel);
  }

  // An OS runtime call of `thread`, with its backtrace (outermost frame first) when `stack` has
  // frames.
  void OsrtCall(int64_t start, int64_t end, const char* name, int64_t thread = kMainThread,
                const std::vector<Frame>& stack = {}) {
    storage::OsrtCallRow row;
    row.start = start;
    row.end = end;
    row.global_tid = thread;
    row.name_id = writer_->InternString(name);
    if (!stack.empty()) {
      row.callchain_id = ++callchain_id_;
      for (size_t depth = 0; depth < stack.size(); ++depth) {
        writer_->Add<storage::kOsrtCallchainsTable>(
            FrameRow(row.callchain_id, stack[stack.size() - 1 - depth], depth));
      }
    }
    writer_->Add<storage::kOsrtApiTable>(row);
  }

  void Step(int64_t start, int64_t end) {
    storage::NvtxEventRow row;
    row.start = start;
    row.end = end;
    row.event_type = 59;
    row.text = "step";
    row.global_tid = kMainThread;
    writer_->Add<storage::kNvtxEventsTable>(row);
  }

  std::string Finish() {
    storage::SessionInfo session;
    session.utc_epoch_ns_at_start = 1700000000000000000;
    const Status finished = writer_->Finish(session);
    INFO(finished.message());
    REQUIRE(finished.ok());
    return path_;
  }

 private:
  std::string path_;
  std::unique_ptr<storage::ReportWriter> writer_;
  int64_t sample_id_ = 0;
  int64_t correlation_id_ = 0;
  int64_t callchain_id_ = 0;
};

}  // namespace

std::string CpuInGapsReport(const std::string& name) {
  using Switch = FixtureWriter::Switch;
  FixtureWriter report(name);
  report.Kernel(1000, 2000, 900);
  report.Kernel(12000, 13000, 11900);
  report.Kernel(21000, 22000, 20950);
  report.Sample(kMainThread, 1500, {kModule, kTrain, kLaunch});
  for (int64_t k = 0; k < 10; ++k) {
    report.Sample(kMainThread, 2500 + 1000 * k, k < 7 ? kInCollate : kInMemcpy);
  }
  report.Sample(kWorker, 12500, {kDecode});
  report.Sched(kMainThread, 500, Switch::kIn);
  report.Sched(kMainThread, 8000, Switch::kPreempted);
  report.Sched(kMainThread, 8500, Switch::kIn);
  report.Sched(kMainThread, 12800, Switch::kBlocked);
  report.Sched(kMainThread, 21000, Switch::kIn);
  report.Sched(kMainThread, 40000, Switch::kPreempted);
  report.Sched(kWorker, 500, Switch::kIn);
  report.Sched(kWorker, 4000, Switch::kBlocked);
  report.Sched(kWorker, 30000, Switch::kIn);
  report.Sched(kWorker, 40000, Switch::kBlocked);
  report.OsrtCall(12900, 20950, "sem_wait", kMainThread, {kModule, kTrain, kQueueGet});
  // The worker waits for its next index; a shorter call of its own has no backtrace.
  report.OsrtCall(4000, 29990, "read", kWorker, {kWorkerModule, kWorkerLoop});
  report.OsrtCall(3000, 3500, "write", kWorker);
  return report.Finish();
}

std::string CpuOnlyReport(const std::string& name) {
  using Switch = FixtureWriter::Switch;
  FixtureWriter report(name);
  for (int64_t start : {0, 1000, 2000, 3000}) report.Step(start, start + 1000);
  report.Sample(kMainThread, 500, kInCollate);
  for (int64_t start : {1100, 1500, 1900, 2300}) report.Sample(kMainThread, start, kInCollate);
  for (int64_t start : {2700, 3100}) report.Sample(kMainThread, start, kInMemcpy);
  for (int64_t start : {1200, 1600, 2000}) report.Sample(kWorker, start, {kDecode});
  report.Sched(kMainThread, 0, Switch::kIn);
  report.Sched(kMainThread, 5000, Switch::kPreempted);
  report.Sched(kMainThread, 5100, Switch::kIn);
  report.Sched(kWorker, 0, Switch::kIn);
  report.Sched(kWorker, 2500, Switch::kBlocked);
  report.Sched(kWorker, 3500, Switch::kIn);
  report.Sched(kWorker, 5000, Switch::kBlocked);
  report.OsrtCall(2500, 3500, "read", kWorker, {kWorkerModule, kWorkerLoop});
  return report.Finish();
}

}  // namespace prof::analyze::test
