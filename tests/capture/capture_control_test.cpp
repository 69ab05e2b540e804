// The capture page's protocol (injection/protocol/capture_control.h), NVTX range matching and the
// numbered report names of repeated captures, as units.
#include "injection/protocol/capture_control.h"

#include <catch2/catch.hpp>
#include <memory>

#include "cli/output_path.h"
#include "injection/nvtx/capture_range_match.h"

using namespace prof::protocol;
using prof::injection::nvtx::MatchesCaptureRange;
using prof::injection::nvtx::RegisteredMessagesOnly;

namespace {

std::unique_ptr<CaptureControl> ArmedPage(uint32_t max_windows) {
  auto page = std::make_unique<CaptureControl>();
  std::memset(static_cast<void*>(page.get()), 0, sizeof(CaptureControl));
  page->max_windows = max_windows;
  page->armed.store(1);
  return page;
}

}  // namespace

TEST_CASE("windows open only when armed and close only by their own index") {
  auto page = ArmedPage(0);
  page->armed.store(0);
  CHECK(TryOpenWindow(page.get(), 100) == -1);
  page->armed.store(1);
  CHECK(TryOpenWindow(page.get(), 100) == 0);
  CHECK(page->state.load() == kCaptureOn);
  CHECK(TryOpenWindow(page.get(), 150) == -1);  // already open
  CHECK_FALSE(TryCloseWindow(page.get(), 1, 200));
  CHECK(page->state.load() == kCaptureOn);
  CHECK(TryCloseWindow(page.get(), 0, 200));
  CHECK_FALSE(TryCloseWindow(page.get(), 0, 250));  // closed already
  CHECK(page->state.load() == kCaptureOff);
  CHECK(WindowSlot(page.get(), 0).start_ns.load() == 100);
  CHECK(WindowSlot(page.get(), 0).stop_ns.load() == 200);
  CHECK(TryOpenWindow(page.get(), 300) == 1);
  CHECK(page->windows_opened.load() == 2);
  CHECK(WindowSlot(page.get(), 1).stop_ns.load() == 0);
}

TEST_CASE("the last of max_windows leaves the page done") {
  auto page = ArmedPage(2);
  CHECK(TryOpenWindow(page.get(), 10) == 0);
  CHECK(TryCloseWindow(page.get(), 0, 20));
  CHECK(TryOpenWindow(page.get(), 30) == 1);
  CHECK(TryCloseWindow(page.get(), 1, 40));
  CHECK(page->state.load() == kCaptureDone);
  CHECK(TryOpenWindow(page.get(), 50) == -1);
  CHECK(page->windows_opened.load() == 2);
}

TEST_CASE("record kinds have the capture roles the injection and the router rely on") {
  CHECK(CaptureRoleOf(RecordKind::kNvtxPushPopRange) == CaptureRole::kProgramEvent);
  CHECK(CaptureRoleOf(RecordKind::kOsrtCall) == CaptureRole::kProgramEvent);
  CHECK(CaptureRoleOf(RecordKind::kCudaApiCall) == CaptureRole::kProgramEvent);
  CHECK(CaptureRoleOf(RecordKind::kCudaKernel) == CaptureRole::kDeliveredLater);
  CHECK(CaptureRoleOf(RecordKind::kNvtxDomainCreate) == CaptureRole::kDefinition);
  CHECK(CaptureRoleOf(RecordKind::kNvtxStringRegister) == CaptureRole::kDefinition);
  CHECK(CaptureRoleOf(RecordKind::kThreadName) == CaptureRole::kDefinition);
  CHECK(CaptureRoleOf(RecordKind::kCudaInitStatus) == CaptureRole::kDefinition);
  CHECK(CaptureRoleOf(RecordKind::kDroppedRecords) == CaptureRole::kStreamNotice);
}

TEST_CASE("the capture page lies next to the socket") {
  char path[64];
  REQUIRE(CaptureControlPath("/tmp/prof-x/session.sock", path, sizeof(path)));
  CHECK(std::string(path) == "/tmp/prof-x/capture");
  CHECK_FALSE(CaptureControlPath("/tmp/prof-x/session.sock", path, 19));
}

TEST_CASE("NVTX ranges match by message and domain as -p spells them") {
  CaptureControl control{};
  std::strcpy(control.nvtx_message, "step");
  control.nvtx_default_domain = 1;
  CHECK(MatchesCaptureRange(control, nullptr, 0, "step", 4));
  CHECK_FALSE(MatchesCaptureRange(control, "trainer", 7, "step", 4));
  CHECK_FALSE(MatchesCaptureRange(control, nullptr, 0, "steps", 5));
  CHECK_FALSE(MatchesCaptureRange(control, nullptr, 0, "ste", 3));
  control.nvtx_default_domain = 0;
  std::strcpy(control.nvtx_domain, "trainer");
  CHECK(MatchesCaptureRange(control, "trainer", 7, "step", 4));
  CHECK_FALSE(MatchesCaptureRange(control, nullptr, 0, "step", 4));
  CHECK_FALSE(MatchesCaptureRange(control, "train", 5, "step", 4));
  control.nvtx_any_domain = 1;
  CHECK(MatchesCaptureRange(control, "other", 5, "step", 4));
  CHECK(MatchesCaptureRange(control, nullptr, 0, "step", 4));
  CHECK_FALSE(MatchesCaptureRange(control, nullptr, 0, nullptr, 0));
}

TEST_CASE("only NSYS_NVTX_PROFILER_REGISTER_ONLY=0 lets unregistered messages trigger") {
  CHECK(RegisteredMessagesOnly(nullptr));
  CHECK(RegisteredMessagesOnly("1"));
  CHECK_FALSE(RegisteredMessagesOnly("0"));
}

TEST_CASE("repeated captures number their reports before the extension") {
  CHECK(prof::cli::NumberedReportPath("out/run.sqlite", 1) == "out/run.1.sqlite");
  CHECK(prof::cli::NumberedReportPath("report3.sqlite", 12) == "report3.12.sqlite");
  CHECK(prof::cli::NumberedReportPath("v1.2/run", 2) == "v1.2/run.2");
}
