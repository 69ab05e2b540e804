// The launcher's socket end, driven by a test client over a real connection: what the collector's
// sink sees when the bytes that waited on disk cannot be read back.
#include "collector/session_server.h"

#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "tests/protocol/stream_bytes.h"

namespace {

namespace fs = std::filesystem;
using prof::collector::ProcessStream;
using prof::collector::SessionServer;
using prof::collector::StreamSink;
using prof::protocol::RecordHeader;

struct RecordingSink : StreamSink {
  void OnStreamStart(const RecordHeader& /*hello*/, ProcessStream* /*process*/) override {
    ++starts;
  }
  void OnRecord(const ProcessStream& /*process*/, const RecordHeader& /*record*/) override {
    ++records;
  }
  void OnStreamEnd(const ProcessStream& /*process*/, const std::string& error) override {
    ends.push_back(error);
  }
  void OnStreamRejected(const std::string& error) override { rejected.push_back(error); }

  int starts = 0;
  int records = 0;
  std::vector<std::string> ends;
  std::vector<std::string> rejected;
};

// A client whose writes give up after 30 s (a server that stops reading fails the test, not hangs).
int Connect(const std::string& path) {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const timeval limit{30, 0};
  if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

bool WriteAll(int fd, const std::vector<char>& bytes) {
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// The spill file: this process's unnamed (O_TMPFILE) file in `directory`, "<directory>/#<inode>".
int SpillFileDescriptor(const std::string& directory) {
  for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
    std::error_code error;
    const std::string target = fs::read_symlink(entry.path(), error).string();
    if (!error && target.rfind(directory + "/#", 0) == 0) return std::stoi(entry.path().filename());
  }
  return -1;
}

}  // namespace

TEST_CASE("bytes lost with an unreadable spill file end the open streams with an error",
          "[server]") {
  char pattern[] = "/tmp/prof-session-server-XXXXXX";
  REQUIRE(mkdtemp(pattern) != nullptr);
  const std::string directory = pattern;
  auto listening = SessionServer::Listen(0);
  REQUIRE(listening.ok());
  std::unique_ptr<SessionServer> server = std::move(listening).value();
  server->SpillTo(directory);
  const int client = Connect(server->socket_path());
  REQUIRE(client >= 0);
  // 48 MiB of 32 KiB records that nobody takes yet: the first 32 MiB wait in memory, the rest on
  // disk.
  constexpr int kRecords = 1536;
  REQUIRE(WriteAll(client, prof::test::Hello(4321, "writer")));
  std::vector<char> record(32768, 0);
  const RecordHeader header{prof::protocol::RecordKind::kOsrtCall, 32768, 1, 0};
  std::memcpy(record.data(), &header, sizeof(header));
  for (int i = 0; i < kRecords; ++i) REQUIRE(WriteAll(client, record));
  close(client);
  // The reader has queued every byte once it has seen the connection end.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!server->StreamingPids().empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  REQUIRE(server->StreamingPids().empty());
  REQUIRE(server->bytes_waiting_on_disk() > 0);
  const int spill = SpillFileDescriptor(directory);
  REQUIRE(spill >= 0);
  REQUIRE(ftruncate(spill, 0) == 0);

  RecordingSink sink;
  server->CloseAll(&sink);
  CHECK(sink.starts == 1);
  CHECK(sink.records > 0);  // those that waited in memory
  CHECK(sink.records < kRecords);
  // Not decoded past the gap, and not an ending that looks complete.
  CHECK(sink.ends ==
        std::vector<std::string>{"records lost: the spill file could not be read back"});
  CHECK(sink.rejected.empty());
  server.reset();
  fs::remove_all(directory);
}
