// The process's connection to the launcher's Unix socket. Raw system calls only: the libc wrappers
// may be interposed by the OS-runtime tracer, and these calls must never be traced or re-entered.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstddef>

namespace prof::injection {

class StreamConnection {
 public:
  // Connects to `socket_path`; false when the launcher is not there.
  bool Connect(const char* socket_path);
  // Sends all `size` bytes, waiting at most kSendTimeoutMs for the launcher to read; false (and the
  // connection closed) when the launcher is gone or stalled that long.
  bool SendAll(const char* data, size_t size);
  // Sends a message of a few bytes if the socket has room now, never waiting; false when not sent
  // (the launcher then finds it on its next periodic pass instead).
  bool TrySend(const char* data, size_t size);
  // Closes (a fork child dropping the parent's connection, a stream that could not start).
  void Abandon();
  bool connected() const { return fd_ >= 0; }

  static constexpr int kSendTimeoutMs = 2000;

 private:
  // False, and the descriptor forgotten (never closed), once its number no longer refers to the
  // socket Connect() made: the program closed it (closefrom, close_range, daemons) and the number
  // may be one of its own files or sockets by now.
  bool StillOurs();

  // Atomic: the program's threads send small messages (drain requests) besides the main ones.
  std::atomic<int> fd_{-1};
  dev_t device_ = 0;
  ino_t inode_ = 0;
};

}  // namespace prof::injection
