// The output stream (export/output_stream.h): plain and gzip output hold exactly the bytes
// appended, across the 1 MiB buffer.
#include "export/output_stream.h"

#include <zlib.h>

#include <catch2/catch.hpp>

#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::exporter {
namespace {

// 3 MiB of varied text, appended in pieces of many sizes.
std::string Write(const std::string& path, Compression compression) {
  std::unique_ptr<OutputStream> out;
  REQUIRE(OutputStream::Open(path, compression, &out).ok());
  std::string expected;
  for (int i = 0; expected.size() < (3u << 20); ++i) {
    const std::string piece = "event " + std::to_string(i) + std::string(i % 97, 'x') + "\n";
    out->Append(piece);
    expected += piece;
  }
  const Status status = out->Close();
  INFO(status.message());
  REQUIRE(status.ok());
  return expected;
}

std::string Gunzip(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  REQUIRE(file != nullptr);
  std::string text;
  char chunk[65536];
  int read = 0;
  while ((read = gzread(file, chunk, sizeof chunk)) > 0) text.append(chunk, read);
  REQUIRE(read == 0);
  gzclose(file);
  return text;
}

TEST_CASE("plain output holds exactly the appended bytes", "[export]") {
  const std::string path = prof::test::MakeTempDir("export_stream_plain") + "/out.txt";
  const std::string expected = Write(path, Compression::kNone);
  CHECK(prof::stats::test::ReadFile(path) == expected);
}

TEST_CASE("gzip output decompresses to the appended bytes", "[export]") {
  const std::string path = prof::test::MakeTempDir("export_stream_gzip") + "/out.txt.gz";
  const std::string expected = Write(path, Compression::kGzip);
  const std::string compressed = prof::stats::test::ReadFile(path);
  REQUIRE(compressed.size() > 2);
  CHECK(static_cast<unsigned char>(compressed[0]) == 0x1F);  // gzip magic
  CHECK(static_cast<unsigned char>(compressed[1]) == 0x8B);
  CHECK(compressed.size() < expected.size() / 4);
  CHECK(Gunzip(path) == expected);
}

TEST_CASE("opening an output in a missing directory fails with its name", "[export]") {
  std::unique_ptr<OutputStream> out;
  const Status status = OutputStream::Open("/nonexistent-dir/out.json", Compression::kNone, &out);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() == "cannot write /nonexistent-dir/out.json: No such file or directory");
}

}  // namespace
}  // namespace prof::exporter
