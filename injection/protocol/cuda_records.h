// CUDA records of the stream (RecordKind block 64..127): what libprof_cuda.so sends from CUPTI.
//
// Contract (in addition to record_format.h's):
// - Values are CUPTI's own, unconverted: enum values (copy kinds, memory kinds, sync types, launch
//   types, cache configs, stream flags) are CUPTI's numbering, ids (device, context, stream,
//   correlation, graph, graph node, grid) are the ones CUPTI assigned in that process. The collector
//   maps them onto nsys's ENUM_* ids; nothing on this side depends on the report schema.
// - GPU timestamps are on the stream's clock (CLOCK_MONOTONIC ns): CUPTI is given prof's clock through
//   cuptiActivityRegisterTimestampCallback, so GPU and API times need no calibration.
// - header.timestamp_ns is the start of the call or GPU operation; header.tid is the thread that made
//   the API call (API records) or the thread that delivered the CUPTI buffer (GPU records, device,
//   context and stream records: meaningless there).
// - Names are sent once and referred to by id: API names as (domain, cbid) by a CudaApiNameRecord
//   before the first call that uses them, kernel names by a CudaStringRecord before the first kernel
//   record that uses them. Both are emitted by the thread that emits the records that use them.
// - A record kind's struct never changes once released; a new field means a new kind.
#pragma once

#include <cstdint>

#include "injection/protocol/record_format.h"

namespace prof::protocol {

// Whether CUDA tracing started in this process, sent once from InitializeInjection.
enum class CudaInitStatus : uint32_t {
  kTracing = 0,          // text: the libcupti that was loaded
  kCuptiNotFound = 1,    // text: where prof looked
  kCuptiFailed = 2,      // text: the CUPTI call that failed and its error
  kCuptiTooOld = 3,      // text: the loaded version and the version prof was built for
  kSubscriberTaken = 4,  // another profiler (nsys, ncu, torch.profiler) owns CUPTI in this process
  // CUDA is traced, but --python-backtrace=cuda cannot read this interpreter; text: its version.
  kPythonUnsupported = 5,
};

struct CudaInitStatusRecord {
  RecordHeader header;
  CudaInitStatus status;
  uint32_t cupti_version;  // cuptiGetVersion(), 0 when no libcupti was loaded
  uint32_t text_length;
  uint32_t reserved;
};
static_assert(sizeof(CudaInitStatusRecord) == 32);

// CUPTI callback domains of API calls, as CUpti_CallbackDomain numbers them.
enum class CudaApiDomain : uint8_t { kDriver = 1, kRuntime = 2 };

// What a function's successful calls tell about kernel records to come: a launch of one kernel
// expects the kernel record of its correlation id, unless its thread is capturing a stream into a
// graph (nothing runs then). The collector counts the launches whose kernel never came.
enum class CudaLaunchRole : uint8_t {
  kNone = 0,
  kLaunchesKernel = 1,
  kBeginsStreamCapture = 2,
  kEndsStreamCapture = 3,
};

// The name of one API function: CUPTI's callback name (e.g. "cudaLaunchKernel_v7000",
// "cuLaunchKernel"), which is also the name nsys stores in StringIds.
struct CudaApiNameRecord {
  RecordHeader header;
  uint32_t cbid;
  CudaApiDomain domain;
  CudaLaunchRole launch_role;
  uint8_t reserved[2];
  uint32_t text_length;
  uint32_t reserved2;
};
static_assert(sizeof(CudaApiNameRecord) == 32);

// One runtime or driver API call that prof records (docs/cuda.md lists which). header.timestamp_ns:
// entry; end_ns: exit. Driver calls made from inside a recorded runtime call are not sent.
struct CudaApiCallRecord {
  RecordHeader header;
  uint64_t end_ns;
  uint32_t correlation_id;
  uint32_t cbid;
  int32_t return_value;  // cudaError_t or CUresult
  CudaApiDomain domain;
  uint8_t reserved[3];
};
static_assert(sizeof(CudaApiCallRecord) == 40);

// --python-backtrace=cuda: a Python stack, sent once per process by the thread that first saw it,
// before its first CudaApiCallWithStackRecord. text: frame_count frames, innermost first, each
// "<line>\t<function>\t<file>\n" (a tab or newline inside a name is replaced by a space).
struct CudaPythonStackRecord {
  RecordHeader header;
  uint32_t stack_id;  // unique within the process, never 0
  uint32_t frame_count;
  uint32_t text_length;
  uint32_t reserved;
};
static_assert(sizeof(CudaPythonStackRecord) == 32);

// A CudaApiCallRecord of a call made while Python code ran on the thread: stack_id names its
// CudaPythonStackRecord, which may reach the collector after this record when another thread sent
// it.
struct CudaApiCallWithStackRecord {
  CudaApiCallRecord call;
  uint32_t stack_id;
  uint32_t reserved;
};
static_assert(sizeof(CudaApiCallWithStackRecord) == 48);

// A string referred to by id from later records (kernel names: the mangled name CUPTI reports).
struct CudaStringRecord {
  RecordHeader header;
  uint64_t string_id;  // unique within the process, never 0
  uint32_t text_length;
  uint32_t reserved;
};
static_assert(sizeof(CudaStringRecord) == 32);

// Fields every GPU operation record carries, right after the header.
struct CudaGpuOperation {
  uint64_t end_ns;
  uint32_t device_id;
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t correlation_id;  // of the API call that launched it (for a graph: the graph launch)
  uint64_t graph_node_id;   // 0 when not launched from a graph
  uint32_t graph_id;        // 0 when not launched from a graph
  uint32_t reserved;
};
static_assert(sizeof(CudaGpuOperation) == 40);

struct CudaKernelRecord {
  RecordHeader header;
  CudaGpuOperation operation;
  uint64_t name_id;  // CudaStringRecord with the mangled name
  int64_t grid_id;
  int32_t grid_x, grid_y, grid_z;
  int32_t block_x, block_y, block_z;
  int32_t static_shared_memory;
  int32_t dynamic_shared_memory;
  uint32_t local_memory_per_thread;
  uint32_t shared_memory_executed;
  uint64_t local_memory_total;
  uint32_t cluster_x, cluster_y, cluster_z;
  uint16_t registers_per_thread;
  uint8_t launch_type;                 // CUpti_ActivityLaunchType
  uint8_t cache_config_requested;      // CUfunc_cache
  uint8_t cache_config_executed;       // CUfunc_cache
  uint8_t shared_memory_limit_config;  // CUpti_FuncShmemLimitConfig
  uint8_t is_device_launched;
  uint8_t reserved[5];
};
static_assert(sizeof(CudaKernelRecord) == 144);

struct CudaMemcpyRecord {
  RecordHeader header;
  CudaGpuOperation operation;
  uint64_t bytes;
  uint64_t copy_count;  // copies merged into this record (batched copies), 1 otherwise
  // Peer copies only (is_peer): the devices and contexts on both sides.
  uint32_t src_device_id, src_context_id, dst_device_id, dst_context_id;
  uint8_t copy_kind;  // CUpti_ActivityMemcpyKind
  uint8_t src_kind;   // CUpti_ActivityMemoryKind
  uint8_t dst_kind;   // CUpti_ActivityMemoryKind
  uint8_t flags;      // CUpti_ActivityFlag bits (CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC)
  uint8_t is_peer;
  uint8_t reserved[3];
};
static_assert(sizeof(CudaMemcpyRecord) == 96);

struct CudaMemsetRecord {
  RecordHeader header;
  CudaGpuOperation operation;
  uint64_t bytes;
  uint32_t value;
  uint16_t memory_kind;  // CUpti_ActivityMemoryKind
  uint16_t flags;        // CUpti_ActivityFlag bits
};
static_assert(sizeof(CudaMemsetRecord) == 72);

// A host thread in a synchronizing or querying call (a SYNCHRONIZATION row), written from the API
// callbacks (injection/cuda/sync_records.h); header.timestamp_ns is the call's entry.
struct CudaSyncRecord {
  RecordHeader header;
  uint64_t end_ns;
  uint32_t context_id;
  uint32_t stream_id;  // CUPTI's invalid-id (0xffffffff) for context and event syncs
  uint32_t correlation_id;
  uint32_t sync_type;  // CUpti_ActivitySynchronizationType
  uint32_t event_id;   // CUPTI's invalid-id for syncs that name no event
  uint32_t device_id;
  uint64_t event_sync_id;  // the sync id of the event's latest record; invalid-id when none
};
static_assert(sizeof(CudaSyncRecord) == 56);

// A whole graph launch on the GPU (graph-level tracing, the default).
struct CudaGraphTraceRecord {
  RecordHeader header;
  uint64_t end_ns;
  uint32_t device_id;
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t correlation_id;
  uint32_t graph_id;
  uint32_t end_device_id;
  uint32_t end_context_id;
  uint32_t reserved;
};
static_assert(sizeof(CudaGraphTraceRecord) == 56);

// Sent from the graph-launch API callback: which executable graph a launch's correlation id ran.
struct CudaGraphLaunchRecord {
  RecordHeader header;
  uint32_t correlation_id;
  uint32_t graph_exec_id;
};
static_assert(sizeof(CudaGraphLaunchRecord) == 24);

// What happened to a CUDA graph, from CUPTI's resource callbacks (nsys's CUDA_GRAPH_EVENTS).
enum class CudaGraphEventKind : uint32_t {
  kGraphCreated = 0,
  kGraphCloned = 1,
  kGraphExecCreated = 2
};

// Sent from the thread that created the graph, at the moment CUPTI reported it (header.timestamp_ns).
// original_graph_id: the graph a clone was made from; graph_exec_id: the executable graph
// instantiated from graph_id. Both are kNoGraphId where they do not apply.
struct CudaGraphEventRecord {
  RecordHeader header;
  CudaGraphEventKind kind;
  uint32_t graph_id;
  uint32_t original_graph_id;
  uint32_t graph_exec_id;
};
static_assert(sizeof(CudaGraphEventRecord) == 32);
inline constexpr uint32_t kNoGraphId = 0xffffffffu;

// A device-memory allocation or release (CUPTI_ACTIVITY_KIND_MEMORY2, only with
// --cuda-memory-usage=true); text: the variable name CUPTI reports, if any. header.timestamp_ns:
// when the operation happened. The pool fields describe the memory pool an async (stream-ordered)
// allocation came from: pool_size_or_process_id is the pool's size for a local pool, the exporting
// process for an imported one; all are 0 when pool_type is 0 (no pool).
struct CudaMemoryRecord {
  RecordHeader header;
  uint64_t address;
  uint64_t bytes;
  uint64_t pc;
  uint64_t pool_address;
  uint64_t pool_release_threshold;
  uint64_t pool_size_or_process_id;
  uint64_t pool_utilized_size;
  uint32_t device_id;
  uint32_t context_id;
  uint32_t stream_id;  // CUPTI's invalid id (0xffffffff) for synchronous operations
  uint32_t correlation_id;
  uint8_t operation_type;  // CUpti_ActivityMemoryOperationType
  uint8_t memory_kind;     // CUpti_ActivityMemoryKind
  uint8_t pool_type;       // CUpti_ActivityMemoryPoolType
  uint8_t is_async;
  uint32_t text_length;
};
static_assert(sizeof(CudaMemoryRecord) == 96);

// A CUDA device as CUPTI describes it (CUPTI_ACTIVITY_KIND_DEVICE); text: the device name.
struct CudaDeviceRecord {
  RecordHeader header;
  uint64_t global_memory_bandwidth_kbps;
  uint64_t global_memory_size;
  uint32_t device_id;
  uint32_t constant_memory_size;
  uint32_t l2_cache_size;
  uint32_t threads_per_warp;
  uint32_t core_clock_rate_khz;
  uint32_t memcpy_engines;
  uint32_t multiprocessors;
  uint32_t max_ipc;
  uint32_t max_warps_per_multiprocessor;
  uint32_t max_blocks_per_multiprocessor;
  uint32_t max_shared_memory_per_multiprocessor;
  uint32_t max_registers_per_multiprocessor;
  uint32_t max_registers_per_block;
  uint32_t max_shared_memory_per_block;
  uint32_t max_threads_per_block;
  uint32_t max_block_dim_x, max_block_dim_y, max_block_dim_z;
  uint32_t max_grid_dim_x, max_grid_dim_y, max_grid_dim_z;
  uint32_t compute_major, compute_minor;
  uint32_t max_shared_memory_per_block_optin;         // from the driver; 0 when unknown
  uint32_t pci_domain_id, pci_bus_id, pci_device_id;  // from the driver; 0 when unknown
  uint8_t uuid[16];
  uint32_t text_length;
  uint32_t reserved;
};
static_assert(sizeof(CudaDeviceRecord) == 168);

struct CudaContextRecord {
  RecordHeader header;
  uint32_t context_id;
  uint32_t device_id;
  uint32_t null_stream_id;
  uint32_t parent_context_id;
  uint8_t is_green_context;
  uint8_t reserved[7];
};
static_assert(sizeof(CudaContextRecord) == 40);

struct CudaStreamRecord {
  RecordHeader header;
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t priority;
  uint32_t flag;  // CUpti_ActivityStreamFlag
  uint32_t correlation_id;
  uint32_t reserved;
};
static_assert(sizeof(CudaStreamRecord) == 40);

// A cudaEventRecord call (a CUDA_EVENT row), written from the API callbacks; header.timestamp_ns
// is the call's exit.
struct CudaEventRecord {
  RecordHeader header;
  uint32_t device_id;
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t correlation_id;
  uint32_t event_id;
  uint32_t reserved;
  uint64_t event_sync_id;
};
static_assert(sizeof(CudaEventRecord) == 48);

// Records CUPTI dropped (no buffer available), per context and stream, since the last such record.
struct CudaDroppedRecordsRecord {
  RecordHeader header;
  uint64_t dropped;
  uint32_t context_id;
  uint32_t stream_id;
};
static_assert(sizeof(CudaDroppedRecordsRecord) == 32);

}  // namespace prof::protocol
