#include "collector/executable_linkage.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace prof::collector {
namespace {

// A file descriptor closed when it goes out of scope.
class OpenFile {
 public:
  explicit OpenFile(const std::string& path) : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~OpenFile() {
    if (fd_ >= 0) close(fd_);
  }
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;

  // Up to `size` bytes at `offset`: how many were read, or -1 when the file cannot be read.
  ssize_t ReadAt(uint64_t offset, void* buffer, size_t size) const {
    return fd_ < 0 ? -1 : pread(fd_, buffer, size, static_cast<off_t>(offset));
  }
  bool ReadExactly(uint64_t offset, void* buffer, size_t size) const {
    return ReadAt(offset, buffer, size) == static_cast<ssize_t>(size);
  }

 private:
  int fd_;
};

// An ELF executable without a PT_INTERP program header is started by the kernel alone.
template <typename ElfHeader, typename ProgramHeader>
bool LacksInterpreter(const OpenFile& file) {
  ElfHeader header;
  if (!file.ReadExactly(0, &header, sizeof(header)) ||
      (header.e_type != ET_EXEC && header.e_type != ET_DYN) ||
      header.e_phentsize != sizeof(ProgramHeader)) {
    return false;
  }
  std::vector<ProgramHeader> program_headers(header.e_phnum);
  if (!file.ReadExactly(header.e_phoff, program_headers.data(),
                        program_headers.size() * sizeof(ProgramHeader))) {
    return false;
  }
  for (const ProgramHeader& entry : program_headers) {
    if (entry.p_type == PT_INTERP) return false;
  }
  return true;
}

bool IsStaticElf(const OpenFile& file) {
  unsigned char ident[EI_NIDENT];
  if (!file.ReadExactly(0, ident, sizeof(ident)) || std::memcmp(ident, ELFMAG, SELFMAG) != 0) {
    return false;
  }
  if (ident[EI_CLASS] == ELFCLASS64) return LacksInterpreter<Elf64_Ehdr, Elf64_Phdr>(file);
  if (ident[EI_CLASS] == ELFCLASS32) return LacksInterpreter<Elf32_Ehdr, Elf32_Phdr>(file);
  return false;
}

// The interpreter path of a "#!" line, or "" when the file does not start with one.
std::string ScriptInterpreter(const OpenFile& file) {
  char line[256];
  const ssize_t got = file.ReadAt(0, line, sizeof(line));
  if (got < 2 || line[0] != '#' || line[1] != '!') return "";
  const std::string text(line, static_cast<size_t>(got));
  const size_t start = text.find_first_not_of(" \t", 2);
  if (start == std::string::npos) return "";
  return text.substr(start, text.find_first_of(" \t\n", start) - start);
}

}  // namespace

std::optional<std::string> StaticallyLinkedExecutable(const std::string& program) {
  const OpenFile file(program);
  const std::string interpreter = ScriptInterpreter(file);
  if (!interpreter.empty()) {
    if (IsStaticElf(OpenFile(interpreter))) return interpreter;
    return std::nullopt;
  }
  if (IsStaticElf(file)) return program;
  return std::nullopt;
}

}  // namespace prof::collector
