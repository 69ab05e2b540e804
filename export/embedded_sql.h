// The SQL files of export/sql/, compiled into prof_export: the export never reads SQL from disk.
#pragma once

#include "common/embedded_files.h"

namespace prof::exporter {

// Every embedded file, by path relative to export/sql/ (e.g. "nvtx_events.sql").
const std::vector<EmbeddedFile>& EmbeddedSqlFiles();

inline std::optional<std::string_view> FindEmbeddedSql(std::string_view path) {
  return FindEmbeddedFile(EmbeddedSqlFiles(), path);
}

}  // namespace prof::exporter
