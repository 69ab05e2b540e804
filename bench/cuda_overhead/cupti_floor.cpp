// libcupti_floor.so: what CUPTI itself costs a program, without anything of prof's. A CUDA injection
// library (CUDA_INJECTION64_PATH) that asks CUPTI for the same things prof's libprof_cuda.so asks for
// and then does nothing with them, so compare.sh can split prof's added time into CUPTI's part and
// prof's own. CUPTI_FLOOR, a comma list, picks the parts:
//   callbacks  subscribe and enable the runtime and driver functions prof records, with an empty
//              callback (CUPTI's wrapping of every call);
//   activity   the activity kinds prof enables by default, with buffers handed back unread;
//   clock      CUPTI's timestamps from a callback, as prof puts them on its stream's clock.
// Failures print one line to stderr; the program runs on either way.
#include <cupti.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "injection/cuda/activity_buffers.h"
#include "injection/cuda/activity_selection.h"
#include "injection/cuda/api_selection.h"
#include "injection/cuda/cupti_library.h"

namespace {

using prof::injection::cuda::CuptiFunctions;
using prof::injection::cuda::kActivityBufferBytes;

CuptiFunctions g_cupti;  // never freed: CUPTI calls back until the process ends

void CUPTIAPI OnCallback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

void CUPTIAPI OnBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kActivityBufferBytes));
  *size = *buffer != nullptr ? kActivityBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI OnBufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t) {
  std::free(buffer);
}

uint64_t CUPTIAPI MonotonicClock() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000u + static_cast<uint64_t>(now.tv_nsec);
}

bool Wanted(const char* parts, const char* part) {
  const size_t length = std::strlen(part);
  for (const char* at = parts; (at = std::strstr(at, part)) != nullptr; at += length) {
    const bool starts = at == parts || at[-1] == ',';
    const bool ends = at[length] == '\0' || at[length] == ',';
    if (starts && ends) return true;
  }
  return false;
}

bool Check(CUptiResult result, const char* step) {
  if (result == CUPTI_SUCCESS) return true;
  std::fprintf(stderr, "cupti_floor: %s failed (%d)\n", step, static_cast<int>(result));
  return false;
}

void EnableRecordedCallbacks(CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain,
                             uint32_t cbid_count, bool (*is_recorded)(std::string_view)) {
  for (uint32_t cbid = 1; cbid < cbid_count; ++cbid) {
    const char* name = nullptr;
    if (g_cupti.cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || name == nullptr ||
        !is_recorded(name)) {
      continue;
    }
    if (!Check(g_cupti.cuptiEnableCallback(1, subscriber, domain, cbid), "cuptiEnableCallback")) {
      return;
    }
  }
}

void Start(const char* parts) {
  char loaded[1024] = {};
  if (!prof::injection::cuda::LoadCupti(&g_cupti, loaded, sizeof(loaded))) {
    std::fprintf(stderr, "cupti_floor: no libcupti: %s\n", loaded);
    return;
  }
  if (Wanted(parts, "callbacks")) {
    CUpti_SubscriberHandle subscriber = nullptr;
    if (!Check(g_cupti.cuptiSubscribe(&subscriber, OnCallback, nullptr), "cuptiSubscribe")) return;
    EnableRecordedCallbacks(subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE,
                            prof::injection::cuda::IsRecordedDriverApi);
    EnableRecordedCallbacks(subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE,
                            prof::injection::cuda::IsRecordedRuntimeApi);
  }
  if (Wanted(parts, "clock")) {
    Check(g_cupti.cuptiActivityRegisterTimestampCallback(MonotonicClock),
          "cuptiActivityRegisterTimestampCallback");
  }
  if (Wanted(parts, "activity")) {
    if (!Check(g_cupti.cuptiActivityRegisterCallbacks(OnBufferRequested, OnBufferCompleted),
               "cuptiActivityRegisterCallbacks")) {
      return;
    }
    for (CUpti_ActivityKind kind : prof::injection::cuda::kDefaultActivityKinds) {
      Check(g_cupti.cuptiActivityEnable(kind), "cuptiActivityEnable");
    }
    g_cupti.cuptiActivityFlushPeriod(prof::injection::cuda::kActivityFlushPeriodMs);
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  const char* parts = std::getenv("CUPTI_FLOOR");
  Start(parts != nullptr ? parts : "callbacks,activity,clock");
  return 1;
}
