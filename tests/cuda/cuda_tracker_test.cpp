// CudaTracker fed CUDA records built in memory, writing a real report through
// storage::ReportWriter; each test asserts the exact rows that come out, with the values nsys
// writes for the same CUPTI data (torch_mix.sqlite).
#include "collector/cuda_tracker.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "storage/global_id.h"
#include "tests/nvtx/nvtx_record_builder.h"
#include "tests/support/test_support.h"

namespace prof::test {
namespace {

using protocol::CudaApiDomain;
using protocol::RecordKind;
using Rows = std::vector<std::vector<std::string>>;

constexpr uint32_t kPid = 490;
constexpr uint64_t kSessionStart = 1000;  // record time T is report time T - 1000
const std::string kGlobalPid = std::to_string(storage::GlobalPid(kPid));

template <typename Record>
Record Make(RecordKind kind, uint64_t time = 0, uint32_t tid = kPid) {
  Record record{};
  record.header = Header(kind, tid, time);
  return record;
}

protocol::CudaGpuOperation Operation(uint64_t end, uint32_t stream, uint32_t correlation) {
  protocol::CudaGpuOperation operation{};
  operation.end_ns = end;
  operation.context_id = 1;
  operation.stream_id = stream;
  operation.correlation_id = correlation;
  return operation;
}

class CudaHarness {
 public:
  explicit CudaHarness(const std::string& test_name)
      : path_(MakeTempDir(test_name) + "/report.sqlite") {
    process_.stream_id = 1;
    process_.pid = kPid;
    process_.name = "python3";
    process_.session_start_ns = kSessionStart;
    auto created = storage::ReportWriter::Create(path_);
    REQUIRE(created.ok());
    writer_ = std::move(created).value();
    tracker_ = std::make_unique<collector::CudaTracker>(writer_.get());
    tracker_->RegisterHandlers(&dispatcher_);
  }

  template <typename Record>
  void Feed(const Record& record, std::string_view text = {}) {
    const BuiltRecord built(record, text);
    dispatcher_.Dispatch(process_, built.header());
  }
  void Feed(const BuiltRecord& built) { dispatcher_.Dispatch(process_, built.header()); }
  void EndProcess() { tracker_->OnProcessEnd(process_); }
  const collector::CudaTracker& tracker() const { return *tracker_; }
  const collector::RecordDispatcher& dispatcher() const { return dispatcher_; }

  void Finish() { REQUIRE(writer_->Finish(storage::SessionInfo{}).ok()); }
  Rows Query(const std::string& sql) { return QueryRows(path_, sql); }

 private:
  std::string path_;
  collector::ProcessStream process_;
  std::unique_ptr<storage::ReportWriter> writer_;
  std::unique_ptr<collector::CudaTracker> tracker_;
  collector::RecordDispatcher dispatcher_;
};

void FeedApiName(CudaHarness* harness, CudaApiDomain domain, uint32_t cbid, std::string_view name) {
  auto record = Make<protocol::CudaApiNameRecord>(RecordKind::kCudaApiName);
  record.domain = domain;
  record.cbid = cbid;
  record.text_length = static_cast<uint32_t>(name.size());
  harness->Feed(record, name);
}

void FeedKernelName(CudaHarness* harness, uint64_t id, std::string_view mangled) {
  auto record = Make<protocol::CudaStringRecord>(RecordKind::kCudaString);
  record.string_id = id;
  record.text_length = static_cast<uint32_t>(mangled.size());
  harness->Feed(record, mangled);
}

void FeedContext(CudaHarness* harness, uint32_t context, uint32_t device, uint32_t null_stream) {
  auto record = Make<protocol::CudaContextRecord>(RecordKind::kCudaContext);
  record.context_id = context;
  record.device_id = device;
  record.null_stream_id = null_stream;
  harness->Feed(record);
}

TEST_CASE("cuda_tracker writes runtime and driver calls with their names", "[cuda][tracker]") {
  CudaHarness harness("cuda-api");
  FeedApiName(&harness, CudaApiDomain::kRuntime, 211, "cudaLaunchKernel_v7000");
  FeedApiName(&harness, CudaApiDomain::kDriver, 211, "cuMemAlloc_v2");
  auto call = Make<protocol::CudaApiCallRecord>(RecordKind::kCudaApiCall, 5000, 501);
  call.end_ns = 5100;
  call.correlation_id = 157;
  call.cbid = 211;
  call.domain = CudaApiDomain::kRuntime;
  harness.Feed(call);
  call.header.timestamp_ns = 6000;
  call.end_ns = 6050;
  call.correlation_id = 158;
  call.domain = CudaApiDomain::kDriver;
  call.return_value = 2;
  harness.Feed(call);
  call.header.timestamp_ns = 7000;
  call.cbid = 999;
  harness.Feed(call);
  harness.Finish();
  const std::string tid = std::to_string(storage::GlobalTid(kPid, 501));
  CHECK(harness.Query("SELECT start, end, eventClass, globalTid, correlationId, s.value, "
                      "returnValue, quote(callchainId) FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                      "JOIN StringIds s ON s.id = r.nameId ORDER BY start") ==
        Rows{{"4000", "4100", "0", tid, "157", "cudaLaunchKernel_v7000", "0", "NULL"},
             {"5000", "5050", "1", tid, "158", "cuMemAlloc_v2", "2", "NULL"},
             {"6000", "5050", "1", tid, "158", "[CUDA driver cbid 999]", "2", "NULL"}});
  CHECK(harness.tracker().stats().unnamed_api_calls == 1);
  CHECK(harness.Query("SELECT name FROM ENUM_NSYS_EVENT_CLASS WHERE id = 1") ==
        Rows{{"TRACE_PROCESS_EVENT_CUDA_DRIVER"}});
}

TEST_CASE("cuda_tracker counts the launches whose kernel never came", "[cuda][tracker]") {
  CudaHarness harness("cuda-kernels-lost");
  auto name = [&](uint32_t cbid, std::string_view text, protocol::CudaLaunchRole role) {
    auto record = Make<protocol::CudaApiNameRecord>(RecordKind::kCudaApiName);
    record.domain = CudaApiDomain::kRuntime;
    record.cbid = cbid;
    record.launch_role = role;
    record.text_length = static_cast<uint32_t>(text.size());
    harness.Feed(record, text);
  };
  name(211, "cudaLaunchKernel_v7000", protocol::CudaLaunchRole::kLaunchesKernel);
  name(311, "cudaStreamBeginCapture_v10000", protocol::CudaLaunchRole::kBeginsStreamCapture);
  name(312, "cudaStreamEndCapture_v10000", protocol::CudaLaunchRole::kEndsStreamCapture);
  name(20, "cudaMalloc_v3020", protocol::CudaLaunchRole::kNone);
  uint32_t correlation = 100;
  auto call = [&](uint32_t cbid, uint32_t tid, int32_t result = 0) {
    auto record = Make<protocol::CudaApiCallRecord>(RecordKind::kCudaApiCall, 5000, tid);
    record.end_ns = 5100;
    record.correlation_id = ++correlation;
    record.cbid = cbid;
    record.domain = CudaApiDomain::kRuntime;
    record.return_value = result;
    harness.Feed(record);
  };
  auto kernel = [&](uint32_t graph_id, uint8_t device_launched) {
    auto record = Make<protocol::CudaKernelRecord>(RecordKind::kCudaKernel, 6000);
    record.operation = Operation(6100, 7, 0);
    record.operation.graph_id = graph_id;
    record.is_device_launched = device_launched;
    harness.Feed(record);
  };
  kernel(0, 0);  // a kernel may come before its launch call
  for (int i = 0; i < 5; ++i) call(211, 501);
  call(211, 501, 1);  // failed: no kernel expected
  call(20, 501);      // not a launch
  call(311, 502);     // thread 502 captures: its launches run nothing
  call(211, 502);
  call(211, 502);
  call(312, 502);
  kernel(0, 0);
  kernel(0, 0);
  kernel(9, 0);                                        // of a graph launch
  kernel(0, 1);                                        // launched by a kernel
  CHECK(harness.tracker().stats().kernels_lost == 0);  // counted at the process's end
  harness.EndProcess();
  CHECK(harness.tracker().stats().kernels_lost == 2);  // 5 launched, 3 came
}

TEST_CASE("cuda_tracker writes kernels with nsys's names and enum ids", "[cuda][tracker]") {
  CudaHarness harness("cuda-kernel");
  FeedKernelName(&harness, 1,
                 "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIP"
                 "cLm1EEEEviT0_T1_");
  FeedKernelName(&harness, 2, "sm80_xmma_gemm_f32f32_cublas");
  auto kernel = Make<protocol::CudaKernelRecord>(RecordKind::kCudaKernel, 11000);
  kernel.operation = Operation(12000, 7, 157);
  kernel.name_id = 1;
  kernel.grid_id = 1;
  kernel.grid_x = 1056, kernel.grid_y = 1, kernel.grid_z = 1;
  kernel.block_x = 256, kernel.block_y = 1, kernel.block_z = 1;
  kernel.static_shared_memory = 16;
  kernel.dynamic_shared_memory = 18816;
  kernel.local_memory_per_thread = 8;
  kernel.local_memory_total = 155713536;
  kernel.shared_memory_executed = 32768;
  kernel.registers_per_thread = 44;
  kernel.launch_type = 0;             // CUPTI regular
  kernel.cache_config_requested = 0;  // none
  kernel.cache_config_executed = 1;   // prefer shared
  kernel.shared_memory_limit_config = 0;
  harness.Feed(kernel);
  kernel.header.timestamp_ns = 13000;
  kernel.operation = Operation(14000, 13, 160);
  kernel.operation.graph_node_id = 77;
  kernel.name_id = 2;
  kernel.grid_id = 2;
  kernel.launch_type = 1;  // CUPTI cooperative single device
  kernel.shared_memory_limit_config = 1;
  harness.Feed(kernel);
  kernel.header.timestamp_ns = 15000;
  kernel.name_id = 3;  // never named
  kernel.launch_type = 3;
  kernel.cache_config_executed = 9;
  harness.Feed(kernel);
  harness.Finish();
  CHECK(harness.Query(
            "SELECT start, end, deviceId, contextId, greenContextId, streamId, correlationId, "
            "globalPid, launchType, quote(cacheConfig), registersPerThread, gridX, gridY, gridZ, "
            "blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, "
            "localMemoryPerThread, localMemoryTotal, gridId, sharedMemoryExecuted, "
            "quote(graphNodeId), sharedMemoryLimitConfig FROM CUPTI_ACTIVITY_KIND_KERNEL "
            "ORDER BY start") ==
        Rows{{"10000", "11000", "0",         "1", "0",     "7",    "157", kGlobalPid, "1",
              "1",     "44",    "1056",      "1", "1",     "256",  "1",   "1",        "16",
              "18816", "8",     "155713536", "1", "32768", "NULL", "0"},
             {"12000", "13000", "0",         "1", "0",     "13",  "160", kGlobalPid, "2",
              "1",     "44",    "1056",      "1", "1",     "256", "1",   "1",        "16",
              "18816", "8",     "155713536", "2", "32768", "77",  "1"},
             {"14000", "13000", "0",         "1", "0",     "13",  "160", kGlobalPid, "0",
              "NULL",  "44",    "1056",      "1", "1",     "256", "1",   "1",        "16",
              "18816", "8",     "155713536", "2", "32768", "77",  "1"}});
  CHECK(harness.Query("SELECT m.value, d.value, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                      "JOIN StringIds m ON m.id = k.mangledName JOIN StringIds d ON "
                      "d.id = k.demangledName JOIN StringIds s ON s.id = k.shortName "
                      "ORDER BY start") ==
        Rows{{"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIP"
              "cLm1EEEEviT0_T1_",
              "void at::native::vectorized_elementwise_kernel<(int)4, "
              "at::native::FillFunctor<float>, std::array<char *, (unsigned long)1>>(int, T2, "
              "T3)",
              "vectorized_elementwise_kernel"},
             {"sm80_xmma_gemm_f32f32_cublas", "sm80_xmma_gemm_f32f32_cublas",
              "sm80_xmma_gemm_f32f32_cublas"},
             {"[unknown kernel]", "[unknown kernel]", "[unknown kernel]"}});
  // A name that does not demangle is one string, as in nsys (three ids, one value).
  CHECK(harness.Query("SELECT count(*) FROM StringIds WHERE value = "
                      "'sm80_xmma_gemm_f32f32_cublas'") == Rows{{"1"}});
  CHECK(harness.tracker().stats().unnamed_kernels == 1);
  CHECK(harness.Query("SELECT count(*) FROM ENUM_CUDA_KERNEL_LAUNCH_TYPE") == Rows{{"4"}});
}

TEST_CASE("cuda_tracker maps memcpy and memset kinds onto nsys's ids", "[cuda][tracker]") {
  CudaHarness harness("cuda-memops");
  auto copy = Make<protocol::CudaMemcpyRecord>(RecordKind::kCudaMemcpy, 2000);
  copy.operation = Operation(3000, 7, 701);
  copy.bytes = 4194304;
  copy.copy_count = 1;
  copy.copy_kind = 1;      // HtoD
  copy.src_kind = 1;       // CUPTI pageable
  copy.dst_kind = 3;       // CUPTI device
  copy.src_device_id = 5;  // ignored: not a peer copy
  harness.Feed(copy);
  copy.header.timestamp_ns = 4000;
  copy.operation = Operation(5000, 7, 702);
  copy.copy_kind = 10;  // peer to peer
  copy.src_kind = 3;
  copy.dst_kind = 0;  // CUPTI unknown
  copy.is_peer = 1;
  copy.src_device_id = 0, copy.src_context_id = 1, copy.dst_device_id = 1, copy.dst_context_id = 2;
  copy.operation.graph_node_id = 9;
  harness.Feed(copy);
  auto set = Make<protocol::CudaMemsetRecord>(RecordKind::kCudaMemset, 6000);
  set.operation = Operation(6800, 7, 2186);
  set.bytes = 4;
  set.value = 255;
  set.memory_kind = 3;  // CUPTI device
  harness.Feed(set);
  set.header.timestamp_ns = 7000;
  set.memory_kind = 2;  // CUPTI pinned
  harness.Feed(set);
  harness.Finish();
  CHECK(harness.Query(
            "SELECT start, end, deviceId, contextId, greenContextId, streamId, correlationId, "
            "globalPid, bytes, copyKind, quote(deprecatedSrcId), srcKind, dstKind, "
            "quote(srcDeviceId), quote(srcContextId), quote(dstDeviceId), quote(dstContextId), "
            "quote(migrationCause), quote(graphNodeId), quote(virtualAddress), copyCount "
            "FROM CUPTI_ACTIVITY_KIND_MEMCPY ORDER BY start") ==
        Rows{{"1000",     "2000",    "0",    "1",    "0",    "7",    "701",
              kGlobalPid, "4194304", "1",    "NULL", "0",    "2",    "NULL",
              "NULL",     "NULL",    "NULL", "NULL", "NULL", "NULL", "1"},
             {"3000", "4000", "0", "1", "0", "7", "702",  kGlobalPid, "4194304", "10", "NULL",
              "2",    "7",    "0", "1", "1", "2", "NULL", "9",        "NULL",    "1"}});
  CHECK(harness.Query("SELECT start, end, deviceId, contextId, greenContextId, streamId, "
                      "correlationId, globalPid, value, bytes, quote(graphNodeId), memKind "
                      "FROM CUPTI_ACTIVITY_KIND_MEMSET ORDER BY start") ==
        Rows{{"5000", "5800", "0", "1", "0", "7", "2186", kGlobalPid, "255", "4", "NULL", "2"},
             {"6000", "5800", "0", "1", "0", "7", "2186", kGlobalPid, "255", "4", "NULL", "1"}});
  CHECK(harness.Query("SELECT name FROM ENUM_CUDA_MEM_KIND WHERE id IN (0, 7) ORDER BY id") ==
        Rows{{"CUDA_MEMOPR_MEMORY_KIND_PAGEABLE"}, {"CUDA_MEMOPR_MEMORY_KIND_UNKNOWN"}});
}

TEST_CASE("cuda_tracker writes syncs as nsys does: stream syncs as syncType 2, unknown types 0",
          "[cuda][tracker]") {
  CudaHarness harness("cuda-sync");
  auto sync = Make<protocol::CudaSyncRecord>(RecordKind::kCudaSync, 2000);
  sync.end_ns = 2500;
  sync.context_id = 4;
  sync.device_id = 3;
  sync.stream_id = 7;
  sync.correlation_id = 702;
  sync.sync_type = 3;  // a stream synchronize: nsys writes 2
  sync.event_id = 4294967295u;
  sync.event_sync_id = 4294967295u;
  harness.Feed(sync);
  sync.header.timestamp_ns = 3000;
  sync.end_ns = 3100;
  sync.context_id = 1;
  sync.device_id = 0;
  sync.sync_type = 2;
  sync.event_id = 19;
  sync.event_sync_id = 1;
  harness.Feed(sync);
  sync.header.timestamp_ns = 4000;
  sync.end_ns = 4000;
  sync.sync_type = 42;
  harness.Feed(sync);
  harness.Finish();
  CHECK(harness.Query("SELECT start, end, deviceId, contextId, quote(greenContextId), streamId, "
                      "correlationId, globalPid, quote(deprecatedSyncType), syncType, eventId, "
                      "eventSyncId FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION ORDER BY start") ==
        Rows{{"1000", "1500", "3", "4", "NULL", "7", "702", kGlobalPid, "NULL", "2", "4294967295",
              "4294967295"},
             {"2000", "2100", "0", "1", "NULL", "7", "702", kGlobalPid, "NULL", "2", "19", "1"},
             {"3000", "3000", "0", "1", "NULL", "7", "702", kGlobalPid, "NULL", "0", "19", "1"}});
}

protocol::CudaGraphTraceRecord GraphTrace(uint64_t start, uint32_t correlation, uint32_t graph) {
  auto trace = Make<protocol::CudaGraphTraceRecord>(RecordKind::kCudaGraphTrace, start);
  trace.end_ns = start + 100;
  trace.context_id = 1;
  trace.stream_id = 13;
  trace.correlation_id = correlation;
  trace.graph_id = graph;
  return trace;
}

protocol::CudaGraphLaunchRecord GraphLaunch(uint32_t correlation, uint32_t exec) {
  auto launch = Make<protocol::CudaGraphLaunchRecord>(RecordKind::kCudaGraphLaunch);
  launch.correlation_id = correlation;
  launch.graph_exec_id = exec;
  return launch;
}

TEST_CASE("cuda_tracker matches graph traces with their launch in either order",
          "[cuda][tracker]") {
  CudaHarness harness("cuda-graph");
  harness.Feed(GraphTrace(2000, 30, 5));  // trace first
  harness.Feed(GraphLaunch(30, 8));
  harness.Feed(GraphLaunch(31, 9));  // launch first
  harness.Feed(GraphTrace(3000, 31, 5));
  harness.Feed(GraphTrace(4000, 32, 6));  // never launched
  CHECK(harness.tracker().stats().unmatched_graph_traces == 0);
  harness.EndProcess();
  harness.Finish();
  CHECK(harness.Query("SELECT start, end, deviceId, contextId, greenContextId, streamId, "
                      "correlationId, globalPid, graphId, graphExecId "
                      "FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE ORDER BY start") ==
        Rows{{"1000", "1100", "0", "1", "0", "13", "30", kGlobalPid, "5", "8"},
             {"2000", "2100", "0", "1", "0", "13", "31", kGlobalPid, "5", "9"},
             {"3000", "3100", "0", "1", "0", "13", "32", kGlobalPid, "6", "6"}});
  CHECK(harness.tracker().stats().unmatched_graph_traces == 1);
}

TEST_CASE("cuda_tracker bounds the graph traces waiting for their launch", "[cuda][tracker]") {
  CudaHarness harness("cuda-graph-bound");
  const uint32_t count = collector::CudaTracker::kMaxPendingGraphTraces + 2;
  for (uint32_t i = 0; i < count; ++i) harness.Feed(GraphTrace(2000 + i, 100 + i, 5));
  CHECK(harness.tracker().stats().unmatched_graph_traces == 2);
  harness.Feed(GraphLaunch(100 + count - 1, 77));
  harness.EndProcess();
  harness.Finish();
  CHECK(harness.Query("SELECT count(*), sum(graphExecId = 77), min(correlationId) "
                      "FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE") ==
        Rows{{std::to_string(count), "1", "100"}});
  CHECK(harness.tracker().stats().unmatched_graph_traces == count - 1);
}

TEST_CASE("cuda_tracker writes CUDA events", "[cuda][tracker]") {
  CudaHarness harness("cuda-event");
  auto event = Make<protocol::CudaEventRecord>(RecordKind::kCudaEvent, 2000);
  event.context_id = 1;
  event.stream_id = 13;
  event.correlation_id = 2109;
  event.event_id = 19;
  event.event_sync_id = 1;
  harness.Feed(event);
  harness.Finish();
  CHECK(harness.Query("SELECT * FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT") ==
        Rows{{"0", "1", "0", "13", "2109", kGlobalPid, "19", "1"}});
}

protocol::CudaGraphEventRecord GraphEvent(protocol::CudaGraphEventKind kind, uint64_t time,
                                          uint32_t graph, uint32_t original, uint32_t exec) {
  auto event = Make<protocol::CudaGraphEventRecord>(RecordKind::kCudaGraphEvent, time, 501);
  event.kind = kind;
  event.graph_id = graph;
  event.original_graph_id = original;
  event.graph_exec_id = exec;
  return event;
}

// The rows nsys 2025.3 wrote for tests/gpu/cuda/cuda_graph.cu on the H200: stream capture creates
// graph 1, instantiation creates graphs 2 and 3 and then exec 2 from graph 1.
TEST_CASE("cuda_tracker writes graph creations clones and instantiations", "[cuda][tracker]") {
  using protocol::CudaGraphEventKind;
  constexpr uint32_t kNone = protocol::kNoGraphId;
  CudaHarness harness("cuda-graph-events");
  harness.Feed(GraphEvent(CudaGraphEventKind::kGraphCreated, 2000, 1, kNone, kNone));
  harness.Feed(GraphEvent(CudaGraphEventKind::kGraphCloned, 2500, 4, 1, kNone));
  harness.Feed(GraphEvent(CudaGraphEventKind::kGraphExecCreated, 3000, 1, kNone, 2));
  auto unknown = GraphEvent(CudaGraphEventKind::kGraphCreated, 3500, 5, kNone, kNone);
  unknown.kind = static_cast<CudaGraphEventKind>(7);
  harness.Feed(unknown);
  harness.Finish();
  const std::string tid = std::to_string(storage::GlobalTid(kPid, 501));
  CHECK(harness.Query("SELECT start, end, eventClass, globalTid, s.value, quote(graphId), "
                      "quote(originalGraphId), quote(graphExecId) FROM CUDA_GRAPH_EVENTS e "
                      "JOIN StringIds s ON s.id = e.nameId ORDER BY start") ==
        Rows{{"1000", "1000", "95", tid, "Graph Creation", "1", "NULL", "NULL"},
             {"1500", "1500", "96", tid, "Graph Clone", "4", "1", "NULL"},
             {"2000", "2000", "94", tid, "GraphExec Creation", "1", "NULL", "2"}});
  CHECK(harness.tracker().stats().malformed_records == 1);
  CHECK(harness.Query(
            "SELECT name FROM ENUM_NSYS_EVENT_CLASS WHERE id IN (94, 95, 96) ORDER BY id") ==
        Rows{{"TRACE_PROCESS_EVENT_CUDA_GRAPHEXEC_CREATION"},
             {"TRACE_PROCESS_EVENT_CUDA_GRAPH_CREATION"},
             {"TRACE_PROCESS_EVENT_CUDA_GRAPH_CLONE"}});
}

protocol::CudaMemoryRecord Memory(uint8_t operation, uint64_t time, uint64_t address,
                                  uint64_t bytes, uint32_t correlation) {
  auto memory = Make<protocol::CudaMemoryRecord>(RecordKind::kCudaMemory, time);
  memory.operation_type = operation;
  memory.memory_kind = 3;  // CUPTI_ACTIVITY_MEMORY_KIND_DEVICE
  memory.address = address;
  memory.bytes = bytes;
  memory.pc = 4198400;
  memory.device_id = 0;
  memory.context_id = 1;
  memory.stream_id = 0xffffffff;
  memory.correlation_id = correlation;
  return memory;
}

TEST_CASE("cuda_tracker writes memory allocations and frees with nsys's enum ids",
          "[cuda][tracker]") {
  constexpr uint8_t kAllocation = 1;
  constexpr uint8_t kRelease = 2;
  CudaHarness harness("cuda-memory-usage");
  auto named = Memory(kAllocation, 2000, 139637976727552, 2097152, 41);
  named.text_length = 7;
  harness.Feed(named, "weights");
  auto pooled = Memory(kAllocation, 2500, 139637978824704, 1048576, 42);
  pooled.memory_kind = 2;  // pinned
  pooled.stream_id = 7;
  pooled.is_async = 1;
  pooled.pool_type = 1;  // local pool
  pooled.pool_address = 139637978824704;
  pooled.pool_release_threshold = 0;
  pooled.pool_size_or_process_id = 33554432;
  pooled.pool_utilized_size = 1048576;
  harness.Feed(pooled);
  auto imported = Memory(kRelease, 3000, 139637980000000, 4096, 43);
  imported.memory_kind = 0;  // unknown
  imported.pool_type = 2;
  imported.pool_address = 139637980000000;
  imported.pool_size_or_process_id = 777;
  harness.Feed(imported);
  harness.Feed(Memory(kRelease, 3500, 139637976727552, 2097152, 44));
  harness.Feed(Memory(0, 4000, 1, 1, 45));  // CUPTI's invalid operation: no row
  harness.Finish();
  CHECK(harness.Query("SELECT start, globalPid, deviceId, contextId, address, pc, bytes, memKind, "
                      "memoryOperationType, quote(name), correlationId, quote(streamId), "
                      "quote(localMemoryPoolAddress), quote(localMemoryPoolReleaseThreshold), "
                      "quote(localMemoryPoolSize), quote(localMemoryPoolUtilizedSize), "
                      "quote(importedMemoryPoolAddress), quote(importedMemoryPoolProcessId) "
                      "FROM CUDA_GPU_MEMORY_USAGE_EVENTS ORDER BY start") ==
        Rows{{"1000", kGlobalPid, "0", "1", "139637976727552", "4198400", "2097152", "2", "0",
              "'weights'", "41", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"},
             {"1500", kGlobalPid, "0", "1", "139637978824704", "4198400", "1048576", "1", "0",
              "NULL", "42", "7", "139637978824704", "0", "33554432", "1048576", "NULL", "NULL"},
             {"2000", kGlobalPid, "0", "1", "139637980000000", "4198400", "4096", "7", "1", "NULL",
              "43", "NULL", "NULL", "NULL", "NULL", "NULL", "139637980000000", "777"},
             {"2500", kGlobalPid, "0", "1", "139637976727552", "4198400", "2097152", "2", "1",
              "NULL", "44", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}});
  CHECK(harness.tracker().stats().malformed_records == 1);
  CHECK(harness.Query("SELECT id, name, label FROM ENUM_CUDA_DEV_MEM_EVENT_OPER ORDER BY id") ==
        Rows{{"0", "CUDA_DEV_MEM_EVENT_OPR_ALLOCATION", "Allocation"},
             {"1", "CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION", "Deallocation"}});
  CHECK(harness.Query("SELECT count(*) FROM ENUM_CUDA_MEM_KIND") == Rows{{"8"}});
}

protocol::CudaDeviceRecord H200() {
  auto device = Make<protocol::CudaDeviceRecord>(RecordKind::kCudaDevice);
  device.global_memory_bandwidth_kbps = 4814304000;
  device.global_memory_size = 150109880320;
  device.constant_memory_size = 65536;
  device.l2_cache_size = 62914560;
  device.threads_per_warp = 32;
  device.core_clock_rate_khz = 1980000;
  device.memcpy_engines = 3;
  device.multiprocessors = 132;
  device.max_warps_per_multiprocessor = 64;
  device.max_blocks_per_multiprocessor = 32;
  device.max_shared_memory_per_multiprocessor = 233472;
  device.max_registers_per_multiprocessor = 65536;
  device.max_registers_per_block = 65536;
  device.max_shared_memory_per_block = 49152;
  device.max_threads_per_block = 1024;
  device.max_block_dim_x = 1024, device.max_block_dim_y = 1024, device.max_block_dim_z = 64;
  device.max_grid_dim_x = 2147483647, device.max_grid_dim_y = 65535;
  device.max_grid_dim_z = 65535;
  device.compute_major = 9;
  device.max_shared_memory_per_block_optin = 232448;
  device.pci_device_id = 6;
  const uint8_t uuid[16] = {0x34, 0x70, 0xb7, 0xd7, 0xb3, 0xb9, 0x43, 0x92,
                            0x30, 0x8a, 0x3d, 0x57, 0x2b, 0xf4, 0xa3, 0x42};
  std::memcpy(device.uuid, uuid, sizeof(uuid));
  device.text_length = 11;
  return device;
}

TEST_CASE("cuda_tracker writes each GPU device context and stream once", "[cuda][tracker]") {
  CudaHarness harness("cuda-target-info");
  harness.Feed(H200(), "NVIDIA H200");
  harness.Feed(H200(), "NVIDIA H200");
  FeedContext(&harness, 1, 0, 7);
  FeedContext(&harness, 1, 0, 7);
  auto stream = Make<protocol::CudaStreamRecord>(RecordKind::kCudaStream);
  stream.context_id = 1;
  stream.stream_id = 13;
  stream.priority = 4294967293u;  // -3
  stream.flag = 2;                // non-blocking
  harness.Feed(stream);
  harness.Feed(stream);
  stream.stream_id = 7;  // the NULL stream, already listed from its context
  stream.flag = 1;
  harness.Feed(stream);
  harness.Finish();
  CHECK(harness.Query("SELECT * FROM TARGET_INFO_GPU") ==
        Rows{{"281474976710656",
              "0",
              "NVIDIA H200",
              "0000:00:06.0",
              "NULL",
              "62914560",
              "150109880320",
              "4814304000000",
              "1980000000",
              "132",
              "NULL",
              "3470b7d7-b3b9-4392-308a-3d572bf4a342",
              "NULL",
              "NULL",
              "0",
              "NULL",
              "NULL",
              "NULL",
              "NULL",
              "65536",
              "0",
              "65536",
              "49152",
              "232448",
              "233472",
              "65536",
              "32",
              "3",
              "64",
              "32",
              "1024",
              "1024",
              "1024",
              "64",
              "2147483647",
              "65535",
              "65535",
              "9",
              "0",
              "9",
              "0"}});
  CHECK(harness.Query("SELECT * FROM TARGET_INFO_CUDA_DEVICE") == Rows{{"0", "0", "490"}});
  CHECK(harness.Query("SELECT * FROM TARGET_INFO_CUDA_CONTEXT_INFO") ==
        Rows{{"7", "0", "1", "490", "0", "1", "0", "0"}});
  CHECK(
      harness.Query("SELECT * FROM TARGET_INFO_CUDA_STREAM ORDER BY streamId") ==
      Rows{{"7", "0", "1", "490", "1", "0", "3"}, {"13", "0", "1", "490", "1", "4294967293", "2"}});
}

TEST_CASE("cuda_tracker collects set-up failures and CUPTI drops", "[cuda][tracker]") {
  CudaHarness harness("cuda-status");
  auto status = Make<protocol::CudaInitStatusRecord>(RecordKind::kCudaInitStatus);
  status.status = protocol::CudaInitStatus::kTracing;
  status.text_length = 14;
  harness.Feed(status, "libcupti.so.13");
  CHECK(harness.tracker().tracing_started());
  CHECK(harness.tracker().cuda_warnings().empty());
  status.status = protocol::CudaInitStatus::kCuptiNotFound;
  status.text_length = 16;
  harness.Feed(status, "/usr/local/cuda/");
  auto dropped = Make<protocol::CudaDroppedRecordsRecord>(RecordKind::kCudaDroppedRecords);
  dropped.dropped = 5;
  harness.Feed(dropped);
  dropped.dropped = 7;
  harness.Feed(dropped);
  CHECK(harness.tracker().cuda_warnings() ==
        std::vector<std::string>{
            "CUDA is not traced in process 490: libcupti not found: /usr/local/cuda/"});
  CHECK(harness.tracker().dropped_records() == 12);
  harness.Finish();
  CHECK(harness.Query("SELECT count(*) FROM sqlite_master WHERE name LIKE 'CUPTI%' OR "
                      "name LIKE 'TARGET_INFO_CUDA%'") == Rows{{"0"}});
}

TEST_CASE("cuda_tracker registers each kind's struct size: shorter records never reach it",
          "[cuda][tracker]") {
  CudaHarness harness("cuda-short");
  BuiltRecord kernel(Make<protocol::CudaKernelRecord>(RecordKind::kCudaKernel, 2000), "");
  kernel.mutable_header()->size = sizeof(protocol::CudaKernelRecord) - 8;
  harness.Feed(kernel);
  BuiltRecord other(Make<protocol::CudaKernelRecord>(RecordKind::kNvtxMark, 2000), "");
  harness.Feed(other);
  CHECK(harness.dispatcher().malformed_records() == 1);
  CHECK(harness.dispatcher().unknown_records() == 1);
  CHECK(harness.tracker().stats().malformed_records == 0);
  harness.Finish();
  CHECK(harness.Query("SELECT count(*) FROM sqlite_master WHERE name LIKE 'CUPTI%'") ==
        Rows{{"0"}});
}

}  // namespace
}  // namespace prof::test
