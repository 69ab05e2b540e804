#include "injection/nvtx/nvtx_tracer.h"

#include <atomic>

#include "injection/core/event_stream.h"
#include "injection/nvtx/library_domains.h"
#include "injection/nvtx/nesting_levels.h"
#include "injection/nvtx/nvtx_capture.h"
#include "injection/nvtx/nvtx_handles.h"
#include "injection/nvtx/nvtx_records.h"
#include "injection/protocol/cpu_counter.h"

namespace prof::injection::nvtx {
namespace {

using protocol::RecordKind;

// What every call consults from the launcher's settings, read once by whichever thread comes
// first (threads that race store the same value): whether the default domain is traced
// (--trace=nvtx), and whether push/pop ranges take their times from the CPU counter, which costs a
// fraction of clock_gettime (a pair reads the clock twice; nvtx_counter_time).
enum TracerConfig : uint8_t {
  kConfigUnread = 0,
  kConfigRead = 1,
  kDefaultDomainRecorded = 2,
  kRangesInTicks = 4,
};
std::atomic<uint8_t> g_config{kConfigUnread};

__attribute__((noinline)) uint8_t ReadConfig() {
  const protocol::InjectionSettings& settings = Settings();
  const uint8_t config = kConfigRead |
                         (settings.traces(protocol::kTraceNvtx) ? kDefaultDomainRecorded : 0) |
                         (settings.nvtx_counter_time ? kRangesInTicks : 0);
  g_config.store(config, std::memory_order_relaxed);
  return config;
}

// Inline: every call asks, and only the first reads the settings.
inline uint8_t Config() {
  const uint8_t config = g_config.load(std::memory_order_relaxed);
  return config != kConfigUnread ? config : ReadConfig();
}

bool RangesInTicks() { return (Config() & kRangesInTicks) != 0; }

uint64_t RangeTime(bool in_ticks) {
  return in_ticks ? protocol::ReadCpuCounter() : MonotonicNowNs();
}

DomainHandle* AsDomain(nvtxDomainHandle_t handle) {
  return reinterpret_cast<DomainHandle*>(handle);
}

// Whether the domain's events are recorded: the default domain's with --trace=nvtx, a named one's
// as decided when it was created.
bool Records(nvtxDomainHandle_t handle) {
  return handle == nullptr ? (Config() & kDefaultDomainRecorded) != 0 : AsDomain(handle)->recorded;
}

uint64_t DomainId(nvtxDomainHandle_t handle) {
  return handle == nullptr ? 0 : AsDomain(handle)->id;
}

// DomainId for a call that opens something in the domain: in a fork child, the first such call
// repeats the domain's create record on the child's own stream.
uint64_t AnnouncedDomainId(nvtxDomainHandle_t handle) {
  if (handle == nullptr) return 0;
  DomainHandle* domain = AsDomain(handle);
  if (ClaimDomainAnnouncement(domain)) EmitDomainCreate(MonotonicNowNs(), *domain);
  return domain->id;
}

nvtxEventAttributes_t EmptyAttributes() {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  return attributes;
}

// The launcher asks for ranges in ticks only without --capture-range=nvtx, so the capture hooks
// below always get CLOCK_MONOTONIC times when they use them.
template <typename Open>
int PushRange(nvtxDomainHandle_t domain, const Open& open) {
  if (!Records(domain)) return 0;
  // One decision for the range's time and the kind that says which clock it is on.
  const bool in_ticks = RangesInTicks();
  const uint64_t now = RangeTime(in_ticks);
  const uint64_t domain_id = AnnouncedDomainId(domain);
  const int32_t level = PushLevel(domain_id);
  if (level >= 0) {
    open(in_ticks ? RecordKind::kNvtxPushPopRangeTicks : RecordKind::kNvtxPushPopRange, now,
         domain_id, level);
  }
  return level;
}

}  // namespace

void Mark(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  if (!Records(domain)) return;
  const uint64_t now = MonotonicNowNs();
  EmitEvent(RecordKind::kNvtxMark, now, AnnouncedDomainId(domain), 0, attributes);
}

nvtxRangeId_t RangeStart(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  const uint64_t now = MonotonicNowNs();
  const uint64_t id = NextRangeId();
  if (!Records(domain)) return id;
  CaptureOnRangeStart(domain, attributes, id, now);
  EmitEvent(RecordKind::kNvtxRangeStart, now, AnnouncedDomainId(domain), id, attributes);
  return id;
}

void RangeEnd(nvtxDomainHandle_t domain, nvtxRangeId_t id) {
  const uint64_t now = MonotonicNowNs();
  if (id == 0 || !Records(domain)) return;  // id 0: never returned by RangeStart
  EmitRangeEnd(now, DomainId(domain), id);
  CaptureOnRangeEnd(domain, id, now);
}

int RangePush(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  return PushRange(domain, [&](RecordKind kind, uint64_t now, uint64_t domain_id, int32_t level) {
    CaptureOnPush(domain, attributes, level, now);
    OpenRange(kind, now, domain_id, static_cast<uint64_t>(level), attributes);
  });
}

int RangePushText(nvtxDomainHandle_t domain, const char* message) {
  if (RangesOpenWindows()) {
    const nvtxEventAttributes_t attributes = MessageAttributes(message);
    return RangePush(domain, &attributes);  // the capture trigger matches on the attributes
  }
  return PushRange(domain, [&](RecordKind kind, uint64_t now, uint64_t domain_id, int32_t level) {
    OpenTextRange(kind, now, domain_id, static_cast<uint64_t>(level), message);
  });
}

int RangePop(nvtxDomainHandle_t domain) {
  if (!Records(domain)) return 0;
  const uint64_t now = RangeTime(RangesInTicks());
  const uint64_t domain_id = DomainId(domain);
  const int32_t level = PopLevel(domain_id);
  if (level >= 0) {
    ClosePushPopRange(domain_id, static_cast<uint64_t>(level), now);
    CaptureOnPop(domain, level, now);
  }
  return level;
}

void NameCategory(nvtxDomainHandle_t domain, uint32_t category, const Utf8Text& name) {
  if (!Records(domain)) return;
  const uint64_t now = MonotonicNowNs();
  EmitCategoryName(now, AnnouncedDomainId(domain), category, name);
}

void NameOsThread(uint32_t tid, const Utf8Text& name) {
  EmitThreadName(MonotonicNowNs(), tid, name);
}

nvtxDomainHandle_t DomainCreate(const Utf8Text& name) {
  const uint64_t now = MonotonicNowNs();
  DomainHandle* domain = NewDomainHandle(name.data(), name.size());
  if (domain == nullptr)
    return nullptr;  // out of memory: the caller's events go to the default domain
  domain->library = TracedLibraryOfDomain({name.data(), name.size()}, Settings());
  domain->recorded = IsDomainRecorded(domain->library, Settings());
  if (domain->recorded) EmitDomainCreate(now, *domain);
  return reinterpret_cast<nvtxDomainHandle_t>(domain);
}

void DomainDestroy(nvtxDomainHandle_t domain) {
  const uint64_t now = MonotonicNowNs();
  if (domain != nullptr && Records(domain)) EmitDomainDestroy(now, DomainId(domain));
}

nvtxStringHandle_t RegisterString(nvtxDomainHandle_t domain, const Utf8Text& text) {
  const uint64_t now = MonotonicNowNs();
  const bool recorded = Records(domain);
  StringHandle* string = NewStringHandle(recorded ? AnnouncedDomainId(domain) : DomainId(domain),
                                         text.data(), text.size());
  if (string == nullptr) return nullptr;
  if (recorded) EmitStringRegister(now, *string);
  return reinterpret_cast<nvtxStringHandle_t>(string);
}

nvtxEventAttributes_t MessageAttributes(const char* message) {
  nvtxEventAttributes_t attributes = EmptyAttributes();
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message;
  return attributes;
}

nvtxEventAttributes_t MessageAttributes(const wchar_t* message) {
  nvtxEventAttributes_t attributes = EmptyAttributes();
  attributes.messageType = NVTX_MESSAGE_TYPE_UNICODE;
  attributes.message.unicode = message;
  return attributes;
}

}  // namespace prof::injection::nvtx
