// Runs a program as `prof profile` starts it, for tests of the launcher's pieces: prof's injection
// preloaded (libprof_core, and libprof_osrt when the settings trace the OS runtime), its settings
// in the environment, its streams read by a real SessionServer and handed to the test's sink.
#pragma once

#include <string>
#include <vector>

#include "collector/session_server.h"
#include "injection/protocol/launch_settings.h"

namespace prof::test {

struct TracedLaunch {
  std::vector<std::string> argv;
  protocol::InjectionSettings settings;  // socket_path is the server's
  collector::RingRecordObserver* observer = nullptr;
  // The records are decoded only once the program has exited: a collector thread that fell
  // behind the program by its whole run. What waits meanwhile spills into `spill_dir`, as the
  // report's directory takes it under prof.
  bool decode_after_exit = false;
  std::string spill_dir;
  std::string stdout_path;  // where the program's stdout goes; empty: the test's
};

// Runs `launch` until the program has exited and every stream has ended (60 s at most, else the
// test fails), every record handed to `sink`; the program's wait status.
int RunTraced(const TracedLaunch& launch, collector::StreamSink* sink);

}  // namespace prof::test
