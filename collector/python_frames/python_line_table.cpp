#include "collector/python_frames/python_line_table.h"

#include <cstddef>

namespace prof::collector {
namespace {

constexpr int kCodeUnitBytes = 2;
constexpr int kNoLocation = 15;
constexpr int kNoColumns = 13;
constexpr int kLongForm = 14;
constexpr int kOneLineFirst = 10;

// A location table varint: 6-bit groups, least significant first, bit 6 set while more follow.
uint32_t ReadVarint(std::string_view table, size_t* at) {
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

int ReadSignedVarint(std::string_view table, size_t* at) {
  uint32_t value = ReadVarint(table, at);
  return (value & 1) != 0 ? -static_cast<int>(value >> 1) : static_cast<int>(value >> 1);
}

}  // namespace

int LineOfLocationTable(std::string_view table, int first_line, int byte_offset) {
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

int LineOfLineTable310(std::string_view table, int first_line, int byte_offset) {
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

}  // namespace prof::collector
