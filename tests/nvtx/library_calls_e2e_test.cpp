// End-to-end: --trace=cublas,cudnn records the API calls cuBLAS/cuBLASLt and cuDNN annotate in
// their NVTX domains as CUBLAS_EVENTS / CUDNN_EVENTS rows (nsys's eventClass 29 / 28), apart from
// the program's own NVTX ranges; without those values the domains are ordinary NVTX domains.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "storage/global_id.h"
#include "tests/support/test_support.h"

namespace prof::test {
namespace {

using Rows = std::vector<std::vector<std::string>>;

struct Profiled {
  std::string report;
  std::string output;
  uint32_t pid = 0;
};

Profiled Profile(const std::string& test_name, const std::string& trace,
                 const std::vector<std::string>& extra = {}) {
  Profiled profiled;
  profiled.report = MakeTempDir(test_name) + "/r.sqlite";
  std::vector<std::string> argv = {ProfBinary(), "profile", "--trace=" + trace, "-o",
                                   profiled.report};
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.push_back(TestProgram("nvtx_library_program"));
  const CommandResult result = RunCommand(argv);
  INFO("prof stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  profiled.output = result.out;
  const size_t at = result.out.find("tid main ");
  REQUIRE(at != std::string::npos);
  profiled.pid = static_cast<uint32_t>(std::stoul(result.out.substr(at + 9)));
  return profiled;
}

bool HasTable(const std::string& report, const std::string& table) {
  return QueryRows(report, "SELECT count(*) FROM sqlite_master WHERE name = '" + table + "'")
             .at(0)
             .at(0) == "1";
}

// name, eventClass, globalTid, whether the call lies inside the program's "step" range
Rows LibraryCalls(const std::string& report, const std::string& table) {
  return QueryRows(report,
                   "SELECT s.value, c.eventClass, c.globalTid, c.start < c.end AND c.start >= "
                   "n.start AND c.end <= n.end FROM " +
                       table +
                       " AS c JOIN StringIds AS s ON s.id = c.nameId, NVTX_EVENTS AS n "
                       "WHERE n.text = 'step' ORDER BY c.start");
}

TEST_CASE("tracing cublas and cudnn writes library calls and the program ranges stay NVTX",
          "[nvtx][e2e][libraries]") {
  const Profiled p = Profile("library_calls_all", "nvtx,cublas,cudnn");
  CHECK(p.output.find(
            "env CUBLAS_NVTX_LEVEL 1\nenv CUBLASLT_NVTX_LEVEL 1\nenv CUDNN_NVTX_LEVEL 1\n") !=
        std::string::npos);
  const std::string gtid = std::to_string(storage::GlobalTid(p.pid, p.pid));
  const std::vector<std::string> matmul = {"cublasLtSSSMatmul", "29", gtid, "1"};
  CHECK(LibraryCalls(p.report, "CUBLAS_EVENTS") == Rows{matmul, matmul, matmul});
  const std::vector<std::string> execute = {"cudnnBackendExecute", "28", gtid, "1"};
  CHECK(LibraryCalls(p.report, "CUDNN_EVENTS") == Rows{execute, execute});
  // Only the program's own range and no trace of the library domains (creation, mark, calls).
  CHECK(QueryRows(p.report, "SELECT eventType, text FROM NVTX_EVENTS") == Rows{{"59", "step"}});
}

TEST_CASE("tracing cublas alone records cuBLAS calls only", "[nvtx][e2e][libraries]") {
  const Profiled p = Profile("library_calls_cublas", "cublas");
  CHECK(p.output.find(
            "env CUBLAS_NVTX_LEVEL 1\nenv CUBLASLT_NVTX_LEVEL 1\nenv CUDNN_NVTX_LEVEL unset\n") !=
        std::string::npos);
  CHECK(
      QueryRows(p.report, "SELECT count(*), min(eventClass), max(eventClass) FROM CUBLAS_EVENTS") ==
      Rows{{"3", "29", "29"}});
  CHECK_FALSE(HasTable(p.report, "CUDNN_EVENTS"));
  CHECK_FALSE(HasTable(p.report, "NVTX_EVENTS"));
}

TEST_CASE("without tracing cublas and cudnn the library domains are NVTX domains",
          "[nvtx][e2e][libraries]") {
  // The user's own level setting is kept, and passed through to NVTX_EVENTS like nsys does.
  const Profiled p = Profile("library_calls_nvtx", "nvtx", {"-e", "CUBLAS_NVTX_LEVEL=2"});
  CHECK(p.output.find("env CUBLAS_NVTX_LEVEL 2\nenv CUBLASLT_NVTX_LEVEL unset\n") !=
        std::string::npos);
  CHECK_FALSE(HasTable(p.report, "CUBLAS_EVENTS"));
  CHECK(
      QueryRows(p.report,
                "SELECT eventType, coalesce(n.text, s.value), count(*) FROM NVTX_EVENTS AS n LEFT "
                "JOIN StringIds AS s ON s.id = n.textId GROUP BY 1, 2 ORDER BY 1, 2") ==
      Rows{{"34", "not a call", "1"},
           {"59", "cublasDestroy_v2", "1"},
           {"59", "cublasLtSSSMatmul", "3"},
           {"59", "cudnnBackendExecute", "2"},
           {"59", "step", "1"},
           {"75", "cuBLAS", "1"},
           {"75", "cuDNN", "1"}});
}

}  // namespace
}  // namespace prof::test
