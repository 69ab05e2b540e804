#include "stats/nsys_report_file.h"

#include <array>
#include <filesystem>
#include <string_view>

namespace prof::stats {
namespace {

struct NsysFileKind {
  std::string_view extension;
  std::string_view what;  // "an nsys report file (.nsys-rep)"
  bool needs_import;      // a capture stream: QdstrmImporter makes the .nsys-rep first
};

constexpr std::array<NsysFileKind, 3> kNsysFileKinds = {{
    {".nsys-rep", "an nsys report file (.nsys-rep)", false},
    {".qdrep", "an nsys report file (.qdrep)", false},
    {".qdstrm", "an nsys capture stream (.qdstrm)", true},
}};

}  // namespace

std::optional<Status> NsysReportFileError(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return std::nullopt;  // "not found" says it better
  for (const NsysFileKind& kind : kNsysFileKinds) {
    if (extension != kind.extension) continue;
    const std::string hint =
        kind.needs_import
            ? "; convert it with `QdstrmImporter -i " + path +
                  "`, run `nsys export --type sqlite` on the .nsys-rep and pass the "
                  ".sqlite"
            : "; run `nsys export --type sqlite " + path + "` first and pass the .sqlite";
    return Status::Error(path + " is " + std::string(kind.what) + hint);
  }
  return std::nullopt;
}

}  // namespace prof::stats
