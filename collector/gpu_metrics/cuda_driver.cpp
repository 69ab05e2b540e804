#include "collector/gpu_metrics/cuda_driver.h"

#include <dlfcn.h>

#include <cstring>

namespace prof::collector {
namespace {

template <typename Function>
bool Resolve(void* library, const char* name, Function* function) {
  *function = reinterpret_cast<Function>(dlsym(library, name));
  return *function != nullptr;
}

uint32_t Attribute(const CudaDriver& driver, CUdevice device, CUdevice_attribute attribute) {
  int value = 0;
  if (driver.attribute(&value, attribute, device) != CUDA_SUCCESS || value < 0) return 0;
  return static_cast<uint32_t>(value);
}

// The device record's fields that are one driver attribute each.
struct AttributeField {
  uint32_t protocol::CudaDeviceRecord::*field;
  CUdevice_attribute attribute;
};
constexpr AttributeField kAttributeFields[] = {
    {&protocol::CudaDeviceRecord::constant_memory_size, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY},
    {&protocol::CudaDeviceRecord::l2_cache_size, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
    {&protocol::CudaDeviceRecord::threads_per_warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE},
    {&protocol::CudaDeviceRecord::core_clock_rate_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
    {&protocol::CudaDeviceRecord::memcpy_engines, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT},
    {&protocol::CudaDeviceRecord::multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
    {&protocol::CudaDeviceRecord::max_blocks_per_multiprocessor,
     CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR},
    {&protocol::CudaDeviceRecord::max_shared_memory_per_multiprocessor,
     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR},
    {&protocol::CudaDeviceRecord::max_registers_per_multiprocessor,
     CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR},
    {&protocol::CudaDeviceRecord::max_registers_per_block,
     CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK},
    {&protocol::CudaDeviceRecord::max_shared_memory_per_block,
     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
    {&protocol::CudaDeviceRecord::max_threads_per_block, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
    {&protocol::CudaDeviceRecord::max_block_dim_x, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X},
    {&protocol::CudaDeviceRecord::max_block_dim_y, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y},
    {&protocol::CudaDeviceRecord::max_block_dim_z, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z},
    {&protocol::CudaDeviceRecord::max_grid_dim_x, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
    {&protocol::CudaDeviceRecord::max_grid_dim_y, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
    {&protocol::CudaDeviceRecord::max_grid_dim_z, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
    {&protocol::CudaDeviceRecord::compute_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
    {&protocol::CudaDeviceRecord::compute_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
    {&protocol::CudaDeviceRecord::max_shared_memory_per_block_optin,
     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
    {&protocol::CudaDeviceRecord::pci_domain_id, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID},
    {&protocol::CudaDeviceRecord::pci_bus_id, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID},
    {&protocol::CudaDeviceRecord::pci_device_id, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID},
};

// TARGET_INFO_GPU's facts from the driver's attributes, in the units of CUPTI's device record
// (kHz, KB/s). The memory bandwidth is the peak of the memory clock and bus width (double data
// rate); max_ipc, which only CUPTI knows, stays 0.
protocol::CudaDeviceRecord Describe(const CudaDriver& driver, CUdevice device, uint32_t id) {
  protocol::CudaDeviceRecord record{};
  record.device_id = id;
  for (const AttributeField& field : kAttributeFields) {
    record.*field.field = Attribute(driver, device, field.attribute);
  }
  size_t memory = 0;
  if (driver.total_memory(&memory, device) == CUDA_SUCCESS) record.global_memory_size = memory;
  const uint64_t memory_clock_khz =
      Attribute(driver, device, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  const uint64_t bus_bits = Attribute(driver, device, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  record.global_memory_bandwidth_kbps = memory_clock_khz * 2 * bus_bits / 8;
  const uint32_t threads_per_sm =
      Attribute(driver, device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  if (record.threads_per_warp != 0) {
    record.max_warps_per_multiprocessor = threads_per_sm / record.threads_per_warp;
  }
  CUuuid uuid{};
  if (driver.uuid(&uuid, device) == CUDA_SUCCESS) {
    std::memcpy(record.uuid, uuid.bytes, sizeof(record.uuid));
  }
  return record;
}

}  // namespace

Status LoadCudaDriver(CudaDriver* driver) {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    return Status::Error("this machine has no CUDA driver (libcuda.so.1 cannot be loaded)");
  }
  if (!Resolve(library, "cuInit", &driver->init) ||
      !Resolve(library, "cuDeviceGetCount", &driver->device_count) ||
      !Resolve(library, "cuDeviceGet", &driver->device) ||
      !Resolve(library, "cuDeviceGetName", &driver->device_name) ||
      !Resolve(library, "cuDeviceGetAttribute", &driver->attribute) ||
      !Resolve(library, "cuDeviceTotalMem_v2", &driver->total_memory) ||
      !Resolve(library, "cuDeviceGetUuid_v2", &driver->uuid)) {
    return Status::Error("the CUDA driver (libcuda.so.1) lacks functions prof needs");
  }
  if (const CUresult result = driver->init(0); result != CUDA_SUCCESS) {
    return Status::Error("the CUDA driver did not start (cuInit: error " +
                         std::to_string(static_cast<int>(result)) + ")");
  }
  return Status::Ok();
}

StatusOr<std::vector<GpuDevice>> ListCudaDevices(const CudaDriver& driver) {
  int count = 0;
  if (const CUresult result = driver.device_count(&count); result != CUDA_SUCCESS) {
    return Status::Error("the CUDA driver cannot count its devices (error " +
                         std::to_string(static_cast<int>(result)) + ")");
  }
  std::vector<GpuDevice> devices;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    if (driver.device(&device, ordinal) != CUDA_SUCCESS) continue;
    GpuDevice gpu;
    gpu.id = static_cast<uint32_t>(ordinal);
    char name[256] = {};
    if (driver.device_name(name, sizeof(name), device) == CUDA_SUCCESS) gpu.name = name;
    gpu.description = Describe(driver, device, gpu.id);
    devices.push_back(std::move(gpu));
  }
  return devices;
}

}  // namespace prof::collector
