#include "collector/cuda_target_info.h"

#include <cstdio>
#include <optional>

#include "storage/global_id.h"

namespace prof::collector {
namespace {

std::optional<int64_t> NonZero(uint64_t value) {
  if (value == 0) return std::nullopt;
  return static_cast<int64_t>(value);
}

std::optional<std::string> BusLocation(const protocol::CudaDeviceRecord& device) {
  if (device.pci_domain_id == 0 && device.pci_bus_id == 0 && device.pci_device_id == 0) {
    return std::nullopt;
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%04x:%02x:%02x.0", device.pci_domain_id, device.pci_bus_id,
                device.pci_device_id);
  return std::string(text);
}

}  // namespace

std::string FormatUuid(const uint8_t (&uuid)[16]) {
  std::string text;
  char byte[3];
  for (size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    std::snprintf(byte, sizeof(byte), "%02x", uuid[i]);
    text += byte;
  }
  return text;
}

storage::GpuInfoRow GpuInfoRowOf(const protocol::CudaDeviceRecord& device, std::string_view name) {
  storage::GpuInfoRow row;
  row.vm_id = storage::kLocalVmBits;
  row.id = device.device_id;
  row.name = std::string(name);
  row.bus_location = BusLocation(device);
  row.l2_cache_size = device.l2_cache_size;
  row.total_memory = static_cast<int64_t>(device.global_memory_size);
  row.memory_bandwidth = static_cast<int64_t>(device.global_memory_bandwidth_kbps * 1000);
  row.clock_rate = int64_t{device.core_clock_rate_khz} * 1000;
  row.sm_count = device.multiprocessors;
  row.uuid = FormatUuid(device.uuid);
  row.cu_device = device.device_id;
  row.constant_memory = device.constant_memory_size;
  row.max_ipc = device.max_ipc;
  row.max_registers_per_block = device.max_registers_per_block;
  row.max_shmem_per_block = device.max_shared_memory_per_block;
  row.max_shmem_per_block_optin = NonZero(device.max_shared_memory_per_block_optin);
  row.max_shmem_per_sm = device.max_shared_memory_per_multiprocessor;
  row.max_registers_per_sm = device.max_registers_per_multiprocessor;
  row.threads_per_warp = device.threads_per_warp;
  row.async_engines = device.memcpy_engines;
  row.max_warps_per_sm = device.max_warps_per_multiprocessor;
  row.max_blocks_per_sm = device.max_blocks_per_multiprocessor;
  row.max_threads_per_block = device.max_threads_per_block;
  row.max_block_dim_x = device.max_block_dim_x;
  row.max_block_dim_y = device.max_block_dim_y;
  row.max_block_dim_z = device.max_block_dim_z;
  row.max_grid_dim_x = device.max_grid_dim_x;
  row.max_grid_dim_y = device.max_grid_dim_y;
  row.max_grid_dim_z = device.max_grid_dim_z;
  row.compute_major = row.sm_major = device.compute_major;
  row.compute_minor = row.sm_minor = device.compute_minor;
  return row;
}

}  // namespace prof::collector
