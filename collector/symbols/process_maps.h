// One process's address space as the launcher learns it: perf's MMAP2 records (AddMapping), exec
// (Exec), fork (Fork) and, for mappings made before perf watched the process, /proc/<pid>/maps
// (SnapshotFromProc). The symbolizer and the unwinder look addresses up here long after the
// process may have exited, so a ProcessMaps owns copies of everything it needs.
//
// Not thread-safe; values are plain copies (fork copies the parent's value).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "common/status.h"

namespace prof::symbols {

// What identifies the file that was mapped, as MMAP2 (maj, min, ino) and /proc/<pid>/maps
// ("fd:01 1234") report it. inode 0: not known (anonymous memory, or a source that had none).
struct FileIdentity {
  uint32_t device_major = 0;
  uint32_t device_minor = 0;
  uint64_t inode = 0;
};

struct Mapping {
  uint64_t start = 0;
  uint64_t length = 0;
  uint64_t file_offset = 0;  // of `start` in the file (MMAP2's pgoff)
  // As the kernel prints it: an absolute path, possibly ending in " (deleted)"; "" for anonymous
  // memory; a pseudo name such as "[stack]", "[vdso]", "[heap]", "//anon" or "/memfd:x (deleted)".
  std::string path;
  int prot = 0;  // PROT_READ | PROT_WRITE | PROT_EXEC
  FileIdentity identity;
  std::string build_id;  // raw bytes when MMAP2 carried one (PERF_RECORD_MISC_MMAP_BUILD_ID)

  uint64_t end() const { return start + length; }
  // A path of a regular file that may still be opened by name (not a pseudo name, not deleted).
  bool HasFilePath() const;
  bool IsDeleted() const;  // the kernel's " (deleted)" suffix
};

class ProcessMaps {
 public:
  // Enters `mapping`, replacing what it overlaps, as mmap(MAP_FIXED) does: older mappings are
  // cut to the parts outside it. An empty or wrapping range is ignored.
  void AddMapping(Mapping mapping);
  // execve replaced the address space: every mapping goes.
  void Exec();
  // fork: this process's address space becomes a copy of `parent`'s.
  void Fork(const ProcessMaps& parent);

  // The mapping that holds `address`, or null.
  const Mapping* Find(uint64_t address) const;
  const std::map<uint64_t, Mapping>& mappings() const { return mappings_; }
  // Changes whenever the mappings change; unique across every ProcessMaps of the launcher, so a
  // cache keyed by it (the unwinder's per-process Dwfl) never mistakes another value for this one.
  uint64_t generation() const { return generation_; }

  // Parses the text of /proc/<pid>/maps. Lines that do not parse fail the whole text.
  static StatusOr<ProcessMaps> ParseProcMaps(std::string_view text);
  // Reads /proc/<pid>/maps now (the process must be alive).
  static StatusOr<ProcessMaps> SnapshotFromProc(int pid);

 private:
  void Touch();

  std::map<uint64_t, Mapping> mappings_;  // by start; never overlapping
  uint64_t generation_ = 0;
};

}  // namespace prof::symbols
