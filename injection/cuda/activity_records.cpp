#include "injection/cuda/activity_records.h"

#include <algorithm>
#include <cstring>

#include "injection/cuda/cupti_versions.h"

namespace prof::injection::cuda {
namespace {

using protocol::RecordKind;

template <typename Activity>
const Activity& As(const CUpti_Activity& record) {
  return reinterpret_cast<const Activity&>(record);
}

template <typename Record>
Record Start(RecordKind kind, uint64_t start_ns) {
  Record record{};
  record.header.kind = kind;
  record.header.timestamp_ns = start_ns;
  return record;
}

template <typename Activity>
protocol::CudaGpuOperation Operation(const Activity& activity) {
  protocol::CudaGpuOperation operation{};
  operation.end_ns = activity.end;
  operation.device_id = activity.deviceId;
  operation.context_id = activity.contextId;
  operation.stream_id = activity.streamId;
  operation.correlation_id = activity.correlationId;
  operation.graph_node_id = activity.graphNodeId;
  operation.graph_id = activity.graphId;
  return operation;
}

template <typename Record>
void SendFixed(RecordSink* sink, Record* record) {
  sink->Send(&record->header, sizeof(*record), nullptr, 0);
}

}  // namespace

void ActivityConverter::Convert(const CUpti_Activity& record) {
  switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL:
      return Kernel(record);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return Memcpy(record);
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      return PeerMemcpy(record);
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return Memset(record);
    case CUPTI_ACTIVITY_KIND_GRAPH_TRACE:
      return GraphTrace(record);
    case CUPTI_ACTIVITY_KIND_DEVICE:
      return Device(record);
    case CUPTI_ACTIVITY_KIND_CONTEXT:
      return Context(record);
    case CUPTI_ACTIVITY_KIND_STREAM:
      return Stream(record);
    case CUPTI_ACTIVITY_KIND_MEMORY2:
      return Memory(record);
    default:
      ++ignored_;
  }
}

uint64_t ActivityConverter::NameId(const char* name) {
  const char* text = name != nullptr ? name : "";
  const uint32_t tid = sink_->SendingThread();
  auto [entry, added] = names_.try_emplace(text, NameEntry{next_name_id_, 0});
  if (added) ++next_name_id_;
  if (entry->second.sent_from_tid != tid) {
    auto record = Start<protocol::CudaStringRecord>(RecordKind::kCudaString, 0);
    record.string_id = entry->second.id;
    record.text_length =
        static_cast<uint32_t>(std::min(entry->first.size(), protocol::kMaxTextLength));
    sink_->Send(&record.header, sizeof(record), entry->first.data(), record.text_length);
    entry->second.sent_from_tid = tid;
  }
  return entry->second.id;
}

void ActivityConverter::Kernel(const CUpti_Activity& activity) {
  const auto& kernel = As<KernelActivity>(activity);
  auto record = Start<protocol::CudaKernelRecord>(RecordKind::kCudaKernel, kernel.start);
  record.operation = Operation(kernel);
  record.name_id = NameId(kernel.name);
  record.grid_id = kernel.gridId;
  record.grid_x = kernel.gridX;
  record.grid_y = kernel.gridY;
  record.grid_z = kernel.gridZ;
  record.block_x = kernel.blockX;
  record.block_y = kernel.blockY;
  record.block_z = kernel.blockZ;
  record.static_shared_memory = kernel.staticSharedMemory;
  record.dynamic_shared_memory = kernel.dynamicSharedMemory;
  record.local_memory_per_thread = kernel.localMemoryPerThread;
  record.shared_memory_executed = kernel.sharedMemoryExecuted;
  record.local_memory_total = kernel.localMemoryTotal_v2;
  record.cluster_x = kernel.clusterX;
  record.cluster_y = kernel.clusterY;
  record.cluster_z = kernel.clusterZ;
  record.registers_per_thread = kernel.registersPerThread;
  record.launch_type = kernel.launchType;
  record.cache_config_requested = kernel.cacheConfig.config.requested;
  record.cache_config_executed = kernel.cacheConfig.config.executed;
  record.shared_memory_limit_config = static_cast<uint8_t>(kernel.shmemLimitConfig);
  record.is_device_launched = kernel.isDeviceLaunched;
  SendFixed(sink_, &record);
}

void ActivityConverter::Memcpy(const CUpti_Activity& activity) {
  const auto& copy = As<MemcpyActivity>(activity);
  auto record = Start<protocol::CudaMemcpyRecord>(RecordKind::kCudaMemcpy, copy.start);
  record.operation = Operation(copy);
  record.bytes = copy.bytes;
  record.copy_count = copy.copyCount;
  record.copy_kind = copy.copyKind;
  record.src_kind = copy.srcKind;
  record.dst_kind = copy.dstKind;
  record.flags = copy.flags;
  SendFixed(sink_, &record);
}

void ActivityConverter::PeerMemcpy(const CUpti_Activity& activity) {
  const auto& copy = As<PeerMemcpyActivity>(activity);
  auto record = Start<protocol::CudaMemcpyRecord>(RecordKind::kCudaMemcpy, copy.start);
  record.operation = Operation(copy);
  record.bytes = copy.bytes;
  record.copy_count = 1;
  record.src_device_id = copy.srcDeviceId;
  record.src_context_id = copy.srcContextId;
  record.dst_device_id = copy.dstDeviceId;
  record.dst_context_id = copy.dstContextId;
  record.copy_kind = copy.copyKind;
  record.src_kind = copy.srcKind;
  record.dst_kind = copy.dstKind;
  record.flags = copy.flags;
  record.is_peer = 1;
  SendFixed(sink_, &record);
}

void ActivityConverter::Memset(const CUpti_Activity& activity) {
  const auto& memset = As<MemsetActivity>(activity);
  auto record = Start<protocol::CudaMemsetRecord>(RecordKind::kCudaMemset, memset.start);
  record.operation = Operation(memset);
  record.bytes = memset.bytes;
  record.value = memset.value;
  record.memory_kind = memset.memoryKind;
  record.flags = memset.flags;
  SendFixed(sink_, &record);
}

void ActivityConverter::GraphTrace(const CUpti_Activity& activity) {
  const auto& graph = As<GraphTraceActivity>(activity);
  auto record = Start<protocol::CudaGraphTraceRecord>(RecordKind::kCudaGraphTrace, graph.start);
  record.end_ns = graph.end;
  record.device_id = graph.deviceId;
  record.context_id = graph.contextId;
  record.stream_id = graph.streamId;
  record.correlation_id = graph.correlationId;
  record.graph_id = graph.graphId;
  record.end_device_id = graph.endDeviceId;
  record.end_context_id = graph.endContextId;
  SendFixed(sink_, &record);
}

void ActivityConverter::Device(const CUpti_Activity& activity) {
  const auto& device = As<DeviceActivity>(activity);
  auto record = Start<protocol::CudaDeviceRecord>(RecordKind::kCudaDevice, 0);
  record.global_memory_bandwidth_kbps = device.globalMemoryBandwidth;
  record.global_memory_size = device.globalMemorySize;
  record.device_id = device.id;
  record.constant_memory_size = device.constantMemorySize;
  record.l2_cache_size = device.l2CacheSize;
  record.threads_per_warp = device.numThreadsPerWarp;
  record.core_clock_rate_khz = device.coreClockRate;
  record.memcpy_engines = device.numMemcpyEngines;
  record.multiprocessors = device.numMultiprocessors;
  record.max_ipc = device.maxIPC;
  record.max_warps_per_multiprocessor = device.maxWarpsPerMultiprocessor;
  record.max_blocks_per_multiprocessor = device.maxBlocksPerMultiprocessor;
  record.max_shared_memory_per_multiprocessor = device.maxSharedMemoryPerMultiprocessor;
  record.max_registers_per_multiprocessor = device.maxRegistersPerMultiprocessor;
  record.max_registers_per_block = device.maxRegistersPerBlock;
  record.max_shared_memory_per_block = device.maxSharedMemoryPerBlock;
  record.max_threads_per_block = device.maxThreadsPerBlock;
  record.max_block_dim_x = device.maxBlockDimX;
  record.max_block_dim_y = device.maxBlockDimY;
  record.max_block_dim_z = device.maxBlockDimZ;
  record.max_grid_dim_x = device.maxGridDimX;
  record.max_grid_dim_y = device.maxGridDimY;
  record.max_grid_dim_z = device.maxGridDimZ;
  record.compute_major = device.computeCapabilityMajor;
  record.compute_minor = device.computeCapabilityMinor;
  static_assert(sizeof(record.uuid) == sizeof(device.uuid));
  std::memcpy(record.uuid, &device.uuid, sizeof(record.uuid));
  const char* name = device.name != nullptr ? device.name : "";
  record.text_length = static_cast<uint32_t>(strnlen(name, protocol::kMaxTextLength));
  sink_->Send(&record.header, sizeof(record), name, record.text_length);
}

void ActivityConverter::Context(const CUpti_Activity& activity) {
  const auto& context = As<ContextActivity>(activity);
  auto record = Start<protocol::CudaContextRecord>(RecordKind::kCudaContext, 0);
  record.context_id = context.contextId;
  record.device_id = context.deviceId;
  record.null_stream_id = context.nullStreamId;
  record.parent_context_id = context.parentContextId;
  record.is_green_context = context.isGreenContext;
  SendFixed(sink_, &record);
}

void ActivityConverter::Stream(const CUpti_Activity& activity) {
  const auto& stream = As<StreamActivity>(activity);
  auto record = Start<protocol::CudaStreamRecord>(RecordKind::kCudaStream, 0);
  record.context_id = stream.contextId;
  record.stream_id = stream.streamId;
  record.priority = stream.priority;
  record.flag = static_cast<uint32_t>(stream.flag);
  record.correlation_id = stream.correlationId;
  SendFixed(sink_, &record);
}

void ActivityConverter::Memory(const CUpti_Activity& activity) {
  const auto& memory = As<MemoryActivity>(activity);
  auto record = Start<protocol::CudaMemoryRecord>(RecordKind::kCudaMemory, memory.timestamp);
  record.address = memory.address;
  record.bytes = memory.bytes;
  record.pc = memory.PC;
  const auto& pool = memory.memoryPoolConfig;
  if (pool.memoryPoolType != CUPTI_ACTIVITY_MEMORY_POOL_TYPE_INVALID) {
    record.pool_address = pool.address;
    record.pool_release_threshold = pool.releaseThreshold;
    record.pool_size_or_process_id = pool.pool.size;  // a union: the pool type says which
    record.pool_utilized_size = pool.utilizedSize;
  }
  record.device_id = memory.deviceId;
  record.context_id = memory.contextId;
  record.stream_id = memory.streamId;
  record.correlation_id = memory.correlationId;
  record.operation_type = static_cast<uint8_t>(memory.memoryOperationType);
  record.memory_kind = static_cast<uint8_t>(memory.memoryKind);
  record.pool_type = static_cast<uint8_t>(pool.memoryPoolType);
  record.is_async = memory.isAsync != 0 ? 1 : 0;
  const char* name = memory.name != nullptr ? memory.name : "";
  record.text_length = static_cast<uint32_t>(strnlen(name, protocol::kMaxTextLength));
  sink_->Send(&record.header, sizeof(record), name, record.text_length);
}

}  // namespace prof::injection::cuda
