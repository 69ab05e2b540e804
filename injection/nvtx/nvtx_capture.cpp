#include "injection/nvtx/nvtx_capture.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "injection/core/capture_gate.h"
#include "injection/core/event_stream.h"
#include "injection/nvtx/capture_range_match.h"
#include "injection/nvtx/nvtx_handles.h"
#include "injection/nvtx/utf8_text.h"

namespace prof::injection::nvtx {
namespace {

struct Trigger {
  protocol::CaptureControl* page = nullptr;  // nullptr unless --capture-range=nvtx
  bool registered_only = false;  // nsys matches registered strings only, unless told otherwise
};

Trigger g_trigger;

// The range that opened the open window of this process. The fields are written before
// g_owner_window is published (release) and read after it is seen (acquire).
std::atomic<int64_t> g_owner_window{-1};
bool g_owner_is_push = false;
uint32_t g_owner_tid = 0;
uint64_t g_owner_domain = 0;
uint64_t g_owner_key = 0;  // push: level; start: range id

bool Matches(const Trigger& trigger, nvtxDomainHandle_t domain,
             const nvtxEventAttributes_t* attributes) {
  if (attributes == nullptr || attributes->size < sizeof(nvtxEventAttributes_t) ||
      attributes->message.ascii == nullptr) {
    return false;
  }
  const auto* handle = reinterpret_cast<const DomainHandle*>(domain);
  const char* domain_name = handle == nullptr ? nullptr : handle->name;
  const size_t domain_length = handle == nullptr ? 0 : handle->name_length;
  switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_REGISTERED: {
      const auto* string = reinterpret_cast<const StringHandle*>(attributes->message.registered);
      return MatchesCaptureRange(*trigger.page, domain_name, domain_length, string->text,
                                 string->text_length);
    }
    case NVTX_MESSAGE_TYPE_ASCII:
      return !trigger.registered_only &&
             MatchesCaptureRange(*trigger.page, domain_name, domain_length,
                                 attributes->message.ascii, std::strlen(attributes->message.ascii));
    case NVTX_MESSAGE_TYPE_UNICODE: {
      if (trigger.registered_only) return false;
      const Utf8Text text(attributes->message.unicode);
      return MatchesCaptureRange(*trigger.page, domain_name, domain_length, text.data(),
                                 text.size());
    }
    default:
      return false;
  }
}

uint64_t DomainIdOf(nvtxDomainHandle_t domain) {
  return domain == nullptr ? 0 : reinterpret_cast<const DomainHandle*>(domain)->id;
}

}  // namespace

void ArmCaptureTriggers() {
  uint8_t unarmed = kWindowTriggersUnarmed;
  if (!g_window_triggers.compare_exchange_strong(unarmed, kWindowTriggersArming,
                                                 std::memory_order_acq_rel)) {
    return;
  }
  protocol::CaptureControl* page = CapturePage();
  if (page == nullptr || page->range != protocol::CaptureRange::kNvtx) {
    g_window_triggers.store(kWindowTriggersOff, std::memory_order_release);
    return;
  }
  g_trigger = {page, RegisteredMessagesOnly(std::getenv("NSYS_NVTX_PROFILER_REGISTER_ONLY"))};
  g_window_triggers.store(kWindowTriggersOn, std::memory_order_release);
}

void OpenWindowFor(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes, bool push,
                   uint64_t key, uint64_t now_ns) {
  const Trigger& trigger = g_trigger;
  if (trigger.page == nullptr || !Matches(trigger, domain, attributes)) return;
  const int64_t window = protocol::TryOpenWindow(trigger.page, now_ns);
  if (window < 0) return;
  g_owner_window.store(-1, std::memory_order_relaxed);
  g_owner_is_push = push;
  g_owner_tid = push ? CurrentTid() : 0;
  g_owner_domain = DomainIdOf(domain);
  g_owner_key = key;
  g_owner_window.store(window, std::memory_order_release);
}

void CloseWindowFor(nvtxDomainHandle_t domain, bool push, uint64_t key, uint64_t now_ns) {
  const Trigger& trigger = g_trigger;
  if (trigger.page == nullptr) return;
  int64_t window = g_owner_window.load(std::memory_order_acquire);
  if (window < 0 || g_owner_is_push != push || g_owner_key != key ||
      g_owner_domain != DomainIdOf(domain) || (push && g_owner_tid != CurrentTid())) {
    return;
  }
  if (!g_owner_window.compare_exchange_strong(window, -1, std::memory_order_acq_rel)) return;
  // Fails harmlessly when the launcher already closed the window (--duration).
  protocol::TryCloseWindow(trigger.page, static_cast<uint32_t>(window), now_ns);
}

}  // namespace prof::injection::nvtx
