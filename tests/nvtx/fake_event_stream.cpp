#include "tests/nvtx/fake_event_stream.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <mutex>
#include <new>

#include "injection/core/capture_gate.h"
#include "injection/core/event_stream.h"
#include "injection/protocol/thread_ring.h"

namespace prof::test {
namespace {

std::mutex g_mutex;
std::vector<CapturedRecord> g_records;

}  // namespace

std::vector<CapturedRecord> TakeCapturedRecords() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<CapturedRecord> taken;
  taken.swap(g_records);
  return taken;
}

}  // namespace prof::test

namespace prof::injection {

const protocol::InjectionSettings& Settings() {
  static const protocol::InjectionSettings settings = [] {
    protocol::InjectionSettings traced;
    traced.trace_flags = protocol::kTraceNvtx;
    return traced;
  }();
  return settings;
}

bool StreamEnabled() { return true; }

// Not launched by prof: no capture page, so no capture window is ever opened or closed.
protocol::CaptureControl* CapturePage() { return nullptr; }

uint32_t CurrentTid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

void EmitRecordWithText(protocol::RecordHeader* record, size_t fixed_size, const char* text,
                        size_t text_length) {
  text_length = ClampTextLength(text_length);
  record->tid = CurrentTid();
  record->size = static_cast<uint16_t>(protocol::AlignedRecordSize(fixed_size + text_length));
  test::CapturedRecord captured;
  captured.bytes.assign(record->size, 0);
  std::memcpy(captured.bytes.data(), record, fixed_size);
  if (text_length > 0) std::memcpy(captured.bytes.data() + fixed_size, text, text_length);
  std::lock_guard<std::mutex> lock(test::g_mutex);
  test::g_records.push_back(std::move(captured));
}

void EmitRecord(protocol::RecordHeader* record, size_t fixed_size) {
  EmitRecordWithText(record, fixed_size, nullptr, 0);
}

namespace {

// The calling thread's open ranges, kept as libprof_core keeps them: in a real ThreadRing (fresh
// anonymous memory, so only what is written becomes resident).
protocol::ThreadRing* OpenRangesOfThisThread() {
  thread_local protocol::ThreadRing* ring = [] {
    void* memory = mmap(nullptr, sizeof(protocol::ThreadRing), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return new (memory) protocol::ThreadRing;
  }();
  return ring;
}

}  // namespace

void OpenPushPopRange(protocol::RecordKind kind, uint64_t start, uint64_t domain_id, uint64_t level,
                      const protocol::NvtxRangeAttributes& attributes, const char* text,
                      size_t text_length) {
  OpenRangesOfThisThread()->OpenRange({kind, CurrentTid(), start, domain_id, level}, attributes,
                                      text, ClampTextLength(text_length));
}

// Captures the range as it would be emitted: whole, with its end.
void ClosePushPopRange(uint64_t domain_id, uint64_t level, uint64_t end_ns) {
  protocol::ThreadRing* ring = OpenRangesOfThisThread();
  const protocol::ThreadRing::ClosedRange range = ring->CloseRange(domain_id, level);
  if (range.bytes == nullptr) return;
  ring->EndInPlace(range, end_ns);
  test::CapturedRecord captured;
  captured.bytes.assign(range.bytes, range.bytes + range.size);
  ring->EndWrite();
  ring->EndClose(range);
  std::lock_guard<std::mutex> lock(test::g_mutex);
  test::g_records.push_back(std::move(captured));
}

}  // namespace prof::injection
