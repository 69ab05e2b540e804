// The text of an operator's range must be emit_nvtx's, character for character (torch 2.x's
// getNvtxStr), so that the CPU path and PyTorch's own emission give the same ranges.
#include "injection/pytorch/operator_range_text.h"

#include <catch2/catch.hpp>

using prof::injection::pytorch::OperatorRangeText;

TEST_CASE("an operator's range text carries its sequence number and op id", "[pytorch]") {
  CHECK(OperatorRangeText("aten::addmm", 7, 42, {}, {}) == "aten::addmm, seq = 7, op_id = 42");
  CHECK(OperatorRangeText("aten::empty", -1, 3, {}, {}) == "aten::empty, op_id = 3");
  CHECK(OperatorRangeText("aten::empty", -1, 0, {}, {}) == "aten::empty");
}

TEST_CASE("a sequence number below -1 without shapes gives the bare name", "[pytorch]") {
  CHECK(OperatorRangeText("aten::mm", -2, 5, {}, {}) == "aten::mm");
  // With shapes PyTorch (outside ROCm) leaves the name out; so does prof.
  CHECK(OperatorRangeText("aten::mm", -2, 5, {{2}}, {}) == ", op_id = 5, sizes = [[2]]");
}

TEST_CASE("the shapes form lists input sizes and the producers of the inputs", "[pytorch]") {
  CHECK(OperatorRangeText("aten::addmm", 3, 10, {{2}, {8, 256}, {256, 2}, {}, {}},
                          {{0, -1}, {9, 0}, {4, 0}, {0, -1}, {0, -1}}) ==
        "aten::addmm, seq = 3, op_id = 10, sizes = [[2], [8, 256], [256, 2], [], []], "
        "input_op_ids = [(0,-1), (9,0), (4,0), (0,-1), (0,-1)]");
}

TEST_CASE("the allocation-free form gives the same text and refuses a buffer too small") {
  using prof::injection::pytorch::FormatOperatorRange;
  char text[64];
  REQUIRE(FormatOperatorRange("aten::addmm", 7, 42, text, sizeof(text)));
  CHECK(std::string(text) == "aten::addmm, seq = 7, op_id = 42");
  REQUIRE(FormatOperatorRange("aten::empty", -1, 3, text, sizeof(text)));
  CHECK(std::string(text) == "aten::empty, op_id = 3");
  REQUIRE(FormatOperatorRange("aten::mm", -2, 5, text, sizeof(text)));
  CHECK(std::string(text) == "aten::mm");
  REQUIRE(FormatOperatorRange("aten::mm", 0, 18446744073709551615ull, text, sizeof(text)));
  CHECK(std::string(text) == "aten::mm, seq = 0, op_id = 18446744073709551615");
  // "aten::addmm, seq = 7, op_id = 42" is 32 characters: 33 bytes with the NUL.
  CHECK(FormatOperatorRange("aten::addmm", 7, 42, text, 33));
  CHECK_FALSE(FormatOperatorRange("aten::addmm", 7, 42, text, 32));
  CHECK_FALSE(FormatOperatorRange("aten::addmm", 7, 42, text, 0));
}
