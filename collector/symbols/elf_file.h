// One ELF file on disk, opened once for the whole session: its descriptor, libelf's handle (the
// file is mmapped read-only by libelf), what identifies it (device, inode, build id) and its
// loadable segments, which turn a file offset (what a mapping gives) into the address the file's
// symbol tables and CFI use.
//
// libdwfl modules get counted references to the handle (NewReference), so a file is parsed once
// however many Dwfl sessions (one per file for symbols, one per process for unwinding) use it.
// The ElfFile must outlive every Dwfl that holds such a reference. Not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

typedef struct Elf Elf;  // libelf's handle; libelf.h stays out of prof's headers

namespace prof::symbols {

struct LoadSegment {
  uint64_t file_offset = 0;
  uint64_t file_size = 0;
  uint64_t vaddr = 0;
  uint64_t mem_size = 0;
};

class ElfFile {
 public:
  // Opens `path` and checks that it is an ELF file with loadable segments.
  static StatusOr<std::unique_ptr<ElfFile>> Open(const std::string& path);
  ~ElfFile();
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  const std::string& path() const { return path_; }
  uint32_t device_major() const { return device_major_; }
  uint32_t device_minor() const { return device_minor_; }
  uint64_t inode() const { return inode_; }
  const std::string& build_id() const { return build_id_; }  // raw bytes; "" when none
  const std::vector<LoadSegment>& segments() const { return segments_; }

  // The segment whose file contents hold `file_offset`, or null.
  const LoadSegment* SegmentOfOffset(uint64_t file_offset) const;
  // The address in the file's own address space (symbols, CFI) of `file_offset`.
  std::optional<uint64_t> VaddrOfOffset(uint64_t file_offset) const;
  // [first segment's vaddr rounded down to its alignment, highest segment end): the span of a
  // Dwfl module at bias 0.
  uint64_t low_vaddr() const { return low_vaddr_; }
  uint64_t high_vaddr() const { return high_vaddr_; }

  // A counted reference to the libelf handle for a libdwfl module, which elf_end()s it when the
  // module goes.
  Elf* NewReference() const;
  // Reads `size` bytes at `file_offset`; false past the end of the file.
  bool Read(uint64_t file_offset, void* out, size_t size) const;

 private:
  ElfFile() = default;

  std::string path_;
  int fd_ = -1;
  Elf* elf_ = nullptr;
  uint64_t file_size_ = 0;
  uint32_t device_major_ = 0;
  uint32_t device_minor_ = 0;
  uint64_t inode_ = 0;
  std::string build_id_;
  std::vector<LoadSegment> segments_;
  uint64_t low_vaddr_ = 0;
  uint64_t high_vaddr_ = 0;
};

}  // namespace prof::symbols
