// The byte stream an export is written to: a file, optionally gzip-compressed on the fly, behind a
// 1 MiB buffer so that writers can append small pieces cheaply and memory stays flat.
//
// Contract: no exceptions. Append never fails by itself; the first write error is remembered and
// returned by Close(), which must be called to flush (the destructor only releases resources).
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"

struct z_stream_s;

namespace prof::exporter {

enum class Compression { kNone, kGzip };

class OutputStream {
 public:
  OutputStream() = default;
  ~OutputStream();
  OutputStream(const OutputStream&) = delete;
  OutputStream& operator=(const OutputStream&) = delete;

  // Creates (or truncates) `path`.
  static Status Open(const std::string& path, Compression compression,
                     std::unique_ptr<OutputStream>* out);

  void Append(std::string_view bytes);
  // Flushes everything (and the gzip trailer) and closes the file.
  Status Close();

 private:
  void FlushBuffer();
  void WriteToFile(const char* bytes, size_t size);
  void Deflate(const char* bytes, size_t size, int flush);

  std::string path_;
  std::FILE* file_ = nullptr;
  std::unique_ptr<z_stream_s> zlib_;  // set when compressing
  std::string buffer_;
  Status status_ = Status::Ok();
};

}  // namespace prof::exporter
