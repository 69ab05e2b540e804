#include "stats/progress_line.h"

#include <unistd.h>

#include <utility>

namespace prof::stats {
namespace {

// Back to the line's start and clear it: the next text replaces the last one.
constexpr std::string_view kEraseLine = "\r\033[K";

}  // namespace

std::string ProgressText(std::string_view command, std::string_view step,
                         std::chrono::seconds elapsed) {
  return "prof: " + std::string(command) + ": " + std::string(step) + "\u2026 " +
         std::to_string(elapsed.count()) + " s";
}

ProgressLine::ProgressLine(std::string command)
    : ProgressLine(std::move(command), isatty(STDERR_FILENO) ? STDERR_FILENO : -1, Timing{}) {}

ProgressLine::ProgressLine(std::string command, int fd, Timing timing)
    : command_(std::move(command)), fd_(fd), timing_(timing) {
  if (fd_ >= 0) thread_ = std::thread([this] { Draw(); });
}

ProgressLine::~ProgressLine() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  stop_requested_.notify_one();
  thread_.join();
  if (!drawn_text_.empty()) Write(std::string(kEraseLine));
}

void ProgressLine::Set(std::string step) {
  std::lock_guard<std::mutex> lock(mutex_);
  step_ = std::move(step);
}

void ProgressLine::Draw() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_requested_.wait_for(lock, timing_.redraw, [this] { return stop_; })) {
    const auto elapsed = std::chrono::steady_clock::now() - start_;
    if (elapsed < timing_.delay || step_.empty()) continue;
    std::string text =
        ProgressText(command_, step_, std::chrono::duration_cast<std::chrono::seconds>(elapsed));
    if (text == drawn_text_) continue;  // a terminal needs no redraw of the same line
    Write(std::string(kEraseLine) + text);
    drawn_text_ = std::move(text);
  }
}

void ProgressLine::Write(const std::string& text) const {
  // Best effort: a progress line that cannot be shown is no error of the run.
  [[maybe_unused]] const ssize_t written = write(fd_, text.data(), text.size());
}

}  // namespace prof::stats
