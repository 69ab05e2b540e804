#include "export/output_stream.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>

namespace prof::exporter {
namespace {

constexpr size_t kBufferBytes = size_t{1} << 20;
// deflateInit2's windowBits: 15 (the largest window) + 16 asks zlib for a gzip header and trailer.
constexpr int kGzipWindowBits = 15 + 16;
constexpr int kDefaultMemLevel = 8;

}  // namespace

OutputStream::~OutputStream() {
  if (zlib_) deflateEnd(zlib_.get());
  if (file_ != nullptr) std::fclose(file_);
}

Status OutputStream::Open(const std::string& path, Compression compression,
                          std::unique_ptr<OutputStream>* out) {
  auto stream = std::make_unique<OutputStream>();
  stream->path_ = path;
  stream->file_ = std::fopen(path.c_str(), "wb");
  if (stream->file_ == nullptr) {
    return Status::Error("cannot write " + path + ": " + std::strerror(errno));
  }
  if (compression == Compression::kGzip) {
    stream->zlib_ = std::make_unique<z_stream_s>();
    if (deflateInit2(stream->zlib_.get(), Z_DEFAULT_COMPRESSION, Z_DEFLATED, kGzipWindowBits,
                     kDefaultMemLevel, Z_DEFAULT_STRATEGY) != Z_OK) {
      stream->zlib_.reset();
      return Status::Error("cannot start gzip compression for " + path);
    }
  }
  stream->buffer_.reserve(kBufferBytes);
  *out = std::move(stream);
  return Status::Ok();
}

void OutputStream::Append(std::string_view bytes) {
  if (buffer_.size() + bytes.size() > kBufferBytes) FlushBuffer();
  buffer_.append(bytes);
}

Status OutputStream::Close() {
  FlushBuffer();
  if (zlib_) {
    Deflate(nullptr, 0, Z_FINISH);
    deflateEnd(zlib_.get());
    zlib_.reset();
  }
  if (file_ != nullptr) {
    if (std::fclose(file_) != 0 && status_.ok()) {
      status_ = Status::Error("cannot write " + path_ + ": " + std::strerror(errno));
    }
    file_ = nullptr;
  }
  return status_;
}

void OutputStream::FlushBuffer() {
  if (zlib_) {
    Deflate(buffer_.data(), buffer_.size(), Z_NO_FLUSH);
  } else {
    WriteToFile(buffer_.data(), buffer_.size());
  }
  buffer_.clear();
}

void OutputStream::WriteToFile(const char* bytes, size_t size) {
  if (!status_.ok() || size == 0) return;
  if (std::fwrite(bytes, 1, size, file_) != size) {
    status_ = Status::Error("cannot write " + path_ + ": " + std::strerror(errno));
  }
}

void OutputStream::Deflate(const char* bytes, size_t size, int flush) {
  char compressed[64 * 1024];
  zlib_->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes));
  zlib_->avail_in = static_cast<uInt>(size);
  int result = Z_OK;
  do {
    zlib_->next_out = reinterpret_cast<Bytef*>(compressed);
    zlib_->avail_out = sizeof compressed;
    result = deflate(zlib_.get(), flush);
    if (result == Z_STREAM_ERROR) {
      if (status_.ok()) status_ = Status::Error("gzip compression failed for " + path_);
      return;
    }
    WriteToFile(compressed, sizeof compressed - zlib_->avail_out);
  } while (zlib_->avail_out == 0 || (flush == Z_FINISH && result != Z_STREAM_END));
}

}  // namespace prof::exporter
