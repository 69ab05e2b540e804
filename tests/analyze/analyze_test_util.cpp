#include "tests/analyze/analyze_test_util.h"

#include <catch2/catch.hpp>

#include "analyze/rule_query.h"
#include "analyze/rule_request.h"
#include "stats/report_database.h"
#include "stats/size_unit.h"
#include "storage/global_id.h"

namespace prof::analyze::test {

RuleOutput RunRuleOn(const std::string& path, const std::string& rule) {
  std::vector<RuleRequest> requests;
  Status status = SelectRules({rule}, &requests);
  INFO(status.message());
  REQUIRE(status.ok());
  REQUIRE(requests.size() == 1);
  storage::Database db;
  status = stats::OpenReportDatabase(path, &db);
  INFO(status.message());
  REQUIRE(status.ok());
  RuleResult result;
  status = RunRule(&db, requests[0], &result);
  INFO(status.message());
  REQUIRE(status.ok());
  stats::ApplySizeUnit(&result.table);  // sizes print with three decimals, as in the output
  return {result.table.columns, stats::test::Texts(result.table), result.skip_note,
          result.window_note};
}

std::string WithIds(const std::string& sql) {
  using storage::GlobalPid;
  using storage::GlobalTid;
  return stats::test::ReplaceAll(sql, {{"$T1", std::to_string(GlobalTid(100, 1))},
                                       {"$T2", std::to_string(GlobalTid(100, 2))},
                                       {"$P2", std::to_string(GlobalTid(200, 1))},
                                       {"$G1", std::to_string(GlobalPid(100))},
                                       {"$G2", std::to_string(GlobalPid(200))}});
}

std::string KernelRows(const std::vector<TestKernel>& kernels) {
  std::string sql =
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId,"
      " correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY,"
      " gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory,"
      " localMemoryPerThread, localMemoryTotal, gridId) VALUES ";
  for (size_t i = 0; i < kernels.size(); ++i) {
    const TestKernel& k = kernels[i];
    sql += (i == 0 ? "(" : ", (") + std::to_string(k.start) + ", " + std::to_string(k.end) + ", " +
           std::to_string(k.device) + ", 1, " + std::to_string(k.stream) + ", " +
           std::to_string(k.correlation) + ", " + std::to_string(storage::GlobalPid(100)) +
           ", 1, 1, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, " + std::to_string(i + 1) + ")";
  }
  return sql + ";";
}

std::string MemoryKindRows() {
  return "INSERT INTO ENUM_CUDA_MEM_KIND (id, name, label) VALUES"
         " (0, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'),"
         " (1, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'),"
         " (2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device'),"
         " (4, 'CUDA_MEMOPR_MEMORY_KIND_MANAGED', 'Managed');";
}

}  // namespace prof::analyze::test
