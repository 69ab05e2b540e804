// PythonStackReader (collector/python_frames) against frames_target.py run by every CPython here:
// exact frames of a spinning main thread, a Worker thread and a sleeping one; refusals; a process
// that exits while read; torn reads while the program calls and returns; the reading rate.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "collector/python_frames/python_stack_reader.h"
#include "tests/python_frames/python_target.h"

extern char** environ;

namespace prof::collector {
namespace {

using test::PythonTarget;

std::unique_ptr<PythonStackReader> AttachTo(int pid) {
  auto maps = symbols::ProcessMaps::SnapshotFromProc(pid);
  REQUIRE(maps.ok());
  auto reader = PythonStackReader::Attach(pid, *maps);
  INFO(reader.status().message());
  REQUIRE(reader.ok());
  return std::move(reader).value();
}

// 3.10's code objects have no qualified name: "Worker.run" is "run" there.
std::string Expected(const std::string& qualified, const std::string& minor) {
  if (minor != "3.10") return qualified;
  return qualified.substr(qualified.rfind('.') + 1);
}

std::string Describe(const std::vector<PythonFrameText>& frames) {
  std::ostringstream text;
  for (const auto& frame : frames)
    text << frame.function << " " << frame.file << ":" << frame.line << "\n";
  return text.str();
}

// Reads `tid`'s stack until its innermost frame runs `function` at `line` (0: any), as the script's
// threads do soon after it prints "ready"; false after 10 s.
bool WaitForLeaf(PythonStackReader* reader, int tid, const std::string& function, int line = 0) {
  std::vector<PythonFrameText> frames;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (reader->ReadStack(tid, &frames).ok() && !frames.empty() && frames[0].function == function &&
        (line == 0 || frames[0].line == line)) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

std::string BaseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

TEST_CASE("stacks of the main thread and a worker thread on every CPython here") {
  for (const std::string& python : test::SupportedPythons()) {
    INFO(python);
    const std::string minor = test::MinorVersionOf(python);
    PythonTarget target(python, "spin");
    INFO(target.error());
    REQUIRE(target.ok());
    auto reader = AttachTo(target.pid());
    CHECK(reader->version().rfind(minor, 0) == 0);  // 3.10: "3.10", from the file name
    REQUIRE(WaitForLeaf(reader.get(), target.main_tid(), "inner"));
    REQUIRE(WaitForLeaf(reader.get(), target.worker_tid(), "other_loop"));
    for (int round = 0; round < 5; ++round) {
      std::vector<PythonFrameText> frames;
      REQUIRE(reader->ReadStack(target.main_tid(), &frames).ok());
      INFO(Describe(frames));
      REQUIRE(frames.size() == 5);
      CHECK(frames[0].function == "inner");
      CHECK(frames[0].line == target.Line("LINE_INNER"));
      CHECK(frames[0].file == target.file());
      CHECK(frames[1].function == "middle");
      CHECK(frames[1].line == target.Line("LINE_MIDDLE"));
      CHECK(frames[2].function == "outer");
      CHECK(frames[2].line == target.Line("LINE_OUTER"));
      CHECK(frames[3].function == "main");
      CHECK(frames[4].function == "<module>");
      CHECK(frames[4].line == target.Line("LINE_MAIN"));
      CHECK(frames[4].file == target.file());

      REQUIRE(reader->ReadStack(target.worker_tid(), &frames).ok());
      INFO(Describe(frames));
      REQUIRE(frames.size() == 4);
      CHECK(frames[0].function == "other_loop");
      CHECK(frames[0].line == target.Line("LINE_OTHER"));
      CHECK(frames[1].function == Expected("Worker.run", minor));
      CHECK(frames[1].line == target.functions().at("Worker.run").second);
      CHECK(frames[2].function == Expected("Thread._bootstrap_inner", minor));
      CHECK(frames[3].function == Expected("Thread._bootstrap", minor));
      CHECK(BaseName(frames[3].file) == "threading.py");
    }
  }
}

TEST_CASE("a thread sleeping in time.sleep shows the line that called it") {
  for (const std::string& python : test::SupportedPythons()) {
    INFO(python);
    PythonTarget target(python, "spin");
    INFO(target.error());
    REQUIRE(target.ok());
    auto reader = AttachTo(target.pid());
    REQUIRE(WaitForLeaf(reader.get(), target.sleeper_tid(), "sleeper", target.Line("LINE_SLEEP")));
    std::vector<PythonFrameText> frames;
    REQUIRE(reader->ReadStack(target.sleeper_tid(), &frames).ok());
    INFO(Describe(frames));
    REQUIRE(frames.size() == 4);
    CHECK(frames[0].function == "sleeper");
    CHECK(frames[0].line == target.Line("LINE_SLEEP"));
    CHECK(frames[1].function == Expected("Thread.run", test::MinorVersionOf(python)));
    CHECK(reader->stats().torn_stacks == 0);
  }
}

TEST_CASE("a thread in no thread state reads as empty without walking the thread list again") {
  const std::string python = test::SupportedPythons().front();
  PythonTarget target(python, "spin");
  REQUIRE(target.ok());
  auto reader = AttachTo(target.pid());
  std::vector<PythonFrameText> frames{{"stale", "stale", 1}};
  REQUIRE(reader->ReadStack(1, &frames).ok());
  CHECK(frames.empty());
  const uint64_t walks = reader->stats().thread_walks;
  for (int read = 0; read < 10; ++read) REQUIRE(reader->ReadStack(1, &frames).ok());
  CHECK(frames.empty());
  CHECK(reader->stats().thread_walks == walks);  // absent until the thread list changes
}

TEST_CASE("a reader without ptrace access names the errno") {
  if (geteuid() != 0) {
    WARN("not root: cannot run the reader as another user");
    return;
  }
  PythonTarget target("/usr/bin/python3.11", "spin");
  if (!target.ok()) {
    WARN("no /usr/bin/python3.11 (readable by nobody) here");
    return;
  }
  // The launcher has the maps from perf; nobody may not read a root process's /proc/<pid>/maps.
  auto maps = symbols::ProcessMaps::SnapshotFromProc(target.pid());
  REQUIRE(maps.ok());
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    std::string message = "setuid failed";
    if (setgid(65534) == 0 && setuid(65534) == 0) {
      auto reader = PythonStackReader::Attach(target.pid(), *maps);
      message = reader.ok() ? "attached" : reader.status().message();
    }
    (void)!write(fds[1], message.data(), message.size());
    _exit(0);
  }
  close(fds[1]);
  std::string message;
  char chunk[512];
  for (ssize_t got; (got = read(fds[0], chunk, sizeof(chunk))) > 0;) message.append(chunk, got);
  close(fds[0]);
  waitpid(child, nullptr, 0);
  CHECK(message == "process_vm_readv of pid " + std::to_string(target.pid()) +
                       ": Operation not permitted (errno 1)");
}

// Starts argv, waits until its memory map shows `needle` (its exec is done), and returns its pid.
pid_t SpawnAndWait(const std::vector<std::string>& argv, const std::string& needle) {
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  REQUIRE(posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ) == 0);
  for (int tries = 0; tries < 500; ++tries) {
    std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
    std::stringstream text;
    text << maps.rdbuf();
    if (text.str().find(needle) != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pid;
}

void Reap(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

TEST_CASE("Attach refuses a process that runs no Python with one line") {
  pid_t pid = SpawnAndWait({"/bin/sleep", "10"}, "/sleep");
  auto maps = symbols::ProcessMaps::SnapshotFromProc(pid);
  REQUIRE(maps.ok());
  auto reader = PythonStackReader::Attach(pid, *maps);
  Reap(pid);
  REQUIRE_FALSE(reader.ok());
  CHECK(reader.status().message() == "not a Python process");
}

TEST_CASE("Attach refuses CPython 3.9 and older naming the version") {
  if (test::UnsupportedPythons().empty()) WARN("no CPython 3.6 to 3.9 here: nothing to refuse");
  for (const std::string& python : test::UnsupportedPythons()) {
    INFO(python);
    pid_t pid = SpawnAndWait({python, "-c", "import time; time.sleep(30)"}, "python");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto maps = symbols::ProcessMaps::SnapshotFromProc(pid);
    REQUIRE(maps.ok());
    auto reader = PythonStackReader::Attach(pid, *maps);
    Reap(pid);
    REQUIRE_FALSE(reader.ok());
    CHECK(reader.status().message() ==
          "CPython " + test::MinorVersionOf(python) + " is not supported");
  }
}

TEST_CASE("a process that exits while its stacks are read gives an error") {
  for (const std::string& python : test::SupportedPythons()) {
    INFO(python);
    PythonTarget target(python, "exit");
    REQUIRE(target.ok());
    auto reader = AttachTo(target.pid());
    Status status = Status::Ok();
    std::vector<PythonFrameText> frames;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    size_t reads = 0;
    while (status.ok() && std::chrono::steady_clock::now() < deadline) {
      int tid = (reads++ % 2 == 0) ? target.main_tid() : target.worker_tid();
      status = reader->ReadStack(tid, &frames);
    }
    INFO(reads << " reads");
    REQUIRE_FALSE(status.ok());
    CHECK(frames.empty());
    CHECK(status.message().find("process_vm_readv of pid " + std::to_string(target.pid())) !=
          std::string::npos);
    REQUIRE(target.WaitExit(5));
    Status after = reader->ReadStack(target.main_tid(), &frames);
    CHECK(after.message() == "process " + std::to_string(target.pid()) +
                                 " has exited (process_vm_readv of pid " +
                                 std::to_string(target.pid()) + ": No such process (errno 3))");
  }
}

TEST_CASE("torn reads while the program calls and returns rapidly give only its own frames") {
  for (const std::string& python : test::SupportedPythons()) {
    INFO(python);
    const std::string minor = test::MinorVersionOf(python);
    PythonTarget target(python, "churn");
    REQUIRE(target.ok());
    auto reader = AttachTo(target.pid());
    std::map<std::string, std::pair<int, int>> allowed;
    for (const auto& [name, lines] : target.functions()) allowed[Expected(name, minor)] = lines;
    allowed["<module>"] = {target.Line("LINE_MAIN"), target.Line("LINE_MAIN")};
    size_t nonempty = 0;
    std::vector<PythonFrameText> frames;
    for (int read = 0; read < 2000; ++read) {
      REQUIRE(reader->ReadStack(target.main_tid(), &frames).ok());
      INFO(Describe(frames));
      nonempty += frames.empty() ? 0 : 1;
      for (const auto& frame : frames) {
        auto found = allowed.find(frame.function);
        REQUIRE(found != allowed.end());
        CHECK(frame.file == target.file());
        CHECK(frame.line >= found->second.first);
        CHECK(frame.line <= found->second.second);
      }
    }
    const auto& stats = reader->stats();
    std::cout << python << ": 2000 reads of a churning stack: " << stats.retries << " retries, "
              << stats.torn_stacks << " returned after " << reader->kAttempts << " torn attempts, "
              << nonempty << " not empty\n";
    CHECK(nonempty > 1000);
  }
}

TEST_CASE("stack reading rate for a 20 frame stack with warm caches") {
  for (const std::string& python : test::SupportedPythons()) {
    INFO(python);
    PythonTarget target(python, "deep");
    REQUIRE(target.ok());
    auto reader = AttachTo(target.pid());
    std::vector<PythonFrameText> frames;
    REQUIRE(
        WaitForLeaf(reader.get(), target.main_tid(), "recurse", target.Line("LINE_DEEP_SLEEP")));
    REQUIRE(reader->ReadStack(target.main_tid(), &frames).ok());
    REQUIRE(frames.size() == 22);  // recurse x 20, main, <module>
    CHECK(frames[0].line == target.Line("LINE_DEEP_SLEEP"));
    CHECK(frames[1].line == target.Line("LINE_RECURSE"));
    const int reads = 20000;
    auto start = std::chrono::steady_clock::now();
    for (int read = 0; read < reads; ++read) {
      REQUIRE(reader->ReadStack(target.main_tid(), &frames).ok());
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double rate = reads / seconds;
    std::cout << python << ": " << static_cast<long>(rate) << " stacks/s of 22 frames ("
              << reader->stats().code_objects << " code objects read)\n";
    CHECK(frames.size() == 22);
    CHECK(reader->stats().code_objects <= 3);
    // The target is 20,000/s; the floor leaves room for a loaded CI machine.
    CHECK(rate > 5000);
  }
}

}  // namespace
}  // namespace prof::collector
