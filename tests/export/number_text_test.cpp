// Sizes and counts as prof's messages print them (prof export's "wrote FILE (SIZE)", prof profile's summary).
#include "common/number_text.h"

#include <catch2/catch.hpp>

namespace prof {
namespace {

TEST_CASE("byte sizes print in decimal units with one decimal", "[export]") {
  CHECK(ByteSizeText(0) == "0 B");
  CHECK(ByteSizeText(999) == "999 B");
  CHECK(ByteSizeText(1000) == "1.0 kB");
  CHECK(ByteSizeText(12'345) == "12.3 kB");
  CHECK(ByteSizeText(999'949) == "999.9 kB");
  CHECK(ByteSizeText(999'950) == "1.0 MB");  // not "1000.0 kB"
  CHECK(ByteSizeText(12'345'678) == "12.3 MB");
  CHECK(ByteSizeText(1'860'000'000) == "1.9 GB");
  CHECK(ByteSizeText(5'000'000'000'000'000) == "5000.0 TB");
}

}  // namespace
}  // namespace prof

TEST_CASE("counts get thousands separators") {
  CHECK(prof::CountText(0) == "0");
  CHECK(prof::CountText(999) == "999");
  CHECK(prof::CountText(1000) == "1,000");
  CHECK(prof::CountText(1234567) == "1,234,567");
}
