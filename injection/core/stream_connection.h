// The process's connection to the launcher's Unix socket. Raw system calls only: the libc wrappers
// may be interposed by the OS-runtime tracer, and these calls must never be traced or re-entered.
#pragma once

#include <cstddef>

namespace prof::injection {

// Moves `fd` to a number at or above kHighDescriptor (close-on-exec), out of the way of programs
// that dup2() onto low numbers; returns `fd` unchanged when no such number is free.
int MoveDescriptorHigh(int fd);
inline constexpr int kHighDescriptor = 900;

class StreamConnection {
 public:
  // Connects to `socket_path`; false when the launcher is not there.
  bool Connect(const char* socket_path);
  // Sends all `size` bytes, waiting at most kSendTimeoutMs for the launcher to read; false (and the
  // connection closed) when the launcher is gone or stalled that long.
  bool SendAll(const char* data, size_t size);
  // Closes without telling the peer anything (fork child dropping the parent's connection).
  void Abandon();
  // Signals end of stream and closes.
  void Close();
  bool connected() const { return fd_ >= 0; }

  static constexpr int kSendTimeoutMs = 2000;

 private:
  int fd_ = -1;
};

}  // namespace prof::injection
