// What prof does for each NVTX call, whichever variant (A, W, Ex; default or named domain) the
// program used: keep NVTX's return-value contract and emit one record.
//
// Return values: a push returns the 0-based level of the range it opens in its domain on the
// calling thread, a pop the level of the range it closes (-1 when there is none; nothing is
// emitted then); a range start returns a process-unique id (never 0); domain and string handles
// are process-unique and non-null unless memory ran out. A null domain is NVTX's default domain.
// Thread-safe; never throws, never blocks beyond libprof_core's bounded wait.
#pragma once

#include <nvtx3/nvToolsExt.h>

#include <cstdint>

#include "injection/nvtx/utf8_text.h"

namespace prof::injection::nvtx {

void Mark(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes);
nvtxRangeId_t RangeStart(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes);
void RangeEnd(nvtxDomainHandle_t domain, nvtxRangeId_t id);
int RangePush(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes);
// RangePush with attributes that carry only an ASCII message, without decoding them.
int RangePushText(nvtxDomainHandle_t domain, const char* message);
int RangePop(nvtxDomainHandle_t domain);

void NameCategory(nvtxDomainHandle_t domain, uint32_t category, const Utf8Text& name);
// `tid` is the kernel thread id being named (not necessarily the caller's).
void NameOsThread(uint32_t tid, const Utf8Text& name);

nvtxDomainHandle_t DomainCreate(const Utf8Text& name);
void DomainDestroy(nvtxDomainHandle_t domain);
nvtxStringHandle_t RegisterString(nvtxDomainHandle_t domain, const Utf8Text& text);

// Attributes carrying only a message, for the A and W variants.
nvtxEventAttributes_t MessageAttributes(const char* message);
nvtxEventAttributes_t MessageAttributes(const wchar_t* message);

}  // namespace prof::injection::nvtx
