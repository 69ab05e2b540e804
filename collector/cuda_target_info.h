// TARGET_INFO_GPU rows from CUDA device records, in nsys's units and spellings (docs/cuda.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "injection/protocol/cuda_records.h"
#include "storage/cuda_rows.h"

namespace prof::collector {

// "3470b7d7-b3b9-4392-308a-3d572bf4a342": the 16 bytes in order, grouped 4-2-2-2-6, as nsys.
std::string FormatUuid(const uint8_t (&uuid)[16]);

// The TARGET_INFO_GPU row of `device` named `name`: Hz, B/s, "dddd:bb:dd.0" bus location (NULL
// when the driver gave no PCI ids), columns CUPTI does not describe NULL.
storage::GpuInfoRow GpuInfoRowOf(const protocol::CudaDeviceRecord& device, std::string_view name);

}  // namespace prof::collector
