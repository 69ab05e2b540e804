// The files of storage/schema/ (table DDL, index DDL, enum rows), compiled into prof_storage.
#pragma once

#include "common/embedded_files.h"

namespace prof::storage {

// Every schema file, sorted by path relative to storage/schema/ (e.g. "tables/nvtx_events.sql").
const std::vector<EmbeddedFile>& EmbeddedSchemaFiles();

inline std::optional<std::string_view> FindSchemaFile(std::string_view path) {
  return FindEmbeddedFile(EmbeddedSchemaFiles(), path);
}

}  // namespace prof::storage
