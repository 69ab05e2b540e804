#include "collector/capture_page.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

namespace prof::collector {
namespace {

void CopyText(const std::string& text, char* out) {
  std::strncpy(out, text.c_str(), protocol::kMaxCaptureText - 1);
}

}  // namespace

Status CapturePage::Create(const std::string& socket_path, const CaptureOptions& options,
                           std::unique_ptr<CapturePage>* out) {
  std::string path(socket_path.size() + std::strlen(protocol::kCaptureControlFile) + 1, '\0');
  if (!protocol::CaptureControlPath(socket_path.c_str(), path.data(), path.size())) {
    return Status::Error("capture page path too long: " + socket_path);
  }
  path.resize(std::strlen(path.c_str()));
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Status::Error("cannot create " + path + ": " + std::strerror(errno));
  void* mapped = MAP_FAILED;
  if (ftruncate(fd, protocol::kCaptureControlSize) == 0) {
    mapped =
        mmap(nullptr, protocol::kCaptureControlSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  const int error = errno;
  close(fd);
  if (mapped == MAP_FAILED) {
    unlink(path.c_str());
    return Status::Error("cannot map " + path + ": " + std::strerror(error));
  }
  // The file is zero-filled: every atomic starts at 0 (kCaptureOff, not armed, no window).
  auto* control = new (mapped) protocol::CaptureControl;
  control->magic = protocol::kCaptureMagic;
  control->version = protocol::kCaptureVersion;
  control->range = options.range;
  control->max_windows = options.max_windows;
  control->nvtx_any_domain = options.nvtx_any_domain ? 1 : 0;
  control->nvtx_default_domain = !options.nvtx_any_domain && options.nvtx_domain.empty() ? 1 : 0;
  CopyText(options.nvtx_message, control->nvtx_message);
  CopyText(options.nvtx_domain, control->nvtx_domain);
  out->reset(new CapturePage(path, control));
  return Status::Ok();
}

CapturePage::~CapturePage() {
  munmap(control_, protocol::kCaptureControlSize);
  unlink(path_.c_str());
}

}  // namespace prof::collector
