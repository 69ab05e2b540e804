// Every CUPTI version dependency of prof in one place: the activity record structs this build reads
// (CUPTI fills the newest struct version of the library that is loaded, so these must be the newest
// ones of the headers prof is built with) and the CUPTI version those headers describe.
//
// Moving to a new CUDA toolkit: update the aliases to the new newest structs and check that every
// field activity_records.cpp reads still exists; nothing else in injection/cuda names a version.
#pragma once

#include <cupti.h>

#include <cstdint>

namespace prof::injection::cuda {

using KernelActivity = CUpti_ActivityKernel10;
using MemcpyActivity = CUpti_ActivityMemcpy6;
using PeerMemcpyActivity = CUpti_ActivityMemcpyPtoP4;
using MemsetActivity = CUpti_ActivityMemset4;
using GraphTraceActivity = CUpti_ActivityGraphTrace2;
using DeviceActivity = CUpti_ActivityDevice5;
using ContextActivity = CUpti_ActivityContext3;
using StreamActivity = CUpti_ActivityStream;
using MemoryActivity = CUpti_ActivityMemory4;

// CUPTI_API_VERSION of the headers (e.g. 130001). A loaded libcupti of another major version fills
// other struct layouts and is refused.
inline constexpr uint32_t kBuiltCuptiVersion = CUPTI_API_VERSION;
inline constexpr uint32_t CuptiMajor(uint32_t version) { return version / 10000; }

}  // namespace prof::injection::cuda
