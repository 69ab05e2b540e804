// The progress line of long stats and export runs, drawn into a pipe (on a terminal it is stderr).
#include "stats/progress_line.h"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <thread>

namespace prof::stats {
namespace {

using std::chrono::milliseconds;

// Everything written to the pipe's read end `fd` so far.
std::string Drain(int fd) {
  std::string text;
  char buffer[4096];
  for (ssize_t got; (got = read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, got);
  return text;
}

TEST_CASE("progress text names the command, the step and the seconds", "[stats][progress]") {
  CHECK(ProgressText("stats", "running nvtx_sum (3 of 7)", std::chrono::seconds(4)) ==
        "prof: stats: running nvtx_sum (3 of 7)\u2026 4 s");
}

TEST_CASE("a progress line rewrites itself and is erased at the end", "[stats][progress]") {
  int fds[2];
  REQUIRE(pipe2(fds, O_NONBLOCK) == 0);
  {
    ProgressLine progress("stats", fds[1], {milliseconds(0), milliseconds(5)});
    progress.Set("running nvtx_sum (1 of 2)");
    std::this_thread::sleep_for(milliseconds(100));
    progress.Set("running osrt_sum (2 of 2)");
    std::this_thread::sleep_for(milliseconds(100));
  }
  const std::string text = Drain(fds[0]);
  const std::string first = "\r\033[Kprof: stats: running nvtx_sum (1 of 2)\u2026 0 s";
  const std::string second = "\r\033[Kprof: stats: running osrt_sum (2 of 2)\u2026 0 s";
  CHECK(text.rfind(first, 0) == 0);
  CHECK(text.find(second) != std::string::npos);
  CHECK(text.size() > second.size() + 3);
  CHECK(text.substr(text.size() - 4) == "\r\033[K");  // the line is gone
  CHECK(text.find('\n') == std::string::npos);        // always the same line
  close(fds[0]);
  close(fds[1]);
}

TEST_CASE("a run shorter than the delay shows nothing", "[stats][progress]") {
  int fds[2];
  REQUIRE(pipe2(fds, O_NONBLOCK) == 0);
  {
    ProgressLine progress("export", fds[1], {milliseconds(60'000), milliseconds(5)});
    progress.Set("writing report1.json");
    std::this_thread::sleep_for(milliseconds(50));
  }
  CHECK(Drain(fds[0]).empty());
  close(fds[0]);
  close(fds[1]);
}

}  // namespace
}  // namespace prof::stats
