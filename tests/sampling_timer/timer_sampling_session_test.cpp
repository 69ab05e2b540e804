// The fallback CPU sampler end to end: a program runs with libprof_core preloaded and
// PROF_INJECTION_SETTINGS asking for timer sampling, as `prof profile` will start it; the
// launcher's SessionServer reads its streams and TimerSampleTracker hands each kCpuSample to a
// recording CpuSampleSink. Counts are checked against the threads' own CPU time.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "collector/cpu_samples/drain_time_reads.h"
#include "collector/cpu_samples/python_pair_frames.h"
#include "collector/cpu_samples/sample_resolver.h"
#include "collector/record_dispatcher.h"
#include "collector/sample_sink.h"
#include "collector/session_server.h"
#include "collector/timer_sample_tracker.h"
#include "injection/protocol/launch_settings.h"
#include "storage/tables/host_tables.h"
#include "tests/support/test_support.h"
#include "tests/support/traced_launch.h"

namespace {

using prof::collector::CpuSampleSink;
using prof::collector::ProcessStream;
using prof::collector::RawCpuSample;
using prof::collector::RecordDispatcher;
using prof::collector::StreamSink;
using prof::collector::TimerSampleTracker;
using prof::protocol::RecordHeader;

struct Sample {
  uint32_t pid = 0;
  uint32_t tid = 0;
  uint32_t cpu = 0;
  uint64_t time_ns = 0;
  std::vector<uint64_t> ips;
  bool truncated = false;
  std::vector<uint64_t> python_pairs;  // (code object, instruction), innermost first
  std::vector<uint64_t> registers;     // with a stack copy: perf_event_x86_regs order
  size_t stack_size = 0;
};

struct RecordingSink : CpuSampleSink {
  // A record that stands for several periods counts as that many samples, as its rows do.
  void OnCpuSample(const RawCpuSample& raw) override {
    for (uint32_t period = 0; period < raw.periods; ++period) {
      samples.push_back(
          {raw.pid, raw.tid, raw.cpu, raw.time_ns,
           std::vector<uint64_t>(raw.ips, raw.ips + raw.ip_count), raw.truncated,
           std::vector<uint64_t>(raw.python_pairs, raw.python_pairs + 2 * raw.python_count),
           raw.registers == nullptr
               ? std::vector<uint64_t>()
               : std::vector<uint64_t>(raw.registers,
                                       raw.registers + prof::protocol::kSampleRegisterCount),
           raw.stack_size});
    }
  }
  std::vector<Sample> samples;
};

// The launcher's side, reduced to the sampler's records: every stream's records go through a
// dispatcher to a TimerSampleTracker.
struct SampleCollector : StreamSink {
  SampleCollector() : tracker(&recording) { tracker.RegisterHandlers(&dispatcher); }
  void OnStreamStart(const RecordHeader& record, ProcessStream* process) override {
    prof::protocol::StreamHello hello;
    std::memcpy(&hello, &record, sizeof(hello));
    process->pid = hello.pid;
    pids.push_back(hello.pid);
    streams[hello.pid] = process->stream_id;
  }
  void OnRecord(const ProcessStream& process, const RecordHeader& record) override {
    dispatcher.Dispatch(process, record);
  }
  void OnStreamEnd(const ProcessStream& /*process*/, const std::string& error) override {
    if (!error.empty()) errors.push_back(error);
  }
  void OnStreamRejected(const std::string& error) override { errors.push_back(error); }

  RecordingSink recording;
  RecordDispatcher dispatcher;
  TimerSampleTracker tracker;
  std::vector<uint32_t> pids;
  std::map<uint32_t, uint64_t> streams;  // by pid
  std::vector<std::string> errors;
};

struct Run {
  int status = -1;
  std::map<std::string, std::string> values;  // the program's OUT file
  std::unique_ptr<SampleCollector> collected = std::make_unique<SampleCollector>();
  // What the reader thread read of the sampled processes while they ran (RunSampled).
  std::unique_ptr<prof::collector::DrainTimeReads> reads;

  uint64_t Value(const std::string& name) const {
    const auto found = values.find(name);
    REQUIRE(found != values.end());
    return std::stoull(found->second, nullptr, 0);
  }
  std::vector<Sample> SamplesOf(uint32_t pid, uint32_t tid = 0) const {
    std::vector<Sample> out;
    for (const Sample& sample : collected->recording.samples) {
      if (sample.pid == pid && (tid == 0 || sample.tid == tid)) out.push_back(sample);
    }
    return out;
  }
};

// Runs `launch` with the sampler at `hz` until it has exited and every stream has ended.
Run RunUnderServer(uint32_t hz, prof::test::TracedLaunch launch) {
  launch.settings.timer_sampling_hz = hz;
  Run run;
  run.status = prof::test::RunTraced(launch, run.collected.get());
  return run;
}

// Runs the sampled program with `args` (its mode first) until it has exited and every stream has
// ended, and reads what it wrote to its OUT file.
Run RunSampled(uint32_t hz, const std::vector<std::string>& args, const std::string& dir,
               bool with_osrt = false, uint32_t stack_bytes = 0) {
  const std::string out_path = dir + "/out.txt";
  std::vector<std::string> argv = {PROF_SAMPLED_PROGRAM, args.at(0), out_path};
  argv.insert(argv.end(), args.begin() + 1, args.end());
  auto reads = std::make_unique<prof::collector::DrainTimeReads>();
  prof::test::TracedLaunch launch;
  launch.argv = argv;
  if (with_osrt) launch.settings.trace_flags = prof::protocol::kTraceOsrt;
  launch.settings.sample_stack_bytes = stack_bytes;
  launch.observer = reads.get();
  Run run = RunUnderServer(hz, launch);
  run.reads = std::move(reads);
  std::ifstream out(out_path);
  std::string name;
  std::string value;
  while (out >> name >> value) run.values[name] = value;
  return run;
}

// [start, end) of each function of the program, from its address at run time and nm's size.
struct Functions {
  explicit Functions(const Run& run) {
    std::ifstream nm(PROF_SAMPLED_SYMBOLS);
    std::string line;
    while (std::getline(nm, line)) {
      std::istringstream fields(line);
      std::string address;
      std::string size;
      std::string type;
      std::string name;
      if (fields >> address >> size >> type >> name) sizes[name] = std::stoull(size, nullptr, 16);
    }
    for (const auto& [name, size] : sizes) {
      const auto found = run.values.find(name);
      if (found != run.values.end()) {
        const uint64_t start = std::stoull(found->second, nullptr, 16);
        ranges[name] = {start, start + size};
      }
    }
  }
  bool Holds(const std::string& name, uint64_t ip) const {
    const auto found = ranges.find(name);
    REQUIRE(found != ranges.end());
    return ip >= found->second.first && ip < found->second.second;
  }
  // Return addresses point after their call; the call itself is at ip - 1.
  bool Holds(const std::string& name, const Sample& sample) const {
    for (size_t i = 0; i < sample.ips.size(); ++i) {
      if (Holds(name, i == 0 ? sample.ips[i] : sample.ips[i] - 1)) return true;
    }
    return false;
  }
  std::map<std::string, uint64_t> sizes;
  std::map<std::string, std::pair<uint64_t, uint64_t>> ranges;
};

// Whether the address space the reader thread read of process `pid` while it ran maps the
// sampled program (the process is gone by now: only that read can name its samples).
bool MapsReadWhileRunning(const Run& run, uint32_t pid) {
  const std::shared_ptr<const prof::symbols::ProcessMaps> maps =
      run.reads->NewestMaps(run.collected->streams.at(pid));
  if (maps == nullptr) return false;
  for (const auto& [start, mapping] : maps->mappings()) {
    if (mapping.path == PROF_SAMPLED_PROGRAM) return true;
  }
  return false;
}

double Expected(uint64_t cpu_ns, uint32_t hz) { return static_cast<double>(cpu_ns) * hz / 1e9; }

}  // namespace

TEST_CASE("two threads burning 70 30 are sampled in proportion to their CPU time",
          "[timer_sampling]") {
  const uint32_t hz = 1000;
  const Run run = RunSampled(hz, {"split"}, prof::test::MakeTempDir("timer_split"));
  REQUIRE(run.status == 0);
  CHECK(run.collected->errors.empty());
  CHECK(run.collected->tracker.malformed_records() == 0);
  const uint32_t pid = run.collected->pids.at(0);
  const auto seventy = run.SamplesOf(pid, static_cast<uint32_t>(run.Value("tid_seventy")));
  const auto thirty = run.SamplesOf(pid, static_cast<uint32_t>(run.Value("tid_thirty")));
  const double expected_seventy = Expected(run.Value("cpu_seventy"), hz);
  const double expected_thirty = Expected(run.Value("cpu_thirty"), hz);
  INFO("seventy " << seventy.size() << " of ~" << expected_seventy << ", thirty " << thirty.size()
                  << " of ~" << expected_thirty);
  CHECK(seventy.size() >= 0.5 * expected_seventy);
  CHECK(seventy.size() <= 1.5 * expected_seventy);
  CHECK(thirty.size() >= 0.5 * expected_thirty);
  CHECK(thirty.size() <= 1.5 * expected_thirty);
  const double cpu_share = 100.0 * run.Value("cpu_seventy") /
                           static_cast<double>(run.Value("cpu_seventy") + run.Value("cpu_thirty"));
  const double sample_share = 100.0 * static_cast<double>(seventy.size()) /
                              static_cast<double>(seventy.size() + thirty.size());
  INFO("CPU share " << cpu_share << "%, sample share " << sample_share << "%");
  CHECK(sample_share > cpu_share - 5);
  CHECK(sample_share < cpu_share + 5);

  // Where the program's own code was interrupted, the walk reaches the thread's start routine
  // (or main): hot_x's caller is its start routine.
  const Functions functions(run);
  size_t in_hot = 0;
  for (const auto* samples : {&seventy, &thirty}) {
    const bool is_seventy = samples == &seventy;
    const std::string hot = is_seventy ? "hot_seventy" : "hot_thirty";
    const std::string start = is_seventy ? "seventy_thread" : "thirty_thread";
    for (const Sample& sample : *samples) {
      REQUIRE(!sample.ips.empty());
      CHECK(sample.cpu < 4096);
      const bool leaf_in_program = functions.Holds(hot, sample.ips[0]) ||
                                   functions.Holds(start, sample.ips[0]) ||
                                   functions.Holds("main", sample.ips[0]);
      if (!leaf_in_program) continue;
      if (functions.Holds(hot, sample.ips[0])) ++in_hot;
      INFO("sample of " << start << " with " << sample.ips.size() << " frames");
      CHECK((functions.Holds(start, sample) || functions.Holds("main", sample)));
      CHECK(sample.ips.size() >= 2);
    }
  }
  // The burn loops are where the threads spend their time.
  CHECK(in_hot >= 0.9 * static_cast<double>(seventy.size() + thirty.size()));
}

TEST_CASE("with stack copies each sample carries its registers and the top of its stack",
          "[timer_sampling]") {
  const uint32_t hz = 1000;
  const Run run =
      RunSampled(hz, {"split"}, prof::test::MakeTempDir("timer_split_stack"), false, 16384);
  REQUIRE(run.status == 0);
  CHECK(run.collected->tracker.malformed_records() == 0);
  const uint32_t pid = run.collected->pids.at(0);
  const auto seventy = run.SamplesOf(pid, static_cast<uint32_t>(run.Value("tid_seventy")));
  const auto thirty = run.SamplesOf(pid, static_cast<uint32_t>(run.Value("tid_thirty")));
  const double expected = Expected(run.Value("cpu_seventy") + run.Value("cpu_thirty"), hz);
  INFO(seventy.size() + thirty.size() << " samples of ~" << expected);
  CHECK(static_cast<double>(seventy.size() + thirty.size()) >= 0.5 * expected);
  size_t with_copy = 0;
  for (const auto* samples : {&seventy, &thirty}) {
    for (const Sample& sample : *samples) {
      if (sample.stack_size == 0) continue;  // one that waited for its thread's Emit
      ++with_copy;
      REQUIRE(sample.registers.size() == prof::protocol::kSampleRegisterCount);
      // The copy starts at the interrupted stack pointer, and the IP register is the walk's leaf.
      CHECK(sample.registers[8] == sample.ips.at(0));
      CHECK(sample.registers[7] != 0);
      CHECK(sample.stack_size % 8 == 0);
      CHECK(sample.stack_size <= 16384);
    }
  }
  CHECK(with_copy * 100 >= (seventy.size() + thirty.size()) * 99);
}

TEST_CASE("with the OS-runtime tracer preloaded too both threads are still sampled",
          "[timer_sampling]") {
  const uint32_t hz = 1000;
  const Run run = RunSampled(hz, {"split"}, prof::test::MakeTempDir("timer_split_osrt"), true);
  REQUIRE(run.status == 0);
  const uint32_t pid = run.collected->pids.at(0);
  const auto seventy = run.SamplesOf(pid, static_cast<uint32_t>(run.Value("tid_seventy")));
  const auto thirty = run.SamplesOf(pid, static_cast<uint32_t>(run.Value("tid_thirty")));
  INFO("seventy " << seventy.size() << ", thirty " << thirty.size());
  CHECK(seventy.size() >= 0.5 * Expected(run.Value("cpu_seventy"), hz));
  CHECK(thirty.size() >= 0.5 * Expected(run.Value("cpu_thirty"), hz));
  // The OS-runtime records are there too (unknown to this test's dispatcher).
  CHECK(run.collected->dispatcher.unknown_records() > 0);
}

TEST_CASE("a fork child burning CPU is sampled under its own pid", "[timer_sampling]") {
  const uint32_t hz = 1000;
  const Run run = RunSampled(hz, {"fork"}, prof::test::MakeTempDir("timer_fork"));
  REQUIRE(run.status == 0);
  const uint32_t child = static_cast<uint32_t>(run.Value("child"));
  const auto samples = run.SamplesOf(child);
  const double expected = Expected(run.Value("cpu_child"), hz);
  INFO("child " << samples.size() << " of ~" << expected);
  CHECK(samples.size() >= 0.5 * expected);
  CHECK(samples.size() <= 1.5 * expected);
  for (const Sample& sample : samples) CHECK(sample.tid == child);  // its only thread
  CHECK(MapsReadWhileRunning(run, child));                          // the child _exits
}

TEST_CASE("a program SIGKILLed after a CPU burst keeps its samples up to the kill",
          "[timer_sampling]") {
  const uint32_t hz = 1000;
  const Run run = RunSampled(hz, {"kill"}, prof::test::MakeTempDir("timer_kill"));
  REQUIRE(WIFSIGNALED(run.status));
  CHECK(WTERMSIG(run.status) == SIGKILL);
  const auto samples = run.SamplesOf(static_cast<uint32_t>(run.Value("pid")));
  const double expected = Expected(run.Value("cpu"), hz);
  INFO(samples.size() << " of ~" << expected);
  CHECK(samples.size() >= 0.5 * expected);
  CHECK(samples.size() <= 1.5 * expected);
  REQUIRE(!samples.empty());
  // The last ones come from the end of the burst, right before the kill. kill_time is read before
  // the program writes it to a file and kills itself, which may take a sample too (110 us later
  // was seen under ASan on a loaded machine): 10 ms of slack.
  CHECK(samples.back().time_ns <= run.Value("kill_time") + 10'000'000);
  CHECK(samples.back().time_ns + 50'000'000 >= run.Value("kill_time"));
  CHECK(MapsReadWhileRunning(run, static_cast<uint32_t>(run.Value("pid"))));
}

TEST_CASE("a program that sleeps takes almost no samples", "[timer_sampling]") {
  const uint32_t hz = 1000;
  const Run run = RunSampled(hz, {"sleep"}, prof::test::MakeTempDir("timer_sleep"));
  REQUIRE(run.status == 0);
  const auto samples = run.SamplesOf(run.collected->pids.at(0));
  // Only what it burnt starting up and writing OUT: a few ms, however long it slept (500 ms).
  INFO(samples.size() << " samples for " << run.Value("cpu") << " ns of CPU");
  CHECK(samples.size() <= Expected(run.Value("cpu"), hz) * 1.5 + 2);
  CHECK(samples.size() < 20);
}

TEST_CASE("timer_sampling_hz 0 takes no samples and installs no handler", "[timer_sampling]") {
  const Run off = RunSampled(0, {"handlers"}, prof::test::MakeTempDir("timer_off"));
  REQUIRE(off.status == 0);
  CHECK(off.collected->recording.samples.empty());
  CHECK(off.Value("handled") == 0);
  // The same program with the sampler on sees exactly one: prof's, a real-time signal.
  const Run on = RunSampled(1000, {"handlers"}, prof::test::MakeTempDir("timer_on"));
  REQUIRE(on.status == 0);
  CHECK(on.Value("handled") == 1);
  CHECK(static_cast<int>(on.Value("signal")) >= SIGRTMIN);
}

TEST_CASE("a program that resets every signal is still sampled, and gets its own signals",
          "[timer_sampling]") {
  // Before the guard, the reset made the next timer tick kill the program (signal SIGRTMAX-7).
  const uint32_t hz = 1000;
  const Run run = RunSampled(hz, {"reset"}, prof::test::MakeTempDir("timer_reset"));
  REQUIRE(run.status == 0);
  const auto samples = run.SamplesOf(run.collected->pids.at(0));
  const double expected = Expected(run.Value("cpu_ns"), hz);
  INFO(samples.size() << " of ~" << expected);
  CHECK(samples.size() >= 0.5 * expected);
  CHECK(samples.size() <= 1.5 * expected);
  // Every real-time signal it sent itself reached its handler, prof's sampling signal included,
  // and sigaction told it what it had set (SIG_DFL), not prof's handler.
  CHECK(run.Value("sent") == static_cast<uint64_t>(SIGRTMAX - SIGRTMIN + 1));
  CHECK(run.Value("calls") == run.Value("sent"));
  CHECK(run.Value("old_default") == run.Value("sent"));
}

TEST_CASE("prof's sampling signal sent by kill kills a program that never handled it",
          "[timer_sampling]") {
  const Run run = RunSampled(1000, {"foreign"}, prof::test::MakeTempDir("timer_foreign"));
  REQUIRE(WIFSIGNALED(run.status));
  CHECK(WTERMSIG(run.status) == static_cast<int>(run.Value("signal")));
  CHECK(static_cast<int>(run.Value("signal")) >= SIGRTMIN);
}

TEST_CASE("a program that puts prof's handler back, or ignores with SA_SIGINFO, is not harmed",
          "[timer_sampling]") {
  // Saved and put back, prof's handler is no wish of the program's: a sent signal kills it as
  // the default action would (before, prof's handler called itself until the stack overflowed).
  const Run restored = RunSampled(1000, {"restore"}, prof::test::MakeTempDir("timer_restore"));
  REQUIRE(WIFSIGNALED(restored.status));
  CHECK(WTERMSIG(restored.status) == static_cast<int>(restored.Value("signal")));
  // SIG_IGN is ignoring whatever the flags say (before, prof called address 1).
  const Run ignored = RunSampled(1000, {"ignore"}, prof::test::MakeTempDir("timer_ignore"));
  CHECK(ignored.status == 0);
  CHECK(ignored.Value("signal") != 0);
}

TEST_CASE("a POSIX timer of the program's own on prof's signal calls the program's handler",
          "[timer_sampling]") {
  // 300 ms of CPU time at one signal per millisecond of it: the kernel checks CPU-time timers at
  // its ticks (every 4 ms at 250 Hz) that find the process running and merges the periods between
  // into one signal, so up to 300 calls (37 seen on a loaded machine), none taken as prof's
  // samples (before, the program's handler was never called: 0).
  const Run run = RunSampled(100, {"own_timer"}, prof::test::MakeTempDir("timer_own"));
  REQUIRE(run.status == 0);
  CHECK(run.Value("signal") != 0);
  CHECK(run.Value("calls") >= 20);
  // prof's own samples go on at 100 Hz: about 30 in 300 ms of CPU time.
  const size_t samples = run.SamplesOf(run.collected->pids.at(0)).size();
  CHECK(samples >= 15);
  CHECK(samples <= 60);
}

TEST_CASE("errno survives the samples taken right after failing system calls", "[timer_sampling]") {
  const uint32_t hz = 1000;
  const Run run = RunSampled(hz, {"errno"}, prof::test::MakeTempDir("timer_errno"));
  REQUIRE(run.status == 0);
  const auto samples =
      run.SamplesOf(run.collected->pids.at(0), static_cast<uint32_t>(run.Value("tid")));
  INFO(run.Value("calls") << " failing calls, " << samples.size() << " samples");
  CHECK(samples.size() >= 100);  // 300 ms of CPU at 1000 Hz
  CHECK(run.Value("calls") > 1000);
  CHECK(run.Value("clobbered") == 0);
}

TEST_CASE("the sampling handler costs little per sample", "[timer_sampling]") {
  const long signals = 100000;
  const Run run =
      RunSampled(1, {"bench", std::to_string(signals)}, prof::test::MakeTempDir("timer_bench"));
  REQUIRE(run.status == 0);
  const double sampled = static_cast<double>(run.Value("sampled_ns"));
  const double empty = static_cast<double>(run.Value("empty_ns"));
  // Self-sent signals: each emitted one sample of the walk from 10+ frames deep.
  const size_t taken = run.SamplesOf(run.collected->pids.at(0)).size();
  WARN("signal with prof's sampling handler " << sampled << " ns, with an empty handler " << empty
                                              << " ns: the sample costs " << sampled - empty
                                              << " ns (" << taken << " samples)");
  CHECK(taken >= static_cast<size_t>(run.Value("signals")));
  CHECK(sampled - empty < 2000);
}

TEST_CASE(
    "Python workers' samples decoded after the workers exited are named by what was read while "
    "they ran",
    "[timer_sampling]") {
  // A sample's Python frames are read in the program at its instant, as code objects and
  // instructions; their text (and the address space that names the native frames) is read as
  // the reader thread drains them. Here the records are decoded only once the program has exited,
  // when the workers are long gone; each worker's samples still resolve into its interpreter, and
  // are named by slow_transform mostly, where it burns.
  const std::string dir = prof::test::MakeTempDir("timer_python_workers");
  prof::collector::DrainTimeReads reads;
  prof::test::TracedLaunch launch;
  launch.argv = {PROF_PYTHON3, PROF_PYTHON_WORKERS};
  launch.observer = &reads;
  launch.decode_after_exit = true;
  launch.spill_dir = dir;
  launch.stdout_path = dir + "/stdout.txt";
  launch.settings.python_sampling_hz = 1000;
  const Run run = RunUnderServer(1000, launch);
  REQUIRE(run.status == 0);
  std::ifstream printed(launch.stdout_path);
  std::string line;
  REQUIRE(std::getline(printed, line));
  REQUIRE(line.rfind("workers=", 0) == 0);
  const uint32_t first = static_cast<uint32_t>(std::stoul(line.substr(8)));
  const uint32_t second = static_cast<uint32_t>(std::stoul(line.substr(line.find(',') + 1)));
  for (const uint32_t worker : {first, second}) {
    // As TimerSampleRows does: the address space and code objects read while the worker ran, its
    // /proc gone now.
    prof::collector::SampleResolver resolver;
    prof::collector::AdoptedMaps adopted;
    prof::collector::PythonPairFrames python(&reads);
    const uint64_t stream = run.collected->streams.at(worker);
    adopted.Update(&reads, stream, worker, &resolver);
    REQUIRE(resolver.MapsOf(worker) != nullptr);
    const std::string interpreter = reads.InterpreterOf(stream);
    CHECK(interpreter.find("python") != std::string::npos);
    const auto samples = run.SamplesOf(worker);
    size_t in_interpreter = 0;
    size_t named = 0;
    size_t in_slow_transform = 0;
    for (const Sample& sample : samples) {
      prof::collector::ResolvedSample resolved;
      resolver.ResolveChain(worker, sample.ips.data(), sample.ips.size(), 0, &resolved);
      if (!resolved.frames.empty() && resolved.frames[0].module == interpreter) ++in_interpreter;
      python.Splice(stream, worker, sample.python_pairs.data(), sample.python_pairs.size() / 2,
                    resolver, &resolved.frames);
      // The innermost Python frame, named from the reads.
      const auto leaf =
          std::find_if(resolved.frames.begin(), resolved.frames.end(), [](const auto& frame) {
            return frame.unwind_method == prof::storage::kUnwindPythonFrame;
          });
      if (leaf == resolved.frames.end() || leaf->unresolved) continue;
      ++named;
      if (leaf->symbol == "slow_transform") ++in_slow_transform;
    }
    INFO("worker " << worker << ": " << samples.size() << " samples, " << in_interpreter
                   << " in the interpreter, " << named << " named, " << in_slow_transform
                   << " in slow_transform");
    CHECK(samples.size() >= 100);
    // Not all: a leaf in libc (malloc, memcpy) is outside the interpreter.
    CHECK(in_interpreter >= 0.8 * static_cast<double>(samples.size()));
    CHECK(named >= 0.9 * static_cast<double>(samples.size()));
    CHECK(in_slow_transform >= 0.6 * static_cast<double>(samples.size()));
  }
}
