// The launcher's end of the record streams: a Unix socket in a private temporary directory that
// every traced process (the program and its children) connects to.
//
// Two threads: a reader thread accepts connections, reads their control records (hello, rank,
// ring segments, drain requests, exit) and drains each process's thread rings (shared memory,
// collector/process_rings) into a StreamBacklog, every kDrainIntervalMs and whenever a process
// asks; the owner's thread calls PollOnce() in a loop, which decodes what the reader queued and
// hands the records to the StreamSink. Each connection gets its own decoder and ProcessStream;
// records reach the sink in per-connection order, on the owner's thread only.
//
// A connection's stream ends once its process can write no more records: its socket closed and
// either it said it exits (an exit record, sent from the library destructor; the kernel closes
// the socket when the last thread is gone) or it no longer has its rings attached (it died, or
// exec'd a new image, which streams on a connection of its own). Then its rings are drained one
// last time, records that a death cut are counted (TornRecords), and the rings are unmapped. A
// process that closed the socket itself and lives on (closefrom, dup2 over it) keeps its stream:
// its rings are drained as before until it is gone.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "collector/cpu_samples/self_sampled_processes.h"
#include "collector/process_death.h"
#include "collector/process_rings.h"
#include "collector/process_stream.h"
#include "collector/stream_backlog.h"
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

// Sees what the reader thread drains from a process's rings before the owner's sink does, which
// may be much later: for reading the process's state while the records are fresh and it still
// runs (collector/cpu_samples/drain_time_reads.h). Called on the reader thread only.
class RingRecordObserver {
 public:
  virtual ~RingRecordObserver() = default;
  // Process `pid` connected on stream `stream` (ProcessStream::stream_id): a new process, or one
  // that exec'd a new image.
  virtual void OnStreamConnected(uint64_t stream, uint32_t pid) = 0;
  // `records`: whole records of stream `stream` (of process `pid`), as the stream will carry them.
  virtual void OnRingRecords(uint64_t stream, uint32_t pid, const char* records, size_t size) = 0;
  // Stream `stream`'s rings were drained for the last time.
  virtual void OnStreamDrained(uint64_t stream) = 0;
};

class SessionServer {
 public:
  // Creates the socket under $TMPDIR (or /tmp) in a fresh directory only this user can enter, and
  // starts reading. `observer` and `self_sampled` (may be null) must outlive the server; the
  // reader tells `self_sampled` which processes sample themselves (their hello's flag) and when
  // they stop (their exit record, or their stream's end).
  static StatusOr<std::unique_ptr<SessionServer>> Listen(
      uint64_t session_start_ns, RingRecordObserver* observer = nullptr,
      SelfSampledProcesses* self_sampled = nullptr);
  ~SessionServer();

  const std::string& socket_path() const { return socket_path_; }
  // Where bytes wait on disk when the records arrive faster than the sink takes them (the report's
  // directory); until this is called they wait in memory only.
  void SpillTo(const std::string& directory) { backlog_.SpillTo(directory); }

  // Waits up to `timeout_ms` for records or `extra_fd` (e.g. the child's pidfd; -1 for none), then
  // hands the sink what arrived (a bounded amount, so that the caller's timers keep running).
  // Returns true when `extra_fd` is readable.
  bool PollOnce(int timeout_ms, int extra_fd, StreamSink* sink);
  // Whether a traced process may still send records: a connection is open, or bytes read from one
  // still wait for the sink.
  bool streams_open();
  // The pids of the processes whose connections are open (the traced processes still running),
  // each once; from the socket's peer credentials, so known before their records are decoded.
  std::vector<uint32_t> StreamingPids();
  // Stops reading, hands the sink every byte already read, then ends every connection still open
  // (their records so far are kept).
  void CloseAll(StreamSink* sink);
  // Stream bytes still waiting in the spill file.
  uint64_t bytes_waiting_on_disk() { return backlog_.bytes_on_disk(); }
  // Whether connections had to wait because prof ran out of file descriptors.
  bool descriptors_exhausted() const {
    return descriptors_exhausted_.load(std::memory_order_relaxed);
  }

 private:
  // The reader thread's view of a connection.
  struct Socket {
    int fd = -1;  // -1 once closed while its process lives on
    uint64_t id = 0;
    uint32_t pid = 0;
    std::vector<char> control;  // socket bytes not yet a whole record
    ProcessRings rings;
    bool exit_sent = false;  // its process sent the exit record
    bool raw = false;        // the socket's framing broke: its bytes go on as they are
    bool drain_requested = false;
    bool ended = false;  // its end is queued: forget it
    uint64_t next_liveness_check_ns = 0;
    // How a signal killed its process, read as its socket closed (or its stream ended) without an
    // exit record.
    std::optional<ProcessDeath> death;
  };
  // The owner thread's view: what its bytes decoded to so far.
  struct Connection {
    bool started = false;
    bool ended = false;  // the stream broke: later bytes are ignored
    StreamDecoder decoder;
    ProcessStream process;
  };

  SessionServer();
  // Reader thread.
  void ReadLoop();
  // Accepts waiting connections; stops accepting while prof is out of file descriptors.
  void AcceptPending();
  // Reads what `socket` has and acts on its records; false when it closed.
  bool ReadFrom(Socket* socket);
  // Handles the whole records at the front of socket->control.
  void TakeControlRecords(Socket* socket);
  // Queues `size` bytes of `socket`'s stream.
  void Forward(const Socket& socket, const char* data, size_t size);
  // Queues what the rings of `socket` published, at most `byte_limit` bytes (after
  // ProcessRings::Ended(), everything that is left).
  void DrainRings(Socket* socket, size_t byte_limit);
  // The socket closed: ends the stream, or keeps draining while the process lives on.
  void OnSocketClosed(Socket* socket);
  void EndStream(Socket* socket);
  // A process that a signal killed (socket.death): its stream ends with a ProcessKilledRecord.
  // Its parent usually tells first (it reaps the process, often before this reader sees the
  // socket close); this tells for processes whose parent is not traced or never waits.
  void TellHowItDied(const Socket& socket);
  // Drains every connection's rings (requested or periodic) and ends the streams of processes
  // that are gone.
  void DrainPass(bool periodic);
  // Tells the reader to stop at its next look.
  void RequestStop();
  // Stops the reader, throwing away what it would still push.
  void StopReading();

  // Owner thread.
  // Hands the sink queued chunks until none waits or `byte_budget` is spent.
  void Drain(StreamSink* sink, size_t byte_budget);
  void Deliver(const StreamChunk& chunk, StreamSink* sink);
  // Ends a connection's stream; `lost`: why bytes of it are missing, when the decoder cannot tell.
  void End(Connection* connection, StreamSink* sink, const char* lost = nullptr);

  int listen_fd_ = -1;
  int stop_fd_ = -1;  // an eventfd: readable once the reader must stop
  std::string directory_;
  std::string socket_path_;
  uint64_t session_start_ns_ = 0;
  RingRecordObserver* ring_observer_ = nullptr;
  SelfSampledProcesses* self_sampled_ = nullptr;
  StreamBacklog backlog_;
  std::thread reader_;
  std::atomic<bool> reader_done_{false};

  // Reader thread only, but for what StreamingPids() and streams_open() read under mutex_.
  std::vector<std::unique_ptr<Socket>> sockets_;
  uint64_t next_periodic_drain_ns_ = 0;
  uint64_t streams_accepted_ = 0;
  // Out of descriptors: the listening socket stays readable, so it leaves the poll set (instead
  // of waking it forever) until a connection closes and frees one, or a retry succeeds.
  bool accept_paused_ = false;
  std::atomic<bool> descriptors_exhausted_{false};
  std::mutex mutex_;
  std::vector<uint32_t> open_pids_;      // one per open socket, guarded by mutex_
  std::vector<uint32_t> accepted_pids_;  // every stream's, reader thread (then the destructor)

  std::unordered_map<uint64_t, std::unique_ptr<Connection>> connections_;
};

}  // namespace prof::collector
