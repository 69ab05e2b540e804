// --capture-range=cudaProfilerApi without a GPU: which CUPTI callbacks start and stop capture, and
// what they do to a capture page in memory.
#include "injection/cuda/profiler_api_capture.h"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <memory>

using namespace prof::injection::cuda;
using namespace prof::protocol;

TEST_CASE("cudaProfilerStart and cuProfilerStart start capture when entered") {
  CHECK(ClassifyProfilerApi(CUPTI_CB_DOMAIN_RUNTIME_API,
                            CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000,
                            CUPTI_API_ENTER) == ProfilerApiCall::kStart);
  CHECK(ClassifyProfilerApi(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart,
                            CUPTI_API_ENTER) == ProfilerApiCall::kStart);
  CHECK(ClassifyProfilerApi(CUPTI_CB_DOMAIN_RUNTIME_API,
                            CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000,
                            CUPTI_API_ENTER) == ProfilerApiCall::kStop);
  CHECK(ClassifyProfilerApi(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop,
                            CUPTI_API_ENTER) == ProfilerApiCall::kStop);
  CHECK(ClassifyProfilerApi(CUPTI_CB_DOMAIN_RUNTIME_API,
                            CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000,
                            CUPTI_API_EXIT) == ProfilerApiCall::kOther);
  CHECK(ClassifyProfilerApi(CUPTI_CB_DOMAIN_RUNTIME_API,
                            CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                            CUPTI_API_ENTER) == ProfilerApiCall::kOther);
  // Driver and runtime ids overlap: the domain decides.
  CHECK(ClassifyProfilerApi(CUPTI_CB_DOMAIN_DRIVER_API,
                            CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000,
                            CUPTI_API_ENTER) == ProfilerApiCall::kOther);
}

TEST_CASE("start/stop pairs open and close windows only under --capture-range=cudaProfilerApi") {
  auto page = std::make_unique<CaptureControl>();
  std::memset(static_cast<void*>(page.get()), 0, sizeof(CaptureControl));
  page->armed.store(1);
  page->range = CaptureRange::kNvtx;
  ApplyProfilerApiCall(page.get(), ProfilerApiCall::kStart, 10);
  CHECK(page->windows_opened.load() == 0);
  page->range = CaptureRange::kCudaProfilerApi;
  ApplyProfilerApiCall(page.get(), ProfilerApiCall::kStart, 10);
  ApplyProfilerApiCall(page.get(), ProfilerApiCall::kStart, 11);  // the runtime's inner driver call
  CHECK(page->windows_opened.load() == 1);
  CHECK(page->state.load() == kCaptureOn);
  ApplyProfilerApiCall(page.get(), ProfilerApiCall::kStop, 20);
  CHECK(page->state.load() == kCaptureOff);
  CHECK(WindowSlot(page.get(), 0).start_ns.load() == 10);
  CHECK(WindowSlot(page.get(), 0).stop_ns.load() == 20);
  ApplyProfilerApiCall(nullptr, ProfilerApiCall::kStart, 30);  // no page: nothing to do
}
