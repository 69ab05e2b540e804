// The SQL files of analyze/ (rules/<name>.sql, views/<name>.sql, stand_ins/<table>.sql),
// compiled into prof_analyze: `prof analyze` never reads SQL from disk at run time.
#pragma once

#include <string>

#include "common/embedded_files.h"

namespace prof::analyze {

// Every embedded file, by path relative to analyze/ (e.g. "rules/gpu_gaps.sql").
const std::vector<EmbeddedFile>& EmbeddedSqlFiles();

inline std::optional<std::string_view> FindEmbeddedSql(const std::string& path) {
  return FindEmbeddedFile(EmbeddedSqlFiles(), path);
}

}  // namespace prof::analyze
