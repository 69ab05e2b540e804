// UTF-8 text for NVTX records: wide (wchar_t, UTF-32 on Linux) messages converted without locale
// calls, and byte budgets applied on character boundaries so a truncated message stays valid UTF-8.
//
// Everything here is allocation-free and async-signal-safe; callers own the buffers.
#pragma once

#include <cstddef>

#include "injection/protocol/record_format.h"

namespace prof::injection::nvtx {

// Length of the longest prefix of `text` (`length` bytes of UTF-8) that is at most `limit` bytes
// and does not end inside a multi-byte character.
size_t Utf8PrefixLength(const char* text, size_t length, size_t limit);

// Writes the UTF-8 form of the NUL-terminated `wide` into `out` and returns the bytes written,
// stopping before the first character that would not fit in `capacity`. Values that are not
// Unicode scalar values (surrogates, above U+10FFFF) become U+FFFD. `out` is not NUL-terminated.
size_t WideToUtf8(const wchar_t* wide, char* out, size_t capacity);

// A message or name as records carry it: UTF-8 of at most protocol::kMaxTextLength bytes, cut on a
// character boundary. Narrow text is referenced, not copied (it must outlive the object); wide text
// is converted into the object's own buffer. A null pointer reads as empty text.
class Utf8Text {
 public:
  explicit Utf8Text(const char* text);
  explicit Utf8Text(const wchar_t* text);
  Utf8Text(const Utf8Text&) = delete;
  Utf8Text& operator=(const Utf8Text&) = delete;

  const char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  const char* data_ = "";
  size_t size_ = 0;
  char buffer_[protocol::kMaxTextLength];
};

}  // namespace prof::injection::nvtx
