#include "injection/nvtx/nvtx_callbacks.h"

#include <iterator>

#include "injection/nvtx/nvtx_tracer.h"

namespace prof::injection::nvtx {
namespace {

// Adapters with NVTX's exact signatures. The A and W variants become the Ex form with a
// message-only attribute struct, so every variant takes one path.

void NVTX_API MarkExSlot(const nvtxEventAttributes_t* attributes) { Mark(nullptr, attributes); }
void NVTX_API MarkASlot(const char* message) {
  const nvtxEventAttributes_t attributes = MessageAttributes(message);
  Mark(nullptr, &attributes);
}
void NVTX_API MarkWSlot(const wchar_t* message) {
  const nvtxEventAttributes_t attributes = MessageAttributes(message);
  Mark(nullptr, &attributes);
}

nvtxRangeId_t NVTX_API RangeStartExSlot(const nvtxEventAttributes_t* attributes) {
  return RangeStart(nullptr, attributes);
}
nvtxRangeId_t NVTX_API RangeStartASlot(const char* message) {
  const nvtxEventAttributes_t attributes = MessageAttributes(message);
  return RangeStart(nullptr, &attributes);
}
nvtxRangeId_t NVTX_API RangeStartWSlot(const wchar_t* message) {
  const nvtxEventAttributes_t attributes = MessageAttributes(message);
  return RangeStart(nullptr, &attributes);
}
void NVTX_API RangeEndSlot(nvtxRangeId_t id) { RangeEnd(nullptr, id); }

int NVTX_API RangePushExSlot(const nvtxEventAttributes_t* attributes) {
  return RangePush(nullptr, attributes);
}
int NVTX_API RangePushASlot(const char* message) { return RangePushText(nullptr, message); }
int NVTX_API RangePushWSlot(const wchar_t* message) {
  const nvtxEventAttributes_t attributes = MessageAttributes(message);
  return RangePush(nullptr, &attributes);
}
int NVTX_API RangePopSlot() { return RangePop(nullptr); }

void NVTX_API NameCategoryASlot(uint32_t category, const char* name) {
  NameCategory(nullptr, category, Utf8Text(name));
}
void NVTX_API NameCategoryWSlot(uint32_t category, const wchar_t* name) {
  NameCategory(nullptr, category, Utf8Text(name));
}
void NVTX_API NameOsThreadASlot(uint32_t tid, const char* name) {
  NameOsThread(tid, Utf8Text(name));
}
void NVTX_API NameOsThreadWSlot(uint32_t tid, const wchar_t* name) {
  NameOsThread(tid, Utf8Text(name));
}

void NVTX_API DomainMarkExSlot(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  Mark(domain, attributes);
}
nvtxRangeId_t NVTX_API DomainRangeStartExSlot(nvtxDomainHandle_t domain,
                                              const nvtxEventAttributes_t* attributes) {
  return RangeStart(domain, attributes);
}
void NVTX_API DomainRangeEndSlot(nvtxDomainHandle_t domain, nvtxRangeId_t id) {
  RangeEnd(domain, id);
}
int NVTX_API DomainRangePushExSlot(nvtxDomainHandle_t domain,
                                   const nvtxEventAttributes_t* attributes) {
  return RangePush(domain, attributes);
}
int NVTX_API DomainRangePopSlot(nvtxDomainHandle_t domain) { return RangePop(domain); }
void NVTX_API DomainNameCategoryASlot(nvtxDomainHandle_t domain, uint32_t category,
                                      const char* name) {
  NameCategory(domain, category, Utf8Text(name));
}
void NVTX_API DomainNameCategoryWSlot(nvtxDomainHandle_t domain, uint32_t category,
                                      const wchar_t* name) {
  NameCategory(domain, category, Utf8Text(name));
}
nvtxStringHandle_t NVTX_API DomainRegisterStringASlot(nvtxDomainHandle_t domain, const char* text) {
  return RegisterString(domain, Utf8Text(text));
}
nvtxStringHandle_t NVTX_API DomainRegisterStringWSlot(nvtxDomainHandle_t domain,
                                                      const wchar_t* text) {
  return RegisterString(domain, Utf8Text(text));
}
nvtxDomainHandle_t NVTX_API DomainCreateASlot(const char* name) {
  return DomainCreate(Utf8Text(name));
}
nvtxDomainHandle_t NVTX_API DomainCreateWSlot(const wchar_t* name) {
  return DomainCreate(Utf8Text(name));
}
void NVTX_API DomainDestroySlot(nvtxDomainHandle_t domain) { DomainDestroy(domain); }

template <typename Function>
NvtxFunctionPointer Slot(Function function) {
  return reinterpret_cast<NvtxFunctionPointer>(function);
}

const CallbackSlot kCoreSlots[] = {
    {NVTX_CBID_CORE_MarkEx, Slot(MarkExSlot)},
    {NVTX_CBID_CORE_MarkA, Slot(MarkASlot)},
    {NVTX_CBID_CORE_MarkW, Slot(MarkWSlot)},
    {NVTX_CBID_CORE_RangeStartEx, Slot(RangeStartExSlot)},
    {NVTX_CBID_CORE_RangeStartA, Slot(RangeStartASlot)},
    {NVTX_CBID_CORE_RangeStartW, Slot(RangeStartWSlot)},
    {NVTX_CBID_CORE_RangeEnd, Slot(RangeEndSlot)},
    {NVTX_CBID_CORE_RangePushEx, Slot(RangePushExSlot)},
    {NVTX_CBID_CORE_RangePushA, Slot(RangePushASlot)},
    {NVTX_CBID_CORE_RangePushW, Slot(RangePushWSlot)},
    {NVTX_CBID_CORE_RangePop, Slot(RangePopSlot)},
    {NVTX_CBID_CORE_NameCategoryA, Slot(NameCategoryASlot)},
    {NVTX_CBID_CORE_NameCategoryW, Slot(NameCategoryWSlot)},
    {NVTX_CBID_CORE_NameOsThreadA, Slot(NameOsThreadASlot)},
    {NVTX_CBID_CORE_NameOsThreadW, Slot(NameOsThreadWSlot)},
};

const CallbackSlot kCore2Slots[] = {
    {NVTX_CBID_CORE2_DomainMarkEx, Slot(DomainMarkExSlot)},
    {NVTX_CBID_CORE2_DomainRangeStartEx, Slot(DomainRangeStartExSlot)},
    {NVTX_CBID_CORE2_DomainRangeEnd, Slot(DomainRangeEndSlot)},
    {NVTX_CBID_CORE2_DomainRangePushEx, Slot(DomainRangePushExSlot)},
    {NVTX_CBID_CORE2_DomainRangePop, Slot(DomainRangePopSlot)},
    {NVTX_CBID_CORE2_DomainNameCategoryA, Slot(DomainNameCategoryASlot)},
    {NVTX_CBID_CORE2_DomainNameCategoryW, Slot(DomainNameCategoryWSlot)},
    {NVTX_CBID_CORE2_DomainRegisterStringA, Slot(DomainRegisterStringASlot)},
    {NVTX_CBID_CORE2_DomainRegisterStringW, Slot(DomainRegisterStringWSlot)},
    {NVTX_CBID_CORE2_DomainCreateA, Slot(DomainCreateASlot)},
    {NVTX_CBID_CORE2_DomainCreateW, Slot(DomainCreateWSlot)},
    {NVTX_CBID_CORE2_DomainDestroy, Slot(DomainDestroySlot)},
};

}  // namespace

ModuleCallbacks CoreCallbacks() { return {NVTX_CB_MODULE_CORE, kCoreSlots, std::size(kCoreSlots)}; }

ModuleCallbacks Core2Callbacks() {
  return {NVTX_CB_MODULE_CORE2, kCore2Slots, std::size(kCore2Slots)};
}

}  // namespace prof::injection::nvtx
