#include "tests/merge/merge_fixture.h"

#include <vector>

#include "storage/global_id.h"
#include "tests/stats/stats_test_util.h"

namespace prof::merge::test {
namespace {

const std::vector<std::string> kTables = {"CUPTI_ACTIVITY_KIND_KERNEL",
                                          "NVTX_EVENTS",
                                          "PROCESSES",
                                          "ThreadNames",
                                          "TARGET_INFO_GPU",
                                          "TARGET_INFO_SESSION_START_TIME",
                                          "PROF_SESSION",
                                          "PROF_STATS",
                                          "DIAGNOSTIC_EVENT"};

std::string Kernel(uint32_t pid, int64_t start, int64_t end, int name) {
  const std::string id = std::to_string(name);
  return "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId,"
         " correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY,"
         " gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory,"
         " localMemoryPerThread, localMemoryTotal, gridId) VALUES (" +
         std::to_string(start) + ", " + std::to_string(end) + ", 0, 1, 7, 1, " +
         std::to_string(storage::GlobalPid(pid)) + ", " + id + ", " + id +
         ", 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1);";
}

// The rows both ranks have, for `pid`, with the StringIds ids of "step" and "main".
std::string CommonRows(uint32_t pid, int rank, int64_t start_ns, int step, int main,
                       int64_t duration, int64_t dropped) {
  const std::string tid = std::to_string(storage::GlobalTid(pid, 1));
  return "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.20.3');"
         "INSERT INTO NVTX_EVENTS (start, end, eventType, globalTid, textId, domainId) VALUES"
         " (5, 30, 59, " +
         tid + ", " + std::to_string(step) +
         ", 0);"
         "INSERT INTO ThreadNames VALUES (" +
         std::to_string(main) + ", 0, " + tid +
         ");"
         "INSERT INTO PROCESSES VALUES (" +
         std::to_string(storage::GlobalPid(pid)) + ", " + std::to_string(pid) +
         ", 'python');"
         "INSERT INTO TARGET_INFO_GPU (vmId, id, name) VALUES (0, 0, 'H200');"
         "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (" +
         std::to_string(start_ns) +
         ", 'x', 'x');"
         "INSERT INTO PROF_SESSION VALUES ('command_line', 'python train.py'), ('duration_ns', '" +
         std::to_string(duration) + "'), ('dropped_records', '" + std::to_string(dropped) +
         "'), ('utc_epoch_ns_at_start', '" + std::to_string(start_ns) +
         "');"
         "INSERT INTO PROF_STATS VALUES ('dropped_records', 'data_loss', " +
         std::to_string(dropped) +
         ", 'records were dropped'), ('unknown_records', 'error', 1, 'unknown kinds');"
         "INSERT INTO DIAGNOSTIC_EVENT VALUES (40, 2, 2, 2, 'prof lost records', " +
         std::to_string(storage::GlobalPid(pid)) +
         ");"
         "CREATE TABLE MPI_RANKS (globalTid INTEGER NOT NULL, rank INTEGER NOT NULL);"
         "INSERT INTO MPI_RANKS VALUES (" +
         tid + ", " + std::to_string(rank) + ");";
}

std::string RankZeroRows() {
  return "INSERT INTO StringIds VALUES (0, 'step'), (1, 'gemm'), (2, 'main');" +
         Kernel(100, 10, 20, 1) + CommonRows(100, 0, 1000000000, 0, 2, 100, 2);
}

std::string RankOneRows() {
  return "INSERT INTO StringIds VALUES (0, 'gemm'), (1, 'ncclKernel_AllReduce'), (2, 'step'),"
         " (3, 'main');" +
         Kernel(200, 10, 20, 0) + Kernel(200, 30, 40, 1) +
         CommonRows(200, 1, 1000000500, 2, 3, 50, 3);
}

}  // namespace

std::string RankZeroReport(const std::string& name) {
  return stats::test::MakeReport(name, kTables, RankZeroRows());
}

std::string RankOneReport(const std::string& name) {
  return stats::test::MakeReport(name, kTables, RankOneRows());
}

std::string RankZeroReportWith(const std::string& name, const std::string& sql) {
  return stats::test::MakeReport(name, kTables, RankZeroRows() + sql);
}

std::string RankOneReportWith(const std::string& name, const std::string& sql) {
  return stats::test::MakeReport(name, kTables, RankOneRows() + sql);
}

}  // namespace prof::merge::test
