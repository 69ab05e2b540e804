#include "cli/output_path.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>

#include "tests/support/test_support.h"

using prof::cli::ExpandOutputPattern;
using prof::cli::ResolveReportPath;

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

TEST_CASE("report names get .sqlite - refuse to overwrite without force and default to reportN") {
  const std::string dir = prof::test::MakeTempDir("output_path");
  REQUIRE(chdir(dir.c_str()) == 0);
  std::string path;
  REQUIRE(ResolveReportPath("", 1, false, &path).ok());
  CHECK(path == "report1.sqlite");
  std::ofstream("report1.sqlite") << "x";
  std::ofstream("report2.sqlite") << "x";
  REQUIRE(ResolveReportPath("", 1, false, &path).ok());
  CHECK(path == "report3.sqlite");

  REQUIRE(ResolveReportPath("mine", 1, false, &path).ok());
  CHECK(path == "mine.sqlite");
  REQUIRE(ResolveReportPath("mine.sqlite", 1, false, &path).ok());
  CHECK(path == "mine.sqlite");
  CHECK(ResolveReportPath("report1", 1, false, &path).message() ==
        "report report1.sqlite already exists; use --force-overwrite=true to replace it");
  REQUIRE(ResolveReportPath("report1", 1, true, &path).ok());
  CHECK(path == "report1.sqlite");
}
