// The CUDA tables (docs/cuda.md): rows from cuda_rows.h. Columns no row member fills are NULL.
#pragma once

#include <tuple>

#include "storage/cuda_rows.h"
#include "storage/table_definition.h"
#include "storage/tables/enum_tables.h"

namespace prof::storage {

// The columns every table of GPU operations starts with, from the row's `operation` member.
template <typename Row>
constexpr auto GpuOperationColumnsOf(GpuOperationColumns Row::*operation) {
  return ColumnList(
      Column("start", kIntegerNotNull, operation, &GpuOperationColumns::start),
      Column("end", kIntegerNotNull, operation, &GpuOperationColumns::end),
      Column("deviceId", kIntegerNotNull, operation, &GpuOperationColumns::device_id),
      Column("contextId", kIntegerNotNull, operation, &GpuOperationColumns::context_id),
      Column("greenContextId", kInteger, operation, &GpuOperationColumns::green_context_id),
      Column("streamId", kIntegerNotNull, operation, &GpuOperationColumns::stream_id),
      Column("correlationId", kInteger, operation, &GpuOperationColumns::correlation_id),
      Column("globalPid", kInteger, operation, &GpuOperationColumns::global_pid));
}

// A table reads as its columns, one per line, aligned.
// clang-format off
// CUDA runtime and driver API calls; eventClass refers to ENUM_NSYS_EVENT_CLASS(id) (0 runtime,
// 1 driver), nameId to StringIds(id); callchainId to CUDA_CALLCHAINS(id): the Python stack of the
// call with --python-backtrace=cuda, NULL otherwise.
inline constexpr auto kCuptiActivityKindRuntimeTable = DefineTable<CudaApiCallRow>("CUPTI_ACTIVITY_KIND_RUNTIME", TableCreation::kOnFirstRow, ColumnList(
    Column("start",         kIntegerNotNull, &CudaApiCallRow::start),
    Column("end",           kIntegerNotNull, &CudaApiCallRow::end),
    Column("eventClass",    kIntegerNotNull, &CudaApiCallRow::event_class, kEnumNsysEventClass),
    Column("globalTid",     kInteger,        &CudaApiCallRow::global_tid),
    Column("correlationId", kInteger,        &CudaApiCallRow::correlation_id),
    Column("nameId",        kIntegerNotNull, &CudaApiCallRow::name_id),
    Column("returnValue",   kIntegerNotNull, &CudaApiCallRow::return_value),
    Column("callchainId",   kInteger,        &CudaApiCallRow::callchain_id))).CountedAs("CUDA API calls");

// Kernels run on the GPU; the name columns refer to StringIds(id), launchType, cacheConfig and
// sharedMemoryLimitConfig to their ENUM_CUDA_* tables.
inline constexpr auto kCuptiActivityKindKernelTable = DefineTable<CudaKernelRow>("CUPTI_ACTIVITY_KIND_KERNEL", TableCreation::kOnFirstRow, std::tuple_cat(
    GpuOperationColumnsOf(&CudaKernelRow::operation), ColumnList(
    Column("demangledName",           kIntegerNotNull, &CudaKernelRow::demangled_name),
    Column("shortName",               kIntegerNotNull, &CudaKernelRow::short_name),
    Column("mangledName",             kInteger,        &CudaKernelRow::mangled_name),
    Column("launchType",              kInteger,        &CudaKernelRow::launch_type, kEnumCudaKernelLaunchType),
    Column("cacheConfig",             kInteger,        &CudaKernelRow::cache_config, kEnumCudaFuncCacheConfig),
    Column("registersPerThread",      kIntegerNotNull, &CudaKernelRow::registers_per_thread),
    Column("gridX",                   kIntegerNotNull, &CudaKernelRow::grid_x),
    Column("gridY",                   kIntegerNotNull, &CudaKernelRow::grid_y),
    Column("gridZ",                   kIntegerNotNull, &CudaKernelRow::grid_z),
    Column("blockX",                  kIntegerNotNull, &CudaKernelRow::block_x),
    Column("blockY",                  kIntegerNotNull, &CudaKernelRow::block_y),
    Column("blockZ",                  kIntegerNotNull, &CudaKernelRow::block_z),
    Column("staticSharedMemory",      kIntegerNotNull, &CudaKernelRow::static_shared_memory),
    Column("dynamicSharedMemory",     kIntegerNotNull, &CudaKernelRow::dynamic_shared_memory),
    Column("localMemoryPerThread",    kIntegerNotNull, &CudaKernelRow::local_memory_per_thread),
    Column("localMemoryTotal",        kIntegerNotNull, &CudaKernelRow::local_memory_total),
    Column("gridId",                  kIntegerNotNull, &CudaKernelRow::grid_id),
    Column("sharedMemoryExecuted",    kInteger,        &CudaKernelRow::shared_memory_executed),
    Column("graphNodeId",             kInteger,        &CudaKernelRow::graph_node_id),
    Column("sharedMemoryLimitConfig", kInteger,        &CudaKernelRow::shared_memory_limit_config, kEnumCudaSharedMemLimitConfig)))).CountedAs("kernels");

// Memory copies run on the GPU; copyKind refers to ENUM_CUDA_MEMCPY_OPER(id), srcKind and dstKind
// to ENUM_CUDA_MEM_KIND(id).
inline constexpr auto kCuptiActivityKindMemcpyTable = DefineTable<CudaMemcpyRow>("CUPTI_ACTIVITY_KIND_MEMCPY", TableCreation::kOnFirstRow, std::tuple_cat(
    GpuOperationColumnsOf(&CudaMemcpyRow::operation), ColumnList(
    Column("bytes",             kIntegerNotNull, &CudaMemcpyRow::bytes),
    Column("copyKind",          kIntegerNotNull, &CudaMemcpyRow::copy_kind, kEnumCudaMemcpyOper),
    Unfilled("deprecatedSrcId", kInteger),
    Column("srcKind",           kInteger,        &CudaMemcpyRow::src_kind, kEnumCudaMemKind),
    Column("dstKind",           kInteger,        &CudaMemcpyRow::dst_kind, kEnumCudaMemKind),
    Column("srcDeviceId",       kInteger,        &CudaMemcpyRow::src_device_id),
    Column("srcContextId",      kInteger,        &CudaMemcpyRow::src_context_id),
    Column("dstDeviceId",       kInteger,        &CudaMemcpyRow::dst_device_id),
    Column("dstContextId",      kInteger,        &CudaMemcpyRow::dst_context_id),
    Unfilled("migrationCause",  kInteger),
    Column("graphNodeId",       kInteger,        &CudaMemcpyRow::graph_node_id),
    Unfilled("virtualAddress",  kInteger),
    Column("copyCount",         kInteger,        &CudaMemcpyRow::copy_count)))).CountedAs("memory copies");

// Memory sets run on the GPU; memKind refers to ENUM_CUDA_MEM_KIND(id).
inline constexpr auto kCuptiActivityKindMemsetTable = DefineTable<CudaMemsetRow>("CUPTI_ACTIVITY_KIND_MEMSET", TableCreation::kOnFirstRow, std::tuple_cat(
    GpuOperationColumnsOf(&CudaMemsetRow::operation), ColumnList(
    Column("value",          kIntegerNotNull, &CudaMemsetRow::value),
    Column("bytes",          kIntegerNotNull, &CudaMemsetRow::bytes),
    Column("graphNodeId",    kInteger,        &CudaMemsetRow::graph_node_id),
    Column("memKind",        kInteger,        &CudaMemsetRow::mem_kind, kEnumCudaMemKind)))).CountedAs("memsets");

// Host threads waiting in synchronizing CUDA calls; syncType refers to ENUM_CUPTI_SYNC_TYPE(id).
inline constexpr auto kCuptiActivityKindSynchronizationTable = DefineTable<CudaSyncRow>("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", TableCreation::kOnFirstRow, std::tuple_cat(
    GpuOperationColumnsOf(&CudaSyncRow::operation), ColumnList(
    Unfilled("deprecatedSyncType", kInteger),
    Column("syncType",             kIntegerNotNull, &CudaSyncRow::sync_type, kEnumCuptiSyncType),
    Column("eventId",              kIntegerNotNull, &CudaSyncRow::event_id),
    Column("eventSyncId",          kInteger,        &CudaSyncRow::event_sync_id)))).CountedAs("synchronizations");

// Whole CUDA graph launches run on the GPU.
inline constexpr auto kCuptiActivityKindGraphTraceTable = DefineTable<CudaGraphTraceRow>("CUPTI_ACTIVITY_KIND_GRAPH_TRACE", TableCreation::kOnFirstRow, std::tuple_cat(
    GpuOperationColumnsOf(&CudaGraphTraceRow::operation), ColumnList(
    Column("graphId",        kIntegerNotNull, &CudaGraphTraceRow::graph_id),
    Column("graphExecId",    kIntegerNotNull, &CudaGraphTraceRow::graph_exec_id)))).CountedAs("graph launches");

// cudaEventRecord calls reaching the GPU.
inline constexpr auto kCuptiActivityKindCudaEventTable = DefineTable<CudaEventRow>("CUPTI_ACTIVITY_KIND_CUDA_EVENT", TableCreation::kOnFirstRow, ColumnList(
    Column("deviceId",       kIntegerNotNull, &CudaEventRow::device_id),
    Column("contextId",      kIntegerNotNull, &CudaEventRow::context_id),
    Column("greenContextId", kInteger,        &CudaEventRow::green_context_id),
    Column("streamId",       kIntegerNotNull, &CudaEventRow::stream_id),
    Column("correlationId",  kInteger,        &CudaEventRow::correlation_id),
    Column("globalPid",      kInteger,        &CudaEventRow::global_pid),
    Column("eventId",        kIntegerNotNull, &CudaEventRow::event_id),
    Column("eventSyncId",    kInteger,        &CudaEventRow::event_sync_id)));

// CUDA graph creation, cloning and instantiation (instant events: start = end).
inline constexpr auto kCudaGraphEventsTable = DefineTable<CudaGraphEventRow>("CUDA_GRAPH_EVENTS", TableCreation::kOnFirstRow, ColumnList(
    Column("start",           kIntegerNotNull, &CudaGraphEventRow::start),
    Column("end",             kIntegerNotNull, &CudaGraphEventRow::start),
    Column("eventClass",      kIntegerNotNull, &CudaGraphEventRow::event_class, kEnumNsysEventClass),
    Column("globalTid",       kInteger,        &CudaGraphEventRow::global_tid),
    Column("nameId",          kIntegerNotNull, &CudaGraphEventRow::name_id),
    Column("graphId",         kInteger,        &CudaGraphEventRow::graph_id),
    Column("originalGraphId", kInteger,        &CudaGraphEventRow::original_graph_id),
    Column("graphExecId",     kInteger,        &CudaGraphEventRow::graph_exec_id)));

// Call stacks of CUDA API calls (CUPTI_ACTIVITY_KIND_RUNTIME.callchainId), one row per frame,
// stackDepth 0 the innermost. prof writes Python stacks (--python-backtrace=cuda): symbol is the
// function's qualified name, module the source file, originalIP the line number, unresolved 0.
inline constexpr auto kCudaCallchainsTable = DefineTable<CallchainFrameRow>("CUDA_CALLCHAINS", TableCreation::kOnFirstRow, ColumnList(
    Column("id",         kIntegerNotNull, &CallchainFrameRow::id),
    Column("symbol",     kIntegerNotNull, &CallchainFrameRow::symbol),
    Column("module",     kIntegerNotNull, &CallchainFrameRow::module),
    Column("unresolved", kInteger,        &CallchainFrameRow::unresolved),
    Column("originalIP", kInteger,        &CallchainFrameRow::original_ip),
    Column("stackDepth", kIntegerNotNull, &CallchainFrameRow::stack_depth)),
    "PRIMARY KEY (id, stackDepth)");

// cuBLAS and cuBLASLt API calls (--trace=cublas), as ranges on the calling thread; eventClass refers
// to ENUM_NSYS_EVENT_CLASS(id) (29 cuBLAS), nameId to StringIds(id): the function's name.
inline constexpr auto kCublasEventsTable = DefineTable<LibraryCallRow>("CUBLAS_EVENTS", TableCreation::kOnFirstRow, ColumnList(
    Column("start",      kIntegerNotNull, &LibraryCallRow::start),
    Column("end",        kIntegerNotNull, &LibraryCallRow::end),
    Column("eventClass", kIntegerNotNull, &LibraryCallRow::event_class, kEnumNsysEventClass),
    Column("globalTid",  kInteger,        &LibraryCallRow::global_tid),
    Column("nameId",     kIntegerNotNull, &LibraryCallRow::name_id))).CountedAs("cuBLAS calls");

// cuDNN API calls (--trace=cudnn), as ranges on the calling thread; eventClass refers to
// ENUM_NSYS_EVENT_CLASS(id) (28 cuDNN), nameId to StringIds(id): the function's name.
inline constexpr auto kCudnnEventsTable = DefineTable<LibraryCallRow>("CUDNN_EVENTS", TableCreation::kOnFirstRow, ColumnList(
    Column("start",      kIntegerNotNull, &LibraryCallRow::start),
    Column("end",        kIntegerNotNull, &LibraryCallRow::end),
    Column("eventClass", kIntegerNotNull, &LibraryCallRow::event_class, kEnumNsysEventClass),
    Column("globalTid",  kInteger,        &LibraryCallRow::global_tid),
    Column("nameId",     kIntegerNotNull, &LibraryCallRow::name_id))).CountedAs("cuDNN calls");

// GPU memory allocations and frees (--cuda-memory-usage=true): one row per operation.
inline constexpr auto kCudaGpuMemoryUsageEventsTable = DefineTable<CudaMemoryUsageRow>("CUDA_GPU_MEMORY_USAGE_EVENTS", TableCreation::kOnFirstRow, ColumnList(
    Column("start",                           kIntegerNotNull, &CudaMemoryUsageRow::start),
    Column("globalPid",                       kIntegerNotNull, &CudaMemoryUsageRow::global_pid),
    Column("deviceId",                        kIntegerNotNull, &CudaMemoryUsageRow::device_id),
    Column("contextId",                       kIntegerNotNull, &CudaMemoryUsageRow::context_id),
    Column("address",                         kIntegerNotNull, &CudaMemoryUsageRow::address),
    Column("pc",                              kIntegerNotNull, &CudaMemoryUsageRow::pc),
    Column("bytes",                           kIntegerNotNull, &CudaMemoryUsageRow::bytes),
    Column("memKind",                         kIntegerNotNull, &CudaMemoryUsageRow::mem_kind, kEnumCudaMemKind),
    Column("memoryOperationType",             kIntegerNotNull, &CudaMemoryUsageRow::memory_operation_type, kEnumCudaDevMemEventOper),
    Column("name",                            kText,           &CudaMemoryUsageRow::name),
    Column("correlationId",                   kInteger,        &CudaMemoryUsageRow::correlation_id),
    Column("streamId",                        kInteger,        &CudaMemoryUsageRow::stream_id),
    Column("localMemoryPoolAddress",          kInteger,        &CudaMemoryUsageRow::local_pool_address),
    Column("localMemoryPoolReleaseThreshold", kInteger,        &CudaMemoryUsageRow::local_pool_release_threshold),
    Column("localMemoryPoolSize",             kInteger,        &CudaMemoryUsageRow::local_pool_size),
    Column("localMemoryPoolUtilizedSize",     kInteger,        &CudaMemoryUsageRow::local_pool_utilized_size),
    Column("importedMemoryPoolAddress",       kInteger,        &CudaMemoryUsageRow::imported_pool_address),
    Column("importedMemoryPoolProcessId",     kInteger,        &CudaMemoryUsageRow::imported_pool_process_id))).CountedAs("GPU memory operations");

// The GPUs CUDA reported; vmId is the GlobalId VM bits (1 << 48).
inline constexpr auto kTargetInfoGpuTable = DefineTable<GpuInfoRow>("TARGET_INFO_GPU", TableCreation::kOnFirstRow, ColumnList(
    Column("vmId",                  kIntegerNotNull, &GpuInfoRow::vm_id),
    Column("id",                    kIntegerNotNull, &GpuInfoRow::id),
    Column("name",                  kText,           &GpuInfoRow::name),
    Column("busLocation",           kText,           &GpuInfoRow::bus_location),
    Unfilled("isDiscrete",          kInteger),
    Column("l2CacheSize",           kInteger,        &GpuInfoRow::l2_cache_size),
    Column("totalMemory",           kInteger,        &GpuInfoRow::total_memory),
    Column("memoryBandwidth",       kInteger,        &GpuInfoRow::memory_bandwidth),
    Column("clockRate",             kInteger,        &GpuInfoRow::clock_rate),
    Column("smCount",               kInteger,        &GpuInfoRow::sm_count),
    Unfilled("pwGpuId",             kInteger),
    Column("uuid",                  kText,           &GpuInfoRow::uuid),
    Unfilled("luid",                kInteger),
    Unfilled("chipName",            kText),
    Column("cuDevice",              kInteger,        &GpuInfoRow::cu_device),
    Unfilled("ctxswDevPath",        kText),
    Unfilled("ctrlDevPath",         kText),
    Unfilled("revision",            kInteger),
    Unfilled("nodeMask",            kInteger),
    Column("constantMemory",        kInteger,        &GpuInfoRow::constant_memory),
    Column("maxIPC",                kInteger,        &GpuInfoRow::max_ipc),
    Column("maxRegistersPerBlock",  kInteger,        &GpuInfoRow::max_registers_per_block),
    Column("maxShmemPerBlock",      kInteger,        &GpuInfoRow::max_shmem_per_block),
    Column("maxShmemPerBlockOptin", kInteger,        &GpuInfoRow::max_shmem_per_block_optin),
    Column("maxShmemPerSm",         kInteger,        &GpuInfoRow::max_shmem_per_sm),
    Column("maxRegistersPerSm",     kInteger,        &GpuInfoRow::max_registers_per_sm),
    Column("threadsPerWarp",        kInteger,        &GpuInfoRow::threads_per_warp),
    Column("asyncEngines",          kInteger,        &GpuInfoRow::async_engines),
    Column("maxWarpsPerSm",         kInteger,        &GpuInfoRow::max_warps_per_sm),
    Column("maxBlocksPerSm",        kInteger,        &GpuInfoRow::max_blocks_per_sm),
    Column("maxThreadsPerBlock",    kInteger,        &GpuInfoRow::max_threads_per_block),
    Column("maxBlockDimX",          kInteger,        &GpuInfoRow::max_block_dim_x),
    Column("maxBlockDimY",          kInteger,        &GpuInfoRow::max_block_dim_y),
    Column("maxBlockDimZ",          kInteger,        &GpuInfoRow::max_block_dim_z),
    Column("maxGridDimX",           kInteger,        &GpuInfoRow::max_grid_dim_x),
    Column("maxGridDimY",           kInteger,        &GpuInfoRow::max_grid_dim_y),
    Column("maxGridDimZ",           kInteger,        &GpuInfoRow::max_grid_dim_z),
    Column("computeMajor",          kInteger,        &GpuInfoRow::compute_major),
    Column("computeMinor",          kInteger,        &GpuInfoRow::compute_minor),
    Column("smMajor",               kInteger,        &GpuInfoRow::sm_major),
    Column("smMinor",               kInteger,        &GpuInfoRow::sm_minor)));

// Which CUDA device ids each process used.
inline constexpr auto kTargetInfoCudaDeviceTable = DefineTable<CudaDeviceRow>("TARGET_INFO_CUDA_DEVICE", TableCreation::kOnFirstRow, ColumnList(
    Column("gpuId",  kInteger,        &CudaDeviceRow::gpu_id),
    Column("cudaId", kIntegerNotNull, &CudaDeviceRow::cuda_id),
    Column("pid",    kIntegerNotNull, &CudaDeviceRow::pid)));

// The CUDA streams of each process; flag refers to ENUM_CUPTI_STREAM_TYPE(id).
inline constexpr auto kTargetInfoCudaStreamTable = DefineTable<CudaStreamRow>("TARGET_INFO_CUDA_STREAM", TableCreation::kOnFirstRow, ColumnList(
    Column("streamId",  kIntegerNotNull, &CudaStreamRow::stream_id),
    Column("hwId",      kIntegerNotNull, &CudaStreamRow::hw_id),
    Column("vmId",      kIntegerNotNull, &CudaStreamRow::vm_id),
    Column("processId", kIntegerNotNull, &CudaStreamRow::process_id),
    Column("contextId", kIntegerNotNull, &CudaStreamRow::context_id),
    Column("priority",  kIntegerNotNull, &CudaStreamRow::priority),
    Column("flag",      kIntegerNotNull, &CudaStreamRow::flag, kEnumCuptiStreamType)));

// The CUDA contexts of each process.
inline constexpr auto kTargetInfoCudaContextInfoTable = DefineTable<CudaContextRow>("TARGET_INFO_CUDA_CONTEXT_INFO", TableCreation::kOnFirstRow, ColumnList(
    Column("nullStreamId",    kIntegerNotNull, &CudaContextRow::null_stream_id),
    Column("hwId",            kIntegerNotNull, &CudaContextRow::hw_id),
    Column("vmId",            kIntegerNotNull, &CudaContextRow::vm_id),
    Column("processId",       kIntegerNotNull, &CudaContextRow::process_id),
    Column("deviceId",        kIntegerNotNull, &CudaContextRow::device_id),
    Column("contextId",       kIntegerNotNull, &CudaContextRow::context_id),
    Column("parentContextId", kInteger,        &CudaContextRow::parent_context_id),
    Column("isGreenContext",  kInteger,        &CudaContextRow::is_green_context)));
// clang-format on

}  // namespace prof::storage
