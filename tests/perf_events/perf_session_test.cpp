// PerfSession on real programs: the test forks the sampled program held before exec (as prof's
// launcher does), opens the session on it, releases it and drains until it exits. Checks who was
// sampled, when, how often (against the program's CPU time), fp callchains and dwarf stacks, and
// the side-band records (exec, mmap of the binary and of a dlopen'd library, fork/exit, context
// switches). Needs a kernel that allows user-space perf events (perf_event_paranoid <= 2).
#include "collector/perf_events/perf_session.h"

#include <asm/perf_regs.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "collector/launcher.h"
#include "tests/support/test_support.h"

extern char** environ;

namespace perf = prof::collector::perf;
using prof::collector::ChildProcess;
using prof::collector::LaunchSpec;

namespace {

uint64_t MonotonicNs() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000u + static_cast<uint64_t>(now.tv_nsec);
}

double ChildrenUserSeconds() {
  rusage usage;
  getrusage(RUSAGE_CHILDREN, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec) + usage.ru_utime.tv_usec / 1e6;
}

struct Sample {
  uint32_t pid, tid, cpu;
  uint64_t time, ip;
  std::vector<uint64_t> callchain;
  uint64_t regs_abi;
  std::vector<uint64_t> regs;
  size_t stack_size;
  uint64_t dyn_size;
};

struct Mapping {
  uint32_t pid;
  std::string path;
  uint64_t address, length;
  uint32_t prot;
  size_t build_id_size;
};

struct Event {  // a side-band record, as text, with its time and thread
  uint64_t time;
  uint32_t tid;
  std::string text;
};

// Copies everything (spans live only during the callback) and checks that each pass delivers in
// timestamp order.
struct CollectingSink : perf::PerfRecordSink {
  std::vector<Sample> samples;
  std::vector<Mapping> mappings;
  std::vector<Event> events;
  uint64_t pass_last_time = 0;
  int out_of_order = 0;

  void BeginPass() { pass_last_time = 0; }
  void Seen(const perf::PerfRecordId& id) {
    if (id.time_ns < pass_last_time) ++out_of_order;
    pass_last_time = id.time_ns;
  }
  void OnSample(const perf::PerfSample& s) override {
    Seen(s.id);
    samples.push_back({s.id.pid, s.id.tid, s.id.cpu, s.id.time_ns, s.ip,
                       std::vector<uint64_t>(s.callchain.begin(), s.callchain.end()), s.regs_abi,
                       std::vector<uint64_t>(s.regs.begin(), s.regs.end()), s.stack.size,
                       s.stack_dyn_size});
  }
  void OnSwitch(const perf::PerfSwitch& s) override {
    Seen(s.id);
    events.push_back({s.id.time_ns, s.id.tid,
                      s.switch_out ? (s.preempted ? "out-preempted" : "out-blocked") : "in"});
  }
  void OnComm(const perf::PerfComm& c) override {
    Seen(c.id);
    events.push_back(
        {c.id.time_ns, c.tid,
         "comm " + std::string(c.name) + (c.exec ? " exec " : " ") + std::to_string(c.pid)});
  }
  void OnTask(const perf::PerfTask& t) override {
    Seen(t.id);
    events.push_back({t.id.time_ns, t.tid,
                      std::string(t.exit ? "exit " : "fork ") + std::to_string(t.pid) + " " +
                          std::to_string(t.tid) + " parent " + std::to_string(t.ppid)});
  }
  void OnMmap(const perf::PerfMmap& m) override {
    Seen(m.id);
    mappings.push_back({m.pid, std::string(m.path), m.address, m.length, m.prot, m.build_id.size});
  }
  void OnLost(const perf::PerfLost& l) override { Seen(l.id); }
  void OnThrottle(const perf::PerfThrottle& t) override { Seen(t.id); }

  bool HasEvent(const std::string& text) const {
    return std::any_of(events.begin(), events.end(),
                       [&](const Event& e) { return e.text == text; });
  }
};

struct Run {
  CollectingSink sink;
  perf::PerfCounters counters;
  std::vector<std::string> notes;
  uint64_t start_ns = 0, end_ns = 0;
  double user_seconds = 0;
  int exit_code = -1;
  pid_t pid = 0;
  int drains = 0;
};

std::string RealPath(const std::string& path) {
  char resolved[PATH_MAX];
  REQUIRE(realpath(path.c_str(), resolved) != nullptr);
  return resolved;
}

// Forks `argv` held, opens the session, releases the program and drains until it exits; with
// `drain_while_running` false, the rings are read only after the program was reaped.
Run SampleProgram(const std::vector<std::string>& argv, const perf::PerfSamplingOptions& options,
                  bool drain_while_running = true,
                  const perf::PerfEventOpener& opener = perf::OpenPerfEvent) {
  Run run;
  LaunchSpec spec;
  spec.argv = argv;
  for (char** variable = environ; *variable != nullptr; ++variable) {
    spec.environment.push_back(*variable);
  }
  ChildProcess child;
  REQUIRE(child.Spawn(spec).ok());
  run.pid = child.pid();
  auto session = perf::PerfSession::Open(child.pid(), options, opener);
  INFO(session.status().message());
  REQUIRE(session.ok());
  run.notes = session->notes();
  const double user_before = ChildrenUserSeconds();
  run.start_ns = MonotonicNs();
  REQUIRE(child.Release().ok());
  while (!child.Reap(false, &run.exit_code)) {
    epoll_event ready[8];
    epoll_wait(session->poll_fd(), ready, 8, 20);
    if (drain_while_running) {
      run.sink.BeginPass();
      session->Drain(run.sink);
      ++run.drains;
    }
  }
  run.end_ns = MonotonicNs();
  run.user_seconds = ChildrenUserSeconds() - user_before;
  run.sink.BeginPass();
  session->Close(run.sink);
  run.counters = session->counters();
  return run;
}

// "name value" lines of the tree mode's output file.
std::map<std::string, uint64_t> ReadValues(const std::string& path) {
  std::map<std::string, uint64_t> values;
  std::ifstream in(path);
  std::string name;
  uint64_t value;
  while (in >> name >> value) values[name] = value;
  return values;
}

// nm -S lines "address size type name": the sizes of the program's functions.
std::map<std::string, std::pair<uint64_t, uint64_t>> ReadSymbols() {
  std::map<std::string, std::pair<uint64_t, uint64_t>> symbols;
  std::ifstream in(PROF_SAMPLED_SYMBOLS);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string address, size, type, name;
    if (fields >> address >> size >> type >> name) {
      symbols[name] = {std::stoull(address, nullptr, 16), std::stoull(size, nullptr, 16)};
    }
  }
  return symbols;
}

struct Range {
  uint64_t begin, end;
  bool Holds(uint64_t address) const { return address >= begin && address < end; }
};

size_t CountSamples(const Run& run, uint32_t pid, uint32_t tid) {
  return std::count_if(run.sink.samples.begin(), run.sink.samples.end(),
                       [&](const Sample& s) { return s.pid == pid && s.tid == tid; });
}

}  // namespace

TEST_CASE("Probe finds perf sampling usable on this machine") {
  const prof::Status probe = perf::PerfSession::Probe();
  INFO(probe.message());
  CHECK(probe.ok());
}

TEST_CASE("PROF_PERF_EVENTS=off makes Probe and Open report a refusal") {
  setenv("PROF_PERF_EVENTS", "off", 1);
  const prof::Status probe = perf::PerfSession::Probe();
  auto session = perf::PerfSession::Open(getpid(), perf::PerfSamplingOptions());
  unsetenv("PROF_PERF_EVENTS");
  CHECK(probe.message() == "perf_event_open refused (PROF_PERF_EVENTS=off)");
  REQUIRE(!session.ok());
  CHECK(session.status().message() == "perf_event_open refused (PROF_PERF_EVENTS=off)");
}

TEST_CASE("fp sampling covers the process tree with callchains through main") {
  const std::string out = prof::test::MakeTempDir("perf_tree") + "/values";
  const Run run = SampleProgram({PROF_SAMPLED_PROGRAM, "tree", out, PROF_SAMPLED_LIBRARY},
                                perf::PerfSamplingOptions());
  REQUIRE(run.exit_code == 0);
  auto values = ReadValues(out);
  REQUIRE(values.size() == 6);
  const auto pid = static_cast<uint32_t>(values["pid"]);
  const auto thread = static_cast<uint32_t>(values["thread"]);
  const auto fork_pid = static_cast<uint32_t>(values["fork"]);
  REQUIRE(pid == static_cast<uint32_t>(run.pid));
  CHECK(run.notes.empty());

  // Who: the main thread (~300 ms), the thread (~100 ms), the fork child (~100 ms).
  INFO("samples " << run.sink.samples.size() << ", user CPU s " << run.user_seconds);
  CHECK(CountSamples(run, pid, pid) >= 150);
  CHECK(CountSamples(run, pid, thread) >= 50);
  CHECK(CountSamples(run, fork_pid, fork_pid) >= 50);
  for (const Sample& s : run.sink.samples) {
    INFO("pid " << s.pid << " tid " << s.tid);
    CHECK((s.pid == pid || s.pid == fork_pid));
    // When: CLOCK_MONOTONIC, inside the run.
    CHECK(s.time >= run.start_ns);
    CHECK(s.time <= run.end_ns);
  }
  // How often: 1000 Hz of user CPU time (the program's rusage, its fork child's included).
  const double expected = run.user_seconds * 1000;
  CHECK(run.sink.samples.size() >= 0.5 * expected);
  CHECK(run.sink.samples.size() <= 1.5 * expected);
  CHECK(run.counters.samples == run.sink.samples.size());
  CHECK(run.counters.lost_records == 0);
  CHECK(run.counters.unknown_records == 0);
  CHECK(run.counters.malformed_records == 0);
  CHECK(run.sink.out_of_order == 0);

  // Where: ips in hot_a/hot_b about 70/30 on the main thread; callchains start at the ip and go
  // through main.
  auto symbols = ReadSymbols();
  const uint64_t base = values["main"] - symbols["main"].first;
  auto range = [&](const std::string& name) {
    return Range{base + symbols[name].first, base + symbols[name].first + symbols[name].second};
  };
  const Range main_range = range("main"), a = range("hot_a"), b = range("hot_b");
  REQUIRE(a.begin == values["hot_a"]);
  size_t in_a = 0, in_b = 0, a_through_main = 0;
  for (const Sample& s : run.sink.samples) {
    if (s.tid != pid) continue;
    REQUIRE(!s.callchain.empty());
    CHECK(s.callchain[0] == s.ip);
    in_b += b.Holds(s.ip);
    if (!a.Holds(s.ip)) continue;
    ++in_a;
    a_through_main += std::any_of(s.callchain.begin() + 1, s.callchain.end(),
                                  [&](uint64_t frame) { return main_range.Holds(frame); });
  }
  INFO("hot_a " << in_a << " hot_b " << in_b << " through main " << a_through_main);
  CHECK(in_a + in_b >= 0.8 * CountSamples(run, pid, pid));
  CHECK(in_a >= 1.5 * in_b);
  CHECK(in_a <= 4.0 * in_b);
  CHECK(a_through_main >= 0.9 * in_a);

  // Side band: exec, the binary's and the library's executable mappings, the fork child's life.
  CHECK(run.sink.HasEvent("comm " + std::string("perf_sampled_program").substr(0, 15) + " exec " +
                          std::to_string(pid)));
  auto mapped = [&](const std::string& path) {
    return std::any_of(run.sink.mappings.begin(), run.sink.mappings.end(), [&](const Mapping& m) {
      return m.pid == pid && m.path == path && (m.prot & PROT_EXEC) && m.build_id_size == 20;
    });
  };
  CHECK(mapped(RealPath(PROF_SAMPLED_PROGRAM)));
  CHECK(mapped(RealPath(PROF_SAMPLED_LIBRARY)));
  const std::string fork_text = std::to_string(fork_pid) + " " + std::to_string(fork_pid);
  CHECK(run.sink.HasEvent("fork " + fork_text + " parent " + std::to_string(pid)));
  CHECK(run.sink.HasEvent("exit " + fork_text + " parent " + std::to_string(pid)));
  CHECK(run.sink.HasEvent("fork " + std::to_string(pid) + " " + std::to_string(thread) +
                          " parent " + std::to_string(pid)));
}

TEST_CASE("dwarf sampling gives the user registers and a stack of the requested size") {
  perf::PerfSamplingOptions options;
  options.backtrace = perf::PerfBacktrace::kDwarf;
  options.stack_bytes = 8192;
  const Run run = SampleProgram({PROF_SAMPLED_PROGRAM, "burn"}, options);
  REQUIRE(run.exit_code == 0);
  REQUIRE(run.sink.samples.size() >= 0.5 * run.user_seconds * 1000);
  const uint64_t mask = perf::PerfUserRegsMask();
  const int ip = perf::PerfUserRegIndex(mask, PERF_REG_X86_IP);
  const int sp = perf::PerfUserRegIndex(mask, PERF_REG_X86_SP);
  for (const Sample& s : run.sink.samples) {
    REQUIRE(s.regs_abi == PERF_SAMPLE_REGS_ABI_64);
    REQUIRE(s.regs.size() == 20);
    CHECK(s.regs[ip] == s.ip);
    CHECK(s.regs[sp] != 0);
    CHECK(s.stack_size == 8192);
    CHECK(s.dyn_size > 0);
    CHECK(s.dyn_size <= 8192);
    CHECK(s.callchain.empty());
  }
  CHECK(run.counters.lost_records == 0);
}

TEST_CASE("a thread that sleeps is switched out (blocked) and in, in pairs") {
  const Run run = SampleProgram({PROF_SAMPLED_PROGRAM, "sleep"}, perf::PerfSamplingOptions());
  REQUIRE(run.exit_code == 0);
  std::vector<Event> switches;
  for (const Event& e : run.sink.events) {
    if (e.tid == static_cast<uint32_t>(run.pid) && e.text.rfind("in", 0) == 0)
      switches.push_back(e);
    if (e.tid == static_cast<uint32_t>(run.pid) && e.text.rfind("out", 0) == 0) {
      switches.push_back(e);
    }
  }
  std::stable_sort(switches.begin(), switches.end(),
                   [](const Event& x, const Event& y) { return x.time < y.time; });
  size_t blocked = 0;
  for (size_t i = 0; i < switches.size(); ++i) {
    INFO("switch " << i << ": " << switches[i].text);
    blocked += switches[i].text == "out-blocked";
    // Out and in alternate; the first is an out (the thread was running at exec), the last an
    // in unless the thread's exit switched it out for good.
    CHECK((switches[i].text == "in") == (i % 2 == 1));
  }
  CHECK(blocked >= 20);
}

TEST_CASE("samples of a program killed right after a CPU burst are still drained") {
  const Run run = SampleProgram({PROF_SAMPLED_PROGRAM, "kill"}, perf::PerfSamplingOptions(),
                                /*drain_while_running=*/false);
  REQUIRE(run.exit_code == 128 + SIGKILL);
  INFO("samples " << run.sink.samples.size() << ", user CPU s " << run.user_seconds);
  CHECK(run.user_seconds >= 0.15);
  CHECK(run.sink.samples.size() >= 0.5 * run.user_seconds * 1000);
  CHECK(run.sink.samples.size() <= 1.5 * run.user_seconds * 1000);
  CHECK(run.sink.HasEvent("exit " + std::to_string(run.pid) + " " + std::to_string(run.pid) +
                          " parent " + std::to_string(getpid())));
}

TEST_CASE("a refused context_switch attribute is turned off and named, and sampling goes on") {
  const perf::PerfEventOpener refuse_switches = [](perf_event_attr* attr, pid_t pid, int cpu) {
    if (attr->context_switch) {
      errno = EACCES;
      return -1;
    }
    return perf::OpenPerfEvent(attr, pid, cpu);
  };
  const Run run = SampleProgram({PROF_SAMPLED_PROGRAM, "sleep"}, perf::PerfSamplingOptions(), true,
                                refuse_switches);
  REQUIRE(run.exit_code == 0);
  CHECK(run.notes == std::vector<std::string>{
                         "context switches refused by the kernel (Permission denied); sampling "
                         "without them"});
  CHECK(!run.sink.samples.empty());
  CHECK(std::none_of(run.sink.events.begin(), run.sink.events.end(),
                     [](const Event& e) { return e.text == "in"; }));
}
