// Interposers of pipes and sockets, including the fortified receive entry points.
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "injection/osrt/wrapper_support.h"

// Declared by glibc's headers only under _FORTIFY_SOURCE, which this library is built without.
extern "C" {
ssize_t __recv_chk(int fd, void* buffer, size_t length, size_t buffer_size, int flags);
ssize_t __recvfrom_chk(int fd, void* buffer, size_t length, size_t buffer_size, int flags,
                       sockaddr* address, socklen_t* address_length);
}

extern "C" PROF_EXPORT int pipe(int fds[2]) noexcept {
  return PROF_OSRT_FORWARD(pipe, syscall(SYS_pipe2, fds, 0), fds);
}

extern "C" PROF_EXPORT int pipe2(int fds[2], int flags) noexcept {
  return PROF_OSRT_FORWARD(pipe2, syscall(SYS_pipe2, fds, flags), fds, flags);
}

extern "C" PROF_EXPORT int socket(int domain, int type, int protocol) noexcept {
  return PROF_OSRT_FORWARD(socket, syscall(SYS_socket, domain, type, protocol), domain, type,
                           protocol);
}

extern "C" PROF_EXPORT int socketpair(int domain, int type, int protocol, int fds[2]) noexcept {
  return PROF_OSRT_FORWARD(socketpair, syscall(SYS_socketpair, domain, type, protocol, fds), domain,
                           type, protocol, fds);
}

extern "C" PROF_EXPORT int connect(int fd, const sockaddr* address, socklen_t length) {
  return PROF_OSRT_FORWARD(connect, syscall(SYS_connect, fd, address, length), fd, address, length);
}

extern "C" PROF_EXPORT int accept(int fd, sockaddr* address, socklen_t* length) {
  return PROF_OSRT_FORWARD(accept, syscall(SYS_accept4, fd, address, length, 0), fd, address,
                           length);
}

extern "C" PROF_EXPORT int accept4(int fd, sockaddr* address, socklen_t* length, int flags) {
  return PROF_OSRT_FORWARD(accept4, syscall(SYS_accept4, fd, address, length, flags), fd, address,
                           length, flags);
}

extern "C" PROF_EXPORT int bind(int fd, const sockaddr* address, socklen_t length) noexcept {
  return PROF_OSRT_FORWARD(bind, syscall(SYS_bind, fd, address, length), fd, address, length);
}

extern "C" PROF_EXPORT int listen(int fd, int backlog) noexcept {
  return PROF_OSRT_FORWARD(listen, syscall(SYS_listen, fd, backlog), fd, backlog);
}

extern "C" PROF_EXPORT ssize_t send(int fd, const void* buffer, size_t length, int flags) {
  return PROF_OSRT_FORWARD(send, syscall(SYS_sendto, fd, buffer, length, flags, nullptr, 0), fd,
                           buffer, length, flags);
}

extern "C" PROF_EXPORT ssize_t sendto(int fd, const void* buffer, size_t length, int flags,
                                      const sockaddr* address, socklen_t address_length) {
  return PROF_OSRT_FORWARD(sendto,
                           syscall(SYS_sendto, fd, buffer, length, flags, address, address_length),
                           fd, buffer, length, flags, address, address_length);
}

extern "C" PROF_EXPORT ssize_t sendmsg(int fd, const msghdr* message, int flags) {
  return PROF_OSRT_FORWARD(sendmsg, syscall(SYS_sendmsg, fd, message, flags), fd, message, flags);
}

extern "C" PROF_EXPORT ssize_t recv(int fd, void* buffer, size_t length, int flags) {
  return PROF_OSRT_FORWARD(recv, syscall(SYS_recvfrom, fd, buffer, length, flags, nullptr, nullptr),
                           fd, buffer, length, flags);
}

extern "C" PROF_EXPORT ssize_t recvfrom(int fd, void* buffer, size_t length, int flags,
                                        sockaddr* address, socklen_t* address_length) {
  return PROF_OSRT_FORWARD(
      recvfrom, syscall(SYS_recvfrom, fd, buffer, length, flags, address, address_length), fd,
      buffer, length, flags, address, address_length);
}

extern "C" PROF_EXPORT ssize_t recvmsg(int fd, msghdr* message, int flags) {
  return PROF_OSRT_FORWARD(recvmsg, syscall(SYS_recvmsg, fd, message, flags), fd, message, flags);
}

extern "C" PROF_EXPORT ssize_t __recv_chk(int fd, void* buffer, size_t length, size_t buffer_size,
                                          int flags) {
  return PROF_OSRT_FORWARD(__recv_chk,
                           syscall(SYS_recvfrom, fd, buffer, length, flags, nullptr, nullptr), fd,
                           buffer, length, buffer_size, flags);
}

extern "C" PROF_EXPORT ssize_t __recvfrom_chk(int fd, void* buffer, size_t length,
                                              size_t buffer_size, int flags, sockaddr* address,
                                              socklen_t* address_length) {
  return PROF_OSRT_FORWARD(
      __recvfrom_chk, syscall(SYS_recvfrom, fd, buffer, length, flags, address, address_length), fd,
      buffer, length, buffer_size, flags, address, address_length);
}
