// `--capture-range=cudaProfilerApi`: cudaProfilerStart/cuProfilerStart open a capture window,
// cudaProfilerStop/cuProfilerStop close it, in any thread of any traced process.
//
// The window opens when a Start call is entered, so that call's own record is inside it, and
// closes when a Stop call is entered: the Stop call itself lies outside. The runtime's Start calls
// the driver's, so the second Start of a pair finds the window open and changes nothing.
#pragma once

#include <cupti.h>

#include <cstdint>

#include "injection/protocol/capture_control.h"

namespace prof::injection::cuda {

// What a CUPTI API callback means for capture control.
enum class ProfilerApiCall { kOther, kStart, kStop };
ProfilerApiCall ClassifyProfilerApi(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                    CUpti_ApiCallbackSite site);

// Applies a classified call to `page` (nullptr, or another --capture-range: nothing happens).
void ApplyProfilerApiCall(protocol::CaptureControl* page, ProfilerApiCall call, uint64_t now_ns);

// The hook api_callbacks.cpp calls for every runtime and driver API callback.
void OnProfilerApiCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                           const void* callback_data);

}  // namespace prof::injection::cuda
