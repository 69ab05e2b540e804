#include "collector/session_server.h"

#include <poll.h>
#include <pthread.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "common/signals_blocked.h"
#include "injection/protocol/clock.h"

namespace prof::collector {
namespace {

constexpr size_t kReadChunk = 256 * 1024;
// The socket carries only control records: small reads.
constexpr size_t kControlReadBytes = 4096;
constexpr int kReadsPerPoll = 16;
// How often every process's rings are drained without being asked, and at most how much of one
// process per pass (the rest waits for the next pass, so that one flood does not hold up the
// sockets and the other processes).
constexpr int kDrainIntervalMs = 10;
constexpr size_t kDrainBytesPerPass = size_t{16} << 20;
// How often a process that closed its socket but lives on is checked for having gone.
constexpr uint64_t kLivenessCheckIntervalNs = 50'000'000;
// Read bytes waiting for the owner thread: 32 MiB in memory (~320,000 NVTX ranges), then up to
// 512 MiB in a spill file next to the report (~5 M ranges, a few seconds of decoding at the end).
constexpr size_t kMaxBacklogMemory = size_t{32} << 20;
constexpr uint64_t kMaxBacklogSpill = uint64_t{512} << 20;
// What one PollOnce() decodes at most before returning to the caller's timers.
constexpr size_t kBytesPerPoll = 16 * kReadChunk;
// Out of descriptors, accepting is tried again when a connection closes, or after this long (the
// descriptors may be prof's own files, which no closing connection gives back).
constexpr int kAcceptRetryMs = 100;

std::string TemporaryRoot() {
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
}

using protocol::MonotonicNowNs;

uint32_t PeerPid(int fd) {
  ucred credentials{};
  socklen_t size = sizeof(credentials);
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return 0;
  return static_cast<uint32_t>(credentials.pid);
}

}  // namespace

SessionServer::SessionServer()
    : stop_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      backlog_(kMaxBacklogMemory, kMaxBacklogSpill) {}

StatusOr<std::unique_ptr<SessionServer>> SessionServer::Listen(uint64_t session_start_ns,
                                                               RingRecordObserver* observer,
                                                               SelfSampledProcesses* self_sampled) {
  std::unique_ptr<SessionServer> server(new SessionServer());
  server->session_start_ns_ = session_start_ns;
  server->ring_observer_ = observer;
  server->self_sampled_ = self_sampled;
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
  if (server->stop_fd_ < 0 || server->backlog_.ready_fd() < 0) {
    return Status::Error(std::string("cannot create an eventfd: ") + std::strerror(errno));
  }
  {
    const ScopedSignalsBlocked for_the_reader;
    server->reader_ = std::thread(&SessionServer::ReadLoop, server.get());
  }
  pthread_setname_np(server->reader_.native_handle(), "prof-reader");
  return server;
}

SessionServer::~SessionServer() {
  StopReading();
  ProcessRings::RemoveUnattachedSegments(accepted_pids_);
  for (const auto& socket : sockets_) {
    if (socket->fd >= 0) close(socket->fd);
  }
  if (listen_fd_ >= 0) close(listen_fd_);
  if (stop_fd_ >= 0) close(stop_fd_);
  if (!socket_path_.empty()) unlink(socket_path_.c_str());
  if (!directory_.empty()) rmdir(directory_.c_str());
}

void SessionServer::RequestStop() {
  const uint64_t one = 1;
  while (write(stop_fd_, &one, sizeof(one)) < 0 && errno == EINTR) {
  }
}

void SessionServer::StopReading() {
  if (!reader_.joinable()) return;
  RequestStop();
  backlog_.Close();  // a reader waiting for room would wait for good
  reader_.join();
}

// ---- Reader thread ----

void SessionServer::ReadLoop() {
  std::vector<pollfd> fds;
  while (true) {
    fds.clear();
    fds.push_back({stop_fd_, POLLIN, 0});
    fds.push_back({accept_paused_ ? -1 : listen_fd_, POLLIN, 0});
    // A socket closed while its process lives on stays in the list with fd -1, which poll skips.
    for (const auto& socket : sockets_) fds.push_back({socket->fd, POLLIN, 0});
    const int ready = poll(fds.data(), fds.size(), kDrainIntervalMs);
    if (ready < 0 && errno != EINTR) break;
    if (fds[0].revents != 0) break;
    // Read existing sockets before accepting, so indexes into fds still match sockets_.
    for (size_t i = 0; i < sockets_.size(); ++i) {
      if (fds[i + 2].revents != 0 && !ReadFrom(sockets_[i].get()))
        OnSocketClosed(sockets_[i].get());
    }
    DrainPass(MonotonicNowNs() >= next_periodic_drain_ns_);
    sockets_.erase(std::remove_if(sockets_.begin(), sockets_.end(),
                                  [](const auto& socket) { return socket->ended; }),
                   sockets_.end());
    if (fds[1].revents != 0 || (accept_paused_ && ready == 0)) AcceptPending();
  }
  // Whatever the rings hold now; the owner ends the streams still open.
  for (const auto& socket : sockets_) {
    if (!socket->ended) DrainRings(socket.get(), SIZE_MAX);
  }
  reader_done_.store(true, std::memory_order_release);
}

void SessionServer::AcceptPending() {
  accept_paused_ = false;
  while (true) {
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE) {
        accept_paused_ = true;
        descriptors_exhausted_.store(true, std::memory_order_relaxed);
      }
      return;
    }
    auto socket = std::make_unique<Socket>();
    socket->fd = fd;
    socket->id = ++streams_accepted_;
    socket->pid = PeerPid(fd);
    if (ring_observer_ != nullptr) ring_observer_->OnStreamConnected(socket->id, socket->pid);
    accepted_pids_.push_back(socket->pid);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      open_pids_.push_back(socket->pid);
    }
    sockets_.push_back(std::move(socket));
  }
}

bool SessionServer::ReadFrom(Socket* socket) {
  char buffer[kControlReadBytes];
  // A bounded number of reads per poll keeps one process from starving the others.
  for (int reads = 0; reads < kReadsPerPoll; ++reads) {
    const ssize_t n = read(socket->fd, buffer, sizeof(buffer));
    if (n > 0) {
      if (socket->raw) {
        Forward(*socket, buffer, static_cast<size_t>(n));
      } else {
        socket->control.insert(socket->control.end(), buffer, buffer + n);
        TakeControlRecords(socket);
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }
  return true;
}

void SessionServer::TakeControlRecords(Socket* socket) {
  size_t offset = 0;
  std::vector<char>& bytes = socket->control;
  std::vector<char> forward;  // consecutive records for the stream, queued as one chunk
  auto flush = [&] {
    Forward(*socket, forward.data(), forward.size());
    forward.clear();
  };
  while (bytes.size() - offset >= sizeof(protocol::RecordHeader)) {
    protocol::RecordHeader header;
    std::memcpy(&header, bytes.data() + offset, sizeof(header));
    if (header.size < sizeof(header) || header.size % protocol::kRecordAlignment != 0) {
      // Not prof's framing: the stream's decoder says so; everything goes on to it unread.
      socket->raw = true;
      forward.insert(forward.end(), bytes.begin() + static_cast<std::ptrdiff_t>(offset),
                     bytes.end());
      offset = bytes.size();
      break;
    }
    if (bytes.size() - offset < header.size) break;
    const char* record = bytes.data() + offset;
    offset += header.size;
    if (header.kind == protocol::RecordKind::kRingSegment &&
        header.size >= sizeof(protocol::RingSegmentRecord)) {
      protocol::RingSegmentRecord segment;
      std::memcpy(&segment, record, sizeof(segment));
      // Why a segment was refused matters less than that it was: the process's injection is
      // prof's own, so a refusal means a segment that is not (a program that wrote over it).
      std::string refusal;
      if (segment.segment_id < 0 ||
          !socket->rings.AddSegment(segment.segment_id, segment.ring_count, socket->pid,
                                    &refusal)) {
        // No rings to read for this process (or these threads): the trackers say so.
        if (segment.segment_id >= 0) segment.segment_id = -EPERM;
        const char* segment_bytes = reinterpret_cast<const char*>(&segment);
        forward.insert(forward.end(), segment_bytes, segment_bytes + sizeof(segment));
      }
    } else if (header.kind == protocol::RecordKind::kStreamHello &&
               header.size >= sizeof(protocol::StreamHello)) {
      protocol::StreamHello hello;
      std::memcpy(&hello, record, sizeof(hello));
      if (self_sampled_ != nullptr) {
        self_sampled_->Hello(socket->id, socket->pid, header.timestamp_ns,
                             (hello.flags & protocol::kHelloSamplesItself) != 0);
      }
      forward.insert(forward.end(), record, record + header.size);
    } else if (header.kind == protocol::RecordKind::kDrainRequest) {
      socket->drain_requested = true;
    } else if (header.kind == protocol::RecordKind::kProcessExit) {
      // Nothing more will be written: its rings' records go before the exit record.
      flush();
      DrainRings(socket, SIZE_MAX);
      socket->exit_sent = true;
      // Its own sampling stopped just before (the library destructor).
      if (self_sampled_ != nullptr) self_sampled_->Ended(socket->id, header.timestamp_ns);
      forward.insert(forward.end(), record, record + header.size);
    } else {
      forward.insert(forward.end(), record, record + header.size);
    }
  }
  flush();
  bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(offset));
}

void SessionServer::Forward(const Socket& socket, const char* data, size_t size) {
  if (size == 0) return;
  StreamChunk chunk;
  chunk.connection = socket.id;
  chunk.length = size;
  chunk.bytes = backlog_.TakeBuffer(size);
  std::memcpy(chunk.bytes.data(), data, size);
  backlog_.Push(&chunk);
}

void SessionServer::DrainRings(Socket* socket, size_t byte_limit) {
  if (socket->rings.empty()) return;
  size_t drained = 0;
  while (drained < byte_limit) {
    StreamChunk chunk;
    chunk.connection = socket->id;
    chunk.bytes = backlog_.TakeBuffer(kReadChunk);
    chunk.length = socket->rings.Drain(chunk.bytes.data(), chunk.bytes.size());
    if (chunk.length == 0) {
      backlog_.Recycle(std::move(chunk));
      return;
    }
    drained += chunk.length;
    if (ring_observer_ != nullptr)
      ring_observer_->OnRingRecords(socket->id, socket->pid, chunk.bytes.data(), chunk.length);
    backlog_.Push(&chunk);
    if (!chunk.bytes.empty()) backlog_.Recycle(std::move(chunk));
  }
}

void SessionServer::OnSocketClosed(Socket* socket) {
  // Before anything else: a process that died keeps its status only until its parent reaps it,
  // which a parent waiting for it does at once.
  if (!socket->exit_sent) socket->death = KilledBy(socket->pid);
  close(socket->fd);
  socket->fd = -1;
  accept_paused_ = false;  // a descriptor is free again
  // A record cut by the close: the stream's decoder reports it.
  Forward(*socket, socket->control.data(), socket->control.size());
  socket->control.clear();
  // The kernel closes a socket when the last thread holding it is gone; one the process closed
  // itself while it lives on (closefrom, dup2) is told apart by the rings still being attached.
  if (socket->exit_sent || socket->rings.empty() || !socket->rings.AttachedElsewhere()) {
    EndStream(socket);
  } else {
    socket->next_liveness_check_ns = MonotonicNowNs() + kLivenessCheckIntervalNs;
  }
}

void SessionServer::EndStream(Socket* socket) {
  // Neither its exit record nor the mark exit() leaves in its rings: the process died, about now,
  // since its socket just closed (or its rings just went).
  const bool died = !socket->exit_sent && !socket->rings.Exiting();
  socket->rings.Ended(died, protocol::SampleCounter());
  DrainRings(socket, SIZE_MAX);
  if (died && !socket->death) socket->death = KilledBy(socket->pid);
  if (died && socket->death) TellHowItDied(*socket);
  if (ring_observer_ != nullptr) ring_observer_->OnStreamDrained(socket->id);
  if (self_sampled_ != nullptr) self_sampled_->Ended(socket->id, MonotonicNowNs());
  StreamChunk end;
  end.connection = socket->id;
  end.closed = true;
  backlog_.Push(&end);
  socket->ended = true;
  std::lock_guard<std::mutex> lock(mutex_);
  const auto pid = std::find(open_pids_.begin(), open_pids_.end(), socket->pid);
  if (pid != open_pids_.end()) open_pids_.erase(pid);
}

void SessionServer::TellHowItDied(const Socket& socket) {
  const ProcessDeath& death = *socket.death;
  protocol::ProcessKilledRecord record{};
  record.header = {protocol::RecordKind::kProcessKilled, sizeof(record), socket.pid,
                   MonotonicNowNs()};
  record.pid = socket.pid;
  record.signal = death.signal;
  record.core_dumped = death.core_dumped ? 1 : 0;
  Forward(socket, reinterpret_cast<const char*>(&record), sizeof(record));
}

void SessionServer::DrainPass(bool periodic) {
  const uint64_t now = MonotonicNowNs();
  if (periodic) next_periodic_drain_ns_ = now + kDrainIntervalMs * uint64_t{1'000'000};
  for (const auto& socket : sockets_) {
    if (socket->ended || !(periodic || socket->drain_requested)) continue;
    socket->drain_requested = false;
    DrainRings(socket.get(), kDrainBytesPerPass);
    if (socket->fd < 0 && now >= socket->next_liveness_check_ns) {
      if (socket->rings.AttachedElsewhere()) {
        socket->next_liveness_check_ns = now + kLivenessCheckIntervalNs;
      } else {
        EndStream(socket.get());
      }
    }
  }
}

// ---- Owner thread ----

bool SessionServer::PollOnce(int timeout_ms, int extra_fd, StreamSink* sink) {
  pollfd fds[2] = {{backlog_.ready_fd(), POLLIN, 0}, {extra_fd, POLLIN, 0}};
  const bool ready = poll(fds, 2, backlog_.empty() ? timeout_ms : 0) > 0;
  Drain(sink, kBytesPerPoll);
  return ready && extra_fd >= 0 && fds[1].revents != 0;
}

void SessionServer::Drain(StreamSink* sink, size_t byte_budget) {
  // Reset first: a chunk pushed after this makes the next poll return at once.
  backlog_.ClearReady();
  size_t delivered = 0;
  StreamChunk chunk;
  while (delivered < byte_budget && backlog_.Take(&chunk)) {
    Deliver(chunk, sink);
    delivered += chunk.length + 1;  // + 1: a run of connection ends is not free either
    backlog_.Recycle(std::move(chunk));
  }
}

void SessionServer::Deliver(const StreamChunk& chunk, StreamSink* sink) {
  if (chunk.connection == 0) {
    // Bytes lost with a spill file that could not be read back: any open stream may have a gap
    // now, and decoding on after one would take arbitrary bytes for records.
    for (auto& [id, connection] : connections_) {
      End(connection.get(), sink, "records lost: the spill file could not be read back");
    }
    return;
  }
  std::unique_ptr<Connection>& slot = connections_[chunk.connection];
  if (!slot) {
    slot = std::make_unique<Connection>();
    slot->process.session_start_ns = session_start_ns_;
    slot->process.stream_id = chunk.connection;
  }
  Connection* connection = slot.get();
  if (!connection->ended && chunk.length > 0) {
    connection->decoder.Feed(chunk.bytes.data(), chunk.length);
    while (const protocol::RecordHeader* record = connection->decoder.Next()) {
      if (!connection->started) {
        sink->OnStreamStart(*record, &connection->process);
        connection->started = true;
      } else {
        sink->OnRecord(connection->process, *record);
      }
    }
    if (connection->decoder.Failed()) End(connection, sink);
  }
  if (chunk.closed) {
    End(connection, sink);
    connections_.erase(chunk.connection);
  }
}

void SessionServer::End(Connection* connection, StreamSink* sink, const char* lost) {
  if (connection->ended) return;
  connection->ended = true;
  std::string error = connection->decoder.error();
  if (error.empty() && lost != nullptr) error = lost;
  if (error.empty() && connection->decoder.PendingBytes() > 0) {
    error = "stream cut mid-record (" + std::to_string(connection->decoder.PendingBytes()) +
            " bytes left over)";
  }
  if (connection->started) {
    sink->OnStreamEnd(connection->process, error);
  } else if (!error.empty()) {
    sink->OnStreamRejected(error);
  }
}

bool SessionServer::streams_open() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!open_pids_.empty()) return true;
  }
  // The reader pushes a connection's end before it forgets the connection: checked in this order,
  // a connection that just closed is still in the backlog or already in connections_.
  return !backlog_.empty() || !connections_.empty();
}

std::vector<uint32_t> SessionServer::StreamingPids() {
  std::vector<uint32_t> pids;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pids = open_pids_;
  }
  pids.erase(std::remove(pids.begin(), pids.end(), 0u), pids.end());  // credentials unknown
  // A process may stream on two connections for a moment (a fork child's, then its exec's).
  std::sort(pids.begin(), pids.end());
  pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
  return pids;
}

void SessionServer::CloseAll(StreamSink* sink) {
  RequestStop();
  // Keep taking while the reader finishes its last push: it may be waiting for room. It pushes
  // nothing after saying it is done.
  while (!reader_done_.load(std::memory_order_acquire)) {
    pollfd ready{backlog_.ready_fd(), POLLIN, 0};
    poll(&ready, 1, 10);
    Drain(sink, SIZE_MAX);
  }
  reader_.join();
  Drain(sink, SIZE_MAX);
  for (auto& [id, connection] : connections_) End(connection.get(), sink);
  connections_.clear();
}

}  // namespace prof::collector
