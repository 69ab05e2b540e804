#include "collector/python_frames/python_runtime.h"

#include <elf.h>

#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <vector>

#include "collector/python_frames/remote_memory.h"
#include "collector/symbols/elf_file.h"

namespace prof::collector {
namespace {

using protocol::cpython::Layout;

// The symbols Attach needs; others are skipped while scanning the tables.
const char* const kWantedSymbols[] = {"_PyRuntime", "PyCode_Type", "PyBytes_Type", "Py_Version",
                                      "PyUnicode_Type"};

bool Wanted(const char* name) {
  for (const char* wanted : kWantedSymbols) {
    if (std::strcmp(name, wanted) == 0) return true;
  }
  return false;
}

// Adds the wanted symbols defined in the section of type `type` (SHT_DYNSYM, SHT_SYMTAB) to
// `found` (name -> file vaddr). A 64-bit little-endian ELF only (x86-64, aarch64).
void ScanSymbols(const symbols::ElfFile& file, uint32_t type,
                 std::map<std::string, uint64_t>* found) {
  Elf64_Ehdr header{};
  if (!file.Read(0, &header, sizeof(header)) || header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_shentsize != sizeof(Elf64_Shdr)) {
    return;
  }
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  if (!file.Read(header.e_shoff, sections.data(), sections.size() * sizeof(Elf64_Shdr))) return;
  for (const Elf64_Shdr& section : sections) {
    if (section.sh_type != type || section.sh_link >= sections.size()) continue;
    const Elf64_Shdr& strings = sections[section.sh_link];
    std::vector<Elf64_Sym> symbols(section.sh_size / sizeof(Elf64_Sym));
    std::string names(strings.sh_size, '\0');
    if (!file.Read(section.sh_offset, symbols.data(), symbols.size() * sizeof(Elf64_Sym)) ||
        !file.Read(strings.sh_offset, names.data(), names.size())) {
      continue;
    }
    for (const Elf64_Sym& symbol : symbols) {
      if (symbol.st_shndx == SHN_UNDEF || symbol.st_name >= names.size()) continue;
      const char* name = names.c_str() + symbol.st_name;
      if (Wanted(name)) found->emplace(name, symbol.st_value);
    }
  }
}

// The mapped files named like CPython (libpython*.so*, python*), libpython first: a python
// binary linked against libpython defines no _PyRuntime of its own.
std::vector<std::string> Candidates(const symbols::ProcessMaps& maps) {
  std::vector<std::string> libraries, programs;
  std::map<std::string, bool> seen;
  for (const auto& [start, mapping] : maps.mappings()) {
    if (!mapping.HasFilePath() || seen.count(mapping.path) != 0) continue;
    std::string name = mapping.path.substr(mapping.path.rfind('/') + 1);
    // Not extension modules (_ssl.cpython-311-x86_64-linux-gnu.so): they define no _PyRuntime.
    if (name.rfind("libpython", 0) != 0 && name.rfind("python", 0) != 0) continue;
    seen[mapping.path] = true;
    (name.rfind("libpython", 0) == 0 ? libraries : programs).push_back(mapping.path);
  }
  libraries.insert(libraries.end(), programs.begin(), programs.end());
  return libraries;
}

StatusOr<std::unique_ptr<symbols::ElfFile>> OpenMapped(int pid, const std::string& path) {
  auto file = symbols::ElfFile::Open(path);
  if (file.ok()) return file;
  // A program in another mount namespace (a container): its root as the kernel sees it.
  auto through_root = symbols::ElfFile::Open("/proc/" + std::to_string(pid) + "/root" + path);
  if (through_root.ok()) return through_root;
  return file.status();
}

struct Version {
  int major = 0;
  int minor = 0;
  int micro = -1;
  bool free_threaded = false;
};

// "libpython3.13t.so.1.0", "python3.10" -> 3.13 (free-threaded), 3.10.
std::optional<Version> VersionOfName(const std::string& path) {
  static const std::regex kName(R"(python(\d+)\.(\d+)(t?)[^/]*$)");
  std::smatch match;
  if (!std::regex_search(path, match, kName)) return std::nullopt;
  return Version{std::stoi(match[1]), std::stoi(match[2]), -1, match[3].length() > 0};
}

std::string VersionText(const Version& version) {
  std::string text = std::to_string(version.major) + "." + std::to_string(version.minor);
  if (version.micro >= 0) text += "." + std::to_string(version.micro);
  return text;
}

Status Unsupported(const Version& version) {
  std::string text = std::to_string(version.major) + "." + std::to_string(version.minor);
  if (version.free_threaded)
    return Status::Error("free-threaded CPython " + text + " is not supported");
  return Status::Error("CPython " + text + " is not supported");
}

}  // namespace

StatusOr<PythonRuntime> FindPythonRuntime(int pid, const symbols::ProcessMaps& maps) {
  std::optional<Version> named;  // a version some file's name gave, for the errors below
  std::string problem;           // why the last file that looked like CPython was no use
  for (const std::string& path : Candidates(maps)) {
    if (!named) named = VersionOfName(path);
    auto file = OpenMapped(pid, path);
    if (!file.ok()) {
      problem = file.status().message();
      continue;
    }
    std::map<std::string, uint64_t> symbols;
    ScanSymbols(**file, SHT_DYNSYM, &symbols);
    if (symbols.count("_PyRuntime") == 0 || symbols.count("PyCode_Type") == 0) {
      ScanSymbols(**file, SHT_SYMTAB, &symbols);
    }
    if (symbols.count("_PyRuntime") == 0) {
      problem = path + " defines no _PyRuntime symbol";
      continue;
    }
    // Load bias: a mapping's start minus the file address its offset has; alike for all of them.
    uint64_t bias = 0;
    for (const auto& [start, mapping] : maps.mappings()) {
      if (mapping.path != path) continue;
      if (auto vaddr = (*file)->VaddrOfOffset(mapping.file_offset)) {
        bias = mapping.start - *vaddr;
        break;
      }
    }
    std::optional<Version> version = VersionOfName(path);
    if (auto py_version = symbols.find("Py_Version"); py_version != symbols.end()) {
      RemoteMemory memory(pid);
      uint32_t hex = 0;
      if (!memory.ReadValue(py_version->second + bias, &hex))
        return Status::Error(memory.ErrorText());
      bool free_threaded = version && version->free_threaded;
      version = Version{static_cast<int>(hex >> 24), static_cast<int>((hex >> 16) & 0xff),
                        static_cast<int>((hex >> 8) & 0xff), free_threaded};
    }
    if (!version) return Status::Error("cannot tell the CPython version of " + path);
    const Layout* layout = protocol::cpython::LayoutOf(version->major, version->minor);
    if (layout == nullptr || version->free_threaded) return Unsupported(*version);
    for (const char* type : {"PyCode_Type", "PyBytes_Type", "PyUnicode_Type"}) {
      if (symbols.count(type) == 0) return Status::Error(path + " defines no " + type + " symbol");
    }
    PythonRuntime runtime;
    runtime.layout = layout;
    runtime.runtime = symbols["_PyRuntime"] + bias;
    runtime.code_type = symbols["PyCode_Type"] + bias;
    runtime.bytes_type = symbols["PyBytes_Type"] + bias;
    runtime.unicode_type = symbols["PyUnicode_Type"] + bias;
    runtime.version = VersionText(*version);
    runtime.path = path;
    return runtime;
  }
  // Python 3.6 and older have no _PyRuntime: their file names still say what they are.
  if (named) {
    const Layout* layout = protocol::cpython::LayoutOf(named->major, named->minor);
    if (layout == nullptr || named->free_threaded) return Unsupported(*named);
  }
  if (!problem.empty()) return Status::Error(problem);
  return Status::Error("not a Python process");
}

}  // namespace prof::collector
