#include "stats/output_files.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace prof::stats {

std::string OutputPath(const std::string& prefix, std::string_view report,
                       std::string_view extension) {
  return prefix + "_" + std::string(report) + "." + std::string(extension);
}

Status CheckOutputFile(const std::string& path, bool force_overwrite) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::is_directory(status))
    return Status::Error("cannot write " + path + ": it is a directory");
  if (fs::exists(status)) {
    if (!force_overwrite) {
      return Status::Error(path + " already exists (use --force-overwrite to replace it)");
    }
    if (access(path.c_str(), W_OK) != 0) {
      return Status::Error("cannot write " + path + ": " + std::strerror(errno));
    }
    return Status::Ok();
  }
  const fs::path parent = fs::path(path).parent_path();
  const std::string directory = parent.empty() ? "." : parent.string();
  if (access(directory.c_str(), W_OK) != 0) {
    return Status::Error("cannot write " + path + ": " + std::strerror(errno));
  }
  return Status::Ok();
}

Status CheckNotAnInput(const std::string& path, const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs) {
    std::error_code error;
    if (std::filesystem::equivalent(path, input, error)) {
      return Status::Error("the output " + path +
                           " is one of the reports read (choose another with -o)");
    }
  }
  return Status::Ok();
}

Status WriteOutputFile(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (file) file << text;
  if (file) file.close();
  if (!file) return Status::Error("cannot write " + path + ": " + std::strerror(errno));
  return Status::Ok();
}

}  // namespace prof::stats
