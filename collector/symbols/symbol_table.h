// A file's function symbols sorted by address, for lookups in O(log n): libdwfl's own
// dwfl_module_addrinfo scans the whole table on every call, which costs milliseconds per
// address in libraries of 100,000+ symbols (libtorch, libcudnn).
//
// Built once per file from the table libdwfl chose for the module (.symtab, else the separate debug
// file's, else .dynsym, plus MiniDebugInfo's). Names point into the file's mapped string table:
// the Dwfl the table was read from must outlive it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

typedef struct Dwfl_Module Dwfl_Module;

namespace prof::symbols {

class SymbolTable {
 public:
  // The defined function (and untyped) symbols of `module`, which must be reported at bias 0.
  static SymbolTable FromModule(Dwfl_Module* module);

  // The name of the symbol covering file address `vaddr`, or null. A symbol covers
  // [value, value + size); one without a size covers up to the next symbol's address. At one
  // address, a symbol with a size wins over one without, then a global symbol over a weak one, a
  // weak one over a local one.
  const char* Lookup(uint64_t vaddr) const;
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    uint64_t address;
    uint64_t size;
    const char* name;
  };
  std::vector<Entry> entries_;  // by address; one per address
};

}  // namespace prof::symbols
