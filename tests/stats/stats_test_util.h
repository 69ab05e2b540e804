// Helpers for the stats tests: small hand-made report files with known answers, and report runs.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "stats/result_table.h"

namespace prof::stats::test {

using TextRows = std::vector<std::vector<std::string>>;

// Creates <fresh temp dir>/<name>.sqlite with META_DATA_EXPORT, StringIds and `tables` (paths of
// storage/schema/, e.g. "NVTX_EVENTS", the DDL prof's writer uses), then runs
// `rows_sql`. Returns its path.
std::string MakeReport(const std::string& name, const std::vector<std::string>& tables,
                       const std::string& rows_sql);

// Runs one report (by registry name) on `path`, with `options` ("nvtx=step"); fails the test on
// error.
ResultTable RunReport(const std::string& path, const std::string& report,
                      const std::vector<std::string>& options = {});

// Every cell as the csv format writes it.
TextRows Texts(const ResultTable& table);

// nsys's serialized GlobalId of a thread, as SQL text.
std::string Tid(uint32_t pid, uint32_t tid);

// `text` with every occurrence of each pair's first string replaced by its second.
std::string ReplaceAll(std::string text,
                       const std::vector<std::pair<std::string, std::string>>& replacements);

// Parses csv text as Python's csv module writes it (quoted fields, doubled quotes).
TextRows ParseCsv(const std::string& text);

std::string ReadFile(const std::string& path);

}  // namespace prof::stats::test
