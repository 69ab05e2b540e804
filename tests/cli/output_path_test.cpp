#include "cli/output_path.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>

using prof::cli::DefaultReportPath;
using prof::cli::ExpandOutputPattern;
using prof::cli::ExpandReportPath;

TEST_CASE("output patterns expand %p - %h - %q{VAR} and %%") {
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  setenv("PROF_TEST_RUN", "nightly", 1);
  std::string out;
  REQUIRE(ExpandOutputPattern("run_%p_%h_%q{PROF_TEST_RUN}_100%%", 4242, &out).ok());
  CHECK(out == std::string("run_4242_") + host + "_nightly_100%");
}

// The per-rank names of docs/multi-gpu.md: torchrun, SLURM and Open MPI set these per rank.
TEST_CASE("rank%q{RANK} names one report per rank") {
  setenv("RANK", "1", 1);
  setenv("SLURM_PROCID", "12", 1);
  setenv("OMPI_COMM_WORLD_RANK", "3", 1);
  std::string out;
  REQUIRE(ExpandOutputPattern("rank%q{RANK}", 4242, &out).ok());
  CHECK(out == "rank1");
  REQUIRE(ExpandOutputPattern("rank%q{SLURM_PROCID}", 4242, &out).ok());
  CHECK(out == "rank12");
  REQUIRE(ExpandOutputPattern("run/rank%q{OMPI_COMM_WORLD_RANK}_%p", 4242, &out).ok());
  CHECK(out == "run/rank3_4242");
  unsetenv("RANK");
  unsetenv("SLURM_PROCID");
  unsetenv("OMPI_COMM_WORLD_RANK");
}

TEST_CASE("bad output patterns are errors") {
  std::string out;
  unsetenv("PROF_TEST_UNSET");
  CHECK(ExpandOutputPattern("a%q{PROF_TEST_UNSET}", 1, &out).message() ==
        "environment variable PROF_TEST_UNSET used in --output is not set");
  CHECK(ExpandOutputPattern("a%x", 1, &out).message() ==
        "unknown sequence %x in --output: a%x (valid: %p, %h, %q{VAR}, %%)");
  CHECK(ExpandOutputPattern("a%q{X", 1, &out).message() == "unterminated %q{ in --output: a%q{X");
}

TEST_CASE("report names get .sqlite and default to reportN") {
  std::string path;
  REQUIRE(ExpandReportPath("mine", 1, &path).ok());
  CHECK(path == "mine.sqlite");
  REQUIRE(ExpandReportPath("mine.sqlite", 1, &path).ok());
  CHECK(path == "mine.sqlite");
  REQUIRE(ExpandReportPath("out/step_%p", 77, &path).ok());
  CHECK(path == "out/step_77.sqlite");
  CHECK(ExpandReportPath("a%x", 1, &path).message() ==
        "unknown sequence %x in --output: a%x (valid: %p, %h, %q{VAR}, %%)");
  CHECK(DefaultReportPath(1) == "report1.sqlite");
  CHECK(DefaultReportPath(12) == "report12.sqlite");
}
