#include "diff/item_queries.h"

#include <string>

#include "diff/embedded_queries.h"

namespace prof::diff {
namespace {

constexpr std::string_view kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr std::string_view kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr std::string_view kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
// What view waiting_intervals reads besides StringIds: wait calls and thread switches.
const std::vector<std::string_view> kWaitingTables = {"OSRT_API", "SCHED_EVENTS"};

// The text of queries/<file>; the build embeds every file the registry names.
std::string_view QuerySql(std::string_view file) {
  const std::optional<std::string_view> sql =
      FindEmbeddedFile(EmbeddedQueryFiles(), "queries/" + std::string(file));
  return sql.value_or("");
}

}  // namespace

const std::vector<ItemQuery>& AllItemQueries() {
  static const std::vector<ItemQuery> queries = {
      {ItemKind::kGpuBusy, {}, {kKernel, kMemcpy, kMemset}, {}, {}, QuerySql("gpu_busy.sql")},
      {ItemKind::kGpuSpan, {}, {kKernel, kMemcpy, kMemset}, {}, {}, QuerySql("gpu_span.sql")},
      {ItemKind::kRange,
       {"NVTX_EVENTS", "StringIds"},
       {},
       kWaitingTables,
       {"nvtx_ranges", "thread_states", "waiting_intervals", "nvtx_range_waits"},
       QuerySql("range.sql")},
      {ItemKind::kKernel, {kKernel, "StringIds"}, {}, {}, {"cuda_kernels"}, QuerySql("kernel.sql")},
      {ItemKind::kMemop,
       {},
       {kMemcpy, kMemset},
       {"ENUM_CUDA_MEMCPY_OPER"},
       {"cuda_gpu_mem_ops"},
       QuerySql("memop.sql")},
      {ItemKind::kCudaApi,
       {"CUPTI_ACTIVITY_KIND_RUNTIME", "StringIds"},
       {},
       {},
       {"cuda_api_calls"},
       QuerySql("cuda_api.sql")},
      {ItemKind::kNvtx,
       {"NVTX_EVENTS", "StringIds"},
       {},
       kWaitingTables,
       {"nvtx_ranges", "thread_states", "waiting_intervals", "nvtx_range_waits"},
       QuerySql("nvtx.sql")},
      {ItemKind::kOsrt,
       {"OSRT_API", "StringIds"},
       {},
       kWaitingTables,
       {"thread_states", "waiting_intervals"},
       QuerySql("osrt.sql")},
  };
  return queries;
}

std::optional<std::string_view> DiffViewSql(std::string_view view) {
  return FindEmbeddedFile(EmbeddedQueryFiles(), "queries/views/" + std::string(view) + ".sql");
}

}  // namespace prof::diff
