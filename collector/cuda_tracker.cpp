#include "collector/cuda_tracker.h"

#include <optional>
#include <string_view>

#include "collector/cuda_target_info.h"
#include "collector/kernel_names.h"
#include "collector/python_stack_text.h"
#include "collector/record_copy.h"
#include "collector/record_text.h"

namespace prof::collector {
namespace {

using protocol::RecordHeader;
using protocol::RecordKind;

// ENUM_NSYS_EVENT_CLASS ids of CUPTI_ACTIVITY_KIND_RUNTIME rows.
constexpr int32_t kCudaRuntimeEventClass = 0;
constexpr int32_t kCudaDriverEventClass = 1;
// ENUM_NSYS_EVENT_CLASS ids of CUDA_GRAPH_EVENTS rows.
constexpr int32_t kGraphExecCreationEventClass = 94;
constexpr int32_t kGraphCreationEventClass = 95;
constexpr int32_t kGraphCloneEventClass = 96;
// TARGET_INFO_CUDA_STREAM/CONTEXT_INFO hold the bare VM id of local captures (1), TARGET_INFO_GPU
// the GlobalId VM bits (1 << 48), as nsys writes them.
constexpr int64_t kLocalVmId = 1;
// ENUM_CUPTI_STREAM_TYPE of a context's NULL stream.
constexpr int32_t kNullStreamType = 3;
// ENUM_CUDA_MEM_KIND "Unknown".
constexpr int32_t kUnknownMemoryKind = 7;

uint64_t ApiKey(protocol::CudaApiDomain domain, uint32_t cbid) {
  return (static_cast<uint64_t>(domain) << 32) | cbid;
}

// CUpti_ActivityMemoryKind → ENUM_CUDA_MEM_KIND: nsys has no "unknown" at 0, so every kind
// moves down by one and unknown goes last.
int32_t NsysMemoryKind(uint32_t cupti) {
  return cupti >= 1 && cupti <= 7 ? static_cast<int32_t>(cupti) - 1 : kUnknownMemoryKind;
}

// CUpti_ActivityMemcpyKind → ENUM_CUDA_MEMCPY_OPER: the same numbering up to peer-to-peer.
int32_t NsysCopyKind(uint32_t cupti) { return cupti <= 10 ? static_cast<int32_t>(cupti) : 0; }

// CUpti_ActivityLaunchType → ENUM_CUDA_KERNEL_LAUNCH_TYPE: nsys puts "unknown" at 0.
int32_t NsysLaunchType(uint32_t cupti) { return cupti <= 2 ? static_cast<int32_t>(cupti) + 1 : 0; }

// CUfunc_cache → ENUM_CUDA_FUNC_CACHE_CONFIG and CUpti_FuncShmemLimitConfig →
// ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG: the same numbering; values nsys has no name for are NULL.
std::optional<int32_t> SameIdUpTo(uint32_t cupti, uint32_t last) {
  if (cupti > last) return std::nullopt;
  return static_cast<int32_t>(cupti);
}

// CUpti_ActivitySynchronizationType → ENUM_CUPTI_SYNC_TYPE and CUpti_ActivityStreamFlag →
// ENUM_CUPTI_STREAM_TYPE: the same numbering, unknown (0) for values beyond it.
int32_t SameIdOrUnknown(uint32_t cupti, uint32_t last) {
  return cupti <= last ? static_cast<int32_t>(cupti) : 0;
}

// CUpti_ActivitySynchronizationType → the syncType nsys writes. nsys 2025.3 stores stream
// synchronizations (CUPTI 3) as 2, the id it also gives stream waits (seen on the H200 for the same
// program: CUPTI reports 3, nsys's export holds 2); prof writes what nsys writes, so scripts that
// select syncs by type see the same rows.
int32_t NsysSyncType(uint32_t cupti) {
  constexpr uint32_t kCuptiStreamSynchronize = 3;
  return cupti == kCuptiStreamSynchronize ? 2 : SameIdOrUnknown(cupti, 4);
}

// CUpti_ActivityMemoryOperationType → ENUM_CUDA_DEV_MEM_EVENT_OPER: nsys has no "invalid" at 0,
// so allocation (1) and release (2) move down by one; invalid operations have no id.
std::optional<int32_t> NsysMemoryOperation(uint32_t cupti) {
  if (cupti < 1 || cupti > 2) return std::nullopt;
  return static_cast<int32_t>(cupti) - 1;
}

// CUpti_ActivityMemoryPoolType of CudaMemoryRecord.pool_type.
constexpr uint8_t kLocalMemoryPool = 1;
constexpr uint8_t kImportedMemoryPool = 2;
// CUPTI's invalid stream id: the operation was not stream-ordered.
constexpr uint32_t kNoStream = 0xffffffffu;

std::optional<int64_t> NonZero(uint64_t value) {
  if (value == 0) return std::nullopt;
  return static_cast<int64_t>(value);
}

storage::GpuOperationColumns OperationColumns(const ProcessStream& process,
                                              const RecordHeader& header,
                                              const protocol::CudaGpuOperation& operation) {
  storage::GpuOperationColumns columns;
  columns.start = process.SessionTime(header.timestamp_ns);
  columns.end = process.SessionTime(operation.end_ns);
  columns.device_id = operation.device_id;
  columns.context_id = operation.context_id;
  columns.green_context_id = 0;
  columns.stream_id = operation.stream_id;
  columns.correlation_id = operation.correlation_id;
  columns.global_pid = process.GlobalPid();
  return columns;
}

const char* InitStatusText(protocol::CudaInitStatus status) {
  switch (status) {
    case protocol::CudaInitStatus::kTracing:
      return "tracing";
    case protocol::CudaInitStatus::kCuptiNotFound:
      return "libcupti not found";
    case protocol::CudaInitStatus::kCuptiFailed:
      return "CUPTI failed";
    case protocol::CudaInitStatus::kCuptiTooOld:
      return "libcupti too old";
    case protocol::CudaInitStatus::kSubscriberTaken:
      return "another profiler owns CUPTI";
    case protocol::CudaInitStatus::kPythonUnsupported:
      return "Python not supported";
  }
  return "unknown status";
}

}  // namespace

void CudaTracker::RegisterHandlers(RecordDispatcher* dispatcher) {
  // The dispatcher checks each record against its struct's size, so handlers copy it unchecked.
  const auto add = [this, dispatcher](RecordKind kind, size_t size, Handler handler) {
    dispatcher->Register(kind, size,
                         [this, handler](const ProcessStream& process, const RecordHeader& record) {
                           (this->*handler)(process, record, &streams_[process.stream_id]);
                         });
  };
  add(RecordKind::kCudaInitStatus, sizeof(protocol::CudaInitStatusRecord),
      &CudaTracker::OnInitStatus);
  add(RecordKind::kCudaApiName, sizeof(protocol::CudaApiNameRecord), &CudaTracker::OnApiName);
  add(RecordKind::kCudaApiCall, sizeof(protocol::CudaApiCallRecord), &CudaTracker::OnApiCall);
  add(RecordKind::kCudaApiCallWithStack, sizeof(protocol::CudaApiCallWithStackRecord),
      &CudaTracker::OnApiCallWithStack);
  add(RecordKind::kCudaPythonStack, sizeof(protocol::CudaPythonStackRecord),
      &CudaTracker::OnPythonStack);
  add(RecordKind::kCudaString, sizeof(protocol::CudaStringRecord), &CudaTracker::OnString);
  add(RecordKind::kCudaKernel, sizeof(protocol::CudaKernelRecord), &CudaTracker::OnKernel);
  add(RecordKind::kCudaMemcpy, sizeof(protocol::CudaMemcpyRecord), &CudaTracker::OnMemcpy);
  add(RecordKind::kCudaMemset, sizeof(protocol::CudaMemsetRecord), &CudaTracker::OnMemset);
  add(RecordKind::kCudaSync, sizeof(protocol::CudaSyncRecord), &CudaTracker::OnSync);
  add(RecordKind::kCudaGraphTrace, sizeof(protocol::CudaGraphTraceRecord),
      &CudaTracker::OnGraphTrace);
  add(RecordKind::kCudaGraphLaunch, sizeof(protocol::CudaGraphLaunchRecord),
      &CudaTracker::OnGraphLaunch);
  add(RecordKind::kCudaDevice, sizeof(protocol::CudaDeviceRecord), &CudaTracker::OnDevice);
  add(RecordKind::kCudaContext, sizeof(protocol::CudaContextRecord), &CudaTracker::OnContext);
  add(RecordKind::kCudaStream, sizeof(protocol::CudaStreamRecord), &CudaTracker::OnStream);
  add(RecordKind::kCudaEvent, sizeof(protocol::CudaEventRecord), &CudaTracker::OnEvent);
  add(RecordKind::kCudaDroppedRecords, sizeof(protocol::CudaDroppedRecordsRecord),
      &CudaTracker::OnDropped);
  add(RecordKind::kCudaGraphEvent, sizeof(protocol::CudaGraphEventRecord),
      &CudaTracker::OnGraphEvent);
  add(RecordKind::kCudaMemory, sizeof(protocol::CudaMemoryRecord), &CudaTracker::OnMemory);
}

void CudaTracker::OnProcessEnd(const ProcessStream& process) {
  const auto found = streams_.find(process.stream_id);
  if (found == streams_.end()) return;
  for (const auto& [correlation_id, row] : found->second.pending_graph_traces) {
    WriteUnmatchedGraphTrace(row);
  }
  const StreamState& state = found->second;
  if (state.kernels_expected > state.kernels_came) {
    stats_.kernels_lost += state.kernels_expected - state.kernels_came;
  }
  streams_.erase(found);
}

void CudaTracker::OnInitStatus(const ProcessStream& process, const RecordHeader& record,
                               StreamState* /*state*/) {
  const auto init = Copy<protocol::CudaInitStatusRecord>(record);
  if (init.status == protocol::CudaInitStatus::kTracing) {
    tracing_started_ = true;
    return;
  }
  const std::string_view text =
      TrailingText<protocol::CudaInitStatusRecord>(record, init.text_length);
  if (init.status == protocol::CudaInitStatus::kPythonUnsupported) {
    python_warnings_.push_back("process " + std::to_string(process.pid) +
                               ": --python-backtrace=cuda: Python " + std::string(text) +
                               " is not supported (CPython 3.10 to 3.13 are); its CUDA calls "
                               "have no Python stacks");
    return;
  }
  warnings_.push_back("CUDA is not traced in process " + std::to_string(process.pid) + ": " +
                      InitStatusText(init.status) + (text.empty() ? "" : ": ") + std::string(text));
}

void CudaTracker::OnApiName(const ProcessStream& /*process*/, const RecordHeader& record,
                            StreamState* state) {
  const auto name = Copy<protocol::CudaApiNameRecord>(record);
  state->api_names[ApiKey(name.domain, name.cbid)] =
      writer_->InternString(TrailingText<protocol::CudaApiNameRecord>(record, name.text_length));
  if (name.launch_role != protocol::CudaLaunchRole::kNone) {
    state->launch_roles[ApiKey(name.domain, name.cbid)] = name.launch_role;
  }
}

void CudaTracker::ExpectKernel(const protocol::CudaApiCallRecord& call, StreamState* state) {
  if (call.return_value != 0) return;  // a failed call launched or captured nothing
  const auto role = state->launch_roles.find(ApiKey(call.domain, call.cbid));
  if (role == state->launch_roles.end()) return;
  switch (role->second) {
    case protocol::CudaLaunchRole::kBeginsStreamCapture:
      state->capturing_threads.insert(call.header.tid);
      return;
    case protocol::CudaLaunchRole::kEndsStreamCapture:
      state->capturing_threads.erase(call.header.tid);
      return;
    case protocol::CudaLaunchRole::kLaunchesKernel:
      break;
    case protocol::CudaLaunchRole::kNone:
      return;
  }
  if (state->capturing_threads.count(call.header.tid) == 0) ++state->kernels_expected;
}

// Kernels of graph launches and kernels launched on the device were expected by no launch call.
void CudaTracker::KernelCame(const protocol::CudaKernelRecord& kernel, StreamState* state) {
  if (kernel.operation.graph_id == 0 && kernel.is_device_launched == 0) ++state->kernels_came;
}

void CudaTracker::OnApiCall(const ProcessStream& process, const RecordHeader& record,
                            StreamState* state) {
  const auto call = Copy<protocol::CudaApiCallRecord>(record);
  writer_->Add<storage::kCuptiActivityKindRuntimeTable>(ApiCallRow(process, call, state));
  ExpectKernel(call, state);
}

void CudaTracker::OnApiCallWithStack(const ProcessStream& process, const RecordHeader& record,
                                     StreamState* state) {
  const auto call = Copy<protocol::CudaApiCallWithStackRecord>(record);
  storage::CudaApiCallRow row = ApiCallRow(process, call.call, state);
  row.callchain_id = CallchainId(call.stack_id, state);
  writer_->Add<storage::kCuptiActivityKindRuntimeTable>(row);
  ExpectKernel(call.call, state);
}

int64_t CudaTracker::CallchainId(uint32_t stack_id, StreamState* state) {
  const auto [entry, added] = state->callchain_ids.try_emplace(stack_id, next_callchain_id_);
  if (added) ++next_callchain_id_;
  return entry->second;
}

void CudaTracker::OnPythonStack(const ProcessStream& /*process*/, const RecordHeader& record,
                                StreamState* state) {
  const auto stack = Copy<protocol::CudaPythonStackRecord>(record);
  std::vector<PythonStackFrame> frames;
  if (!ParsePythonStack(TrailingText<protocol::CudaPythonStackRecord>(record, stack.text_length),
                        &frames)) {
    ++stats_.malformed_python_stacks;
  }
  storage::CallchainFrameRow row;
  row.id = CallchainId(stack.stack_id, state);
  for (const PythonStackFrame& frame : frames) {
    row.symbol = writer_->InternString(frame.function);
    row.module = writer_->InternString(frame.file);
    row.original_ip = frame.line;
    writer_->Add<storage::kCudaCallchainsTable>(row);
    ++row.stack_depth;
  }
}

storage::CudaApiCallRow CudaTracker::ApiCallRow(const ProcessStream& process,
                                                const protocol::CudaApiCallRecord& call,
                                                StreamState* state) {
  storage::CudaApiCallRow row;
  row.start = process.SessionTime(call.header.timestamp_ns);
  row.end = process.SessionTime(call.end_ns);
  const bool driver = call.domain == protocol::CudaApiDomain::kDriver;
  row.event_class = driver ? kCudaDriverEventClass : kCudaRuntimeEventClass;
  row.global_tid = process.GlobalTid(call.header.tid);
  row.correlation_id = call.correlation_id;
  row.return_value = call.return_value;
  const auto name = state->api_names.find(ApiKey(call.domain, call.cbid));
  if (name != state->api_names.end()) {
    row.name_id = name->second;
  } else {
    ++stats_.unnamed_api_calls;
    row.name_id = writer_->InternString((driver ? "[CUDA driver cbid " : "[CUDA runtime cbid ") +
                                        std::to_string(call.cbid) + "]");
  }
  return row;
}

void CudaTracker::OnString(const ProcessStream& /*process*/, const RecordHeader& record,
                           StreamState* state) {
  const auto string = Copy<protocol::CudaStringRecord>(record);
  const std::string_view mangled =
      TrailingText<protocol::CudaStringRecord>(record, string.text_length);
  const KernelNames names = KernelNamesOf(mangled);
  // Interned in nsys's order: mangled, demangled, short.
  KernelNameIds ids;
  ids.mangled = writer_->InternString(mangled);
  ids.demangled = writer_->InternString(names.demangled);
  ids.short_name = writer_->InternString(names.short_name);
  state->kernel_names[string.string_id] = ids;
}

void CudaTracker::OnKernel(const ProcessStream& process, const RecordHeader& record,
                           StreamState* state) {
  const auto kernel = Copy<protocol::CudaKernelRecord>(record);
  storage::CudaKernelRow row;
  row.operation = OperationColumns(process, kernel.header, kernel.operation);
  const auto names = state->kernel_names.find(kernel.name_id);
  if (names != state->kernel_names.end()) {
    row.mangled_name = names->second.mangled;
    row.demangled_name = names->second.demangled;
    row.short_name = names->second.short_name;
  } else {
    ++stats_.unnamed_kernels;
    row.mangled_name = row.demangled_name = row.short_name =
        writer_->InternString("[unknown kernel]");
  }
  row.launch_type = NsysLaunchType(kernel.launch_type);
  // nsys has one cache column; like nsys, prof writes the configuration the kernel ran with.
  row.cache_config = SameIdUpTo(kernel.cache_config_executed, 3);
  row.registers_per_thread = kernel.registers_per_thread;
  row.grid_x = kernel.grid_x;
  row.grid_y = kernel.grid_y;
  row.grid_z = kernel.grid_z;
  row.block_x = kernel.block_x;
  row.block_y = kernel.block_y;
  row.block_z = kernel.block_z;
  row.static_shared_memory = kernel.static_shared_memory;
  row.dynamic_shared_memory = kernel.dynamic_shared_memory;
  row.local_memory_per_thread = kernel.local_memory_per_thread;
  row.local_memory_total = static_cast<int64_t>(kernel.local_memory_total);
  row.grid_id = kernel.grid_id;
  row.shared_memory_executed = kernel.shared_memory_executed;
  row.graph_node_id = NonZero(kernel.operation.graph_node_id);
  row.shared_memory_limit_config = SameIdUpTo(kernel.shared_memory_limit_config, 1);
  writer_->Add<storage::kCuptiActivityKindKernelTable>(row);
  KernelCame(kernel, state);
}

void CudaTracker::OnMemcpy(const ProcessStream& process, const RecordHeader& record,
                           StreamState* /*state*/) {
  const auto copy = Copy<protocol::CudaMemcpyRecord>(record);
  storage::CudaMemcpyRow row;
  row.operation = OperationColumns(process, copy.header, copy.operation);
  row.bytes = static_cast<int64_t>(copy.bytes);
  row.copy_kind = NsysCopyKind(copy.copy_kind);
  row.src_kind = NsysMemoryKind(copy.src_kind);
  row.dst_kind = NsysMemoryKind(copy.dst_kind);
  if (copy.is_peer != 0) {
    row.src_device_id = copy.src_device_id;
    row.src_context_id = copy.src_context_id;
    row.dst_device_id = copy.dst_device_id;
    row.dst_context_id = copy.dst_context_id;
  }
  row.graph_node_id = NonZero(copy.operation.graph_node_id);
  row.copy_count = static_cast<int64_t>(copy.copy_count);
  writer_->Add<storage::kCuptiActivityKindMemcpyTable>(row);
}

void CudaTracker::OnMemset(const ProcessStream& process, const RecordHeader& record,
                           StreamState* /*state*/) {
  const auto set = Copy<protocol::CudaMemsetRecord>(record);
  storage::CudaMemsetRow row;
  row.operation = OperationColumns(process, set.header, set.operation);
  row.value = set.value;
  row.bytes = static_cast<int64_t>(set.bytes);
  row.graph_node_id = NonZero(set.operation.graph_node_id);
  row.mem_kind = NsysMemoryKind(set.memory_kind);
  writer_->Add<storage::kCuptiActivityKindMemsetTable>(row);
}

void CudaTracker::OnSync(const ProcessStream& process, const RecordHeader& record,
                         StreamState* /*state*/) {
  const auto sync = Copy<protocol::CudaSyncRecord>(record);
  storage::CudaSyncRow row;
  row.operation.start = process.SessionTime(sync.header.timestamp_ns);
  row.operation.end = process.SessionTime(sync.end_ns);
  row.operation.device_id = sync.device_id;
  row.operation.context_id = sync.context_id;
  row.operation.stream_id = sync.stream_id;
  row.operation.correlation_id = sync.correlation_id;
  row.operation.global_pid = process.GlobalPid();
  row.sync_type = NsysSyncType(sync.sync_type);
  row.event_id = sync.event_id;
  row.event_sync_id = static_cast<int64_t>(sync.event_sync_id);
  writer_->Add<storage::kCuptiActivityKindSynchronizationTable>(row);
}

void CudaTracker::WriteUnmatchedGraphTrace(const storage::CudaGraphTraceRow& row) {
  ++stats_.unmatched_graph_traces;
  storage::CudaGraphTraceRow written = row;
  written.graph_exec_id = row.graph_id;
  writer_->Add<storage::kCuptiActivityKindGraphTraceTable>(written);
}

void CudaTracker::OnGraphTrace(const ProcessStream& process, const RecordHeader& record,
                               StreamState* state) {
  const auto trace = Copy<protocol::CudaGraphTraceRecord>(record);
  storage::CudaGraphTraceRow row;
  row.operation.start = process.SessionTime(trace.header.timestamp_ns);
  row.operation.end = process.SessionTime(trace.end_ns);
  row.operation.device_id = trace.device_id;
  row.operation.context_id = trace.context_id;
  row.operation.green_context_id = 0;
  row.operation.stream_id = trace.stream_id;
  row.operation.correlation_id = trace.correlation_id;
  row.operation.global_pid = process.GlobalPid();
  row.graph_id = trace.graph_id;
  const auto launch = state->unclaimed_graph_launches.find(trace.correlation_id);
  if (launch != state->unclaimed_graph_launches.end()) {
    row.graph_exec_id = launch->second;
    state->unclaimed_graph_launches.erase(launch);
    writer_->Add<storage::kCuptiActivityKindGraphTraceTable>(row);
    return;
  }
  state->pending_graph_traces[trace.correlation_id] = row;
  if (state->pending_graph_traces.size() > kMaxPendingGraphTraces) {
    WriteUnmatchedGraphTrace(state->pending_graph_traces.begin()->second);
    state->pending_graph_traces.erase(state->pending_graph_traces.begin());
  }
}

void CudaTracker::OnGraphLaunch(const ProcessStream& /*process*/, const RecordHeader& record,
                                StreamState* state) {
  const auto launch = Copy<protocol::CudaGraphLaunchRecord>(record);
  const auto pending = state->pending_graph_traces.find(launch.correlation_id);
  if (pending != state->pending_graph_traces.end()) {
    pending->second.graph_exec_id = launch.graph_exec_id;
    writer_->Add<storage::kCuptiActivityKindGraphTraceTable>(pending->second);
    state->pending_graph_traces.erase(pending);
    return;
  }
  state->unclaimed_graph_launches[launch.correlation_id] = launch.graph_exec_id;
  // Launches whose GPU trace never comes (lost, or graph tracing off) are forgotten, oldest first.
  if (state->unclaimed_graph_launches.size() > kMaxPendingGraphTraces) {
    state->unclaimed_graph_launches.erase(state->unclaimed_graph_launches.begin());
  }
}

void CudaTracker::OnDevice(const ProcessStream& process, const RecordHeader& record,
                           StreamState* /*state*/) {
  const auto device = Copy<protocol::CudaDeviceRecord>(record);
  DescribeGpu(device, TrailingText<protocol::CudaDeviceRecord>(record, device.text_length));
  if (written_devices_.insert({process.pid, device.device_id}).second) {
    writer_->Add<storage::kTargetInfoCudaDeviceTable>(
        {device.device_id, device.device_id, process.pid});
  }
}

void CudaTracker::DescribeGpu(const protocol::CudaDeviceRecord& device, std::string_view name) {
  if (written_gpus_.insert(device.device_id).second) {
    writer_->Add<storage::kTargetInfoGpuTable>(GpuInfoRowOf(device, name));
  }
}

void CudaTracker::WriteStreamOnce(const storage::CudaStreamRow& row) {
  const auto key =
      std::make_tuple(static_cast<uint32_t>(row.process_id), static_cast<uint32_t>(row.context_id),
                      static_cast<uint32_t>(row.stream_id));
  if (written_streams_.insert(key).second) writer_->Add<storage::kTargetInfoCudaStreamTable>(row);
}

void CudaTracker::OnContext(const ProcessStream& process, const RecordHeader& record,
                            StreamState* /*state*/) {
  const auto context = Copy<protocol::CudaContextRecord>(record);
  if (!written_contexts_.insert({process.pid, context.context_id}).second) return;
  storage::CudaContextRow row;
  row.null_stream_id = context.null_stream_id;
  row.vm_id = kLocalVmId;
  row.process_id = process.pid;
  row.device_id = context.device_id;
  row.context_id = context.context_id;
  row.parent_context_id = context.parent_context_id;
  row.is_green_context = context.is_green_context;
  writer_->Add<storage::kTargetInfoCudaContextInfoTable>(row);
  // CUPTI describes created streams only; nsys lists the context's NULL stream too.
  WriteStreamOnce(storage::CudaStreamRow{context.null_stream_id, 0, kLocalVmId, process.pid,
                                         context.context_id, 0, kNullStreamType});
}

void CudaTracker::OnStream(const ProcessStream& process, const RecordHeader& record,
                           StreamState* /*state*/) {
  const auto stream = Copy<protocol::CudaStreamRecord>(record);
  WriteStreamOnce(storage::CudaStreamRow{stream.stream_id, 0, kLocalVmId, process.pid,
                                         stream.context_id, stream.priority,
                                         SameIdOrUnknown(stream.flag, 3)});
}

void CudaTracker::OnEvent(const ProcessStream& process, const RecordHeader& record,
                          StreamState* /*state*/) {
  const auto event = Copy<protocol::CudaEventRecord>(record);
  storage::CudaEventRow row;
  row.device_id = event.device_id;
  row.context_id = event.context_id;
  row.green_context_id = 0;
  row.stream_id = event.stream_id;
  row.correlation_id = event.correlation_id;
  row.global_pid = process.GlobalPid();
  row.event_id = event.event_id;
  row.event_sync_id = static_cast<int64_t>(event.event_sync_id);
  writer_->Add<storage::kCuptiActivityKindCudaEventTable>(row);
}

void CudaTracker::OnGraphEvent(const ProcessStream& process, const RecordHeader& record,
                               StreamState* /*state*/) {
  const auto event = Copy<protocol::CudaGraphEventRecord>(record);
  storage::CudaGraphEventRow row;
  switch (event.kind) {
    case protocol::CudaGraphEventKind::kGraphCreated:
      row.event_class = kGraphCreationEventClass;
      row.name_id = writer_->InternString("Graph Creation");
      break;
    case protocol::CudaGraphEventKind::kGraphCloned:
      row.event_class = kGraphCloneEventClass;
      row.name_id = writer_->InternString("Graph Clone");
      break;
    case protocol::CudaGraphEventKind::kGraphExecCreated:
      row.event_class = kGraphExecCreationEventClass;
      row.name_id = writer_->InternString("GraphExec Creation");
      break;
    default:
      ++stats_.malformed_records;
      return;
  }
  row.start = process.SessionTime(event.header.timestamp_ns);
  row.global_tid = process.GlobalTid(event.header.tid);
  auto id = [](uint32_t value) -> std::optional<int64_t> {
    if (value == protocol::kNoGraphId) return std::nullopt;
    return value;
  };
  row.graph_id = id(event.graph_id);
  row.original_graph_id = id(event.original_graph_id);
  row.graph_exec_id = id(event.graph_exec_id);
  writer_->Add<storage::kCudaGraphEventsTable>(row);
}

void CudaTracker::OnMemory(const ProcessStream& process, const RecordHeader& record,
                           StreamState* /*state*/) {
  const auto memory = Copy<protocol::CudaMemoryRecord>(record);
  const std::optional<int32_t> operation = NsysMemoryOperation(memory.operation_type);
  if (!operation.has_value()) {
    ++stats_.malformed_records;
    return;
  }
  storage::CudaMemoryUsageRow row;
  row.start = process.SessionTime(memory.header.timestamp_ns);
  row.global_pid = process.GlobalPid();
  row.device_id = memory.device_id;
  row.context_id = memory.context_id;
  row.address = static_cast<int64_t>(memory.address);
  row.pc = static_cast<int64_t>(memory.pc);
  row.bytes = static_cast<int64_t>(memory.bytes);
  row.mem_kind = NsysMemoryKind(memory.memory_kind);
  row.memory_operation_type = *operation;
  const std::string_view name =
      TrailingText<protocol::CudaMemoryRecord>(record, memory.text_length);
  if (!name.empty()) row.name = std::string(name);
  row.correlation_id = memory.correlation_id;
  if (memory.stream_id != kNoStream) row.stream_id = memory.stream_id;
  if (memory.pool_type == kLocalMemoryPool) {
    row.local_pool_address = static_cast<int64_t>(memory.pool_address);
    row.local_pool_release_threshold = static_cast<int64_t>(memory.pool_release_threshold);
    row.local_pool_size = static_cast<int64_t>(memory.pool_size_or_process_id);
    row.local_pool_utilized_size = static_cast<int64_t>(memory.pool_utilized_size);
  } else if (memory.pool_type == kImportedMemoryPool) {
    row.imported_pool_address = static_cast<int64_t>(memory.pool_address);
    row.imported_pool_process_id = static_cast<int64_t>(memory.pool_size_or_process_id);
  }
  writer_->Add<storage::kCudaGpuMemoryUsageEventsTable>(row);
}

void CudaTracker::OnDropped(const ProcessStream& /*process*/, const RecordHeader& record,
                            StreamState* /*state*/) {
  dropped_records_ += Copy<protocol::CudaDroppedRecordsRecord>(record).dropped;
}

}  // namespace prof::collector
