#include "tests/stats/gpu_metrics_fixture.h"

#include <vector>

#include "storage/global_id.h"
#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {
namespace {

constexpr int64_t kSampleNs = 100'000'000;
constexpr int64_t kMs = 1'000'000;

struct Kernel {
  int64_t start;
  int64_t end;
  int device;
  int name_id;  // StringIds: 1 gemm_small, 2 gemm_big, 3 relu, 4 copy_kernel
};

std::string Metrics() {
  std::string sql =
      "INSERT INTO TARGET_INFO_GPU_METRICS VALUES"
      " (256, 0, 'GPU 0 test', 0, 'SMs Active [Throughput %]'),"
      " (256, 0, 'GPU 0 test', 1, 'SM Issue [Throughput %]'),"
      " (257, 1, 'GPU 1 test', 0, 'SM Issue [Throughput %]'),"
      " (257, 1, 'GPU 1 test', 1, 'SMs Active [Throughput %]');"
      "INSERT INTO GPU_METRICS VALUES ";
  for (int64_t i = 0; i < 20; ++i) {
    const int64_t at = i * kSampleNs;
    const bool first_second = i < 10;
    const std::string time = std::to_string(at + 7) + ", " + std::to_string(at);
    sql += std::string(i == 0 ? "" : ", ") + "(" + time + ", 256, 0, " +
           (first_second ? "20" : "80") + ")";
    sql += ", (" + time + ", 256, 1, " + (first_second ? "10" : "40") + ")";
    sql += ", (" + time + ", 257, 0, 15), (" + time + ", 257, 1, 25)";
  }
  return sql + ";";
}

std::vector<Kernel> Kernels() {
  std::vector<Kernel> kernels;
  for (int64_t step = 0; step < 4; ++step) {
    const int64_t start = step * kGpuMetricsStepNs;
    const int64_t end = start + kGpuMetricsStepNs;
    kernels.push_back({start + kMs, end - 30 * kMs, 0, step < 2 ? 1 : 2});
    kernels.push_back({end - 30 * kMs, end - 10 * kMs, 0, 3});
    kernels.push_back({start, start + kGpuMetricsStepNs / 2, 1, 4});
  }
  return kernels;
}

std::string KernelsAndLaunches() {
  const std::string pid = std::to_string(storage::GlobalPid(100));
  const std::string tid = Tid(100, 1);
  std::string kernels =
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId,"
      " correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY,"
      " gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory,"
      " localMemoryPerThread, localMemoryTotal, gridId) VALUES ";
  std::string launches =
      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId,"
      " nameId, returnValue) VALUES ";
  const std::vector<Kernel> list = Kernels();
  for (size_t i = 0; i < list.size(); ++i) {
    const Kernel& k = list[i];
    const std::string id = std::to_string(i + 1);
    const std::string name = std::to_string(k.name_id);
    const std::string separator = i == 0 ? "(" : ", (";
    kernels += separator + std::to_string(k.start) + ", " + std::to_string(k.end) + ", " +
               std::to_string(k.device) + ", 1, 7, " + id + ", " + pid + ", " + name + ", " + name +
               ", 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, " + id + ")";
    launches += separator + std::to_string(k.start - 1000) + ", " + std::to_string(k.start - 500) +
                ", 1, " + tid + ", " + id + ", 5, 0)";
  }
  return kernels + ";" + launches + ";";
}

std::string Steps() {
  std::string sql =
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES ";
  for (int64_t step = 0; step < 4; ++step) {
    sql += (step == 0 ? "(" : ", (") + std::to_string(step * kGpuMetricsStepNs) + ", " +
           std::to_string((step + 1) * kGpuMetricsStepNs) + ", 59, 'step', " + Tid(100, 1) + ", 0)";
  }
  return sql + ";";
}

}  // namespace

std::string MakeGpuMetricsReport(const std::string& name) {
  return MakeReport(name,
                    {"GPU_METRICS", "TARGET_INFO_GPU_METRICS", "NVTX_EVENTS", "TARGET_INFO_GPU",
                     "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME"},
                    "INSERT INTO StringIds VALUES (1, 'gemm_small'), (2, 'gemm_big'), (3, 'relu'),"
                    " (4, 'copy_kernel'), (5, 'cudaLaunchKernel_v7000');"
                    "INSERT INTO TARGET_INFO_GPU (vmId, id, name) VALUES (0, 0, 'H200'),"
                    " (0, 1, 'H200');" +
                        Metrics() + KernelsAndLaunches() + Steps());
}

}  // namespace prof::stats::test
