// The summary across ranks (stats/rank_summary.h): value and key columns, the median, the MAD
// outlier rule, names and order.
#include "stats/rank_summary.h"

#include <catch2/catch.hpp>

#include "stats/cell_text.h"

namespace prof::stats {
namespace {

// The cells as printed: "98" for an integer, "101.0" for a REAL.
std::vector<std::string> Texts(const std::vector<Cell>& row) {
  std::vector<std::string> texts;
  for (const Cell& cell : row) texts.push_back(CellText(cell));
  return texts;
}

ResultTable KernelTable(const std::vector<std::pair<std::string, int64_t>>& totals) {
  ResultTable table;
  table.columns = {"Time (%)", "Total Time (ns)", "Instances", "Name"};
  for (const auto& [name, total] : totals) {
    table.rows.push_back({Cell(50.0), Cell(total), Cell(int64_t{1}), Cell(name)});
  }
  return table;
}

TEST_CASE("rank summary gives min median max and the outlier ranks per key", "[recipes]") {
  std::vector<ResultTable> tables;
  for (int64_t total : {100, 102, 98, 101, 160}) tables.push_back(KernelTable({{"gemm", total}}));
  tables[4].rows.push_back({Cell(50.0), Cell(int64_t{7}), Cell(int64_t{1}), Cell("relu")});
  std::vector<RankTable> ranks;
  for (size_t i = 0; i < tables.size(); ++i) ranks.push_back({std::to_string(i), &tables[i]});
  const std::optional<ResultTable> summary = SummarizeAcrossRanks(ranks);
  REQUIRE(summary);
  CHECK(summary->columns == std::vector<std::string>{"Name", "Ranks", "Min Total Time (ns)",
                                                     "Med Total Time (ns)", "Max Total Time (ns)",
                                                     "Max Rank", "Outlier Ranks"});
  REQUIRE(summary->rows.size() == 2);
  // Median 101, MAD 1 (deviations 1, 1, 3, 0, 59): beyond 3 x 1.4826 and 5.05 only rank 4.
  CHECK(Texts(summary->rows[0]) ==
        std::vector<std::string>{"gemm", "5", "98", "101.0", "160", "4", "4"});
  // One rank: nothing differs from the median.
  CHECK(Texts(summary->rows[1]) == std::vector<std::string>{"relu", "1", "7", "7.0", "7", "4", ""});
}

TEST_CASE("rank summary sums a file's rows of one key and needs a value column", "[recipes]") {
  ResultTable gaps;
  gaps.columns = {"Row#", "Duration (ns)", "Start (ns)"};
  gaps.rows = {{Cell(int64_t{1}), Cell(int64_t{30}), Cell(int64_t{0})},
               {Cell(int64_t{2}), Cell(int64_t{12}), Cell(int64_t{90})}};
  ResultTable other = gaps;
  other.rows.pop_back();
  const std::optional<ResultTable> summary =
      SummarizeAcrossRanks({{"a.sqlite", &gaps}, {"b.sqlite", &other}});
  REQUIRE(summary);
  CHECK(summary->columns.front() == "Ranks");  // no text column: one key
  REQUIRE(summary->rows.size() == 1);
  CHECK(Texts(summary->rows[0]) ==
        std::vector<std::string>{"2", "30", "36.0", "42", "a.sqlite", ""});

  ResultTable trace;
  trace.columns = {"Start (ns)", "Name"};
  trace.rows = {{Cell(int64_t{1}), Cell("x")}};
  CHECK_FALSE(SummarizeAcrossRanks({{"a", &trace}}));
}

}  // namespace
}  // namespace prof::stats
