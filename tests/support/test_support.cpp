#include "tests/support/test_support.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <vector>

extern char** environ;

namespace prof::test {
namespace {

std::vector<std::filesystem::path>& TempDirsOfThisTestCase() {
  static std::vector<std::filesystem::path> dirs;
  return dirs;
}

// Feeds stdin and drains stdout/stderr together so that no pipe fills and deadlocks the child.
void PumpPipes(int in_fd, const std::string& input, int out_fd, int err_fd, CommandResult* result) {
  size_t written = 0;
  if (input.empty()) {
    close(in_fd);
    in_fd = -1;
  }
  while (out_fd >= 0 || err_fd >= 0) {
    pollfd fds[3] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}, {in_fd, POLLOUT, 0}};
    if (poll(fds, 3, -1) < 0 && errno != EINTR) break;
    char buffer[65536];
    int* read_fds[2] = {&out_fd, &err_fd};
    std::string* sinks[2] = {&result->out, &result->err};
    for (int i = 0; i < 2; ++i) {
      if (*read_fds[i] < 0 || fds[i].revents == 0) continue;
      const ssize_t n = read(*read_fds[i], buffer, sizeof(buffer));
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(*read_fds[i]);
        *read_fds[i] = -1;
      }
    }
    if (in_fd >= 0 && fds[2].revents != 0) {
      const ssize_t n = write(in_fd, input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<size_t>(n);
      if (n < 0 || written == input.size()) {
        close(in_fd);
        in_fd = -1;
      }
    }
  }
  if (in_fd >= 0) close(in_fd);
}

}  // namespace

CommandResult RunCommand(const std::vector<std::string>& argv, const std::string& stdin_data,
                         const std::vector<std::string>& env) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  REQUIRE(pipe2(in_pipe, O_CLOEXEC) == 0);
  REQUIRE(pipe2(out_pipe, O_CLOEXEC) == 0);
  REQUIRE(pipe2(err_pipe, O_CLOEXEC) == 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);

  std::vector<std::string> env_strings;
  // An entry of `env` replaces the inherited variable of its name (getenv finds the first).
  const auto overridden = [&](const std::string& entry) {
    const std::string name = entry.substr(0, entry.find('=') + 1);
    return std::any_of(env.begin(), env.end(),
                       [&](const std::string& added) { return added.rfind(name, 0) == 0; });
  };
  for (char** e = environ; *e != nullptr; ++e) {
    if (!overridden(*e)) env_strings.emplace_back(*e);
  }
  env_strings.insert(env_strings.end(), env.begin(), env.end());
  std::vector<char*> env_ptrs, arg_ptrs;
  for (auto& s : env_strings) env_ptrs.push_back(s.data());
  env_ptrs.push_back(nullptr);
  std::vector<std::string> args = argv;
  for (auto& s : args) arg_ptrs.push_back(s.data());
  arg_ptrs.push_back(nullptr);

  CommandResult result;
  pid_t pid = -1;
  const int spawn_error =
      posix_spawnp(&pid, args[0].c_str(), &actions, nullptr, arg_ptrs.data(), env_ptrs.data());
  posix_spawn_file_actions_destroy(&actions);
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (spawn_error != 0) {
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(err_pipe[0]);
    result.err = "spawn failed: " + std::string(strerror(spawn_error));
    return result;
  }
  signal(SIGPIPE, SIG_IGN);
  PumpPipes(in_pipe[1], stdin_data, out_pipe[0], err_pipe[0], &result);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::vector<std::vector<std::string>> QueryRows(const std::string& db_path,
                                                const std::string& sql) {
  sqlite3* db = nullptr;
  const int open_rc = sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  INFO("opening " << db_path << ": " << (db ? sqlite3_errmsg(db) : "out of memory"));
  REQUIRE(open_rc == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  const int prepare_rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr);
  INFO("query " << sql << ": " << sqlite3_errmsg(db));
  if (prepare_rc != SQLITE_OK) sqlite3_close(db);
  REQUIRE(prepare_rc == SQLITE_OK);
  std::vector<std::vector<std::string>> rows;
  while (sqlite3_step(statement) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int c = 0; c < sqlite3_column_count(statement); ++c) {
      const unsigned char* text = sqlite3_column_text(statement, c);
      row.emplace_back(text ? reinterpret_cast<const char*>(text) : "NULL");
    }
    rows.push_back(std::move(row));
  }
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return rows;
}

int64_t QueryCount(const std::string& db_path, const std::string& sql) {
  const std::vector<std::vector<std::string>> rows = QueryRows(db_path, sql);
  INFO("query " << sql);
  REQUIRE(rows.size() == 1);
  REQUIRE(rows[0].size() == 1);
  return std::atoll(rows[0][0].c_str());
}

std::vector<std::string> PrintedValues(const std::string& out, const std::string& key) {
  std::vector<std::string> values;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(key + "=", 0) == 0) values.push_back(line.substr(key.size() + 1));
  }
  return values;
}

std::string WithoutProgressNotes(const std::string& err) {
  static const std::regex kNote("prof: (tracing .* of `|running \\(-t none|finished ).*");
  static const std::regex kSummary("(prof: report written to .*) \\([0-9.]+ [kMGT]?B\\): .*");
  std::string kept;
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_match(line, kNote)) continue;
    kept += std::regex_replace(line, kSummary, "$1") + "\n";
  }
  return kept;
}

std::vector<std::string> FileNamesIn(const std::string& directory) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string MakeTempDir(const std::string& test_name) {
  const std::filesystem::path dir =
      std::filesystem::path(PROF_TEST_WORK_DIR) / (test_name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  TempDirsOfThisTestCase().push_back(dir);
  return dir.string();
}

void EndTempDirs(bool passed) {
  if (passed) {
    for (const std::filesystem::path& dir : TempDirsOfThisTestCase()) {
      std::error_code ignored;  // a directory a test removed itself is fine
      std::filesystem::remove_all(dir, ignored);
    }
  }
  TempDirsOfThisTestCase().clear();
}

std::string ProfBinary() { return PROF_BINARY_PATH; }

std::string TestProgram(const std::string& name) {
  return std::string(PROF_TEST_PROGRAM_DIR) + "/" + name;
}

std::vector<std::string> SegvDiesAsUsual() {
#if defined(__SANITIZE_ADDRESS__)
  const char* asan_options = std::getenv("ASAN_OPTIONS");
  return {std::string("ASAN_OPTIONS=") + (asan_options != nullptr ? asan_options : "") +
          ":handle_segv=0"};
#else
  return {};
#endif
}

}  // namespace prof::test
