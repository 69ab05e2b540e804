// Text files compiled into prof (report SQL, schema DDL) by cmake/prof_embed.cmake, so that prof
// never depends on files read at run time.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace prof {

struct EmbeddedFile {
  std::string_view path;  // relative to the folder it was embedded from
  std::string_view text;
};

// The text of `path` among `files`, or nullopt when no such file was compiled in.
inline std::optional<std::string_view> FindEmbeddedFile(const std::vector<EmbeddedFile>& files,
                                                        std::string_view path) {
  for (const EmbeddedFile& file : files) {
    if (file.path == path) return file.text;
  }
  return std::nullopt;
}

}  // namespace prof
