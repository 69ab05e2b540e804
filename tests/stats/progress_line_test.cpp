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

// Reads `fd` into `*text` until it ends with `tail` (the helper thread draws on its own time, so
// the test waits for each line instead of sleeping a guessed while); false after 10 s.
bool ReadUntil(int fd, const std::string& tail, std::string* text) {
  for (int i = 0; i < 2000; ++i) {
    *text += Drain(fd);
    if (text->size() >= tail.size() && text->substr(text->size() - tail.size()) == tail) {
      return true;
    }
    std::this_thread::sleep_for(milliseconds(5));
  }
  return false;
}

TEST_CASE("a progress line rewrites itself and is erased at the end", "[stats][progress]") {
  int fds[2];
  REQUIRE(pipe2(fds, O_NONBLOCK) == 0);
  const std::string first = "\r\033[Kprof: stats: running nvtx_sum (1 of 2)\u2026 0 s";
  const std::string second = "\r\033[Kprof: stats: running osrt_sum (2 of 2)\u2026 0 s";
  std::string text;
  {
    ProgressLine progress("stats", fds[1], {milliseconds(0), milliseconds(5)});
    progress.Set("running nvtx_sum (1 of 2)");
    REQUIRE(ReadUntil(fds[0], first, &text));
    progress.Set("running osrt_sum (2 of 2)");
    REQUIRE(ReadUntil(fds[0], second, &text));
    std::this_thread::sleep_for(milliseconds(50));  // redraws of the same text would show here
  }
  text += Drain(fds[0]);
  // Each text drawn once (a redraw of the same line would only flicker), then the line erased.
  CHECK(text == first + second + "\r\033[K");
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
