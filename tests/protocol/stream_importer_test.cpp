// What the collector makes of a process's data problems: DIAGNOSTIC_EVENT rows per process (records
// dropped, cut by its death, a stream cut short) and for the session (records no tracker could
// use).
#include "collector/stream_importer.h"

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "collector/sample_sink.h"
#include "injection/protocol/sample_records.h"
#include "storage/global_id.h"
#include "storage/report_writer.h"
#include "tests/protocol/stream_bytes.h"
#include "tests/support/test_support.h"

namespace {

using namespace prof::protocol;
using prof::collector::DataProblem;
using prof::collector::DataProblemCounts;
using prof::collector::ProcessStream;
using prof::collector::SessionCounters;
using prof::collector::StreamImporter;
using Rows = std::vector<std::vector<std::string>>;

template <typename Record>
const RecordHeader& Header(const Record& record) {
  return *reinterpret_cast<const RecordHeader*>(&record);
}

// An importer writing to a fresh report, with the stream of process 1234 started.
struct ImporterFixture {
  explicit ImporterFixture(const std::string& test_name,
                           prof::collector::CpuSampleSink* cpu_samples = nullptr)
      : path(prof::test::MakeTempDir(test_name) + "/r.sqlite") {
    auto created = prof::storage::ReportWriter::Create(path);
    REQUIRE(created.ok());
    writer = std::move(created).value();
    importer = std::make_unique<StreamImporter>(writer.get(), cpu_samples);
    process.stream_id = 1;
    const std::vector<char> hello = prof::test::Hello(1234, "worker");
    alignas(8) char aligned_hello[64] = {};
    std::memcpy(aligned_hello, hello.data(), hello.size());
    importer->OnStreamStart(*reinterpret_cast<const RecordHeader*>(aligned_hello), &process);
  }
  Rows Finish(const std::string& query) {
    REQUIRE(writer->Finish(prof::storage::SessionInfo{}).ok());
    return prof::test::QueryRows(path, query);
  }

  std::string path;
  std::unique_ptr<prof::storage::ReportWriter> writer;
  std::unique_ptr<StreamImporter> importer;
  ProcessStream process;
};

}  // namespace

TEST_CASE("data problems become DIAGNOSTIC_EVENT rows, per process and for the session",
          "[importer]") {
  ImporterFixture fixture("importer_problems");
  StreamImporter& importer = *fixture.importer;
  const ProcessStream& process = fixture.process;

  DroppedRecordsRecord dropped{};
  dropped.header = {RecordKind::kDroppedRecords, sizeof(dropped), 7, 0};
  dropped.dropped = 5;
  importer.OnRecord(process, Header(dropped));
  importer.OnRecord(process, Header(dropped));
  TornRecordsRecord torn{};
  torn.header = {RecordKind::kTornRecords, sizeof(torn), 0, 0};
  torn.torn = 1;
  importer.OnRecord(process, Header(torn));
  RecordHeader unknown{static_cast<RecordKind>(200), sizeof(RecordHeader), 7, 0};
  importer.OnRecord(process, unknown);
  importer.OnStreamEnd(process, "stream cut mid-record (8 bytes left over)");
  importer.WriteDataProblems(77);
  const DataProblemCounts counts = importer.DataProblems();
  CHECK(counts[DataProblem::kDroppedRecords] == 10);
  CHECK(counts[DataProblem::kTornRecords] == 1);
  CHECK(counts[DataProblem::kUnknownRecords] == 1);
  CHECK(counts[DataProblem::kBrokenStreams] == 1);
  const std::string pid = std::to_string(prof::storage::GlobalPid(1234));
  CHECK(fixture.Finish("SELECT text, globalPid FROM DIAGNOSTIC_EVENT ORDER BY rowid") ==
        Rows{{"prof lost 10 records of this process: its threads' rings were full (prof could "
              "not keep up)",
              pid},
             {"prof lost 1 records of this process that were being written when it died", pid},
             {"prof lost the rest of this process's records: stream cut mid-record (8 bytes left "
              "over)",
              pid},
             {"1 records of kinds this prof does not know were skipped", "NULL"}});
  // Every declared counter, in declaration order, zeros included.
  Rows stats;
  for (const prof::collector::DataProblemSpec& problem : prof::collector::kDataProblems) {
    const std::string value = std::to_string(counts[problem.id]);
    stats.push_back(
        {std::string(problem.name), std::string(SeverityName(problem.severity)), value});
  }
  CHECK(stats.size() == 21);
  CHECK(stats[0] == std::vector<std::string>{"dropped_records", "data_loss", "10"});
  CHECK(stats[10] == std::vector<std::string>{"unknown_records", "error", "1"});
  CHECK(prof::test::QueryRows(fixture.path, "SELECT name, severity, value FROM PROF_STATS") ==
        stats);
}

TEST_CASE("PROF_SESSION's counters come from the data problems that name them", "[importer]") {
  DataProblemCounts counts;
  counts[DataProblem::kDroppedRecords] = 3;
  counts[DataProblem::kMalformedRecords] = 1;
  counts[DataProblem::kNvtxUnreadableRecords] = 2;
  counts[DataProblem::kCudaUnreadableRecords] = 4;
  counts[DataProblem::kCudaDroppedRecords] = 5;
  counts[DataProblem::kCudaKernelsLost] = 9;  // PROF_STATS only
  const prof::storage::NameValues expected = {
      {"dropped_records", "3"},      {"torn_records", "0"},    {"broken_streams", "0"},
      {"cuda_dropped_records", "5"}, {"unknown_records", "0"}, {"malformed_records", "7"}};
  CHECK(SessionCounters(counts) == expected);
}

TEST_CASE("a process whose rings could not be made is reported, not silently empty", "[importer]") {
  ImporterFixture fixture("importer_no_rings");
  StreamImporter& importer = *fixture.importer;
  const ProcessStream& process = fixture.process;
  // What the launcher's reader passes on when shmget failed in the process (ENOSPC: shmmni).
  RingSegmentRecord segment{};
  segment.header = {RecordKind::kRingSegment, sizeof(segment), 7, 0};
  segment.segment_id = -ENOSPC;
  importer.OnRecord(process, Header(segment));
  importer.OnStreamEnd(process, "");
  CHECK(importer.DataProblems()[DataProblem::kBrokenStreams] == 1);
  CHECK(fixture.Finish("SELECT text FROM DIAGNOSTIC_EVENT") ==
        Rows{{"prof could not read this process's records: no shared memory for them (No space "
              "left on device)"}});
}

TEST_CASE("the program's own CPU samples reach the importer's sample sink", "[importer]") {
  struct CountingSink : prof::collector::CpuSampleSink {
    void OnCpuSample(const prof::collector::RawCpuSample& sample) override {
      pids.push_back(sample.pid);
      frames.push_back(sample.ip_count);
    }
    std::vector<uint32_t> pids;
    std::vector<size_t> frames;
  } sink;
  ImporterFixture fixture("importer_cpu_samples", &sink);
  struct {
    CpuSampleRecord record;
    uint64_t ips[2];
  } sample{};
  sample.record.header = {RecordKind::kCpuSample, sizeof(sample), 7, 100};
  sample.record.frame_count = 2;
  sample.record.periods = 1;
  fixture.importer->OnRecord(fixture.process, Header(sample));
  sample.record.frame_count = 3;  // more frames than the record holds
  fixture.importer->OnRecord(fixture.process, Header(sample));
  CHECK(sink.pids == std::vector<uint32_t>{1234});
  CHECK(sink.frames == std::vector<size_t>{2});
  CHECK(fixture.importer->DataProblems()[DataProblem::kMalformedRecords] == 1);
}
