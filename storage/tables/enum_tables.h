// The ENUM_* tables: the names of the ids other tables' columns hold. Their rows are fixed and
// come from storage/schema/enum_rows.tsv; every one has nsys's (id, name, label) columns.
#pragma once

#include "storage/table_definition.h"

namespace prof::storage {

inline constexpr EnumTable kEnumCudaDevMemEventOper{"ENUM_CUDA_DEV_MEM_EVENT_OPER"};
inline constexpr EnumTable kEnumCudaFuncCacheConfig{"ENUM_CUDA_FUNC_CACHE_CONFIG"};
inline constexpr EnumTable kEnumCudaKernelLaunchType{"ENUM_CUDA_KERNEL_LAUNCH_TYPE"};
inline constexpr EnumTable kEnumCudaMemcpyOper{"ENUM_CUDA_MEMCPY_OPER"};
inline constexpr EnumTable kEnumCudaMemKind{"ENUM_CUDA_MEM_KIND"};
inline constexpr EnumTable kEnumCudaSharedMemLimitConfig{"ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG"};
inline constexpr EnumTable kEnumCuptiStreamType{"ENUM_CUPTI_STREAM_TYPE"};
inline constexpr EnumTable kEnumCuptiSyncType{"ENUM_CUPTI_SYNC_TYPE"};
inline constexpr EnumTable kEnumDiagnosticSeverityLevel{"ENUM_DIAGNOSTIC_SEVERITY_LEVEL"};
inline constexpr EnumTable kEnumDiagnosticSourceType{"ENUM_DIAGNOSTIC_SOURCE_TYPE"};
inline constexpr EnumTable kEnumDiagnosticTimestampSource{"ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE"};
inline constexpr EnumTable kEnumNsysEventClass{"ENUM_NSYS_EVENT_CLASS"};
inline constexpr EnumTable kEnumNsysEventType{"ENUM_NSYS_EVENT_TYPE"};
inline constexpr EnumTable kEnumSamplingThreadState{"ENUM_SAMPLING_THREAD_STATE"};
inline constexpr EnumTable kEnumSchedulingThreadBlock{"ENUM_SCHEDULING_THREAD_BLOCK"};
inline constexpr EnumTable kEnumStackUnwindMethod{"ENUM_STACK_UNWIND_METHOD"};

}  // namespace prof::storage
