// The files behind the traced processes' mappings, each opened at most once per session however
// many processes, mappings and addresses refer to it; also the answer "this mapping's file cannot
// be used", decided once per (path, identity):
//   - deleted: the kernel marked the path " (deleted)" (also memfd and shared anonymous memory);
//   - missing: the path no longer opens, or is not an ELF file;
//   - replaced: the file at the path is not the one that was mapped: its inode differs on the
//     same device, or its build id differs from the one MMAP2 carried. When the devices differ
//     (overlayfs shows the lower layer's device in maps) and no build id is known, the path is
//     trusted.
// A mapping's file offsets are only read from a file that passed these checks.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "collector/symbols/elf_file.h"
#include "collector/symbols/process_maps.h"
#include "collector/symbols/string_interner.h"

namespace prof::symbols {

enum class FileState {
  kUsable,
  kNotAFile,  // anonymous memory or a pseudo name ([vdso], [stack], //anon): nothing to open
  kDeleted,
  kMissing,
  kReplaced,
};

struct ModuleFileCounts {
  uint64_t opened = 0;  // files opened (open(2) calls), usable or not
  uint64_t deleted = 0;
  uint64_t missing = 0;
  uint64_t replaced = 0;
};

class ModuleFiles {
 public:
  struct Lookup {
    const ElfFile* file = nullptr;  // null unless state is kUsable
    FileState state = FileState::kMissing;
  };

  // The file behind `mapping`, opened on first use.
  Lookup Get(const Mapping& mapping);
  const ModuleFileCounts& counts() const { return counts_; }

 private:
  // Views into `key_texts_`, so a lookup copies nothing (this runs once per sampled frame).
  struct Key {
    std::string_view path;
    FileIdentity identity;
    std::string_view build_id;
    bool operator==(const Key& other) const;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const;
  };

  Lookup Decide(const Mapping& mapping);

  // The decision per (path, identity, build id); files by path, so a file that two identities
  // name (a mapping from perf with build id, one from /proc without) is opened once.
  std::unordered_map<Key, Lookup, KeyHash> decisions_;
  StringInterner key_texts_;
  std::unordered_map<std::string, std::unique_ptr<ElfFile>> files_;
  ModuleFileCounts counts_;
};

}  // namespace prof::symbols
