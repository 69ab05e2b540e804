#include "tests/stats/cpu_sample_fixture.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <vector>

#include "storage/global_id.h"
#include "storage/report_writer.h"
#include "tests/support/test_support.h"

namespace prof::stats::test {
namespace {

using storage::GlobalPid;
using storage::GlobalTid;

struct Frame {
  const char* symbol;
  const char* module;
  int32_t unwind_method;
  int64_t ip_or_line;
  int32_t unresolved;
};

const Frame kMain{"main", "/usr/bin/python3.12", storage::kUnwindFramePointer, 0x401000, 0};
const Frame kTrain{"Trainer.train", "/w/train.py", storage::kUnwindPythonFrame, 10, 0};
const Frame kTrainLoad{"Trainer.train", "/w/train.py", storage::kUnwindPythonFrame, 12, 0};
const Frame kStep{"Trainer.step", "/w/train.py", storage::kUnwindPythonFrame, 20, 0};
const Frame kMatmul{"matmul", "/usr/lib/libtorch.so", storage::kUnwindDwarfEh, 0x7f00aa000100, 0};
const Frame kLoad{"load_batch", "/w/data.py", storage::kUnwindPythonFrame, 5, 0};
const Frame kUnknown{"0x7f0000001234", "/usr/lib/libcuda.so.1", storage::kUnwindDwarfEh,
                     0x7f0000001234, 1};
const Frame kStartThread{"start_thread", "/usr/lib/libc.so.6", storage::kUnwindFramePointer,
                         0x7f1100000010, 0};
const Frame kFib{"fib", "/w/libfib.so", storage::kUnwindFramePointer, 0x7f2200000020, 0};
const Frame kTrainerMain{"main", "/usr/bin/trainer", storage::kUnwindFramePointer, 0x402000, 0};
const Frame kCompute{"compute", "/usr/bin/trainer", storage::kUnwindFramePointer, 0x402100, 0};

// Adds sample `id` with `stack` (outermost frame first), as the collector does: the sample row,
// then its frames from the leaf (stackDepth 0).
void AddSample(storage::ReportWriter* writer, int64_t id, int64_t start, int32_t cpu,
               int64_t global_tid, const std::vector<Frame>& stack) {
  storage::CpuSampleRow sample;
  sample.id = id;
  sample.start = start;
  sample.cpu = cpu;
  sample.global_tid = global_tid;
  writer->Add<storage::kCompositeEventsTable>(sample);
  for (size_t depth = 0; depth < stack.size(); ++depth) {
    const Frame& frame = stack[stack.size() - 1 - depth];
    storage::SamplingFrameRow row;
    row.id = id;
    row.symbol = writer->InternString(frame.symbol);
    row.module = writer->InternString(frame.module);
    row.unresolved = frame.unresolved;
    row.original_ip = frame.ip_or_line;
    row.unwind_method = frame.unwind_method;
    row.stack_depth = static_cast<int32_t>(depth);
    writer->Add<storage::kSamplingCallchainsTable>(row);
  }
}

void AddRange(storage::ReportWriter* writer, int64_t start, int64_t end, const char* text,
              int64_t global_tid) {
  storage::NvtxEventRow row;
  row.start = start;
  row.end = end;
  row.event_type = 59;
  row.text = text;
  row.global_tid = global_tid;
  writer->Add<storage::kNvtxEventsTable>(row);
}

}  // namespace

std::string MakeCpuSampleReport(const std::string& name) {
  const std::string path = prof::test::MakeTempDir("cpu_samples_" + name) + "/" + name + ".sqlite";
  auto created = storage::ReportWriter::Create(path);
  REQUIRE(created.ok());
  std::unique_ptr<storage::ReportWriter> writer = std::move(created).value();
  const int64_t main_thread = GlobalTid(1234, 1234);
  const int64_t loader = GlobalTid(1234, 1240);
  const int64_t trainer = GlobalTid(2000, 2000);
  writer->AddProcess(GlobalPid(1234), 1234, "python");
  writer->AddProcess(GlobalPid(2000), 2000, "trainer");
  writer->SetThreadName(main_thread, "MainThread", 0);
  writer->SetThreadName(loader, "loader", 0);
  writer->SetThreadName(trainer, "trainer", 0);
  int64_t id = 0;
  for (int64_t k = 1; k <= 10; ++k) {
    const bool step = k <= 7;
    AddSample(writer.get(), ++id, 100 * k, 0, main_thread,
              step ? std::vector<Frame>{kMain, kTrain, kStep, kMatmul}
                   : std::vector<Frame>{kMain, kTrainLoad, kLoad, kUnknown});
  }
  for (int64_t k = 0; k < 4; ++k) {
    AddSample(writer.get(), ++id, 150 + 100 * k, 1, loader,
              k < 2 ? std::vector<Frame>{kStartThread, kFib, kFib, kFib}
                    : std::vector<Frame>{kStartThread, kFib});
  }
  for (int64_t k = 0; k < 5; ++k) {
    AddSample(
        writer.get(), ++id, 120 + 100 * k, 1, trainer,
        k < 3 ? std::vector<Frame>{kTrainerMain, kCompute} : std::vector<Frame>{kTrainerMain});
  }
  AddRange(writer.get(), 0, 250, "warmup", main_thread);
  AddRange(writer.get(), 650, 950, "batch", main_thread);
  storage::SessionInfo session;
  session.utc_epoch_ns_at_start = 1700000000000000000;
  const Status finished = writer->Finish(session);
  INFO(finished.message());
  REQUIRE(finished.ok());
  return path;
}

}  // namespace prof::stats::test
