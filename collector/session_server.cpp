#include "collector/session_server.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace prof::collector {
namespace {

constexpr size_t kReadChunk = 256 * 1024;
constexpr int kChunksPerPoll = 16;

std::string TemporaryRoot() {
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
}

}  // namespace

Status SessionServer::Listen(uint64_t session_start_ns, std::unique_ptr<SessionServer>* out) {
  std::unique_ptr<SessionServer> server(new SessionServer());
  server->session_start_ns_ = session_start_ns;
  std::string pattern = TemporaryRoot() + "/prof-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    return Status::Error("cannot create a temporary directory in " + TemporaryRoot() + ": " +
                         std::strerror(errno));
  }
  server->directory_ = pattern;
  server->socket_path_ = pattern + "/stream.sock";
  sockaddr_un address{};
  if (server->socket_path_.size() >= sizeof(address.sun_path)) {
    return Status::Error("temporary directory path too long for a socket: " + pattern);
  }
  server->listen_fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  address.sun_family = AF_UNIX;
  std::strcpy(address.sun_path, server->socket_path_.c_str());
  if (server->listen_fd_ < 0 ||
      bind(server->listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      listen(server->listen_fd_, SOMAXCONN) != 0) {
    return Status::Error("cannot listen on " + server->socket_path_ + ": " + std::strerror(errno));
  }
  *out = std::move(server);
  return Status::Ok();
}

SessionServer::~SessionServer() {
  for (auto& connection : connections_) close(connection->fd);
  if (listen_fd_ >= 0) close(listen_fd_);
  if (!socket_path_.empty()) unlink(socket_path_.c_str());
  if (!directory_.empty()) rmdir(directory_.c_str());
}

bool SessionServer::PollOnce(int timeout_ms, int extra_fd, StreamSink* sink) {
  std::vector<pollfd> fds;
  fds.push_back({listen_fd_, POLLIN, 0});
  fds.push_back({extra_fd, POLLIN, 0});
  for (const auto& connection : connections_) fds.push_back({connection->fd, POLLIN, 0});
  if (poll(fds.data(), fds.size(), timeout_ms) <= 0) return false;
  const bool extra_ready = extra_fd >= 0 && fds[1].revents != 0;
  // Read existing connections before accepting, so indexes into fds still match connections_.
  for (size_t i = connections_.size(); i-- > 0;) {
    if (fds[i + 2].revents == 0) continue;
    if (!ReadFrom(connections_[i].get(), sink)) {
      End(connections_[i].get(), sink);
      connections_.erase(connections_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  if (fds[0].revents != 0) AcceptPending();
  return extra_ready;
}

void SessionServer::AcceptPending() {
  while (true) {
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) return;
    auto connection = std::make_unique<Connection>();
    connection->fd = fd;
    connection->process.session_start_ns = session_start_ns_;
    connection->process.stream_id = ++streams_accepted_;
    connections_.push_back(std::move(connection));
  }
}

bool SessionServer::ReadFrom(Connection* connection, StreamSink* sink) {
  static char chunk[kReadChunk];
  // A bounded number of chunks per poll keeps one busy process from starving the others.
  for (int chunks = 0; chunks < kChunksPerPoll; ++chunks) {
    const ssize_t n = read(connection->fd, chunk, sizeof(chunk));
    if (n > 0) {
      connection->decoder.Feed(chunk, static_cast<size_t>(n));
      Deliver(connection, sink);
      if (connection->decoder.Failed()) return false;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }
  return true;
}

void SessionServer::Deliver(Connection* connection, StreamSink* sink) {
  while (const protocol::RecordHeader* record = connection->decoder.Next()) {
    if (!connection->started) {
      sink->OnStreamStart(*record, &connection->process);
      connection->started = true;
    } else {
      sink->OnRecord(connection->process, *record);
    }
  }
}

void SessionServer::End(Connection* connection, StreamSink* sink) {
  std::string error = connection->decoder.error();
  if (error.empty() && connection->decoder.PendingBytes() > 0) {
    error = "stream cut mid-record (" + std::to_string(connection->decoder.PendingBytes()) +
            " bytes left over)";
  }
  if (connection->started) {
    sink->OnStreamEnd(connection->process, error);
  } else if (!error.empty()) {
    sink->OnStreamRejected(error);
  }
  close(connection->fd);
}

std::vector<uint32_t> SessionServer::StreamingPids() const {
  std::vector<uint32_t> pids;
  for (const auto& connection : connections_) {
    if (connection->started) pids.push_back(connection->process.pid);
  }
  // A process may stream on two connections for a moment (a fork child's, then its exec's).
  std::sort(pids.begin(), pids.end());
  pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
  return pids;
}

void SessionServer::CloseAll(StreamSink* sink) {
  for (auto& connection : connections_) End(connection.get(), sink);
  connections_.clear();
}

}  // namespace prof::collector
