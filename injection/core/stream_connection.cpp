#include "injection/core/stream_connection.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace prof::injection {
namespace {

constexpr int kHighDescriptor = 900;

// Moves `fd` to a number at or above kHighDescriptor (close-on-exec), out of the way of programs
// that dup2() onto low numbers; returns `fd` unchanged when no such number is free.
int MoveDescriptorHigh(int fd) {
  const long moved = syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, kHighDescriptor);
  if (moved < 0) return fd;
  syscall(SYS_close, fd);
  return static_cast<int>(moved);
}

}  // namespace

bool StreamConnection::Connect(const char* socket_path) {
  const int raw_fd = static_cast<int>(syscall(SYS_socket, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (raw_fd < 0) return false;
  const int fd = MoveDescriptorHigh(raw_fd);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, socket_path, sizeof(address.sun_path) - 1);
  if (syscall(SYS_connect, fd, &address, sizeof(address)) != 0) {
    syscall(SYS_close, fd);
    return false;
  }
  // A bounded send keeps a stalled launcher from hanging the program's exit.
  const timeval timeout{kSendTimeoutMs / 1000, (kSendTimeoutMs % 1000) * 1000};
  syscall(SYS_setsockopt, fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  struct stat identity {};
  if (syscall(SYS_fstat, fd, &identity) != 0) {
    syscall(SYS_close, fd);
    return false;
  }
  fd_ = fd;
  device_ = identity.st_dev;
  inode_ = identity.st_ino;
  return true;
}

bool StreamConnection::StillOurs() {
  if (fd_ < 0) return false;
  struct stat identity {};
  if (syscall(SYS_fstat, fd_.load(), &identity) != 0 || identity.st_dev != device_ ||
      identity.st_ino != inode_) {
    fd_ = -1;
  }
  return fd_ >= 0;
}

bool StreamConnection::SendAll(const char* data, size_t size) {
  if (!StillOurs()) return false;  // one check per call: each call sends a whole batch
  while (size > 0 && fd_ >= 0) {
    const long sent = syscall(SYS_sendto, fd_.load(), data, size, MSG_NOSIGNAL, nullptr, 0);
    if (sent > 0) {
      data += sent;
      size -= static_cast<size_t>(sent);
    } else if (sent < 0 && errno == EINTR) {
      continue;
    } else if (sent < 0 && (errno == EBADF || errno == ENOTSOCK)) {
      fd_ = -1;  // closed by the program between the check and the send: forget it
    } else {
      Abandon();
    }
  }
  return size == 0;
}

bool StreamConnection::TrySend(const char* data, size_t size) {
  if (!StillOurs()) return false;
  // Small enough to be one message the kernel queues whole, between other senders' messages.
  const long sent =
      syscall(SYS_sendto, fd_.load(), data, size, MSG_NOSIGNAL | MSG_DONTWAIT, nullptr, 0);
  return sent == static_cast<long>(size);
}

void StreamConnection::Abandon() {
  if (StillOurs()) syscall(SYS_close, fd_.load());
  fd_ = -1;
}

}  // namespace prof::injection
