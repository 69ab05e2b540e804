// CPython's line tables, decoded from a copy of a code object's co_linetable bytes: by the
// launcher (collector/python_frames, which cannot call CPython) and by the in-process reader
// (injection/python, which must not: CPython's own lookup reads memory that may be gone). Pure
// functions of their inputs.
//
// - 3.11+: the location table (CPython's Objects/locations.md): entries that each cover 1-8 code
//   units, the first byte 1cccclll (code c, length l+1), then a code-dependent tail; codes 0-9 keep
//   the line, 10-12 add 0-2, 13 and 14 add a signed varint, 15 has no line.
// - 3.10: PEP 626's table: byte pairs (bytecode bytes covered, signed line delta; -128: no line).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace prof::protocol::cpython {
namespace line_table_detail {

inline constexpr int kCodeUnitBytes = 2;
inline constexpr int kNoLocation = 15;
inline constexpr int kNoColumns = 13;
inline constexpr int kLongForm = 14;
inline constexpr int kOneLineFirst = 10;

// A location table varint: 6-bit groups, least significant first, bit 6 set while more follow.
inline uint32_t ReadVarint(std::string_view table, size_t* at) {
  uint32_t value = 0;
  int shift = 0;
  while (*at < table.size() && shift < 32) {
    auto byte = static_cast<uint8_t>(table[(*at)++]);
    value |= static_cast<uint32_t>(byte & 63) << shift;
    shift += 6;
    if ((byte & 64) == 0) break;
  }
  return value;
}

inline int ReadSignedVarint(std::string_view table, size_t* at) {
  uint32_t value = ReadVarint(table, at);
  return (value & 1) != 0 ? -static_cast<int>(value >> 1) : static_cast<int>(value >> 1);
}

}  // namespace line_table_detail

// The line of the instruction at `byte_offset` (bytes from the start of the bytecode; 2 per code
// unit) of a code object whose first line is `first_line`; -1 when the table gives none or the
// offset lies past its end. A negative offset (a frame that has not started) is the first line.
inline int LineOfLocationTable(std::string_view table, int first_line, int byte_offset) {  // 3.11+
  using namespace line_table_detail;
  if (byte_offset < 0) return first_line;
  int line = first_line;
  int end = 0;
  size_t at = 0;
  while (at < table.size()) {
    auto head = static_cast<uint8_t>(table[at]);
    if ((head & 128) == 0) return -1;  // not an entry's first byte: a corrupt table
    int code = (head >> 3) & 15;
    int start = end;
    end += ((head & 7) + 1) * kCodeUnitBytes;
    size_t tail = at + 1;
    if (code == kNoColumns || code == kLongForm) {
      line += ReadSignedVarint(table, &tail);
    } else if (code >= kOneLineFirst && code < kNoColumns) {
      line += code - kOneLineFirst;
    }
    if (byte_offset >= start && byte_offset < end) return code == kNoLocation ? -1 : line;
    // The tail's remaining bytes (columns, end line) never have bit 7 set.
    at = tail;
    while (at < table.size() && (static_cast<uint8_t>(table[at]) & 128) == 0) ++at;
  }
  return -1;
}

inline int LineOfLineTable310(std::string_view table, int first_line, int byte_offset) {  // 3.10
  if (byte_offset < 0) return first_line;
  int computed = first_line;
  int end = 0;
  for (size_t at = 0; at + 1 < table.size(); at += 2) {
    int start = end;
    end += static_cast<uint8_t>(table[at]);
    auto delta = static_cast<int8_t>(table[at + 1]);
    bool no_line = delta == -128;
    if (!no_line) computed += delta;
    // Zero-length entries only move the line on; CPython skips them when looking up.
    if (byte_offset >= start && byte_offset < end) return no_line ? -1 : computed;
  }
  return -1;
}

}  // namespace prof::protocol::cpython
