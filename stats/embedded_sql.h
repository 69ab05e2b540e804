// The SQL files of stats/ (reports/<name>.sql, views/<name>.sql), compiled into prof_stats:
// `prof stats` never reads SQL from disk at run time.
#pragma once

#include "common/embedded_files.h"

namespace prof::stats {

// Every embedded file, sorted by path relative to stats/ (e.g. "reports/nvtx_sum.sql").
const std::vector<EmbeddedFile>& EmbeddedSqlFiles();

inline std::optional<std::string_view> FindEmbeddedSql(std::string_view path) {
  return FindEmbeddedFile(EmbeddedSqlFiles(), path);
}

}  // namespace prof::stats
