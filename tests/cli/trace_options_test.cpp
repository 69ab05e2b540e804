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
  CHECK(flags == (kTraceCublas | kTraceCudnn | kTraceCuda));
  REQUIRE(ParseTraceList("cuda-sw,nvtx", &flags).ok());
  CHECK(flags == (kTraceCuda | kTraceNvtx));
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

TEST_CASE("tracing cuDNN or cuBLAS alone traces CUDA too, as nsys does") {
  uint32_t flags = 0;
  REQUIRE(ParseTraceList("cudnn", &flags).ok());
  CHECK(flags == (kTraceCudnn | kTraceCuda));
  REQUIRE(ParseTraceList("cublas", &flags).ok());
  CHECK(flags == (kTraceCublas | kTraceCuda));
}

TEST_CASE("nsys's trace values for APIs prof does not trace are refused by name") {
  uint32_t flags = 7;
  CHECK(ParseTraceList("cuda,opengl,nvtx,osrt", &flags).message() ==
        "--trace=opengl is not supported: prof does not trace it; prof traces cuda, nvtx, osrt, "
        "cublas, cudnn, nccl, cuda-sw, none");
  CHECK(ParseTraceList("mpi", &flags).message().rfind("--trace=mpi is not supported", 0) == 0);
  CHECK(flags == 7);
}

TEST_CASE("unknown or contradictory trace values are errors naming the valid ones") {
  uint32_t flags = 7;
  auto status = ParseTraceList("cuda,gpu", &flags);
  CHECK_FALSE(status.ok());
  CHECK(status.message() ==
        "unknown --trace value 'gpu'; valid values: cuda, nvtx, osrt, cublas, cudnn, nccl, "
        "cuda-sw, none");
  CHECK(flags == 7);
  CHECK(ParseTraceList("none,osrt", &flags).message() ==
        "--trace=none cannot be combined with other values");
  CHECK(ParseTraceList("", &flags).message() ==
        "--trace needs a value: cuda, nvtx, osrt, cublas, cudnn, nccl, cuda-sw, none");
  CHECK(ParseTraceList("nvtx,", &flags).message() ==
        "unknown --trace value ''; valid values: cuda, nvtx, osrt, cublas, cudnn, nccl, cuda-sw, "
        "none");
}
