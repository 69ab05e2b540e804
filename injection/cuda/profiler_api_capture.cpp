#include "injection/cuda/profiler_api_capture.h"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include "injection/core/capture_gate.h"
#include "injection/core/event_stream.h"

namespace prof::injection::cuda {

ProfilerApiCall ClassifyProfilerApi(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                    CUpti_ApiCallbackSite site) {
  if (site != CUPTI_API_ENTER) return ProfilerApiCall::kOther;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000) return ProfilerApiCall::kStart;
    if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000) return ProfilerApiCall::kStop;
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart) return ProfilerApiCall::kStart;
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop) return ProfilerApiCall::kStop;
  }
  return ProfilerApiCall::kOther;
}

void ApplyProfilerApiCall(protocol::CaptureControl* page, ProfilerApiCall call, uint64_t now_ns) {
  if (page == nullptr || page->range != protocol::CaptureRange::kCudaProfilerApi) return;
  if (call == ProfilerApiCall::kStart) {
    protocol::TryOpenWindow(page, now_ns);
  } else if (call == ProfilerApiCall::kStop) {
    // Whichever window is open: a Stop closes it, whoever started it.
    const uint32_t opened = page->windows_opened.load(std::memory_order_acquire);
    if (opened > 0) protocol::TryCloseWindow(page, opened - 1, now_ns);
  }
}

void OnProfilerApiCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                           const void* callback_data) {
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto& data = *static_cast<const CUpti_CallbackData*>(callback_data);
  const ProfilerApiCall call = ClassifyProfilerApi(domain, cbid, data.callbackSite);
  if (call != ProfilerApiCall::kOther) ApplyProfilerApiCall(CapturePage(), call, MonotonicNowNs());
}

}  // namespace prof::injection::cuda
