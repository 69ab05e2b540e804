#include "storage/cuda_row_binders.h"

namespace prof::storage {
namespace {

void BindOperation(const GpuOperationColumns& operation, RowBinder* binder) {
  binder->Int64(operation.start);
  binder->Int64(operation.end);
  binder->Int64(operation.device_id);
  binder->Int64(operation.context_id);
  binder->Int64(operation.green_context_id);
  binder->Int64(operation.stream_id);
  binder->Int64(operation.correlation_id);
  binder->Int64(operation.global_pid);
}

}  // namespace

void Bind(const CudaApiCallRow& row, RowBinder* binder) {
  binder->Int64(row.start);
  binder->Int64(row.end);
  binder->Int64(row.event_class);
  binder->Int64(row.global_tid);
  binder->Int64(row.correlation_id);
  binder->Int64(row.name_id);
  binder->Int64(row.return_value);
  binder->Int64(row.callchain_id);
}

void Bind(const LibraryCallRow& row, RowBinder* binder) {
  binder->Int64(row.start);
  binder->Int64(row.end);
  binder->Int64(row.event_class);
  binder->Int64(row.global_tid);
  binder->Int64(row.name_id);
}

void Bind(const CallchainFrameRow& row, RowBinder* binder) {
  binder->Int64(row.id);
  binder->Int64(row.symbol);
  binder->Int64(row.module);
  binder->Int64(row.unresolved);
  binder->Int64(row.original_ip);
  binder->Int64(row.stack_depth);
}

void Bind(const CudaKernelRow& row, RowBinder* binder) {
  BindOperation(row.operation, binder);
  binder->Int64(row.demangled_name);
  binder->Int64(row.short_name);
  binder->Int64(row.mangled_name);
  binder->Int64(row.launch_type);
  binder->Int64(row.cache_config);
  binder->Int64(row.registers_per_thread);
  binder->Int64(row.grid_x);
  binder->Int64(row.grid_y);
  binder->Int64(row.grid_z);
  binder->Int64(row.block_x);
  binder->Int64(row.block_y);
  binder->Int64(row.block_z);
  binder->Int64(row.static_shared_memory);
  binder->Int64(row.dynamic_shared_memory);
  binder->Int64(row.local_memory_per_thread);
  binder->Int64(row.local_memory_total);
  binder->Int64(row.grid_id);
  binder->Int64(row.shared_memory_executed);
  binder->Int64(row.graph_node_id);
  binder->Int64(row.shared_memory_limit_config);
}

void Bind(const CudaMemcpyRow& row, RowBinder* binder) {
  BindOperation(row.operation, binder);
  binder->Int64(row.bytes);
  binder->Int64(row.copy_kind);
  binder->Int64(row.src_kind);
  binder->Int64(row.dst_kind);
  binder->Int64(row.src_device_id);
  binder->Int64(row.src_context_id);
  binder->Int64(row.dst_device_id);
  binder->Int64(row.dst_context_id);
  binder->Int64(row.graph_node_id);
  binder->Int64(row.copy_count);
}

void Bind(const CudaMemsetRow& row, RowBinder* binder) {
  BindOperation(row.operation, binder);
  binder->Int64(row.value);
  binder->Int64(row.bytes);
  binder->Int64(row.graph_node_id);
  binder->Int64(row.mem_kind);
}

void Bind(const CudaSyncRow& row, RowBinder* binder) {
  BindOperation(row.operation, binder);
  binder->Int64(row.sync_type);
  binder->Int64(row.event_id);
  binder->Int64(row.event_sync_id);
}

void Bind(const CudaGraphTraceRow& row, RowBinder* binder) {
  BindOperation(row.operation, binder);
  binder->Int64(row.graph_id);
  binder->Int64(row.graph_exec_id);
}

void Bind(const CudaGraphEventRow& row, RowBinder* binder) {
  binder->Int64(row.start);
  binder->Int64(row.start);
  binder->Int64(row.event_class);
  binder->Int64(row.global_tid);
  binder->Int64(row.name_id);
  binder->Int64(row.graph_id);
  binder->Int64(row.original_graph_id);
  binder->Int64(row.graph_exec_id);
}

void Bind(const CudaEventRow& row, RowBinder* binder) {
  binder->Int64(row.device_id);
  binder->Int64(row.context_id);
  binder->Int64(row.green_context_id);
  binder->Int64(row.stream_id);
  binder->Int64(row.correlation_id);
  binder->Int64(row.global_pid);
  binder->Int64(row.event_id);
  binder->Int64(row.event_sync_id);
}

void Bind(const CudaMemoryUsageRow& row, RowBinder* binder) {
  binder->Int64(row.start);
  binder->Int64(row.global_pid);
  binder->Int64(row.device_id);
  binder->Int64(row.context_id);
  binder->Int64(row.address);
  binder->Int64(row.pc);
  binder->Int64(row.bytes);
  binder->Int64(row.mem_kind);
  binder->Int64(row.memory_operation_type);
  binder->Text(row.name);
  binder->Int64(row.correlation_id);
  binder->Int64(row.stream_id);
  binder->Int64(row.local_pool_address);
  binder->Int64(row.local_pool_release_threshold);
  binder->Int64(row.local_pool_size);
  binder->Int64(row.local_pool_utilized_size);
  binder->Int64(row.imported_pool_address);
  binder->Int64(row.imported_pool_process_id);
}

void Bind(const GpuInfoRow& row, RowBinder* binder) {
  binder->Int64(row.vm_id);
  binder->Int64(row.id);
  binder->Text(row.name);
  binder->Text(row.bus_location);
  for (const std::optional<int64_t>* value :
       {&row.l2_cache_size, &row.total_memory, &row.memory_bandwidth, &row.clock_rate,
        &row.sm_count}) {
    binder->Int64(*value);
  }
  binder->Text(row.uuid);
  for (const std::optional<int64_t>* value :
       {&row.cu_device, &row.constant_memory, &row.max_ipc, &row.max_registers_per_block,
        &row.max_shmem_per_block, &row.max_shmem_per_block_optin, &row.max_shmem_per_sm,
        &row.max_registers_per_sm, &row.threads_per_warp, &row.async_engines,
        &row.max_warps_per_sm, &row.max_blocks_per_sm, &row.max_threads_per_block,
        &row.max_block_dim_x, &row.max_block_dim_y, &row.max_block_dim_z, &row.max_grid_dim_x,
        &row.max_grid_dim_y, &row.max_grid_dim_z, &row.compute_major, &row.compute_minor,
        &row.sm_major, &row.sm_minor}) {
    binder->Int64(*value);
  }
}

void Bind(const CudaDeviceRow& row, RowBinder* binder) {
  binder->Int64(row.gpu_id);
  binder->Int64(row.cuda_id);
  binder->Int64(row.pid);
}

void Bind(const CudaStreamRow& row, RowBinder* binder) {
  binder->Int64(row.stream_id);
  binder->Int64(row.hw_id);
  binder->Int64(row.vm_id);
  binder->Int64(row.process_id);
  binder->Int64(row.context_id);
  binder->Int64(row.priority);
  binder->Int64(row.flag);
}

void Bind(const CudaContextRow& row, RowBinder* binder) {
  binder->Int64(row.null_stream_id);
  binder->Int64(row.hw_id);
  binder->Int64(row.vm_id);
  binder->Int64(row.process_id);
  binder->Int64(row.device_id);
  binder->Int64(row.context_id);
  binder->Int64(row.parent_context_id);
  binder->Int64(row.is_green_context);
}

}  // namespace prof::storage
