// cuda_gpu_mem_peak on a hand-made report with a known peak per device.
#include <catch2/catch.hpp>

#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {
namespace {

std::string MakeMemoryReport() {
  // (start, globalPid, deviceId, contextId, address, pc, bytes, memKind, memoryOperationType,
  // correlationId): memKind 2 device, 1 pinned; operation 0 allocation, 1 deallocation.
  const std::string rows =
      "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS (start, globalPid, deviceId, contextId, address,"
      " pc, bytes, memKind, memoryOperationType, correlationId) VALUES"
      " (100, $P, 0, 1, 4096, 0, 4194304, 2, 0, 1),"   // A: 4 MiB
      " (200, $P, 0, 1, 8192, 0, 2097152, 2, 0, 2),"   // B: 6 MiB in all
      " (300, $P, 0, 1, 4096, 0, 4194304, 2, 1, 3),"   // A freed: 2 MiB
      " (400, $P, 0, 1, 4096, 0, 8388608, 2, 0, 4),"   // C at A's address: 10 MiB, the peak
      " (450, $P, 0, 1, 36864, 0, 1048576, 1, 0, 5),"  // pinned host memory does not count
      " (600, $P, 0, 1, 4096, 0, 8388608, 2, 1, 6),"   // C freed: 2 MiB
      " (700, $P, 0, 1, 12288, 0, 8388608, 2, 0, 7),"  // E: 10 MiB again, not the first time
      " (150, $P, 1, 2, 20480, 0, 1024, 2, 0, 8),"
      " (250, $P, 1, 2, 20480, 0, 1024, 2, 1, 9),"
      // A device whose capture saw only a free has no peak.
      " (300, $P, 2, 3, 24576, 0, 512, 2, 1, 10);";
  return MakeReport("cuda_gpu_mem_peak", {"CUDA_GPU_MEMORY_USAGE_EVENTS"},
                    ReplaceAll(rows, {{"$P", Tid(10, 0)}}));
}

TEST_CASE("cuda_gpu_mem_peak lists each device's peak and the allocations alive at it",
          "[stats][memory]") {
  const ResultTable table = RunReport(MakeMemoryReport(), "cuda_gpu_mem_peak");
  CHECK(table.columns == std::vector<std::string>{"Device", "Peak (B)", "Peak Time (ns)", "Alive",
                                                  "Size (B)", "Alloc Time (ns)", "Address",
                                                  "CorrId", "Pid"});
  CHECK(Texts(table) == TextRows{
                            {"0", "10485760", "400", "2", "8388608", "400", "0x1000", "4", "10"},
                            {"0", "10485760", "400", "2", "2097152", "200", "0x2000", "2", "10"},
                            {"1", "1024", "150", "1", "1024", "150", "0x5000", "8", "10"},
                        });
}

}  // namespace
}  // namespace prof::stats::test
