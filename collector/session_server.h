// The launcher's end of the record streams: a Unix socket in a private temporary directory that
// every traced process (the program and its children) connects to, and the poll loop that reads
// their records as they arrive.
//
// Single-threaded: the owner calls PollOnce() in a loop. Each connection gets its own decoder and
// ProcessStream; records reach the StreamSink in per-connection order.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "collector/process_stream.h"
#include "collector/stream_decoder.h"
#include "common/status.h"

namespace prof::collector {

class StreamSink {
 public:
  virtual ~StreamSink() = default;
  // The first record of a connection, a validated StreamHello; fills `process`.
  virtual void OnStreamStart(const protocol::RecordHeader& hello, ProcessStream* process) = 0;
  virtual void OnRecord(const ProcessStream& process, const protocol::RecordHeader& record) = 0;
  // The connection closed; `error` is empty for a well-formed stream, else it says how the stream
  // broke (corrupt framing, cut mid-record).
  virtual void OnStreamEnd(const ProcessStream& process, const std::string& error) = 0;
  // A connection closed before a valid hello (not prof's injection, or another version).
  virtual void OnStreamRejected(const std::string& error) = 0;
};

class SessionServer {
 public:
  // Creates the socket under $TMPDIR (or /tmp) in a fresh directory only this user can enter.
  static Status Listen(uint64_t session_start_ns, std::unique_ptr<SessionServer>* out);
  ~SessionServer();

  const std::string& socket_path() const { return socket_path_; }

  // Waits up to `timeout_ms` for connections, data or `extra_fd` (e.g. the child's pidfd; -1 for
  // none), then accepts and reads everything available. Returns true when `extra_fd` is readable.
  bool PollOnce(int timeout_ms, int extra_fd, StreamSink* sink);
  size_t open_connections() const { return connections_.size(); }
  // The pids of the processes whose streams are open (the traced processes still running), each
  // once.
  std::vector<uint32_t> StreamingPids() const;
  // Ends every connection still open (their records so far are kept).
  void CloseAll(StreamSink* sink);

 private:
  struct Connection {
    int fd = -1;
    bool started = false;
    StreamDecoder decoder;
    ProcessStream process;
  };

  SessionServer() = default;
  void AcceptPending();
  // Reads what `connection` has; false when it closed.
  bool ReadFrom(Connection* connection, StreamSink* sink);
  void Deliver(Connection* connection, StreamSink* sink);
  void End(Connection* connection, StreamSink* sink);

  int listen_fd_ = -1;
  std::string directory_;
  std::string socket_path_;
  uint64_t session_start_ns_ = 0;
  uint64_t streams_accepted_ = 0;
  std::vector<std::unique_ptr<Connection>> connections_;
};

}  // namespace prof::collector
