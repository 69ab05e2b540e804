#include "tests/nvtx/fake_event_stream.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <mutex>

#include "injection/core/capture_gate.h"
#include "injection/core/event_stream.h"

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

}  // namespace prof::injection
