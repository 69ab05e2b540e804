// Rows of the CUDA tables of a report (CUPTI_ACTIVITY_KIND_*, TARGET_INFO_GPU, TARGET_INFO_CUDA_*),
// in nsys's column order and with nsys's values: enum columns hold nsys's ENUM_* ids (the collector
// maps CUPTI's numbering onto them), timestamps are ns since session start, globalPid/globalTid use
// nsys's GlobalId encoding (global_id.h). A std::optional column is written NULL when empty, as
// nsys leaves it; columns no row struct mentions are always NULL (docs/cuda.md lists them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "storage/table_definition.h"

namespace prof::storage {

// CUPTI_ACTIVITY_KIND_RUNTIME: one runtime or driver API call.
struct CudaApiCallRow {
  int64_t start = 0;
  int64_t end = 0;
  int32_t event_class = 0;  // ENUM_NSYS_EVENT_CLASS: 0 CUDA runtime, 1 CUDA driver
  int64_t global_tid = 0;
  int64_t correlation_id = 0;
  StringId name_id = 0;
  int64_t return_value = 0;
  std::optional<int64_t> callchain_id;  // CUDA_CALLCHAINS(id): the call's Python stack
};

// CUBLAS_EVENTS and CUDNN_EVENTS: one library API call on its thread.
struct LibraryCallRow {
  int64_t start = 0;
  int64_t end = 0;
  int32_t event_class = 0;  // ENUM_NSYS_EVENT_CLASS: 29 cuBLAS, 28 cuDNN
  int64_t global_tid = 0;
  StringId name_id = 0;
};

// CUDA_CALLCHAINS: one frame of a call stack; stack_depth 0 is the innermost frame. For a Python
// frame, symbol is the function, module the source file and original_ip the line number.
struct CallchainFrameRow {
  int64_t id = 0;
  StringId symbol = 0;
  StringId module = 0;
  int64_t unresolved = 0;
  std::optional<int64_t> original_ip;
  int64_t stack_depth = 0;
};

// The columns every GPU operation table starts with (KERNEL, MEMCPY, MEMSET, SYNCHRONIZATION,
// GRAPH_TRACE), in this order.
struct GpuOperationColumns {
  int64_t start = 0;
  int64_t end = 0;
  int64_t device_id = 0;
  int64_t context_id = 0;
  std::optional<int64_t> green_context_id;
  int64_t stream_id = 0;
  int64_t correlation_id = 0;
  int64_t global_pid = 0;
};

struct CudaKernelRow {
  GpuOperationColumns operation;
  StringId demangled_name = 0;
  StringId short_name = 0;
  StringId mangled_name = 0;
  std::optional<int32_t> launch_type;   // ENUM_CUDA_KERNEL_LAUNCH_TYPE
  std::optional<int32_t> cache_config;  // ENUM_CUDA_FUNC_CACHE_CONFIG
  int64_t registers_per_thread = 0;
  int64_t grid_x = 0, grid_y = 0, grid_z = 0;
  int64_t block_x = 0, block_y = 0, block_z = 0;
  int64_t static_shared_memory = 0;
  int64_t dynamic_shared_memory = 0;
  int64_t local_memory_per_thread = 0;
  int64_t local_memory_total = 0;
  int64_t grid_id = 0;
  std::optional<int64_t> shared_memory_executed;
  std::optional<int64_t> graph_node_id;
  std::optional<int32_t> shared_memory_limit_config;  // ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG
};

struct CudaMemcpyRow {
  GpuOperationColumns operation;
  int64_t bytes = 0;
  int32_t copy_kind = 0;            // ENUM_CUDA_MEMCPY_OPER
  std::optional<int32_t> src_kind;  // ENUM_CUDA_MEM_KIND
  std::optional<int32_t> dst_kind;  // ENUM_CUDA_MEM_KIND
  // Peer copies only.
  std::optional<int64_t> src_device_id, src_context_id, dst_device_id, dst_context_id;
  std::optional<int64_t> graph_node_id;
  std::optional<int64_t> copy_count;
};

struct CudaMemsetRow {
  GpuOperationColumns operation;
  int64_t value = 0;
  int64_t bytes = 0;
  std::optional<int64_t> graph_node_id;
  std::optional<int32_t> mem_kind;  // ENUM_CUDA_MEM_KIND
};

struct CudaSyncRow {
  GpuOperationColumns operation;
  int32_t sync_type = 0;  // ENUM_CUPTI_SYNC_TYPE
  int64_t event_id = 0;
  std::optional<int64_t> event_sync_id;
};

struct CudaGraphTraceRow {
  GpuOperationColumns operation;
  int64_t graph_id = 0;
  int64_t graph_exec_id = 0;
};

// CUDA_GRAPH_EVENTS: a graph created, cloned or instantiated, at one instant (end = start).
struct CudaGraphEventRow {
  int64_t start = 0;
  int32_t event_class = 0;  // ENUM_NSYS_EVENT_CLASS: 95 creation, 96 clone, 94 graph exec creation
  int64_t global_tid = 0;
  StringId name_id = 0;  // "Graph Creation", "Graph Clone", "GraphExec Creation"
  std::optional<int64_t> graph_id;
  std::optional<int64_t> original_graph_id;
  std::optional<int64_t> graph_exec_id;
};

// CUDA_GPU_MEMORY_USAGE_EVENTS: one allocation or free. The local pool columns are set for
// allocations from a local memory pool, the imported ones for an imported pool; NULL otherwise.
struct CudaMemoryUsageRow {
  int64_t start = 0;
  int64_t global_pid = 0;
  int64_t device_id = 0;
  int64_t context_id = 0;
  int64_t address = 0;
  int64_t pc = 0;
  int64_t bytes = 0;
  int32_t mem_kind = 0;               // ENUM_CUDA_MEM_KIND
  int32_t memory_operation_type = 0;  // ENUM_CUDA_DEV_MEM_EVENT_OPER: 0 allocation, 1 deallocation
  std::optional<std::string> name;    // the variable's name, when CUPTI gives one
  std::optional<int64_t> correlation_id;
  std::optional<int64_t> stream_id;  // async (stream-ordered) operations only
  std::optional<int64_t> local_pool_address;
  std::optional<int64_t> local_pool_release_threshold;
  std::optional<int64_t> local_pool_size;
  std::optional<int64_t> local_pool_utilized_size;
  std::optional<int64_t> imported_pool_address;
  std::optional<int64_t> imported_pool_process_id;
};

// CUPTI_ACTIVITY_KIND_CUDA_EVENT: has no start/end.
struct CudaEventRow {
  int64_t device_id = 0;
  int64_t context_id = 0;
  std::optional<int64_t> green_context_id;
  int64_t stream_id = 0;
  int64_t correlation_id = 0;
  int64_t global_pid = 0;
  int64_t event_id = 0;
  std::optional<int64_t> event_sync_id;
};

// TARGET_INFO_GPU: one GPU, in the units nsys uses (B, Hz, B/s).
struct GpuInfoRow {
  int64_t vm_id = 0;  // GlobalId VM bits, 1 << 48 for local captures
  int64_t id = 0;     // device id
  std::optional<std::string> name;
  std::optional<std::string> bus_location;  // "dddd:bb:dd.0"
  std::optional<int64_t> l2_cache_size;
  std::optional<int64_t> total_memory;
  std::optional<int64_t> memory_bandwidth;  // B/s
  std::optional<int64_t> clock_rate;        // Hz
  std::optional<int64_t> sm_count;
  std::optional<std::string> uuid;  // "3470b7d7-b3b9-4392-308a-3d572bf4a342"
  std::optional<int64_t> cu_device;
  std::optional<int64_t> constant_memory;
  std::optional<int64_t> max_ipc;
  std::optional<int64_t> max_registers_per_block;
  std::optional<int64_t> max_shmem_per_block;
  std::optional<int64_t> max_shmem_per_block_optin;
  std::optional<int64_t> max_shmem_per_sm;
  std::optional<int64_t> max_registers_per_sm;
  std::optional<int64_t> threads_per_warp;
  std::optional<int64_t> async_engines;
  std::optional<int64_t> max_warps_per_sm;
  std::optional<int64_t> max_blocks_per_sm;
  std::optional<int64_t> max_threads_per_block;
  std::optional<int64_t> max_block_dim_x, max_block_dim_y, max_block_dim_z;
  std::optional<int64_t> max_grid_dim_x, max_grid_dim_y, max_grid_dim_z;
  std::optional<int64_t> compute_major, compute_minor;
  std::optional<int64_t> sm_major, sm_minor;
};

// TARGET_INFO_CUDA_DEVICE: a CUDA device a process used.
struct CudaDeviceRow {
  int64_t gpu_id = 0;
  int64_t cuda_id = 0;
  int64_t pid = 0;
};

// TARGET_INFO_CUDA_STREAM. vm_id here is the bare VM id (1), not the GlobalId bits.
struct CudaStreamRow {
  int64_t stream_id = 0;
  int64_t hw_id = 0;
  int64_t vm_id = 0;
  int64_t process_id = 0;
  int64_t context_id = 0;
  int64_t priority = 0;  // CUPTI's unsigned value: -3 reads 4294967293, as in nsys
  int32_t flag = 0;      // ENUM_CUPTI_STREAM_TYPE
};

// TARGET_INFO_CUDA_CONTEXT_INFO. vm_id is the bare VM id (1), as in TARGET_INFO_CUDA_STREAM.
struct CudaContextRow {
  int64_t null_stream_id = 0;
  int64_t hw_id = 0;
  int64_t vm_id = 0;
  int64_t process_id = 0;
  int64_t device_id = 0;
  int64_t context_id = 0;
  std::optional<int64_t> parent_context_id;
  std::optional<int64_t> is_green_context;
};

}  // namespace prof::storage
