// The registry of item queries (diff/item_queries.h) against the SQL compiled into prof_diff.
#include "diff/item_queries.h"

#include <catch2/catch.hpp>

#include "diff/embedded_queries.h"

namespace prof::diff {
namespace {

TEST_CASE("diff has one compiled-in query per item kind in kind order", "[diff]") {
  const std::vector<ItemQuery>& queries = AllItemQueries();
  REQUIRE(queries.size() == 8);
  CHECK(EmbeddedQueryFiles().size() == queries.size());
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
