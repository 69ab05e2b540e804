// CUPTI activity records built in memory → the stream records libprof_cuda.so sends.
#include "injection/cuda/activity_records.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "injection/cuda/cupti_versions.h"

namespace prof::injection::cuda {
namespace {

// Keeps every record sent, as bytes, with the sending thread the test chooses.
class CollectingSink final : public RecordSink {
 public:
  struct Sent {
    std::vector<char> fixed;
    std::string text;
    uint32_t tid;
  };
  void Send(protocol::RecordHeader* record, size_t fixed_size, const char* text,
            size_t text_length) override {
    const char* bytes = reinterpret_cast<const char*>(record);
    sent.push_back(
        {std::vector<char>(bytes, bytes + fixed_size), std::string(text, text_length), tid});
  }
  uint32_t SendingThread() override { return tid; }

  template <typename Record>
  Record As(size_t index) const {
    Record record;
    REQUIRE(sent.at(index).fixed.size() == sizeof(Record));
    std::memcpy(&record, sent[index].fixed.data(), sizeof(Record));
    return record;
  }
  protocol::RecordKind Kind(size_t index) const {
    protocol::RecordHeader header;
    std::memcpy(&header, sent.at(index).fixed.data(), sizeof(header));
    return header.kind;
  }

  std::vector<Sent> sent;
  uint32_t tid = 100;
};

// CUPTI hands out every record as a CUpti_Activity that starts with its kind.
template <typename Activity>
const CUpti_Activity& Generic(const Activity& activity) {
  return reinterpret_cast<const CUpti_Activity&>(activity);
}

KernelActivity Kernel(const char* name, uint32_t correlation_id) {
  KernelActivity kernel{};
  kernel.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  kernel.start = 1000;
  kernel.end = 1500;
  kernel.deviceId = 0;
  kernel.contextId = 1;
  kernel.streamId = 7;
  kernel.correlationId = correlation_id;
  kernel.gridX = 1056;
  kernel.gridY = 2;
  kernel.gridZ = 3;
  kernel.blockX = 256;
  kernel.blockY = 1;
  kernel.blockZ = 1;
  kernel.registersPerThread = 44;
  kernel.staticSharedMemory = 16;
  kernel.dynamicSharedMemory = 18816;
  kernel.localMemoryTotal_v2 = 155713536;
  kernel.sharedMemoryExecuted = 32768;
  kernel.gridId = 9;
  kernel.launchType = CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR;
  kernel.graphNodeId = 0;
  kernel.name = name;
  return kernel;
}

TEST_CASE("a kernel record carries its launch and a name id sent before it") {
  CollectingSink sink;
  ActivityConverter converter(&sink);
  const KernelActivity kernel = Kernel("_Z6squarePf", 157);
  converter.Convert(Generic(kernel));

  REQUIRE(sink.sent.size() == 2);
  REQUIRE(sink.Kind(0) == protocol::RecordKind::kCudaString);
  const auto name = sink.As<protocol::CudaStringRecord>(0);
  CHECK(name.string_id == 1);
  CHECK(name.text_length == 11);
  CHECK(sink.sent[0].text == "_Z6squarePf");

  REQUIRE(sink.Kind(1) == protocol::RecordKind::kCudaKernel);
  const auto record = sink.As<protocol::CudaKernelRecord>(1);
  CHECK(record.header.timestamp_ns == 1000);
  CHECK(record.operation.end_ns == 1500);
  CHECK(record.operation.stream_id == 7);
  CHECK(record.operation.context_id == 1);
  CHECK(record.operation.correlation_id == 157);
  CHECK(record.name_id == 1);
  CHECK(record.grid_x == 1056);
  CHECK(record.grid_y == 2);
  CHECK(record.grid_z == 3);
  CHECK(record.block_x == 256);
  CHECK(record.registers_per_thread == 44);
  CHECK(record.static_shared_memory == 16);
  CHECK(record.dynamic_shared_memory == 18816);
  CHECK(record.local_memory_total == 155713536);
  CHECK(record.shared_memory_executed == 32768);
  CHECK(record.grid_id == 9);
  CHECK(record.launch_type == CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR);
}

TEST_CASE("a kernel name is sent once per sending thread") {
  CollectingSink sink;
  ActivityConverter converter(&sink);
  const KernelActivity first = Kernel("_Z1av", 1);
  const KernelActivity second = Kernel("_Z1bv", 2);
  converter.Convert(Generic(first));
  converter.Convert(Generic(first));
  converter.Convert(Generic(second));
  sink.tid = 200;  // a later buffer delivered on another thread (the exit flush)
  converter.Convert(Generic(first));

  std::vector<protocol::RecordKind> kinds;
  for (size_t i = 0; i < sink.sent.size(); ++i) kinds.push_back(sink.Kind(i));
  using protocol::RecordKind;
  CHECK(kinds == std::vector<RecordKind>{RecordKind::kCudaString, RecordKind::kCudaKernel,
                                         RecordKind::kCudaKernel, RecordKind::kCudaString,
                                         RecordKind::kCudaKernel, RecordKind::kCudaString,
                                         RecordKind::kCudaKernel});
  CHECK(sink.As<protocol::CudaStringRecord>(3).string_id == 2);
  CHECK(sink.As<protocol::CudaStringRecord>(5).string_id == 1);  // same id, sent again
  CHECK(sink.As<protocol::CudaKernelRecord>(6).name_id == 1);
  CHECK(sink.sent[5].tid == 200);
}

TEST_CASE("copies keep CUPTI's kinds and peer copies their devices") {
  CollectingSink sink;
  ActivityConverter converter(&sink);
  MemcpyActivity copy{};
  copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  copy.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
  copy.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  copy.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
  copy.bytes = 4194304;
  copy.start = 10;
  copy.end = 20;
  copy.streamId = 7;
  copy.correlationId = 701;
  copy.copyCount = 1;
  converter.Convert(Generic(copy));
  PeerMemcpyActivity peer{};
  peer.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
  peer.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
  peer.bytes = 64;
  peer.srcDeviceId = 0;
  peer.dstDeviceId = 1;
  peer.srcContextId = 1;
  peer.dstContextId = 2;
  converter.Convert(Generic(peer));

  REQUIRE(sink.sent.size() == 2);
  const auto first = sink.As<protocol::CudaMemcpyRecord>(0);
  CHECK(first.copy_kind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);
  CHECK(first.src_kind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE);
  CHECK(first.dst_kind == CUPTI_ACTIVITY_MEMORY_KIND_DEVICE);
  CHECK(first.flags == CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC);
  CHECK(first.bytes == 4194304);
  CHECK(first.is_peer == 0);
  CHECK(first.operation.correlation_id == 701);
  const auto second = sink.As<protocol::CudaMemcpyRecord>(1);
  CHECK(second.is_peer == 1);
  CHECK(second.dst_device_id == 1);
  CHECK(second.dst_context_id == 2);
  CHECK(second.copy_count == 1);
}

TEST_CASE("graph launches - and kinds prof does not convert (syncs come from the API callbacks)") {
  CollectingSink sink;
  ActivityConverter converter(&sink);
  CUpti_ActivitySynchronization2 sync{};
  sync.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
  converter.Convert(Generic(sync));
  GraphTraceActivity graph{};
  graph.kind = CUPTI_ACTIVITY_KIND_GRAPH_TRACE;
  graph.start = 30;
  graph.end = 90;
  graph.graphId = 4;
  graph.correlationId = 800;
  converter.Convert(Generic(graph));
  CUpti_ActivityAPI api{};
  api.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
  converter.Convert(Generic(api));

  REQUIRE(sink.sent.size() == 1);
  const auto graph_trace = sink.As<protocol::CudaGraphTraceRecord>(0);
  CHECK(graph_trace.graph_id == 4);
  CHECK(graph_trace.correlation_id == 800);
  CHECK(graph_trace.end_ns == 90);
  CHECK(converter.ignored_records() == 2);
}

TEST_CASE(
    "memory records carry the operation - the variable name and the pool of async allocations") {
  CollectingSink sink;
  ActivityConverter converter(&sink);
  MemoryActivity allocation{};
  allocation.kind = CUPTI_ACTIVITY_KIND_MEMORY2;
  allocation.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
  allocation.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  allocation.correlationId = 41;
  allocation.address = 0x7f0000200000;
  allocation.bytes = 2097152;
  allocation.timestamp = 1234;
  allocation.PC = 0x401000;
  allocation.processId = 490;
  allocation.deviceId = 1;
  allocation.contextId = 2;
  allocation.streamId = 0xffffffff;
  allocation.name = "weights";
  converter.Convert(Generic(allocation));
  MemoryActivity release = allocation;
  release.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
  release.timestamp = 2000;
  release.correlationId = 42;
  release.streamId = 7;
  release.isAsync = 1;
  release.name = nullptr;
  release.memoryPoolConfig.memoryPoolType = CUPTI_ACTIVITY_MEMORY_POOL_TYPE_LOCAL;
  release.memoryPoolConfig.address = 0x7f0000000000;
  release.memoryPoolConfig.releaseThreshold = 4096;
  release.memoryPoolConfig.pool.size = 33554432;
  release.memoryPoolConfig.utilizedSize = 1048576;
  converter.Convert(Generic(release));

  REQUIRE(sink.sent.size() == 2);
  REQUIRE(sink.Kind(0) == protocol::RecordKind::kCudaMemory);
  const auto first = sink.As<protocol::CudaMemoryRecord>(0);
  CHECK(first.header.timestamp_ns == 1234);
  CHECK(first.operation_type == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION);
  CHECK(first.memory_kind == CUPTI_ACTIVITY_MEMORY_KIND_DEVICE);
  CHECK(first.address == 0x7f0000200000);
  CHECK(first.bytes == 2097152);
  CHECK(first.pc == 0x401000);
  CHECK(first.device_id == 1);
  CHECK(first.context_id == 2);
  CHECK(first.stream_id == 0xffffffff);
  CHECK(first.correlation_id == 41);
  CHECK(first.pool_type == CUPTI_ACTIVITY_MEMORY_POOL_TYPE_INVALID);
  CHECK(first.pool_address == 0);
  CHECK(first.pool_size_or_process_id == 0);
  CHECK(first.is_async == 0);
  CHECK(first.text_length == 7);
  CHECK(sink.sent[0].text == "weights");
  const auto second = sink.As<protocol::CudaMemoryRecord>(1);
  CHECK(second.operation_type == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE);
  CHECK(second.stream_id == 7);
  CHECK(second.is_async == 1);
  CHECK(second.pool_type == CUPTI_ACTIVITY_MEMORY_POOL_TYPE_LOCAL);
  CHECK(second.pool_address == 0x7f0000000000);
  CHECK(second.pool_release_threshold == 4096);
  CHECK(second.pool_size_or_process_id == 33554432);
  CHECK(second.pool_utilized_size == 1048576);
  CHECK(second.text_length == 0);
  CHECK(sink.sent[1].text.empty());
  CHECK(converter.ignored_records() == 0);
}

}  // namespace
}  // namespace prof::injection::cuda
