// The output formats of `prof stats -f`, chosen by name from a table (no if-chains), with nsys's
// format arguments: `-f <name>[:<arg>...]` (`csv:nohdr`, `column:nolimit`). A format renders one
// report's rows to text; it is never given an empty table (empty reports are skipped before
// rendering).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "stats/result_table.h"

namespace prof::stats {

// The arguments of nsys's formats that prof implements.
struct FormatArgs {
  bool header = true;       // nohdr: no header line (nor its underline or box rule)
  bool width_limit = true;  // nolimit (column, table): no 100-character cap on a column's width
  // column, table: a column is as wide as its header and its widest cell among the first
  // `width_rows` rows (nsys: 100); a wider cell further down is clipped.
  size_t width_rows = 100;
};

// The widest a column of column or table output gets without `nolimit` (nsys's limit).
constexpr size_t kMaxColumnWidth = 100;

// `args` with columns sized by every row and no cap: for prof's own tables of sentences and names
// (prof analyze's findings, prof diff's rows), which clipping would make useless.
constexpr FormatArgs WithWholeCells(FormatArgs args) {
  args.width_limit = false;
  args.width_rows = SIZE_MAX;
  return args;
}

struct OutputFormat {
  std::string_view name;       // -f value: column, table, csv, tsv, json
  std::string_view extension;  // of the `<prefix>_<report>.<ext>` files written with -o
  bool titled;                 // on stdout, preceded by nsys's " ** <Title> (<report>):" line
  std::string (*render)(const ResultTable& table, const FormatArgs& args);
  std::array<std::string_view, 2> arguments;  // the arguments it accepts; "" fills the rest
};

// A format and its arguments, as one `-f` item names them.
struct FormatChoice {
  const OutputFormat* format = nullptr;
  FormatArgs args;

  std::string Render(const ResultTable& table) const { return format->render(table, args); }
};

// nullptr when `name` is not a format.
const OutputFormat* FindOutputFormat(std::string_view name);
// "column, table, csv, tsv, json", for error messages.
std::string OutputFormatNames();
// "<name>[:<arg>...]"; fails on an unknown format, or an argument the format does not take.
StatusOr<FormatChoice> ParseFormat(std::string_view spec);

}  // namespace prof::stats
