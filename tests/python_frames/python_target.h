// frames_target.py run by one CPython, for the python_frames tests: started with its stdout on a
// pipe, read up to its "ready" line (what it says about itself: marker lines, functions' line
// ranges, thread ids), killed and reaped when the object goes.
#pragma once

#include <sys/types.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace prof::test {

// The CPython interpreters to test: PROF_TEST_PYTHONS (colon separated) when set, else those CMake
// found (3.10 to 3.13: /usr/bin, /usr/local/bin, pyenv).
std::vector<std::string> SupportedPythons();
// Interpreters that Attach must refuse (3.9 and older), as found by CMake; may be empty.
std::vector<std::string> UnsupportedPythons();
// "3.12" for a python binary.
std::string MinorVersionOf(const std::string& python);

class PythonTarget {
 public:
  // Starts `python` frames_target.py `mode` and waits (20 s at most) for its ready line; ok()
  // tells whether it came.
  PythonTarget(const std::string& python, const std::string& mode);
  ~PythonTarget();
  PythonTarget(const PythonTarget&) = delete;
  PythonTarget& operator=(const PythonTarget&) = delete;

  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }
  pid_t pid() const { return pid_; }
  int main_tid() const { return main_tid_; }
  int worker_tid() const { return worker_tid_; }
  int sleeper_tid() const { return sleeper_tid_; }
  const std::string& file() const { return file_; }
  int Line(const std::string& marker) const;  // "LINE_INNER" -> its line; 0 when unknown
  // Qualified name -> [first line, last line] of the script's functions.
  const std::map<std::string, std::pair<int, int>>& functions() const { return functions_; }
  // Qualified name -> the address of its code object.
  uint64_t CodeOf(const std::string& name) const {
    const auto found = codes_.find(name);
    return found == codes_.end() ? 0 : found->second;
  }
  // Waits for the process to end on its own (reaps it); false after `seconds`.
  bool WaitExit(double seconds);

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1;
  bool ok_ = false;
  bool reaped_ = false;
  std::string error_;
  int main_tid_ = 0;
  int worker_tid_ = 0;
  int sleeper_tid_ = 0;
  std::string file_;
  std::map<std::string, int> lines_;
  std::map<std::string, std::pair<int, int>> functions_;
  std::map<std::string, uint64_t> codes_;
};

}  // namespace prof::test
