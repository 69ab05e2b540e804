// CPython's line tables, decoded in the launcher from a copy of a code object's co_linetable bytes
// (CPython's own PyCode_Addr2Line cannot run there). Pure functions of their inputs.
//
// - 3.11+: the location table (CPython's Objects/locations.md): entries that each cover 1-8 code
//   units, the first byte 1cccclll (code c, length l+1), then a code-dependent tail; codes 0-9 keep
//   the line, 10-12 add 0-2, 13 and 14 add a signed varint, 15 has no line.
// - 3.10: PEP 626's table: byte pairs (bytecode bytes covered, signed line delta; -128: no line).
#pragma once

#include <cstdint>
#include <string_view>

namespace prof::collector {

// The line of the instruction at `byte_offset` (bytes from the start of the bytecode; 2 per code
// unit) of a code object whose first line is `first_line`; -1 when the table gives none or the
// offset lies past its end. A negative offset (a frame that has not started) is the first line.
int LineOfLocationTable(std::string_view table, int first_line, int byte_offset);  // 3.11+
int LineOfLineTable310(std::string_view table, int first_line, int byte_offset);   // 3.10

}  // namespace prof::collector
