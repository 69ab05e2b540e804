// The launcher's end of the capture page (injection/protocol/capture_control.h): creates the file
// in the session's private directory, maps it and writes the configuration before the program
// starts. The file lives as long as this object; the mapping is the launcher's view of the windows.
#pragma once

#include <memory>
#include <string>

#include "collector/capture_options.h"
#include "common/status.h"
#include "injection/protocol/capture_control.h"

namespace prof::collector {

class CapturePage {
 public:
  // The page goes next to the launcher's socket, where the injection looks for it.
  static Status Create(const std::string& socket_path, const CaptureOptions& options,
                       std::unique_ptr<CapturePage>* out);
  ~CapturePage();
  CapturePage(const CapturePage&) = delete;
  CapturePage& operator=(const CapturePage&) = delete;

  protocol::CaptureControl* control() const { return control_; }

 private:
  CapturePage(std::string path, protocol::CaptureControl* control)
      : path_(std::move(path)), control_(control) {}
  std::string path_;
  protocol::CaptureControl* control_;
};

}  // namespace prof::collector
