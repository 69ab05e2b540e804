// End to end: `prof profile -t nvtx,osrt` captures the program's whole process tree. Every process
// started through posix_spawn, system(), `sh -c` (children in parallel), Python's subprocess and
// multiprocessing's 'spawn' method is a PROCESSES row with its own NVTX and OS-runtime rows, and
// prof waits for children that outlive the program (as nsys does by default) while exiting with the
// program's own exit code.
#include <catch2/catch.hpp>
#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using prof::test::CommandResult;
using prof::test::MakeTempDir;
using prof::test::ProfBinary;
using prof::test::QueryRows;
using prof::test::RunCommand;
using prof::test::TestProgram;

namespace {

using Rows = std::vector<std::vector<std::string>>;

struct TreeRun {
  CommandResult result;
  std::string report;
};

// Runs `prof profile -t nvtx,osrt` on `command` and checks that it exited with `expected_exit`.
TreeRun ProfileTree(const std::string& test_name, const std::vector<std::string>& command,
                    int expected_exit = 0) {
  TreeRun run;
  run.report = MakeTempDir(test_name) + "/r.sqlite";
  std::vector<std::string> argv = {ProfBinary(), "profile", "-q",      "-t",
                                   "nvtx,osrt",  "-o",      run.report};
  argv.insert(argv.end(), command.begin(), command.end());
  run.result = RunCommand(argv);
  INFO("prof stdout:\n" << run.result.out << "\nprof stderr:\n" << run.result.err);
  REQUIRE(run.result.exit_code == expected_exit);
  return run;
}

// The number after `key` in the program's output.
std::string PidAfter(const std::string& text, const std::string& key) {
  const size_t at = text.find(key);
  INFO("no '" << key << "' in program output:\n" << text);
  REQUIRE(at != std::string::npos);
  return std::to_string(std::strtol(text.c_str() + at + key.size(), nullptr, 10));
}

// PROCESSES.name of every process, sorted.
Rows ProcessNames(const std::string& report) {
  return QueryRows(report, "SELECT name FROM PROCESSES ORDER BY name");
}

std::string ProcessName(const std::string& report, const std::string& pid) {
  const Rows rows = QueryRows(report, "SELECT name FROM PROCESSES WHERE pid = " + pid);
  REQUIRE(rows.size() == 1);
  return rows[0][0];
}

// The NVTX texts of one process's threads, in start order.
Rows NvtxTexts(const std::string& report, const std::string& pid) {
  return QueryRows(report, "SELECT text FROM NVTX_EVENTS WHERE (globalTid >> 24) & 16777215 = " +
                               pid + " ORDER BY start");
}

// How many OSRT_API rows of `function` one process has.
std::string OsrtCount(const std::string& report, const std::string& pid,
                      const std::string& function) {
  return QueryRows(report,
                   "SELECT count(*) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId "
                   "WHERE s.value = '" +
                       function + "' AND (o.globalTid >> 24) & 16777215 = " + pid)
      .at(0)
      .at(0);
}

// A leaf ("tree_program leaf TAG") ran as its own process: one NVTX range TAG and one usleep.
void CheckLeaf(const std::string& report, const std::string& pid, const std::string& tag) {
  INFO("leaf " << tag << " pid " << pid);
  CHECK(ProcessName(report, pid) == "tree_program");
  CHECK(NvtxTexts(report, pid) == Rows{{tag}});
  CHECK(OsrtCount(report, pid, "usleep") == "1");
  // The range lasts at least the 20 ms sleep inside it.
  const Rows range = QueryRows(report,
                               "SELECT end - start >= 20000000 FROM NVTX_EVENTS WHERE "
                               "text = '" +
                                   tag + "'");
  CHECK(range == Rows{{"1"}});
}

// The interpreter itself, not a launcher script (pyenv's shim is a shell script that would add
// processes of its own to the tree).
std::string RealPython() {
  const CommandResult result =
      RunCommand({PROF_PYTHON3, "-c", "import sys; print(sys.executable, end='')"});
  REQUIRE(result.exit_code == 0);
  REQUIRE(result.out.find('/') == 0);
  return result.out;
}

// tree_program family's two marks, each with the pid that made it: "child" from the child the
// program printed, "parent" from another process.
void CheckFamilyMarks(const std::string& report, const std::string& program_output) {
  const Rows marks = QueryRows(report,
                               "SELECT text, (globalTid >> 24) & 0xFFFFFF FROM NVTX_EVENTS "
                               "WHERE eventType = 34 ORDER BY text");
  REQUIRE(marks.size() == 2);
  CHECK(marks[0] == Rows::value_type{"child", PidAfter(program_output, "child=")});
  CHECK(marks[1][0] == "parent");
  CHECK(marks[1][1] != marks[0][1]);
}

TEST_CASE("the end of --duration kills the program's descendants too, in another group or not") {
  const std::string report = MakeTempDir("tree-kill") + "/r.sqlite";
  // timeout's SIGKILL bounds a failure: prof would wait 60 s for the child it failed to kill. Both
  // marks are made well inside the 2 s, sanitizer builds included, and reach prof within 0.1 s.
  const CommandResult result =
      RunCommand({"timeout", "-s", "KILL", "30", ProfBinary(), "profile", "-q", "-t", "nvtx",
                  "--duration=2", "-o", report, TestProgram("tree_program"), "family"});
  INFO("stdout:\n" << result.out << "\nstderr:\n" << result.err);
  CHECK(result.exit_code == 128 + SIGTERM);
  CheckFamilyMarks(report, result.out);
}

TEST_CASE("SIGTERM sent to prof reaches the program's descendants") {
  const std::string report = MakeTempDir("tree-sigterm") + "/r.sqlite";
  // SIGTERM once both marks are made (the program prints child=N then) and have had time to reach
  // prof: a process killed by a signal loses what its ring still held (docs/architecture.md).
  const std::string out = MakeTempDir("tree-sigterm-out") + "/out";
  const std::string script = "'" + ProfBinary() + "' profile -q -t nvtx -o '" + report + "' '" +
                             TestProgram("tree_program") + "' family > '" + out +
                             "' & prof=$!; until grep -q child= '" + out +
                             "'; do sleep 0.05; done; sleep 0.5; kill -TERM $prof; wait $prof; " +
                             "echo prof-exit=$?; cat '" + out + "'";
  const CommandResult result = RunCommand({"timeout", "-s", "KILL", "30", "sh", "-c", script});
  INFO("stdout:\n" << result.out << "\nstderr:\n" << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(PidAfter(result.out, "prof-exit=") == std::to_string(128 + SIGTERM));
  CheckFamilyMarks(report, result.out);
}

TEST_CASE("SIGINT sent to prof reaches the program and the report is finished") {
  const std::string dir = MakeTempDir("tree-sigint");
  const std::string report = dir + "/r.sqlite";
  const std::string ready = dir + "/ready";
  // kill -INT to prof alone (not a terminal's Ctrl-C, which reaches the program by itself).
  // A background job of sh starts with SIGINT ignored, and so would the program: it restores the
  // default itself, as a program started from a terminal has it, and then says it is ready (a
  // fixed wait lost the race on a loaded machine under the sanitizers).
  const std::string script =
      "'" + ProfBinary() + "' profile -q -t osrt -o '" + report + "' '" + RealPython() +
      "' -c 'import signal, time; signal.signal(signal.SIGINT, signal.SIG_DFL); "
      "open(\"" +
      ready +
      "\", \"w\").close(); time.sleep(20)' "
      "& prof=$!; while [ ! -e '" +
      ready +
      "' ]; do sleep 0.05; done; kill -INT $prof; "
      "wait $prof; echo prof-exit=$?";
  const CommandResult result = RunCommand({"sh", "-c", script});
  INFO("stdout:\n" << result.out << "\nstderr:\n" << result.err);
  REQUIRE(result.exit_code == 0);
  // The program dies of the forwarded SIGINT.
  CHECK(PidAfter(result.out, "prof-exit=") == std::to_string(128 + SIGINT));
  CHECK(QueryRows(report, "SELECT value FROM PROF_SESSION WHERE name = 'exit_status'") ==
        Rows{{std::to_string(128 + SIGINT)}});
}

TEST_CASE("a second SIGINT finishes the report while the program keeps running") {
  const std::string dir = MakeTempDir("tree-sigint-twice");
  const std::string report = dir + "/r.sqlite";
  // The program ignores SIGINT (so does the sleep it execs) and would run 20 s; prof gives up
  // waiting at the second SIGINT, and the script ends the program.
  const std::string script =
      "start=$(date +%s); '" + ProfBinary() + "' profile -t osrt -o '" + report +
      "' sh -c 'trap \"\" INT; exec >/dev/null 2>&1; echo $$ > " + dir +
      "/pid; exec sleep 20' & prof=$!; sleep 1; kill -INT $prof; sleep 0.5; kill -INT $prof; "
      "wait $prof; echo prof-exit=$?; echo seconds=$(( $(date +%s) - start )); "
      "kill -TERM $(cat " +
      dir + "/pid)";
  const CommandResult result = RunCommand({"sh", "-c", script});
  INFO("stdout:\n" << result.out << "\nstderr:\n" << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(PidAfter(result.out, "prof-exit=") == std::to_string(128 + SIGINT));
  CHECK(std::stoi(PidAfter(result.out, "seconds=")) < 10);
  CHECK(result.err.find("interrupted twice: finishing the report with the data that arrived") !=
        std::string::npos);
  CHECK(ProcessNames(report) == Rows{{"sleep"}});
}

}  // namespace

TEST_CASE("a posix_spawn child is a process of its own with its NVTX and OS-runtime rows") {
  const TreeRun run = ProfileTree("tree-posix-spawn", {TestProgram("tree_program"), "spawn"});
  const std::string child = PidAfter(run.result.out, "child=");
  CHECK(PidAfter(run.result.out, "leaf spawned pid=") == child);
  CHECK(ProcessNames(run.report) == Rows{{"tree_program"}, {"tree_program"}});
  CHECK(QueryRows(run.report, "SELECT count(DISTINCT pid) FROM PROCESSES") == Rows{{"2"}});
  CheckLeaf(run.report, child, "spawned");
  const std::string parent =
      QueryRows(run.report, "SELECT pid FROM PROCESSES WHERE pid != " + child).at(0).at(0);
  CHECK(NvtxTexts(run.report, parent).empty());
  CHECK(OsrtCount(run.report, parent, "posix_spawn") == "1");
  CHECK(OsrtCount(run.report, parent, "waitpid") == "1");
  CHECK(OsrtCount(run.report, parent, "usleep") == "0");
}

TEST_CASE("system() traces the shell and the program it runs") {
  const TreeRun run = ProfileTree("tree-system", {TestProgram("tree_program"), "system"});
  const std::string leaf = PidAfter(run.result.out, "leaf system pid=");
  CHECK(ProcessNames(run.report) == Rows{{"sh"}, {"tree_program"}, {"tree_program"}});
  CHECK(QueryRows(run.report, "SELECT count(DISTINCT pid) FROM PROCESSES") == Rows{{"3"}});
  CheckLeaf(run.report, leaf, "system");
  const Rows top = QueryRows(run.report,
                             "SELECT pid FROM PROCESSES WHERE name = 'tree_program' "
                             "AND pid != " +
                                 leaf);
  REQUIRE(top.size() == 1);
  CHECK(OsrtCount(run.report, top[0][0], "system") == "1");
  CHECK(NvtxTexts(run.report, top[0][0]).empty());
}

TEST_CASE("sh -c with a background and a foreground child traces both children") {
  const std::string leaf = TestProgram("tree_program");
  const TreeRun run = ProfileTree(
      "tree-sh-parallel", {"sh", "-c", "'" + leaf + "' leaf a & '" + leaf + "' leaf b; wait"});
  const std::string a = PidAfter(run.result.out, "leaf a pid=");
  const std::string b = PidAfter(run.result.out, "leaf b pid=");
  CHECK(a != b);
  CHECK(ProcessNames(run.report) == Rows{{"sh"}, {"tree_program"}, {"tree_program"}});
  CHECK(QueryRows(run.report, "SELECT count(DISTINCT pid) FROM PROCESSES") == Rows{{"3"}});
  CheckLeaf(run.report, a, "a");
  CheckLeaf(run.report, b, "b");
  const std::string shell =
      QueryRows(run.report, "SELECT pid FROM PROCESSES WHERE name = 'sh'").at(0).at(0);
  CHECK(NvtxTexts(run.report, shell).empty());
  CHECK(OsrtCount(run.report, shell, "usleep") == "0");
}

TEST_CASE("Python's subprocess.run child is traced under the python3 process") {
  const TreeRun run = ProfileTree(
      "tree-python-subprocess",
      {RealPython(), PROF_TREE_PYTHON_PROGRAM, "subprocess", TestProgram("tree_program")});
  const std::string leaf = PidAfter(run.result.out, "leaf py-subprocess pid=");
  CHECK(ProcessNames(run.report) == Rows{{"python3"}, {"tree_program"}});
  CheckLeaf(run.report, leaf, "py-subprocess");
  const std::string python =
      QueryRows(run.report, "SELECT pid FROM PROCESSES WHERE name = 'python3'").at(0).at(0);
  CHECK(NvtxTexts(run.report, python).empty());
  CHECK(OsrtCount(run.report, python, "usleep") == "0");
}

TEST_CASE("a multiprocessing spawn worker is a process of its own with its NVTX range and child") {
  const TreeRun run =
      ProfileTree("tree-python-spawn", {RealPython(), PROF_TREE_PYTHON_PROGRAM, "spawn",
                                        TestProgram("tree_program"), PROF_NVTX_API_LIBRARY});
  const std::string worker = PidAfter(run.result.out, "worker=");
  const std::string leaf = PidAfter(run.result.out, "leaf py-spawned pid=");
  // The program, multiprocessing's resource tracker (started for the 'spawn' method), the worker
  // and the leaf the worker runs. The worker is named by its role (its target, `worker`) when one
  // of its samples caught it there (docs/sampling.md), else by its interpreter: it mostly waits.
  const std::string worker_name = ProcessName(run.report, worker);
  CHECK((worker_name == "python3" || worker_name == "worker"));
  CHECK(QueryRows(run.report,
                  "SELECT name FROM PROCESSES WHERE pid != " + worker + " ORDER BY name") ==
        Rows{{"python3"}, {"python3"}, {"tree_program"}});
  CHECK(QueryRows(run.report, "SELECT count(DISTINCT pid) FROM PROCESSES") == Rows{{"4"}});
  CHECK(NvtxTexts(run.report, worker) == Rows{{"py-worker"}});
  CheckLeaf(run.report, leaf, "py-spawned");
  // The worker's range holds the leaf's whole run (one clock in every process).
  const Rows nested =
      QueryRows(run.report,
                "SELECT w.start <= l.start AND l.end <= w.end FROM NVTX_EVENTS w, "
                "NVTX_EVENTS l WHERE w.text = 'py-worker' AND l.text = 'py-spawned'");
  CHECK(nested == Rows{{"1"}});
  CHECK(QueryRows(run.report, "SELECT count(*) FROM NVTX_EVENTS") == Rows{{"2"}});
}

TEST_CASE("prof waits for a child that outlives the program and exits with the program's code") {
  // 1 s is inside the 2 s that prof used to wait for left-behind processes; 3 s is past it.
  for (const char* linger_ms : {"1000", "3000"}) {
    DYNAMIC_SECTION("the child outlives the program by " << linger_ms << " ms") {
      const TreeRun run = ProfileTree(std::string("tree-linger-") + linger_ms,
                                      {TestProgram("tree_program"), "linger", linger_ms, "7"}, 7);
      const std::string child = PidAfter(run.result.out, "child=");
      CHECK(ProcessNames(run.report) == Rows{{"tree_program"}, {"tree_program"}});
      CHECK(NvtxTexts(run.report, child) == Rows{{"late"}});
      CHECK(OsrtCount(run.report, child, "usleep") == "1");
      // The late range starts at least the sleep after the child began it. (Not after the
      // parent's fork returned: under load the parent may get the CPU back only after the child
      // began to sleep, 2 of 6 runs beside a sanitizer build.)
      const Rows late = QueryRows(
          run.report, "SELECT n.start - o.start >= " + std::string(linger_ms) +
                          "000000 FROM NVTX_EVENTS n, OSRT_API o JOIN StringIds s ON s.id = "
                          "o.nameId WHERE n.text = 'late' AND s.value = 'usleep'");
      CHECK(late == Rows{{"1"}});
      CHECK(QueryRows(run.report, "SELECT value FROM PROF_SESSION WHERE name = 'exit_status'") ==
            Rows{{"7"}});
    }
  }
}

TEST_CASE("SIGTERM to prof after the program exited ends the wait for the processes left behind") {
  const std::string report = MakeTempDir("tree-linger-sigterm") + "/r.sqlite";
  // The child would emit its range 8 s after the program exits; prof is told to stop after 2 s.
  const std::string script = "'" + ProfBinary() + "' profile -q -t nvtx,osrt -o '" + report +
                             "' '" + TestProgram("tree_program") +
                             "' linger 8000 7 & prof=$!; sleep 2; kill -TERM $prof; wait $prof; "
                             "echo prof-exit=$?";
  const CommandResult result = RunCommand({"sh", "-c", script});
  INFO("stdout:\n" << result.out << "\nstderr:\n" << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(PidAfter(result.out, "prof-exit=") == "7");
  const std::string child = PidAfter(result.out, "child=");
  CHECK(ProcessNames(report) == Rows{{"tree_program"}, {"tree_program"}});
  // No NVTX row at all: the report has no NVTX_EVENTS table.
  CHECK(QueryRows(report, "SELECT count(*) FROM sqlite_master WHERE name = 'NVTX_EVENTS'") ==
        Rows{{"0"}});
  CHECK(OsrtCount(report, child, "fork") == "0");
  CHECK(QueryRows(report, "SELECT value FROM PROF_SESSION WHERE name = 'exit_status'") ==
        Rows{{"7"}});
}
