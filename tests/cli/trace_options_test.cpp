#include "cli/trace_options.h"

#include <catch2/catch.hpp>

#include "injection/protocol/launch_settings.h"

using namespace prof::protocol;
using prof::cli::ParseTraceList;

TEST_CASE("trace lists map to flags") {
  uint32_t flags = 99;
  REQUIRE(ParseTraceList("cuda,nvtx,osrt", &flags).ok());
  CHECK(flags == (kTraceCuda | kTraceNvtx | kTraceOsrt));
  REQUIRE(ParseTraceList("nvtx", &flags).ok());
  CHECK(flags == kTraceNvtx);
  REQUIRE(ParseTraceList("cublas,cudnn", &flags).ok());
  CHECK(flags == (kTraceCublas | kTraceCudnn));
  REQUIRE(ParseTraceList("none", &flags).ok());
  CHECK(flags == 0);
}

TEST_CASE("trace value nccl records NCCL's NVTX ranges, so it turns on NVTX tracing") {
  uint32_t flags = 99;
  REQUIRE(ParseTraceList("nccl", &flags).ok());
  CHECK(flags == kTraceNvtx);
  REQUIRE(ParseTraceList("cuda,nccl", &flags).ok());
  CHECK(flags == (kTraceCuda | kTraceNvtx));
}

TEST_CASE("unknown or contradictory trace values are errors naming the valid ones") {
  uint32_t flags = 7;
  auto status = ParseTraceList("cuda,gpu", &flags);
  CHECK_FALSE(status.ok());
  CHECK(status.message() ==
        "unknown --trace value 'gpu'; valid values: cuda, nvtx, osrt, cublas, cudnn, nccl, none");
  CHECK(flags == 7);
  CHECK(ParseTraceList("none,osrt", &flags).message() ==
        "--trace=none cannot be combined with other values");
  CHECK(ParseTraceList("", &flags).message() ==
        "--trace needs a value: cuda, nvtx, osrt, cublas, cudnn, nccl, none");
  CHECK(ParseTraceList("nvtx,", &flags).message() ==
        "unknown --trace value ''; valid values: cuda, nvtx, osrt, cublas, cudnn, nccl, none");
}
