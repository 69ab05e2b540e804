// --pytorch's values: nsys's names, a comma list in any order, `none` alone.
#include "cli/pytorch_flags.h"

#include <catch2/catch.hpp>

using prof::cli::ParsePytorchModes;

TEST_CASE("pytorch modes become one canonical list", "[pytorch][cli]") {
  std::string modes = "x";
  REQUIRE(ParsePytorchModes("none", &modes).ok());
  CHECK(modes.empty());
  REQUIRE(ParsePytorchModes("functions-trace,autograd-nvtx", &modes).ok());
  CHECK(modes == "autograd-nvtx,functions-trace");
  REQUIRE(ParsePytorchModes("autograd-shapes-nvtx,autograd-shapes-nvtx", &modes).ok());
  CHECK(modes == "autograd-shapes-nvtx");
}

TEST_CASE("a bad pytorch mode is one error line naming the accepted ones", "[pytorch][cli]") {
  std::string modes;
  const prof::Status bogus = ParsePytorchModes("autograd", &modes);
  REQUIRE_FALSE(bogus.ok());
  CHECK(bogus.message() ==
        "--pytorch=autograd: 'autograd' is not a PyTorch mode; prof accepts "
        "--pytorch=autograd-nvtx|autograd-shapes-nvtx|functions-trace|none (a comma list)");
  CHECK_FALSE(ParsePytorchModes("none,functions-trace", &modes).ok());
  CHECK_FALSE(ParsePytorchModes("", &modes).ok());
}
