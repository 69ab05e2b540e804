#include "tests/support/traced_launch.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>

#include "injection/protocol/clock.h"

extern char** environ;

namespace prof::test {

int RunTraced(const TracedLaunch& launch, collector::StreamSink* sink) {
  auto listening = collector::SessionServer::Listen(protocol::MonotonicNowNs(), launch.observer);
  REQUIRE(listening.ok());
  std::unique_ptr<collector::SessionServer> server = std::move(listening).value();
  if (!launch.spill_dir.empty()) server->SpillTo(launch.spill_dir);
  protocol::InjectionSettings settings = launch.settings;
  REQUIRE(server->socket_path().size() < sizeof(settings.socket_path));
  std::strcpy(settings.socket_path, server->socket_path().c_str());

  const bool osrt = (settings.trace_flags & protocol::kTraceOsrt) != 0;
  std::vector<std::string> environment = {
      std::string("LD_PRELOAD=") + PROF_CORE_LIBRARY + (osrt ? ":" PROF_OSRT_LIBRARY : ""),
      std::string(protocol::kSettingsEnvVar) + "=" + EncodeSettings(settings)};
  for (char** variable = environ; *variable != nullptr; ++variable) {
    if (std::strncmp(*variable, "LD_PRELOAD=", 11) != 0 &&
        std::strncmp(*variable, "PROF_INJECTION_SETTINGS=", 24) != 0) {
      environment.emplace_back(*variable);
    }
  }
  std::vector<std::string> argv = launch.argv;
  std::vector<char*> argv_pointers;
  for (std::string& arg : argv) argv_pointers.push_back(arg.data());
  argv_pointers.push_back(nullptr);
  std::vector<char*> env_pointers;
  for (std::string& variable : environment) env_pointers.push_back(variable.data());
  env_pointers.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!launch.stdout_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, launch.stdout_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }

  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv_pointers[0], &actions, nullptr, argv_pointers.data(),
                                  env_pointers.data());
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE(spawned == 0);
  int status = -1;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool exited = false;
  while (std::chrono::steady_clock::now() < deadline) {
    if (launch.decode_after_exit && !exited) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    } else {
      server->PollOnce(20, -1, sink);
    }
    if (!exited && waitpid(pid, &status, WNOHANG) == pid) exited = true;
    if (exited && !server->streams_open()) break;
  }
  REQUIRE(exited);
  server->CloseAll(sink);
  return status;
}

}  // namespace prof::test
