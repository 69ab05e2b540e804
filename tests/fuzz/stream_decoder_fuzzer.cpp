// libFuzzer target: arbitrary bytes as one traced process's connection, through the record
// decoder, the dispatcher and every tracker into a real report file, as `prof profile` does.
// The first byte picks the read chunk size, so that records also arrive split across reads.
#include <spdlog/spdlog.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "collector/process_stream.h"
#include "collector/stream_decoder.h"
#include "collector/stream_importer.h"
#include "storage/report_writer.h"

namespace {

std::string ReportPath() {
  static const std::string path = [] {
    char dir[] = "/tmp/prof-fuzz-stream-XXXXXX";
    return std::string(mkdtemp(dir)) + "/fuzz.sqlite";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  spdlog::set_level(spdlog::level::off);  // cut streams warn, as they should, on every input
  if (size == 0) return 0;
  const size_t chunk = 1 + data[0] % 64 * 16;
  const char* bytes = reinterpret_cast<const char*>(data + 1);
  size -= 1;

  auto created = prof::storage::ReportWriter::Create(ReportPath());
  if (!created.ok()) abort();
  std::unique_ptr<prof::storage::ReportWriter> writer = std::move(created).value();
  prof::collector::StreamImporter importer(writer.get());
  prof::collector::StreamDecoder decoder;
  prof::collector::ProcessStream process;
  process.stream_id = 1;
  bool started = false;
  for (size_t at = 0; at < size && !decoder.Failed(); at += chunk) {
    decoder.Feed(bytes + at, std::min(chunk, size - at));
    while (const prof::protocol::RecordHeader* record = decoder.Next()) {
      if (!started) {
        importer.OnStreamStart(*record, &process);
        started = true;
      } else {
        importer.OnRecord(process, *record);
      }
    }
  }
  if (started) {
    importer.OnStreamEnd(process, decoder.error());
  } else if (decoder.Failed()) {
    importer.OnStreamRejected(decoder.error());
  }
  prof::storage::SessionInfo session;
  session.data_problems = prof::collector::SessionCounters(importer.DataProblems());
  if (writer->Finish(session).ok()) unlink(ReportPath().c_str());
  return 0;
}
