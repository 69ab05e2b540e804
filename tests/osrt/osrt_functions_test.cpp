// The function table shared by the interposer and the collector
// (injection/protocol/osrt_functions.h).
#include "injection/protocol/osrt_functions.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

namespace {

using prof::protocol::kOsrtFunctionCount;
using prof::protocol::kOsrtFunctionNames;
using prof::protocol::OsrtFunctionId;
using prof::protocol::OsrtFunctionName;

// Every OS-runtime function name in NVIDIA's `nsys stats --report osrt_sum` of the torch_mix
// reference profile (PyTorch on CUDA 13), except sigaction, which prof does not interpose.
const char* const kNamesInNsysReference[] = {
    "poll",
    "ioctl",
    "read",
    "stat64",
    "open64",
    "clock_nanosleep",
    "nanosleep",
    "mmap64",
    "munmap",
    "pthread_create",
    "sem_timedwait",
    "sleep",
    "close",
    "lstat64",
    "fgets",
    "sem_wait",
    "mmap",
    "pthread_cond_wait",
    "fopen",
    "open",
    "write",
    "pthread_cond_signal",
    "pthread_cond_timedwait",
    "fclose",
    "fstat64",
    "fopen64",
    "socket",
    "pipe2",
    "connect",
    "fread",
    "pthread_cond_broadcast",
    "fwrite",
    "fcntl",
    "fflush",
    "bind",
    "listen",
    "fcntl64",
};

}  // namespace

TEST_CASE("function names are unique and look up their own id") {
  std::set<std::string> seen;
  for (uint16_t id = 0; id < kOsrtFunctionCount; ++id) {
    INFO("id " << id << " = " << kOsrtFunctionNames[id]);
    CHECK(seen.insert(kOsrtFunctionNames[id]).second);
    CHECK(OsrtFunctionId(kOsrtFunctionNames[id]) == id);
    CHECK(std::string(OsrtFunctionName(id)) == kOsrtFunctionNames[id]);
  }
  CHECK(seen.size() == kOsrtFunctionCount);
}

TEST_CASE("unknown ids and names have no entry") {
  CHECK(OsrtFunctionName(kOsrtFunctionCount) == nullptr);
  CHECK(OsrtFunctionName(0xFFFF) == nullptr);
  CHECK(OsrtFunctionId("sigprocmask") == kOsrtFunctionCount);
  CHECK(OsrtFunctionId("") == kOsrtFunctionCount);
  CHECK(OsrtFunctionId("read ") == kOsrtFunctionCount);
}

TEST_CASE("names are spelled as nsys writes them") {
  for (const char* name : kNamesInNsysReference) {
    INFO(name);
    CHECK(OsrtFunctionId(name) < kOsrtFunctionCount);
  }
}

TEST_CASE("ids are append-only: the first entries keep their numbers") {
  // The records of a running program and the collector's table must agree; reordering would
  // silently rename every call. Append new functions at the end of the table.
  CHECK(OsrtFunctionId("read") == 0);
  CHECK(OsrtFunctionId("write") == 1);
  CHECK(OsrtFunctionId("open") == 11);
  CHECK(OsrtFunctionId("fopen") == 25);
  CHECK(OsrtFunctionId("stat") == 34);
  CHECK(OsrtFunctionId("poll") == 50);
  CHECK(OsrtFunctionId("nanosleep") == 58);
  CHECK(OsrtFunctionId("pthread_mutex_lock") == 62);
  CHECK(OsrtFunctionId("pthread_create") == 76);
  CHECK(OsrtFunctionId("mmap") == 86);
  CHECK(OsrtFunctionId("__recvfrom_chk") == 105);
  CHECK(kOsrtFunctionCount >= 106);
}

TEST_CASE("the id lookup is a constant expression") {
  static_assert(OsrtFunctionId("read") == 0);
  static_assert(OsrtFunctionId("no_such_function") == kOsrtFunctionCount);
  SUCCEED();
}
