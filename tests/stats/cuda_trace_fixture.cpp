#include "tests/stats/cuda_trace_fixture.h"

#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {
namespace {

// $T1, $T2, $P2 stand for the threads' GlobalIds, $G1 and $G2 for the processes'.
const char* const kNvtxRows =
    "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
    " (0, 1000, 59, 'outer', $T1, 0), (100, 400, 59, 'inner', $T1, 0),"
    " (150, 250, 59, 'leaf', $T1, 0), (500, 600, 59, 'idle', $T1, 0),"
    " (2000, 2300, 59, 'inner', $T1, 0), (0, 1000, 59, 'other', $T2, 0),"
    " (50, 900, 60, 'async', $T1, 0);";

const char* const kApiRows =
    "INSERT INTO StringIds (id, value) VALUES (1, 'cudaLaunchKernel_v7000'),"
    " (2, 'cudaMemcpyAsync'), (3, 'cudaMemsetAsync'), (4, 'cudaStreamSynchronize'),"
    " (5, 'cudaGetDeviceProperties_v12000'), (6, 'main'), (10, 'kern_a(int)'), (11, 'kern_a'),"
    " (12, '_Z6kern_ai'), (13, 'kern_b<float>(float *)'), (14, 'kern_b');"
    "INSERT INTO ThreadNames (nameId, priority, globalTid) VALUES (6, 20, $T1);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME"
    " (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES"
    " (110, 120, 1, $T1, 1, 1, 0), (160, 170, 1, $T1, 2, 1, 0), (300, 450, 1, $T1, 3, 2, 0),"
    " (700, 710, 1, $T1, 4, 3, 0), (100, 110, 1, $T2, 5, 1, 0), (800, 810, 1, $T1, 6, 4, 0),"
    " (2010, 2020, 1, $T1, 7, 5, 1), (120, 130, 1, $P2, 1, 1, 0);";

// K1 has a mangled name, the others do not (the mangled option falls back to demangledName).
const char* const kGpuRows =
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId,"
    " streamId, correlationId, globalPid, demangledName, shortName, mangledName,"
    " registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory,"
    " dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) VALUES"
    " (1000, 1100, 0, 1, 3, 7, 1, $G1, 10, 11, 12, 32, 4, 2, 1, 128, 1, 1, 1024, 2500000, 0, 0,"
    " 1),"
    " (1200, 1250, 0, 1, 0, 7, 2, $G1, 13, 14, NULL, 16, 1, 1, 1, 64, 1, 1, 0, 0, 0, 0, 2),"
    " (2000, 2100, 0, 1, 0, 8, 5, $G1, 13, 14, NULL, 16, 1, 1, 1, 64, 1, 1, 0, 0, 0, 0, 3),"
    " (3000, 3010, 0, 1, 0, 9, 1, $G2, 10, 11, 12, 32, 1, 1, 1, 32, 1, 1, 0, 0, 0, 0, 4);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, greenContextId,"
    " streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind) VALUES"
    " (1300, 1400, 0, 1, 0, 7, 3, $G1, 4000000, 1, 1, 2),"
    " (2500, 2500, 0, 1, 0, 7, 7, $G1, 8, 2, 2, 0);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, greenContextId,"
    " streamId, correlationId, globalPid, value, bytes, memKind) VALUES"
    " (1500, 1510, 0, 1, 0, 7, 4, $G1, 0, 1000, 2);"
    "INSERT INTO TARGET_INFO_GPU (vmId, id, name) VALUES (0, 0, 'Test GPU');"
    "INSERT INTO ENUM_CUDA_MEMCPY_OPER (id, name, label) VALUES"
    " (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device'),"
    " (2, 'CUDA_MEMCPY_KIND_DTOH', 'Device-to-Host');"
    "INSERT INTO ENUM_CUDA_MEM_KIND (id, name, label) VALUES"
    " (0, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'),"
    " (1, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'),"
    " (2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device');";

}  // namespace

std::string MakeCudaTraceReport(const std::string& name) {
  // A process's GlobalId is its threads' with the tid bits cleared.
  return MakeReport(
      name,
      {"NVTX_EVENTS", "ThreadNames", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_KERNEL",
       "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET", "TARGET_INFO_GPU",
       "ENUM_CUDA_MEMCPY_OPER", "ENUM_CUDA_MEM_KIND"},
      ReplaceAll(std::string(kNvtxRows) + kApiRows + kGpuRows, {{"$T1", Tid(100, 1)},
                                                                {"$T2", Tid(100, 2)},
                                                                {"$P2", Tid(200, 1)},
                                                                {"$G1", Tid(100, 0)},
                                                                {"$G2", Tid(200, 0)}}));
}

}  // namespace prof::stats::test
