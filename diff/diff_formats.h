// The output formats of `prof diff -f`, chosen by name from a table: stats' column, table, csv
// and tsv renderers over the human columns, json over the stable machine keys (diff_table.h), and
// markdown for pull-request comments.
#pragma once

#include <string>
#include <string_view>

#include "stats/result_table.h"

namespace prof::diff {

struct DiffFormat {
  std::string_view name;    // -f value
  bool machine_keys;        // rendered from MachineDiffTable (else HumanDiffTable)
  bool leads_with_summary;  // the document starts with the summary line (markdown)
  std::string (*render)(const stats::ResultTable& table);
};

// nullptr when `name` is not a format.
const DiffFormat* FindDiffFormat(std::string_view name);
// "column, table, csv, tsv, json, markdown", for error messages.
std::string DiffFormatNames();

}  // namespace prof::diff
