// CPU samples in the exports: `--type folded` (collapsed stacks, exact text) and `--type
// perfetto` (PerfSample packets decoded back to their frames), on the report of
// tests/stats/cpu_sample_fixture.h.
#include <catch2/catch.hpp>
#include <map>

#include "export/folded_stack_writer.h"
#include "export/output_stream.h"
#include "tests/export/export_test_util.h"
#include "tests/export/perfetto_sample_decoder.h"
#include "tests/export/perfetto_trace_decoder.h"
#include "tests/stats/cpu_sample_fixture.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::exporter::test {
namespace {

TEST_CASE("folded export writes one sorted line per distinct stack of a thread",
          "[export][folded]") {
  const std::string report = stats::test::MakeCpuSampleReport("export_folded");
  const std::string out = prof::test::MakeTempDir("export_folded_out") + "/stacks.folded";
  Export(report, "folded", out);
  CHECK(stats::test::ReadFile(out) ==
        "python (1234);MainThread (1234);main;Trainer.train (train.py:10);Trainer.step "
        "(train.py:20);matmul 7\n"
        "python (1234);MainThread (1234);main;Trainer.train (train.py:12);load_batch "
        "(data.py:5);0x7f0000001234 3\n"
        "python (1234);loader (1240);start_thread;fib 2\n"
        "python (1234);loader (1240);start_thread;fib;fib;fib 2\n"
        "trainer (2000);trainer (2000);main 2\n"
        "trainer (2000);trainer (2000);main;compute 3\n");
}

TEST_CASE("folded export of a report without samples is empty", "[export][folded]") {
  const std::string report =
      stats::test::MakeReport("export_folded_empty", {"NVTX_EVENTS"}, "SELECT 1;");
  const std::string out = prof::test::MakeTempDir("export_folded_empty_out") + "/stacks.folded";
  Export(report, "folded", out);
  CHECK(stats::test::ReadFile(out).empty());
}

TEST_CASE("folded names keep their lines and frames apart", "[export][folded]") {
  const std::string path = prof::test::MakeTempDir("export_folded_names") + "/names.folded";
  std::unique_ptr<OutputStream> out;
  REQUIRE(OutputStream::Open(path, Compression::kNone, &out).ok());
  FoldedStackWriter writer(out.get());
  writer.AddTrack({TrackKind::kProcess, 7, 0, "a;b"});  // the thread has no name
  CpuSample sample{7, 8, 100, 0, {}};
  sample.frames.push_back({"f<x;y>", "/bin/a", false, false, 1});
  sample.frames.push_back({"g\nh", "/src/m;n.py", true, false, 3});
  writer.AddCpuSample(sample);
  writer.AddCpuSample(sample);
  writer.Finish();
  REQUIRE(out->Close().ok());
  CHECK(stats::test::ReadFile(path) == "a:b (7);thread (8);f<x:y>;g h (m:n.py:3) 2\n");
}

TEST_CASE("perfetto export carries the CPU samples with their callstacks", "[export][perfetto]") {
  const std::string report = stats::test::MakeCpuSampleReport("export_perfetto_samples");
  const std::string out = prof::test::MakeTempDir("export_perfetto_samples_out") + "/t.pftrace";
  Export(report, "perfetto", out);
  const std::vector<std::string> samples = DecodePerfettoSamples(stats::test::ReadFile(out));
  const std::string step =
      "main [/usr/bin/python3.12] native;Trainer.train (train.py:10) [/w/train.py] "
      "python;Trainer.step (train.py:20) [/w/train.py] python;matmul [/usr/lib/libtorch.so] "
      "native";
  const std::string load =
      "main [/usr/bin/python3.12] native;Trainer.train (train.py:12) [/w/train.py] "
      "python;load_batch (data.py:5) [/w/data.py] python;0x7f0000001234 "
      "[/usr/lib/libcuda.so.1] native";
  const std::string fib = "fib [/w/libfib.so] native";
  const std::string deep =
      "start_thread [/usr/lib/libc.so.6] native;" + fib + ";" + fib + ";" + fib;
  const std::string shallow = "start_thread [/usr/lib/libc.so.6] native;" + fib;
  const std::string trainer = "main [/usr/bin/trainer] native";
  const std::string compute = trainer + ";compute [/usr/bin/trainer] native";
  // In time order (ties by id).
  CHECK(samples ==
        std::vector<std::string>{"100 1234/1234 cpu0 " + step, "120 2000/2000 cpu1 " + compute,
                                 "150 1234/1240 cpu1 " + deep, "200 1234/1234 cpu0 " + step,
                                 "220 2000/2000 cpu1 " + compute, "250 1234/1240 cpu1 " + deep,
                                 "300 1234/1234 cpu0 " + step, "320 2000/2000 cpu1 " + compute,
                                 "350 1234/1240 cpu1 " + shallow, "400 1234/1234 cpu0 " + step,
                                 "420 2000/2000 cpu1 " + trainer, "450 1234/1240 cpu1 " + shallow,
                                 "500 1234/1234 cpu0 " + step, "520 2000/2000 cpu1 " + trainer,
                                 "600 1234/1234 cpu0 " + step, "700 1234/1234 cpu0 " + step,
                                 "800 1234/1234 cpu0 " + load, "900 1234/1234 cpu0 " + load,
                                 "1000 1234/1234 cpu0 " + load});
  // The rest of the trace still decodes, with the sampled threads as tracks.
  const Lines summary = SummarizePerfettoFile(out);
  CHECK(WithPrefix(summary, "error ").empty());
  CHECK(WithPrefix(summary, "track ") == Lines{"track 1234 0 python", "track 1234 1234 MainThread",
                                               "track 1234 1240 loader", "track 2000 0 trainer",
                                               "track 2000 2000 trainer"});
}

}  // namespace
}  // namespace prof::exporter::test
