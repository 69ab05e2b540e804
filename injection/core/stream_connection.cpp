#include "injection/core/stream_connection.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace prof::injection {

int MoveDescriptorHigh(int fd) {
  const long moved = syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, kHighDescriptor);
  if (moved < 0) return fd;
  syscall(SYS_close, fd);
  return static_cast<int>(moved);
}

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
  fd_ = fd;
  return true;
}

bool StreamConnection::SendAll(const char* data, size_t size) {
  while (size > 0 && fd_ >= 0) {
    const long sent = syscall(SYS_sendto, fd_, data, size, MSG_NOSIGNAL, nullptr, 0);
    if (sent > 0) {
      data += sent;
      size -= static_cast<size_t>(sent);
    } else if (sent < 0 && errno == EINTR) {
      continue;
    } else if (sent < 0 && (errno == EBADF || errno == ENOTSOCK)) {
      // The program closed prof's descriptor (closefrom, close_range, daemons), and the number may
      // be one of its own files by now: forget it, never close it.
      fd_ = -1;
    } else {
      Abandon();
    }
  }
  return size == 0;
}

void StreamConnection::Abandon() {
  if (fd_ >= 0) syscall(SYS_close, fd_);
  fd_ = -1;
}

void StreamConnection::Close() {
  if (fd_ < 0) return;
  syscall(SYS_shutdown, fd_, SHUT_WR);
  Abandon();
}

}  // namespace prof::injection
