// The registry of item queries (diff/item_queries.h) against the SQL compiled into prof_diff.
#include "diff/item_queries.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "diff/embedded_queries.h"

namespace prof::diff {
namespace {

TEST_CASE("diff has one compiled-in query per item kind in kind order", "[diff]") {
  const std::vector<ItemQuery>& queries = AllItemQueries();
  REQUIRE(queries.size() == 8);
  // Every other compiled-in file is a view (queries/views/) some query reads.
  size_t views = 0;
  for (const EmbeddedFile& file : EmbeddedQueryFiles()) {
    if (file.path.rfind("queries/views/", 0) != 0) continue;
    ++views;
    const std::string_view view = file.path.substr(14, file.path.size() - 14 - 4);
    INFO(file.path);
    CHECK(DiffViewSql(view) == file.text);
    CHECK(std::any_of(queries.begin(), queries.end(), [&](const ItemQuery& query) {
      return std::find(query.views.begin(), query.views.end(), view) != query.views.end();
    }));
  }
  CHECK(EmbeddedQueryFiles().size() == queries.size() + views);
  for (size_t index = 0; index < queries.size(); ++index) {
    INFO(ItemKindName(queries[index].kind));
    CHECK(static_cast<size_t>(queries[index].kind) == index);
    // Each file opens with its header comment naming the kind it computes.
    CHECK(queries[index].sql.find("of kind " + std::string(ItemKindName(queries[index].kind))) !=
          std::string_view::npos);
  }
}

}  // namespace
}  // namespace prof::diff
