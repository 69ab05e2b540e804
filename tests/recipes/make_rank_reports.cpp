// Writes synthetic per-rank reports of a data-parallel training job through prof's own
// ReportWriter, so they are in the real schema: for the multi-report tests (tests/recipes) and the
// many-reports benchmark (bench/many_reports). Each rank is one process with one thread that runs
// `:step` NVTX ranges; each step launches compute kernels, then one NCCL all-reduce kernel on a
// stream of its own that partly overlaps the last compute kernel, then the GPU idles until the
// next step (the input pipeline).
//
// Usage: make_rank_reports <directory> <ranks> <events per report> [slow rank]...
// Writes <directory>/rank<R>.sqlite (R zero-padded to the width of the last rank, so that names
// sort in rank order); each report records its rank in MPI_RANKS. The durations are a function of
// (rank, step, kernel) alone, so equal arguments give equal numbers; a slow rank's kernels take
// 25 % longer and its steps idle 2 ms longer.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "storage/global_id.h"
#include "storage/report_writer.h"

namespace {

using prof::storage::CudaKernelRow;
using prof::storage::NvtxEventRow;
using prof::storage::ReportWriter;
using prof::storage::StringId;

constexpr const char* kComputeKernels[] = {"gemm_fwd", "layer_norm", "softmax", "gemm_bwd",
                                           "adam_update"};
constexpr int kComputeKernelCount = 5;
constexpr const char* kNcclKernel = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
constexpr int kEventsPerStep = kComputeKernelCount + 2;  // + the NCCL kernel + the step range
constexpr int64_t kStepsPerCommit = 10000;
constexpr int64_t kSessionStartUtcNs = 1'700'000'000'000'000'000;

struct RankPlan {
  int rank = 0;
  int64_t steps = 0;
  bool slow = false;
};

// A repeatable spread of +-10 % around `base`, from the kernel's coordinates.
int64_t Jitter(int64_t base, int rank, int64_t step, int kernel) {
  uint64_t x = static_cast<uint64_t>(rank) * 0x9E3779B97F4A7C15ULL ^
               static_cast<uint64_t>(step) * 0xBF58476D1CE4E5B9ULL ^
               static_cast<uint64_t>(kernel) * 0x94D049BB133111EBULL;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ULL;
  x ^= x >> 29;
  return base * 9 / 10 + static_cast<int64_t>(x % static_cast<uint64_t>(base / 5 + 1));
}

CudaKernelRow Kernel(int64_t global_pid, int64_t start, int64_t duration, StringId name,
                     int64_t stream, int64_t correlation) {
  CudaKernelRow row;
  row.operation.start = start;
  row.operation.end = start + duration;
  row.operation.context_id = 1;
  row.operation.stream_id = stream;
  row.operation.correlation_id = correlation;
  row.operation.global_pid = global_pid;
  row.demangled_name = row.short_name = row.mangled_name = name;
  row.grid_x = row.grid_y = row.grid_z = 1;
  row.block_x = 256;
  row.block_y = row.block_z = 1;
  return row;
}

// One step from `start`; returns the start of the next.
int64_t WriteStep(ReportWriter* writer, const RankPlan& plan, int64_t step, int64_t start,
                  const std::vector<StringId>& names) {
  const uint32_t pid = 1000 + static_cast<uint32_t>(plan.rank);
  const int64_t global_pid = prof::storage::GlobalPid(pid);
  int64_t at = start + 20'000;
  for (int k = 0; k < kComputeKernelCount; ++k) {
    int64_t duration = Jitter(200'000 + 100'000 * k, plan.rank, step, k);
    if (plan.slow) duration += duration / 4;
    writer->Add<prof::storage::kCuptiActivityKindKernelTable>(
        Kernel(global_pid, at, duration, names[k], 7, step * kEventsPerStep + k));
    at += duration + 5'000;
  }
  // The all-reduce starts under the last compute kernel and runs past it.
  const int64_t nccl_start = at - 100'000;
  const int64_t nccl_duration = Jitter(400'000, plan.rank, step, kComputeKernelCount);
  writer->Add<prof::storage::kCuptiActivityKindKernelTable>(
      Kernel(global_pid, nccl_start, nccl_duration, names[kComputeKernelCount], 13,
             step * kEventsPerStep + kComputeKernelCount));
  const int64_t end = nccl_start + nccl_duration + 10'000;
  NvtxEventRow range;
  range.start = start;
  range.end = end;
  range.event_type = 59;  // push/pop
  range.text = "step";
  range.global_tid = prof::storage::GlobalTid(pid, pid);
  writer->Add<prof::storage::kNvtxEventsTable>(range);
  const int64_t idle = 500'000 + (plan.slow ? 2'000'000 : 0);
  return end + idle;
}

bool WriteReport(const std::string& path, const RankPlan& plan) {
  auto created = ReportWriter::Create(path);
  if (!created.ok()) {
    std::fprintf(stderr, "make_rank_reports: %s\n", created.status().message().c_str());
    return false;
  }
  std::unique_ptr<ReportWriter> writer = std::move(created).value();
  std::vector<StringId> names;
  for (const char* name : kComputeKernels) names.push_back(writer->InternString(name));
  names.push_back(writer->InternString(kNcclKernel));
  const uint32_t pid = 1000 + static_cast<uint32_t>(plan.rank);
  writer->AddProcess(prof::storage::GlobalPid(pid), pid, "python");
  writer->SetThreadName(prof::storage::GlobalTid(pid, pid), "python", 0);
  writer->Add<prof::storage::kMpiRanksTable>({prof::storage::GlobalTid(pid, pid), plan.rank});
  int64_t start = 1'000'000;
  prof::Status status = prof::Status::Ok();
  for (int64_t step = 0; step < plan.steps && status.ok(); ++step) {
    start = WriteStep(writer.get(), plan, step, start, names);
    if ((step + 1) % kStepsPerCommit == 0) status = writer->Commit();
  }
  prof::storage::SessionInfo session;
  session.duration_ns = start;
  session.utc_epoch_ns_at_start = kSessionStartUtcNs;
  if (status.ok()) status = writer->Finish(session);
  if (!status.ok()) {
    std::fprintf(stderr, "make_rank_reports: %s: %s\n", path.c_str(), status.message().c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: make_rank_reports <directory> <ranks> <events per report> "
                 "[slow rank]...\n");
    return 2;
  }
  const std::string directory = argv[1];
  const int ranks = std::atoi(argv[2]);
  const int64_t events = std::atoll(argv[3]);
  std::set<int> slow;
  for (int i = 4; i < argc; ++i) slow.insert(std::atoi(argv[i]));
  if (ranks <= 0 || events < kEventsPerStep) {
    std::fprintf(stderr, "make_rank_reports: need at least 1 rank and %d events\n", kEventsPerStep);
    return 2;
  }
  const int width = static_cast<int>(std::to_string(ranks - 1).size());
  for (int rank = 0; rank < ranks; ++rank) {
    char name[64];
    std::snprintf(name, sizeof(name), "/rank%0*d.sqlite", width, rank);
    const RankPlan plan{rank, events / kEventsPerStep, slow.count(rank) > 0};
    if (!WriteReport(directory + name, plan)) return 1;
  }
  return 0;
}
