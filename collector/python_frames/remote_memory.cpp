#include "collector/python_frames/remote_memory.h"

#include <signal.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace prof::collector {

bool RemoteMemory::Read(uint64_t address, void* out, size_t size) {
  iovec local{out, size};
  iovec remote{reinterpret_cast<void*>(address), size};
  ssize_t got = process_vm_readv(pid_, &local, 1, &remote, 1, 0);
  if (got == static_cast<ssize_t>(size)) return true;
  // A short read means the range's end is not mapped.
  last_error_ = got < 0 ? errno : EFAULT;
  return false;
}

size_t RemoteMemory::ReadMany(const std::vector<iovec>& local, const std::vector<iovec>& remote) {
  if (remote.empty()) return 0;
  ssize_t got = process_vm_readv(pid_, local.data(), local.size(), remote.data(), remote.size(), 0);
  if (got < 0) {
    last_error_ = errno;
    return 0;
  }
  return static_cast<size_t>(got);
}

bool RemoteMemory::ProcessGone() const {
  if (last_error_ == ESRCH) return true;
  if (kill(pid_, 0) != 0 && errno == ESRCH) return true;
  // A zombie (exited, not yet reaped) has no address space left.
  std::ifstream stat("/proc/" + std::to_string(pid_) + "/stat");
  std::string text;
  std::getline(stat, text);
  size_t paren = text.rfind(')');
  return paren == std::string::npos || (paren + 2 < text.size() && text[paren + 2] == 'Z');
}

std::string RemoteMemory::ErrorText() const {
  return "process_vm_readv of pid " + std::to_string(pid_) + ": " + std::strerror(last_error_) +
         " (errno " + std::to_string(last_error_) + ")";
}

}  // namespace prof::collector
