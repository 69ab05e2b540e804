// The SQL files of stats/ (reports/<name>.sql, views/<name>.sql), compiled into prof_stats by
// stats/embed_sql.cmake: `prof stats` never reads SQL from disk at run time.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace prof::stats {

struct EmbeddedSqlFile {
  std::string_view path;  // relative to stats/, e.g. "reports/nvtx_sum.sql"
  std::string_view text;
};

// Every embedded file, sorted by path.
const std::vector<EmbeddedSqlFile>& EmbeddedSqlFiles();

// The text of one embedded file, or nullopt when no such file was compiled in.
inline std::optional<std::string_view> FindEmbeddedSql(std::string_view path) {
  for (const EmbeddedSqlFile& file : EmbeddedSqlFiles()) {
    if (file.path == path) return file.text;
  }
  return std::nullopt;
}

}  // namespace prof::stats
