// A progress line for long `prof stats`, `prof export` and `prof merge` runs: once a run has taken
// 2 s, stderr shows one line that rewrites itself ("prof: stats: running nvtx_sum (3 of 7)… 4 s")
// and is erased when the run ends. Only on a terminal: piped or redirected stderr gets nothing, so logs
// and tests see no control characters.
//
// Thread-safe: Set() may be called from any thread while a helper thread redraws the line.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace prof::stats {

// "prof: <command>: <step>… <seconds> s", the text of the line.
std::string ProgressText(std::string_view command, std::string_view step,
                         std::chrono::seconds elapsed);

class ProgressLine {
 public:
  struct Timing {
    std::chrono::milliseconds delay{2000};  // no line for runs shorter than this
    std::chrono::milliseconds redraw{250};  // how often the seconds are brought up to date
  };

  // On stderr when it is a terminal; otherwise does nothing.
  explicit ProgressLine(std::string command);
  // On `fd` whatever it is (tests).
  ProgressLine(std::string command, int fd, Timing timing);
  ~ProgressLine();  // erases the line if it was drawn
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void Set(std::string step);

 private:
  void Draw();  // the helper thread's loop
  void Write(const std::string& text) const;

  const std::string command_;
  const int fd_;  // -1: nothing is shown
  const Timing timing_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable stop_requested_;
  bool stop_ = false;
  std::string drawn_text_;  // what the line shows; empty: nothing drawn
  std::string step_;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace prof::stats
