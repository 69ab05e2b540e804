// Where a process's CPython keeps its state, found from outside it: the mapped python binary or
// libpython*.so whose ELF symbol tables (.dynsym, else .symtab) define _PyRuntime, the addresses
// of PyCode_Type, PyBytes_Type and PyUnicode_Type (to check what a pointer points at), and the version (Py_Version
// in 3.11+, else the file's name: libpython3.10.so.1.0, python3.10).
//
// Reads the ELF file from disk (the mapping's path, else through /proc/<pid>/root) and, for
// Py_Version, 4 bytes of the process's memory. Called once per process; not thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "collector/symbols/process_maps.h"
#include "common/status.h"
#include "injection/protocol/cpython_layout.h"

namespace prof::collector {

struct PythonRuntime {
  const protocol::cpython::Layout* layout = nullptr;
  uint64_t runtime = 0;       // &_PyRuntime in the process
  uint64_t code_type = 0;     // &PyCode_Type
  uint64_t bytes_type = 0;    // &PyBytes_Type
  uint64_t unicode_type = 0;  // &PyUnicode_Type
  std::string version;        // "3.12.1"
  std::string path;           // the file that defines _PyRuntime
};

// The interpreter of `pid`, whose mappings are `maps`. Fails with one line: "not a Python process"
// (nothing mapped defines _PyRuntime or is named like CPython), "CPython 3.9 is not supported",
// "free-threaded CPython 3.13 is not supported", or why a file or the memory could not be read.
StatusOr<PythonRuntime> FindPythonRuntime(int pid, const symbols::ProcessMaps& maps);

}  // namespace prof::collector
