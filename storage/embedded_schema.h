// The files of storage/schema/ (table DDL, index DDL, enum rows), compiled into prof_storage by
// storage/schema/embed_schema.cmake: reports never depend on files read at run time.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace prof::storage {

struct EmbeddedSchemaFile {
  std::string_view path;  // relative to storage/schema/, e.g. "tables/nvtx_events.sql"
  std::string_view text;
};

// Every schema file, sorted by path.
const std::vector<EmbeddedSchemaFile>& EmbeddedSchemaFiles();

// The text of one schema file, or nullopt when no such file was compiled in.
inline std::optional<std::string_view> FindSchemaFile(std::string_view path) {
  for (const EmbeddedSchemaFile& file : EmbeddedSchemaFiles()) {
    if (file.path == path) return file.text;
  }
  return std::nullopt;
}

}  // namespace prof::storage
