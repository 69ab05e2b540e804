#include "stats/report_file_columns.h"

#include <filesystem>
#include <utility>

namespace prof::stats {

ReportFileLabel MakeReportFileLabel(const std::string& path, std::optional<int64_t> rank) {
  return {std::filesystem::path(path).filename().string(), rank};
}

std::string RankName(const ReportFileLabel& label) {
  return label.rank ? std::to_string(*label.rank) : label.file;
}

void AppendLabeledRows(const ReportFileLabel& label, bool with_rank, const ResultTable& table,
                       ResultTable* combined) {
  if (combined->columns.empty()) {
    combined->columns.push_back("File");
    if (with_rank) combined->columns.push_back("Rank");
    combined->columns.insert(combined->columns.end(), table.columns.begin(), table.columns.end());
  }
  for (const std::vector<Cell>& row : table.rows) {
    std::vector<Cell> labeled = {label.file};
    if (with_rank) {
      labeled.push_back(label.rank ? Cell(*label.rank) : Cell(std::monostate()));
    }
    labeled.insert(labeled.end(), row.begin(), row.end());
    combined->rows.push_back(std::move(labeled));
  }
}

}  // namespace prof::stats
