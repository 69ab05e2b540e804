#include "collector/symbols/elf_file.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace prof::symbols {
namespace {

void InitLibelfOnce() {
  static std::once_flag once;
  std::call_once(once, [] { elf_version(EV_CURRENT); });
}

}  // namespace

StatusOr<std::unique_ptr<ElfFile>> ElfFile::Open(const std::string& path) {
  InitLibelfOnce();
  std::unique_ptr<ElfFile> file(new ElfFile());
  file->path_ = path;
  file->fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file->fd_ < 0) return Status::Error("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (fstat(file->fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    return Status::Error(path + " is not a regular file");
  }
  file->file_size_ = static_cast<uint64_t>(st.st_size);
  file->device_major_ = major(st.st_dev);
  file->device_minor_ = minor(st.st_dev);
  file->inode_ = st.st_ino;
  file->elf_ = elf_begin(file->fd_, ELF_C_READ_MMAP, nullptr);
  if (file->elf_ == nullptr || elf_kind(file->elf_) != ELF_K_ELF) {
    return Status::Error(path + " is not an ELF file");
  }
  size_t phdr_count = 0;
  if (elf_getphdrnum(file->elf_, &phdr_count) != 0) return Status::Error(path + ": no phdrs");
  for (size_t i = 0; i < phdr_count; ++i) {
    GElf_Phdr phdr;
    if (gelf_getphdr(file->elf_, static_cast<int>(i), &phdr) == nullptr) continue;
    if (phdr.p_type != PT_LOAD) continue;
    file->segments_.push_back({phdr.p_offset, phdr.p_filesz, phdr.p_vaddr, phdr.p_memsz});
    if (file->segments_.size() == 1) {
      // libdwfl takes a module's bias as its low address minus the first loadable segment's
      // vaddr rounded down to that segment's alignment (dwfl_reporting.cpp relies on it).
      uint64_t align = phdr.p_align > 1 ? phdr.p_align : 1;
      file->low_vaddr_ = phdr.p_vaddr & ~(align - 1);
    }
    file->high_vaddr_ = std::max<uint64_t>(file->high_vaddr_, phdr.p_vaddr + phdr.p_memsz);
  }
  if (file->segments_.empty()) return Status::Error(path + " has no loadable segment");
  const void* build_id = nullptr;
  ssize_t build_id_size = dwelf_elf_gnu_build_id(file->elf_, &build_id);
  if (build_id_size > 0) {
    file->build_id_.assign(static_cast<const char*>(build_id), static_cast<size_t>(build_id_size));
  }
  return file;
}

ElfFile::~ElfFile() {
  if (elf_ != nullptr) elf_end(elf_);
  if (fd_ >= 0) close(fd_);
}

const LoadSegment* ElfFile::SegmentOfOffset(uint64_t file_offset) const {
  for (const LoadSegment& segment : segments_) {
    if (file_offset >= segment.file_offset &&
        file_offset - segment.file_offset < segment.file_size) {
      return &segment;
    }
  }
  // The page before a segment that does not start on a page boundary is mapped with it (its
  // mapping's offset is rounded down), so an offset there still belongs to that segment.
  for (const LoadSegment& segment : segments_) {
    uint64_t page_start = segment.file_offset & ~uint64_t{0xfff};
    if (file_offset >= page_start && file_offset < segment.file_offset + segment.file_size) {
      return &segment;
    }
  }
  return nullptr;
}

std::optional<uint64_t> ElfFile::VaddrOfOffset(uint64_t file_offset) const {
  const LoadSegment* segment = SegmentOfOffset(file_offset);
  if (segment == nullptr) return std::nullopt;
  return segment->vaddr + (file_offset - segment->file_offset);
}

Elf* ElfFile::NewReference() const {
  // For a handle that is not an archive, elf_begin with a reference returns the same handle with
  // its use count raised; elf_end lowers it.
  return elf_begin(-1, ELF_C_READ_MMAP, elf_);
}

bool ElfFile::Read(uint64_t file_offset, void* out, size_t size) const {
  if (file_offset > file_size_ || size > file_size_ - file_offset) return false;
  ssize_t got = pread(fd_, out, size, static_cast<off_t>(file_offset));
  return got == static_cast<ssize_t>(size);
}

}  // namespace prof::symbols
