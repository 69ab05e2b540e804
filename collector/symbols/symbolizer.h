// Turns sampled instruction addresses into function names and module paths, after the fact: the
// process may have exited long ago; only its recorded mappings (ProcessTable) and the files on
// disk are used.
//
// Resolution is per (file, file offset): every process that maps the same file shares the
// answers, each distinct address is resolved once (then a hash lookup), and each file gets one
// libdwfl session of its own with the file reported at bias 0, so file offsets translate to the
// file's own addresses without knowing where any process loaded it; its symbols are read once
// into a sorted SymbolTable. Symbols come from .symtab,
// else a separate debug file (/usr/lib/debug/.build-id, .gnu_debuglink, MiniDebugInfo), else
// .dynsym. C++ names are demangled with prof's demangler (nsys's spelling), falling back to
// abi::__cxa_demangle, then to the raw name.
//
// What a frame says when no name can be given (unresolved = true, ip always the sampled one):
//   - file mapped, usable, no symbol covers the address: symbol "0x<address in the file>" (the
//     ELF virtual address, what addr2line -e FILE and objdump take), module = the file's path;
//   - file deleted, replaced since it was mapped, or gone (module_files.h): symbol "0x<ip>",
//     module = the path as mapped (with the kernel's " (deleted)");
//   - anonymous memory, JIT code, pseudo mappings ([vdso], [stack], ...): symbol "0x<ip>",
//     module = the pseudo name, or "[unknown]" for anonymous memory and unknown addresses.
// Callers' frames (not the leaf) are resolved at ip - 1: a return address points after the call,
// possibly into the next function (a noreturn call ending a function) or past a mapping's end.
//
// Strings in a ResolvedFrame live as long as the Symbolizer. Not thread-safe.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collector/symbols/dwfl_reporting.h"
#include "collector/symbols/module_files.h"
#include "collector/symbols/process_table.h"
#include "collector/symbols/string_interner.h"
#include "collector/symbols/symbol_table.h"

namespace prof::symbols {

struct ResolvedFrame {
  std::string_view symbol;
  std::string_view module;
  bool unresolved = true;
  uint64_t ip = 0;
};

enum class FramePosition {
  kLeaf,    // the sampled instruction itself
  kCaller,  // a return address (every frame of a callchain but the first)
};

struct SymbolizerCounts {
  uint64_t resolved_addresses = 0;  // distinct (file, offset) pairs looked up in symbol tables
  uint64_t cache_hits = 0;          // lookups answered from the cache
  uint64_t unresolved = 0;          // frames returned with unresolved = true
};

class Symbolizer {
 public:
  // Both must outlive the Symbolizer; `files` may be shared with a DwarfUnwinder.
  Symbolizer(const ProcessTable& processes, ModuleFiles& files);

  ResolvedFrame Resolve(int pid, uint64_t ip, FramePosition position = FramePosition::kLeaf);
  // A callchain, leaf first (the DWARF unwinder's output, or perf's user callchain without its
  // PERF_CONTEXT_* markers): the first frame as kLeaf, the others as kCaller.
  std::vector<ResolvedFrame> ResolveStack(int pid, const std::vector<uint64_t>& ips);

  const SymbolizerCounts& counts() const { return counts_; }

 private:
  struct CacheKey {
    const ElfFile* file;
    uint64_t offset;
    bool operator==(const CacheKey& other) const {
      return file == other.file && offset == other.offset;
    }
  };
  struct CacheKeyHash {
    size_t operator()(const CacheKey& key) const;
  };
  struct CachedSymbol {
    std::string_view symbol;
    std::string_view module;
    bool unresolved;
  };

  ResolvedFrame Unresolved(uint64_t ip, std::string_view module);
  CachedSymbol LookUp(const ElfFile& file, uint64_t offset);
  const SymbolTable& SymbolsOf(const ElfFile& file);
  std::string_view NameOf(const char* raw);

  const ProcessTable& processes_;
  ModuleFiles& files_;
  StringInterner strings_;
  std::unordered_map<CacheKey, CachedSymbol, CacheKeyHash> cache_;
  // One libdwfl session per file, and the symbols read through it (empty when the file could
  // not be reported).
  struct FileSymbols {
    DwflHandle dwfl;
    SymbolTable table;
  };
  std::unordered_map<const ElfFile*, FileSymbols> files_symbols_;
  std::string_view unknown_module_;
  SymbolizerCounts counts_;
};

}  // namespace prof::symbols
