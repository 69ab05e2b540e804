#include "injection/core/capture_gate.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace prof::injection {
namespace {

std::atomic<uint32_t> g_always_on{protocol::kCaptureOn};
protocol::CaptureControl* g_page = nullptr;

}  // namespace

std::atomic<uint32_t>* g_capture_state = &g_always_on;

void MapCapturePage(const char* socket_path) {
  // Raw system calls and no allocation: this runs in a constructor, before the program's main,
  // and the OS-runtime interposers must not see prof's own set-up.
  char path[sizeof(protocol::InjectionSettings::socket_path) + 16];
  if (!protocol::CaptureControlPath(socket_path, path, sizeof(path))) return;
  const int fd = static_cast<int>(syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CLOEXEC));
  if (fd < 0) return;
  void* mapped =
      mmap(nullptr, protocol::kCaptureControlSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  syscall(SYS_close, fd);
  if (mapped == MAP_FAILED) return;
  auto* page = static_cast<protocol::CaptureControl*>(mapped);
  if (page->magic != protocol::kCaptureMagic || page->version != protocol::kCaptureVersion) {
    munmap(mapped, protocol::kCaptureControlSize);
    return;
  }
  g_page = page;
  g_capture_state = &page->state;
}

protocol::CaptureControl* CapturePage() { return g_page; }

}  // namespace prof::injection
