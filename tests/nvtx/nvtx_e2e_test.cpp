// End-to-end: `prof profile --trace=nvtx` on C++ programs built with the vendored NVTX headers and
// on a Python program that calls NVTX through ctypes; asserts the exact NVTX_EVENTS rows.
#include <catch2/catch.hpp>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "storage/global_id.h"
#include "tests/support/test_support.h"

namespace prof::test {
namespace {

using Rows = std::vector<std::vector<std::string>>;

struct Profiled {
  std::string report;
  std::string output;                    // the program's stdout (through prof's)
  std::map<std::string, uint32_t> tids;  // from the program's "tid <name> <tid>" lines
  uint32_t pid = 0;                      // the main thread's tid
  std::string Gtid(const std::string& name) const {
    return std::to_string(storage::GlobalTid(pid, tids.at(name)));
  }
};

Profiled Profile(const std::string& test_name, const std::vector<std::string>& program,
                 const std::string& main_thread) {
  Profiled profiled;
  profiled.report = MakeTempDir(test_name) + "/r.sqlite";
  std::vector<std::string> argv = {ProfBinary(), "profile", "--trace=nvtx", "-o", profiled.report};
  argv.insert(argv.end(), program.begin(), program.end());
  const CommandResult result = RunCommand(argv);
  INFO("prof stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  profiled.output = result.out;
  std::istringstream lines(result.out);
  std::string word, name;
  uint32_t tid = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    if (fields >> word >> name >> tid && word == "tid") profiled.tids[name] = tid;
  }
  REQUIRE(profiled.tids.count(main_thread) == 1);
  profiled.pid = profiled.tids.at(main_thread);
  return profiled;
}

std::string Count(const Profiled& profiled, const std::string& where) {
  return QueryRows(profiled.report, "SELECT count(*) FROM NVTX_EVENTS WHERE " + where).at(0).at(0);
}

std::string ThreadName(const Profiled& profiled, const std::string& thread) {
  const Rows rows = QueryRows(profiled.report,
                              "SELECT s.value FROM ThreadNames AS t JOIN StringIds AS s ON "
                              "s.id = t.nameId WHERE t.globalTid = " +
                                  profiled.Gtid(thread));
  REQUIRE(rows.size() == 1);
  return rows[0][0];
}

TEST_CASE("nested push/pop ranges on several named threads", "[nvtx][e2e]") {
  const Profiled p =
      Profile("nvtx_e2e_threads", {TestProgram("nvtx_threads_program")}, "nvtx-main");
  REQUIRE(p.tids.size() == 4);
  Rows expected = {{"main-outer", p.Gtid("nvtx-main"), "1"}};
  for (const std::string worker : {"worker-0", "worker-1", "worker-2"}) {
    expected.push_back({worker + "-inner", p.Gtid(worker), "4"});
    expected.push_back({worker + "-iteration", p.Gtid(worker), "4"});
  }
  CHECK(QueryRows(p.report,
                  "SELECT text, globalTid, count(*) FROM NVTX_EVENTS GROUP BY text, globalTid "
                  "ORDER BY text") == expected);
  // Every row is a closed push/pop range of the default domain, written as nsys writes them.
  CHECK(Count(p,
              "eventType != 59 OR end IS NULL OR end <= start OR domainId != 0 OR "
              "endGlobalTid IS NOT NULL OR rangeId IS NOT NULL OR textId IS NOT NULL OR "
              "category IS NOT NULL OR color IS NOT NULL") == "0");
  // Each inner range lies in exactly one iteration of its own thread; iterations never overlap.
  CHECK(QueryRows(p.report,
                  "SELECT count(*) FROM NVTX_EVENTS AS i JOIN NVTX_EVENTS AS o ON "
                  "o.globalTid = i.globalTid AND o.start <= i.start AND i.end <= o.end AND "
                  "o.text = replace(i.text, '-inner', '-iteration') WHERE i.text LIKE '%-inner'")
            .at(0)
            .at(0) == "12");
  CHECK(QueryRows(p.report,
                  "SELECT count(*) FROM NVTX_EVENTS AS a JOIN NVTX_EVENTS AS b ON "
                  "a.globalTid = b.globalTid AND a.rowid < b.rowid AND a.start < b.end AND "
                  "b.start < a.end WHERE a.text LIKE '%-iteration' AND b.text LIKE '%-iteration'")
            .at(0)
            .at(0) == "0");
  CHECK(QueryRows(p.report,
                  "SELECT count(*) FROM NVTX_EVENTS AS w, NVTX_EVENTS AS m WHERE "
                  "m.text = 'main-outer' AND w.text LIKE 'worker-%' AND "
                  "(w.start < m.start OR w.end > m.end)")
            .at(0)
            .at(0) == "0");
  CHECK(ThreadName(p, "nvtx-main") == "nvtx-main");
  CHECK(ThreadName(p, "worker-0") == "worker-0");
  CHECK(ThreadName(p, "worker-1") == "worker-1");
  CHECK(ThreadName(p, "worker-2") == "worker-2");
}

TEST_CASE("a thread's first NVTX calls inside a signal handler allocate nothing",
          "[nvtx][e2e][signal]") {
  const Profiled p = Profile("nvtx_e2e_signal", {TestProgram("nvtx_signal_program")}, "main");
  REQUIRE(p.tids.size() == 2);
  CHECK_THAT(p.output, Catch::Contains("allocations in the handler: 0\n"));
  CHECK(QueryRows(p.report,
                  "SELECT text, eventType, globalTid, end IS NOT NULL FROM NVTX_EVENTS "
                  "ORDER BY start") == Rows{{"main starts", "34", p.Gtid("main"), "0"},
                                            {"in the handler", "59", p.Gtid("worker"), "1"},
                                            {"mark in the handler", "34", p.Gtid("worker"), "0"}});
}

TEST_CASE("start/end ranges across threads and ranges open at exit", "[nvtx][e2e]") {
  const Profiled p = Profile("nvtx_e2e_start_end", {TestProgram("nvtx_start_end_program")}, "main");
  REQUIRE(p.tids.size() == 3);
  const Rows expected = {{"ended-by-ender", "60", "1", p.Gtid("main"), p.Gtid("ender"), "1"},
                         {"same-thread", "60", "1", p.Gtid("main"), "NULL", "1"},
                         {"started-by-starter", "60", "1", p.Gtid("starter"), p.Gtid("main"), "1"},
                         {"left-open", "60", "1", p.Gtid("main"), "NULL", "NULL"},
                         {"left-pushed", "59", "0", p.Gtid("main"), "NULL", "NULL"}};
  CHECK(QueryRows(p.report,
                  "SELECT text, eventType, rangeId IS NOT NULL, globalTid, endGlobalTid, "
                  "end > start FROM NVTX_EVENTS ORDER BY start") == expected);
  CHECK(Count(p,
              "eventType = 60 AND rangeId IN (SELECT rangeId FROM NVTX_EVENTS AS o WHERE "
              "o.rowid != NVTX_EVENTS.rowid)") == "0");
}

TEST_CASE("domains - registered strings - categories - colours and payloads", "[nvtx][e2e]") {
  const Profiled p = Profile("nvtx_e2e_domains", {TestProgram("nvtx_domains_program")}, "main");
  CHECK(p.output.find("push 0\npop 0\n") != std::string::npos);
  const Rows domains = QueryRows(
      p.report, "SELECT text, domainId FROM NVTX_EVENTS WHERE eventType = 75 ORDER BY start");
  REQUIRE(domains.size() == 2);
  CHECK(domains[0][0] == "net");
  CHECK(domains[1][0] == "disk");
  const std::string net = domains[0][1], disk = domains[1][1];
  CHECK(net != "0");
  CHECK(disk != "0");
  CHECK(net != disk);
  const std::string main = p.Gtid("main");
  const Rows expected = {
      // eventType, text, registered text, domainId, category, color, payload columns, end set
      {"75", "net", "NULL", net, "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL",
       "0"},
      {"75", "disk", "NULL", disk, "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL",
       "0"},
      {"33", "io", "NULL", net, "1", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "0"},
      {"33", "storage", "NULL", disk, "2", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL",
       "0"},
      {"33", "compute", "NULL", "0", "3", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL",
       "0"},
      {"59", "NULL", "send", net, "1", "4279312947", "123", "NULL", "NULL", "NULL", "NULL", "NULL",
       "1"},
      {"34", "NULL", "read", disk, "NULL", "NULL", "NULL", "NULL", "0.5", "NULL", "NULL", "NULL",
       "0"},
      {"34", "int64 mark", "NULL", "0", "NULL", "NULL", "NULL", "-9", "NULL", "NULL", "NULL",
       "NULL", "0"},
      {"34", "uint32 mark", "NULL", "0", "NULL", "NULL", "NULL", "NULL", "NULL", "4000000000",
       "NULL", "NULL", "0"},
      {"34", "int32 mark", "NULL", "0", "3", "NULL", "NULL", "NULL", "NULL", "NULL", "-7", "NULL",
       "0"},
      {"34", "float mark", "NULL", "0", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL",
       "1.5", "0"},
      {"60", "disk op", "NULL", disk, "2", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL",
       "1"},
      {"59",
       "wide \xC3\xBCnic\xC3\xB8"
       "de \xE2\x82\xAC",
       "NULL", "0", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "1"},
      {"34", "plain mark", "NULL", "0", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL",
       "NULL", "0"},
      {"76", "NULL", "NULL", disk, "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL",
       "0"}};
  CHECK(QueryRows(p.report,
                  "SELECT eventType, text, (SELECT value FROM StringIds WHERE id = textId), "
                  "domainId, category, color, uint64Value, int64Value, doubleValue, uint32Value, "
                  "int32Value, floatValue, end IS NOT NULL FROM NVTX_EVENTS ORDER BY start") ==
        expected);
  CHECK(Count(p, "globalTid != " + main + " OR endGlobalTid IS NOT NULL OR end < start") == "0");
}

TEST_CASE("Python programs reach NVTX through ctypes", "[nvtx][e2e][python]") {
  const Profiled p = Profile(
      "nvtx_e2e_python", {PROF_PYTHON3, PROF_NVTX_PYTHON_PROGRAM, PROF_NVTX_API_LIBRARY}, "main");
  CHECK(p.output.find("levels 0 1 1 0 0 0 -1\n") != std::string::npos);
  const Rows domain = QueryRows(p.report, "SELECT domainId FROM NVTX_EVENTS WHERE eventType = 75");
  REQUIRE(domain.size() == 1);
  const std::string main = p.Gtid("main");
  const Rows expected = {{"py-outer", "59", main, "0", "NULL", "NULL", "1"},
                         {"py-inner", "59", main, "0", "NULL", "NULL", "1"},
                         {"py-mark", "34", main, "0", "NULL", "NULL", "0"},
                         {"py-thread", "59", p.Gtid("worker"), "0", "NULL", "NULL", "1"},
                         {"pydomain", "75", main, domain[0][0], "NULL", "NULL", "0"},
                         {"py-domain-range", "59", main, domain[0][0], "4278255360", "77", "1"}};
  CHECK(QueryRows(p.report,
                  "SELECT text, eventType, globalTid, domainId, color, uint64Value, "
                  "end IS NOT NULL FROM NVTX_EVENTS ORDER BY start") == expected);
  CHECK(Count(p,
              "text = 'py-inner' AND (start < (SELECT start FROM NVTX_EVENTS WHERE "
              "text = 'py-outer') OR end > (SELECT end FROM NVTX_EVENTS WHERE "
              "text = 'py-outer'))") == "0");
}

}  // namespace
}  // namespace prof::test
