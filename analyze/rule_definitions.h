// The rule entries of the registry, by origin: nsys_rules.cpp holds nsys's expert-system rules
// (same names, options and columns), prof_rules.cpp prof's own. rule_registry.cpp lists both.
#pragma once

#include <vector>

#include "analyze/rule_registry.h"

namespace prof::analyze {

// cuda_memcpy_async, cuda_memcpy_sync, cuda_memset_sync, cuda_api_sync, gpu_gaps, gpu_time_util.
std::vector<RuleSpec> NsysRules();
// prof's rules, in the order they run by default.
std::vector<RuleSpec> ProfRules();

// Tables several rules read, and the SKIPPED notes when they are missing.
inline constexpr std::string_view kRuntimeTable = "CUPTI_ACTIVITY_KIND_RUNTIME";
inline constexpr std::string_view kKernelTable = "CUPTI_ACTIVITY_KIND_KERNEL";
inline constexpr std::string_view kMemcpyTable = "CUPTI_ACTIVITY_KIND_MEMCPY";
inline constexpr std::string_view kMemsetTable = "CUPTI_ACTIVITY_KIND_MEMSET";
inline const RequiredTable kStringIds = {"StringIds", "does not contain the StringIds table."};
inline const RequiredTable kRuntimeCalls = {
    kRuntimeTable, "does not contain CUDA API calls. Does the application call the CUDA runtime?"};
inline const std::vector<std::string_view> kGpuOperationTables = {kKernelTable, kMemcpyTable,
                                                                  kMemsetTable};
inline constexpr std::string_view kNoGpuOperations =
    "does not contain GPU operations. Does the application launch kernels, copies or sets?";

}  // namespace prof::analyze
