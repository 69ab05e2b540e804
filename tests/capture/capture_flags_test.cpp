// Parsing of the capture options (cli/capture_flags) into CaptureOptions values.
#include "cli/capture_flags.h"

#include <catch2/catch.hpp>

using prof::cli::CaptureFlags;
using prof::cli::ParseCaptureFlags;
using prof::collector::CaptureOptions;
using prof::collector::CaptureRangeEnd;
using prof::protocol::CaptureRange;

namespace {

CaptureOptions Parsed(const CaptureFlags& flags) {
  CaptureOptions options;
  const prof::Status status = ParseCaptureFlags(flags, &options);
  INFO(status.message());
  REQUIRE(status.ok());
  return options;
}

std::string Error(const CaptureFlags& flags) {
  CaptureOptions options;
  const prof::Status status = ParseCaptureFlags(flags, &options);
  REQUIRE_FALSE(status.ok());
  return status.message();
}

CaptureFlags Nvtx(const std::string& range, const std::string& end = "stop-shutdown") {
  CaptureFlags flags;
  flags.capture_range = "nvtx";
  flags.nvtx_capture = range;
  flags.nvtx_capture_given = true;
  flags.capture_range_end = end;
  flags.capture_range_end_given = end != "stop-shutdown";
  return flags;
}

}  // namespace

TEST_CASE("without capture options everything is collected and nothing is killed early") {
  const CaptureOptions options = Parsed(CaptureFlags{});
  CHECK(options.delay_ns == 0);
  CHECK(options.duration_ns == 0);
  CHECK(options.kill_signal == 15);
  CHECK(options.range == CaptureRange::kNone);
  CHECK(options.max_windows == 1);
}

TEST_CASE("delay and duration take decimal seconds") {
  CaptureFlags flags;
  flags.delay = "1.5";
  flags.duration = "2";
  const CaptureOptions options = Parsed(flags);
  CHECK(options.delay_ns == 1'500'000'000);
  CHECK(options.duration_ns == 2'000'000'000);
  flags.delay = "0x10";
  CHECK(Error(flags) == "--delay expects a number of seconds >= 0, got '0x10'");
  flags.delay = "nan";
  CHECK(Error(flags) == "--delay expects a number of seconds >= 0, got 'nan'");
}

TEST_CASE("the kill option takes none or sigterm or sigkill or a signal number") {
  CaptureFlags flags;
  const std::pair<std::string, int> cases[] = {
      {"none", 0}, {"sigterm", 15}, {"sigkill", 9}, {"2", 2}};
  for (const auto& [text, signal] : cases) {
    flags.kill = text;
    CHECK(Parsed(flags).kill_signal == signal);
  }
  flags.kill = "0";
  CHECK(Error(flags).rfind("unknown --kill signal '0'", 0) == 0);
  flags.kill = "65";
  CHECK(Error(flags).rfind("unknown --kill signal '65'", 0) == 0);
}

TEST_CASE("capture range end values set the end and the window count") {
  CHECK(Parsed(Nvtx("step")).range_end == CaptureRangeEnd::kStopShutdown);
  CHECK(Parsed(Nvtx("step", "stop")).range_end == CaptureRangeEnd::kStop);
  CHECK(Parsed(Nvtx("step", "stop")).max_windows == 1);
  CHECK(Parsed(Nvtx("step", "repeat")).max_windows == 0);
  const CaptureOptions three = Parsed(Nvtx("step", "repeat:3"));
  CHECK(three.range_end == CaptureRangeEnd::kRepeat);
  CHECK(three.max_windows == 3);
  const CaptureOptions shutdown = Parsed(Nvtx("step", "repeat-shutdown:2"));
  CHECK(shutdown.range_end == CaptureRangeEnd::kRepeatShutdown);
  CHECK(shutdown.max_windows == 2);
  CHECK(Error(Nvtx("step", "repeat-shutdown")).rfind("unknown --capture-range-end", 0) == 0);
  CHECK(Error(Nvtx("step", "stop:2")).rfind("unknown --capture-range-end", 0) == 0);
}

TEST_CASE("the nvtx capture option splits the domain off at the last @") {
  const CaptureOptions plain = Parsed(Nvtx("step"));
  CHECK(plain.nvtx_message == "step");
  CHECK(plain.nvtx_domain.empty());
  CHECK_FALSE(plain.nvtx_any_domain);
  const CaptureOptions named = Parsed(Nvtx("a@b@trainer"));
  CHECK(named.nvtx_message == "a@b");
  CHECK(named.nvtx_domain == "trainer");
  const CaptureOptions any = Parsed(Nvtx("step@*"));
  CHECK(any.nvtx_any_domain);
  CHECK(any.nvtx_domain.empty());
  CHECK(Error(Nvtx("@trainer")) ==
        "--nvtx-capture expects RANGE, RANGE@DOMAIN or RANGE@*, got '@trainer'");
}

TEST_CASE("cudaProfilerApi needs no range name") {
  CaptureFlags flags;
  flags.capture_range = "cudaProfilerApi";
  const CaptureOptions options = Parsed(flags);
  CHECK(options.range == CaptureRange::kCudaProfilerApi);
  CHECK(options.range_end == CaptureRangeEnd::kStopShutdown);
}
