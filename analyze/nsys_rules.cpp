// nsys's expert-system rules: the names, options, columns and row order of `nsys analyze`
// (2025.3); the advice is prof's own wording.
#include "analyze/rule_definitions.h"

namespace prof::analyze {
namespace {

const RequiredTable kMemoryKinds = {"ENUM_CUDA_MEM_KIND",
                                    "does not contain the ENUM_CUDA_MEM_KIND table."};
const RequiredTable kCopies = {kMemcpyTable,
                               "does not contain CUDA copies. Does the application copy memory?"};
const RequiredTable kSets = {kMemsetTable,
                             "does not contain CUDA memsets. Does the application set memory?"};

// The remedy of the GPU-idle rules: find what the host did meanwhile.
constexpr std::string_view kIdleAdvice =
    "Suggestions:\n"
    "   1. See what the host threads did meanwhile: `prof analyze -r gap_cause` names the NVTX\n"
    "      range, OS runtime call or CUDA call in progress during each gap.\n"
    "   2. Annotate the host code with NVTX ranges to see where the time goes.";

RuleSpec CudaMemcpyAsync() {
  RuleSpec rule;
  rule.name = "cuda_memcpy_async";
  rule.title = "CUDA Async Memcpy with Pageable Memory";
  rule.required_tables = {kStringIds, kRuntimeCalls, kCopies, kMemoryKinds};
  rule.advice =
      "These asynchronous copies read or write PAGEABLE host memory, so the copy is staged\n"
      "by the driver and the call returns only when it is done: the host waits and the copy\n"
      "cannot overlap other work.\n"
      "\n"
      "Suggestion: copy from or to PINNED memory instead (in PyTorch: pin_memory=True in the\n"
      "DataLoader, or tensor.pin_memory(), with .to(device, non_blocking=True)).";
  rule.no_result = "No asynchronous copy touched pageable memory.";
  return rule;
}

RuleSpec CudaMemcpySync() {
  RuleSpec rule;
  rule.name = "cuda_memcpy_sync";
  rule.title = "CUDA Synchronous Memcpy";
  rule.required_tables = {kStringIds, kRuntimeCalls, kCopies, kMemoryKinds};
  rule.advice =
      "These copies were made by synchronous copy calls, which block the host until the\n"
      "copy is done (host-to-device copies of 64 KiB or less are not listed: they return\n"
      "once staged).\n"
      "\n"
      "Suggestion: use the cudaMemcpy*Async() calls on pinned memory instead.";
  rule.no_result = "No synchronous copy blocked the host.";
  return rule;
}

RuleSpec CudaMemsetSync() {
  RuleSpec rule;
  rule.name = "cuda_memset_sync";
  rule.title = "CUDA Synchronous Memset";
  rule.required_tables = {kStringIds, kRuntimeCalls, kSets, kMemoryKinds};
  rule.advice =
      "These sets of pinned host or managed memory were made by synchronous set calls,\n"
      "which block the host until the set is done.\n"
      "\n"
      "Suggestion: use cudaMemsetAsync() instead.";
  rule.no_result = "No synchronous memset blocked the host.";
  return rule;
}

RuleSpec CudaApiSync() {
  RuleSpec rule;
  rule.name = "cuda_api_sync";
  rule.title = "CUDA Synchronization APIs";
  rule.required_tables = {kStringIds, kRuntimeCalls};
  rule.advice =
      "These calls block the host until all the GPU work issued before them is done.\n"
      "\n"
      "Suggestions:\n"
      "   1. Synchronize less often: in PyTorch, .item(), .cpu(), print(tensor) and\n"
      "      torch.cuda.synchronize() each wait for the GPU.\n"
      "   2. Order GPU work with events (cudaStreamWaitEvent) instead of host waits.";
  rule.no_result = "No device or stream synchronization call was found.";
  return rule;
}

// gpu_gaps and gpu_time_util read every GPU operation and nsys's profiler overhead.
RuleSpec GpuIdleRule(std::string_view name, std::string_view title) {
  RuleSpec rule;
  rule.name = name;
  rule.title = title;
  rule.required_tables = {kStringIds};
  rule.any_of_tables = kGpuOperationTables;
  rule.any_of_missing = kNoGpuOperations;
  rule.optional_tables = {"PROFILER_OVERHEAD"};
  rule.views = {"analyze_gpu_ops"};
  return rule;
}

RuleSpec GpuGaps() {
  RuleSpec rule = GpuIdleRule("gpu_gaps", "GPU Gaps");
  rule.options = {{"gap", OptionKind::kInteger, 500, "minimum gap length in ms (default 500)", 0}};
  rule.advice =
      "In these time ranges a GPU ran nothing for more than {gap} ms: the time may be\n"
      "recoverable.\n"
      "\n" +
      std::string(kIdleAdvice);
  rule.no_result = "No GPU was idle for more than {gap} ms.";
  return rule;
}

RuleSpec GpuTimeUtil() {
  RuleSpec rule = GpuIdleRule("gpu_time_util", "GPU Time Utilization");
  rule.options = {
      {"threshold", OptionKind::kInteger, 50,
       "list regions where the GPU is busy less than this % of the time (default 50)"},
      {"chunks", OptionKind::kInteger, 30,
       "number of equal chunks of each device's span, 1 to 1000 (default 30)", 1, 1000}};
  rule.advice =
      "In these time regions a GPU was busy less than {threshold}% of the time on average:\n"
      "the idle time may be recoverable.\n"
      "\n" +
      std::string(kIdleAdvice);
  rule.no_result = "No time region had a GPU busy less than {threshold}% of the time.";
  return rule;
}

}  // namespace

std::vector<RuleSpec> NsysRules() {
  return {CudaMemcpyAsync(), CudaMemcpySync(), CudaMemsetSync(),
          CudaApiSync(),     GpuGaps(),        GpuTimeUtil()};
}

}  // namespace prof::analyze
