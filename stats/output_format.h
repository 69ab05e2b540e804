// The output formats of `prof stats -f`, chosen by name from a table (no if-chains). A format
// renders one report's rows to text; it is never given an empty table (empty reports are skipped
// before rendering).
#pragma once

#include <string>
#include <string_view>

#include "stats/result_table.h"

namespace prof::stats {

struct OutputFormat {
  std::string_view name;       // -f value: column, table, csv, tsv, json
  std::string_view extension;  // of the `<prefix>_<report>.<ext>` files written with -o
  bool titled;                 // on stdout, preceded by nsys's " ** <Title> (<report>):" line
  std::string (*render)(const ResultTable& table);
};

// nullptr when `name` is not a format.
const OutputFormat* FindOutputFormat(std::string_view name);
// "column, table, csv, tsv, json", for error messages.
std::string OutputFormatNames();

}  // namespace prof::stats
