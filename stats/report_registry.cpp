#include "stats/report_registry.h"

#include <utility>

#include "common/named_entries.h"
#include "stats/embedded_sql.h"
#include "storage/schema_catalog.h"

namespace prof::stats {
namespace {

// Every NVTX report reads the nvtx_ranges view; the summaries read nvtx_range_summary, built on it.
ReportSpec NvtxReport(std::string_view name, std::string_view title, bool is_default) {
  return {name,
          title,
          is_default,
          {"NVTX_EVENTS", "StringIds"},
          {"nvtx_ranges", "nvtx_range_summary"},
          "NV Tools Extension (NVTX) data"};
}

// The GPU operation tables; nsys leaves out the ones a capture has no rows of.
const std::vector<std::string_view> kGpuOperationTables = {
    "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"};

constexpr std::string_view kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr std::string_view kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr std::string_view kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr std::string_view kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr std::string_view kCopyKinds = "ENUM_CUDA_MEMCPY_OPER";

ReportSpec CudaApiSum() {
  return {"cuda_api_sum",          "CUDA API Summary", true,
          {kRuntime, "StringIds"}, {"cuda_api_calls"}, "CUDA trace data"};
}

ReportSpec CudaGpuKernSum() {
  return {"cuda_gpu_kern_sum",    "CUDA GPU Kernel Summary", true,
          {kKernel, "StringIds"}, {"cuda_kernels"},          "CUDA kernel data",
          kKernelNameOptions};
}

// The memory-operation summaries read copies and sets, either of which an nsys export may lack.
ReportSpec CudaGpuMemSum(std::string_view name, std::string_view title) {
  return {name,
          title,
          true,
          {kCopyKinds},
          {"cuda_gpu_mem_ops"},
          "GPU MemOps data",
          {},
          {kMemcpy, kMemset}};
}

ReportSpec CudaGpuSum() {
  return {"cuda_gpu_sum",
          "CUDA GPU Summary (Kernels/MemOps)",
          false,
          {"StringIds", kCopyKinds},
          {"cuda_kernels", "cuda_gpu_mem_ops", "cuda_gpu_ops"},
          "GPU kernel/memory operations data",
          kKernelNameOptions,
          {kKernel, kMemcpy, kMemset}};
}

ReportSpec CudaApiGpuSum() {
  return {"cuda_api_gpu_sum",
          "CUDA Summary (API/Kernels/MemOps)",
          false,
          {kRuntime, "StringIds", kCopyKinds},
          {"cuda_api_calls", "cuda_kernels", "cuda_gpu_mem_ops", "cuda_gpu_ops"},
          "CUDA trace data",
          kKernelNameOptions,
          {kKernel, kMemcpy, kMemset}};
}

// The kernel launch reports read cuda_kernel_launches (each kernel with its launch call).
ReportSpec CudaKernExec(std::string_view name, std::string_view title) {
  return {name,
          title,
          false,
          {kKernel, kRuntime, "StringIds"},
          {"cuda_kernels", "cuda_api_calls", "cuda_kernel_launches"},
          "CUDA kernel data",
          kKernelNameOptions};
}

// The NVTX GPU reports pair ranges with the GPU operations launched inside them
// (nvtx_range_gpu_ops).
ReportSpec NvtxGpuReport(std::string_view name, std::string_view title,
                         std::vector<std::string_view> required_tables,
                         std::vector<std::string_view> views,
                         std::vector<std::string_view> options) {
  return {name,
          title,
          false,
          std::move(required_tables),
          std::move(views),
          "NV Tools Extension (NVTX) data",
          std::move(options),
          kGpuOperationTables};
}

// The CPU sample reports (prof's own): sampled stacks, restricted by their options to a thread or
// to the samples inside an NVTX range (view cpu_samples; NVTX_EVENTS stood in for when absent).
ReportSpec CpuSampleReport(std::string_view name, std::string_view title,
                           std::vector<std::string_view> options) {
  return {name,
          title,
          false,
          {"COMPOSITE_EVENTS", "SAMPLING_CALLCHAINS", "StringIds"},
          {"nvtx_ranges", "cpu_samples"},
          "CPU sample data",
          std::move(options),
          {},
          {"NVTX_EVENTS", "PROCESSES"}};
}

// prof's own: the GPU's performance counters over the run, the steady state or NVTX ranges.
ReportSpec GpuMetricsSum() {
  ReportSpec report = {"gpu_metrics_sum",
                       "GPU Metrics Summary",
                       false,
                       {"GPU_METRICS", "TARGET_INFO_GPU_METRICS"},
                       {"nvtx_ranges", "gpu_metric_samples"},
                       "GPU metrics data (prof profile --gpu-metrics-devices)",
                       {"nvtx=<text>", "step=<text>", "warmup=<integer>"},
                       {},
                       {"NVTX_EVENTS", "StringIds"}};
  report.reads_steady_state = true;
  return report;
}

// prof's own: PyTorch Profiler's key_averages() from the --pytorch ranges (view pytorch_ranges),
// with the GPU work launched inside them where the report has CUDA data.
ReportSpec PyTorchReport(std::string_view name, std::string_view title,
                         std::string_view data_description, std::vector<std::string_view> options) {
  return {name,
          title,
          false,
          {"NVTX_EVENTS", "StringIds"},
          {"nvtx_ranges", "nvtx_range_gpu_ops", "pytorch_ranges", "pytorch_range_sums"},
          data_description,
          std::move(options),
          {},
          {kRuntime, kKernel, kMemcpy, kMemset}};
}

constexpr std::string_view kPyTorchSort = "sort=<self_cpu|total_cpu|self_gpu|total_gpu|calls>";

}  // namespace

const std::vector<ReportSpec>& AllReports() {
  static const std::vector<ReportSpec> reports = {
      NvtxReport("nvtx_sum", "NVTX Range Summary", true),
      {"osrt_sum",
       "OS Runtime Summary",
       true,
       {"OSRT_API", "StringIds"},
       {},
       "OS Runtime trace data"},
      CudaApiSum(),
      CudaGpuKernSum(),
      CudaGpuMemSum("cuda_gpu_mem_time_sum", "CUDA GPU MemOps Summary (by Time)"),
      CudaGpuMemSum("cuda_gpu_mem_size_sum", "CUDA GPU MemOps Summary (by Size)"),
      NvtxReport("nvtx_pushpop_sum", "NVTX Push/Pop Range Summary", false),
      NvtxReport("nvtx_startend_sum", "NVTX Start/End Range Summary", false),
      NvtxReport("nvtx_pushpop_trace", "NVTX Push/Pop Range Trace", false),
      CudaGpuSum(),
      CudaApiGpuSum(),
      CudaKernExec("cuda_kern_exec_sum", "CUDA Kernel Launch & Exec Time Summary"),
      CudaKernExec("cuda_kern_exec_trace", "CUDA Kernel Launch & Exec Time Trace"),
      {"cuda_api_trace",
       "CUDA API Trace",
       false,
       {"CUPTI_ACTIVITY_KIND_RUNTIME", "StringIds", "ThreadNames"},
       {},
       "CUDA trace data"},
      {"cuda_gpu_trace",
       "CUDA GPU Trace",
       false,
       {"StringIds", "TARGET_INFO_GPU", "ENUM_CUDA_MEMCPY_OPER", "ENUM_CUDA_MEM_KIND"},
       {"cuda_kernels"},
       "GPU trace data",
       kKernelNameOptions,
       kGpuOperationTables},
      NvtxGpuReport("nvtx_gpu_proj_sum", "NVTX GPU Projection Summary",
                    {"NVTX_EVENTS", "StringIds", kRuntime},
                    {"nvtx_ranges", "nvtx_range_gpu_ops", "nvtx_gpu_proj_ranges"}, {}),
      NvtxGpuReport("nvtx_gpu_proj_trace", "NVTX GPU Projection Trace",
                    {"NVTX_EVENTS", "StringIds", kRuntime},
                    {"nvtx_ranges", "nvtx_range_gpu_ops", "nvtx_gpu_proj_ranges"}, {}),
      NvtxGpuReport("nvtx_kern_sum", "NVTX Range Kernel Summary",
                    {"NVTX_EVENTS", "StringIds", kRuntime, kKernel},
                    {"cuda_kernels", "nvtx_ranges", "nvtx_range_gpu_ops"}, kKernelNameOptions),
      // prof's own: nsys 2025.3 has no report over CUDA_GPU_MEMORY_USAGE_EVENTS.
      {"cuda_gpu_mem_peak",
       "CUDA GPU Memory Peak",
       false,
       {"CUDA_GPU_MEMORY_USAGE_EVENTS"},
       {},
       "CUDA memory usage data (prof profile --cuda-memory-usage=true)"},
      // prof's own: CUDA calls by the Python line that made them.
      {"cuda_api_py_sum",
       "CUDA API Summary by Python Line",
       false,
       {kRuntime, "StringIds", "CUDA_CALLCHAINS"},
       {"cuda_api_calls", "python_call_sites"},
       "Python stacks of CUDA calls (prof profile --python-backtrace=cuda)"},
      CpuSampleReport("cpu_sample_sum", "CPU Sample Summary",
                      {"tid=<integer>", "nvtx=<text>", "lines"}),
      CpuSampleReport("cpu_sample_tree", "CPU Sample Call Tree",
                      {"tid=<integer>", "nvtx=<text>", "cutoff=<number>", "lines"}),
      GpuMetricsSum(),
      PyTorchReport("pytorch_op_sum", "PyTorch Operator Summary",
                    "PyTorch operator ranges (prof profile --pytorch=autograd-nvtx)",
                    {"shapes", kPyTorchSort}),
      PyTorchReport("pytorch_module_sum", "PyTorch Module Summary",
                    "PyTorch module ranges (prof profile --pytorch=functions-trace)",
                    {kPyTorchSort}),
  };
  return reports;
}

const ReportSpec* FindReport(std::string_view name) { return FindByName(AllReports(), name); }

std::string ReportNames() { return JoinNames(AllReports()); }

std::optional<std::string_view> ReportSql(const ReportSpec& report) {
  return FindEmbeddedFile(EmbeddedSqlFiles(), "reports/" + std::string(report.name) + ".sql");
}

std::optional<std::string_view> ViewSql(std::string_view view) {
  return FindEmbeddedFile(EmbeddedSqlFiles(), "views/" + std::string(view) + ".sql");
}

}  // namespace prof::stats

namespace prof::stats {

std::optional<std::string> StandInSql(std::string_view table) {
  const std::optional<std::string_view> ddl = storage::TableDdl(table);
  const std::string create = "CREATE TABLE " + std::string(table) + " (";
  const size_t at = ddl ? ddl->find(create) : std::string_view::npos;
  if (at == std::string_view::npos) return std::nullopt;
  return "CREATE TEMP TABLE IF NOT EXISTS " + std::string(ddl->substr(at + 13));
}

}  // namespace prof::stats
