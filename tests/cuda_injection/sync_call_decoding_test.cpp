// Which runtime and driver calls are sync and event calls, and the handles read from their
// parameter structs (the structs of CUPTI's generated headers, filled as CUPTI fills them).
#include "injection/cuda/sync_call_decoding.h"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <catch2/catch.hpp>

using namespace prof::injection::cuda;

namespace {

CUstream Stream(uintptr_t value) { return reinterpret_cast<CUstream>(value); }
CUevent Event(uintptr_t value) { return reinterpret_cast<CUevent>(value); }
constexpr auto kRuntime = CUPTI_CB_DOMAIN_RUNTIME_API;
constexpr auto kDriver = CUPTI_CB_DOMAIN_DRIVER_API;

}  // namespace

TEST_CASE("event records name the event then the stream, in the runtime and the driver", "[sync]") {
  cudaEventRecordWithFlags_v11010_params runtime{Event(0xe1), Stream(0x51), 0};
  const SyncCall from_runtime =
      DecodeSyncCall(kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010, &runtime);
  CHECK(from_runtime.role == SyncRole::kEventRecord);
  CHECK(from_runtime.event == Event(0xe1));
  CHECK(from_runtime.stream == Stream(0x51));
  CHECK_FALSE(from_runtime.per_thread_stream);
  cuEventRecord_ptsz_params driver{Event(0xe2), Stream(0x52)};
  const SyncCall from_driver =
      DecodeSyncCall(kDriver, CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz, &driver);
  CHECK(from_driver.role == SyncRole::kEventRecord);
  CHECK(from_driver.event == Event(0xe2));
  CHECK(from_driver.stream == Stream(0x52));
  CHECK(from_driver.per_thread_stream);
}

TEST_CASE("stream waits name the stream then the event", "[sync]") {
  cudaStreamWaitEvent_v3020_params runtime{Stream(0x51), Event(0xe1), 0};
  const SyncCall from_runtime =
      DecodeSyncCall(kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020, &runtime);
  CHECK(from_runtime.role == SyncRole::kStreamWaitEvent);
  CHECK(from_runtime.stream == Stream(0x51));
  CHECK(from_runtime.event == Event(0xe1));
  cuStreamWaitEvent_params driver{Stream(0x52), Event(0xe2), 0};
  const SyncCall from_driver =
      DecodeSyncCall(kDriver, CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent, &driver);
  CHECK(from_driver.role == SyncRole::kStreamWaitEvent);
  CHECK(from_driver.stream == Stream(0x52));
  CHECK(from_driver.event == Event(0xe2));
}

TEST_CASE("creations give the created event - syncs and queries their stream or event", "[sync]") {
  cudaEvent_t created = Event(0xe7);
  cudaEventCreateWithFlags_v3020_params create{&created, 0};
  const SyncCall creation =
      DecodeSyncCall(kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateWithFlags_v3020, &create);
  CHECK(creation.role == SyncRole::kEventCreate);
  CHECK(creation.event == Event(0xe7));
  CUevent driver_created = Event(0xe8);
  cuEventCreate_params driver_create{&driver_created, 0};
  CHECK(DecodeSyncCall(kDriver, CUPTI_DRIVER_TRACE_CBID_cuEventCreate, &driver_create).event ==
        Event(0xe8));

  cuStreamSynchronize_ptsz_params stream_sync{nullptr};
  const SyncCall per_thread =
      DecodeSyncCall(kDriver, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz, &stream_sync);
  CHECK(per_thread.role == SyncRole::kStreamSynchronize);
  CHECK(per_thread.stream == nullptr);
  CHECK(per_thread.per_thread_stream);
  cudaStreamQuery_v3020_params stream_query{Stream(0x53)};
  const SyncCall query =
      DecodeSyncCall(kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020, &stream_query);
  CHECK(query.role == SyncRole::kStreamQuery);
  CHECK(query.stream == Stream(0x53));
  cudaEventQuery_v3020_params event_query{Event(0xe3)};
  const SyncCall event =
      DecodeSyncCall(kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020, &event_query);
  CHECK(event.role == SyncRole::kEventQuery);
  CHECK(event.event == Event(0xe3));
  cuEventDestroy_v2_params destroy{Event(0xe4)};
  CHECK(DecodeSyncCall(kDriver, CUPTI_DRIVER_TRACE_CBID_cuEventDestroy_v2, &destroy).event ==
        Event(0xe4));
}

TEST_CASE("roles of whole-device syncs, and of calls that are none", "[sync]") {
  CHECK(SyncRoleOf(kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020) ==
        SyncRole::kContextSynchronize);
  CHECK(SyncRoleOf(kDriver, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize) ==
        SyncRole::kContextSynchronize);
  CHECK(SyncRoleOf(kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020) ==
        SyncRole::kEventSynchronize);
  CHECK(SyncRoleOf(kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000) == SyncRole::kNone);
  CHECK(SyncRoleOf(kDriver, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel) == SyncRole::kNone);
  // The same cbid in another domain is another function.
  CHECK(SyncRoleOf(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020) ==
        SyncRole::kNone);
  CHECK(DecodeSyncCall(kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, nullptr)
            .stream == nullptr);
}
