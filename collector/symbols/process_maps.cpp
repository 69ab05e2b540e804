#include "collector/symbols/process_maps.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <utility>
#include <vector>

namespace prof::symbols {
namespace {

constexpr std::string_view kDeletedSuffix = " (deleted)";

// Generations come from one counter so that two ProcessMaps never share one (process_maps.h).
uint64_t NextGeneration() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

bool ParseHex(std::string_view text, uint64_t* value) {
  if (text.empty()) return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *value, 16);
  return error == std::errc() && end == text.data() + text.size();
}

// The next field separated by spaces; `text` moves past it.
std::string_view NextField(std::string_view* text) {
  size_t begin = text->find_first_not_of(' ');
  if (begin == std::string_view::npos) {
    *text = {};
    return {};
  }
  size_t end = text->find(' ', begin);
  std::string_view field = text->substr(begin, end - begin);
  *text = end == std::string_view::npos ? std::string_view() : text->substr(end);
  return field;
}

int ParseProt(std::string_view perms) {
  int prot = 0;
  if (perms.size() > 0 && perms[0] == 'r') prot |= PROT_READ;
  if (perms.size() > 1 && perms[1] == 'w') prot |= PROT_WRITE;
  if (perms.size() > 2 && perms[2] == 'x') prot |= PROT_EXEC;
  return prot;
}

// "55f2-55f3 r-xp 00002000 fe:00 247134      /usr/bin/cat"; the path keeps inner spaces.
bool ParseLine(std::string_view line, Mapping* mapping) {
  std::string_view rest = line;
  std::string_view range = NextField(&rest);
  std::string_view perms = NextField(&rest);
  std::string_view offset = NextField(&rest);
  std::string_view device = NextField(&rest);
  std::string_view inode = NextField(&rest);
  size_t dash = range.find('-');
  size_t colon = device.find(':');
  uint64_t start = 0, end = 0, major = 0, minor = 0;
  if (dash == std::string_view::npos || colon == std::string_view::npos ||
      !ParseHex(range.substr(0, dash), &start) || !ParseHex(range.substr(dash + 1), &end) ||
      end < start || !ParseHex(offset, &mapping->file_offset) ||
      !ParseHex(device.substr(0, colon), &major) || !ParseHex(device.substr(colon + 1), &minor)) {
    return false;
  }
  auto [inode_end, error] =
      std::from_chars(inode.data(), inode.data() + inode.size(), mapping->identity.inode);
  if (inode.empty() || error != std::errc() || inode_end != inode.data() + inode.size()) {
    return false;
  }
  size_t path_begin = rest.find_first_not_of(' ');
  mapping->path = path_begin == std::string_view::npos ? "" : std::string(rest.substr(path_begin));
  mapping->start = start;
  mapping->length = end - start;
  mapping->prot = ParseProt(perms);
  mapping->identity.device_major = static_cast<uint32_t>(major);
  mapping->identity.device_minor = static_cast<uint32_t>(minor);
  return true;
}

}  // namespace

bool Mapping::IsDeleted() const {
  return path.size() >= kDeletedSuffix.size() &&
         std::string_view(path).substr(path.size() - kDeletedSuffix.size()) == kDeletedSuffix;
}

bool Mapping::HasFilePath() const {
  // "/memfd:name (deleted)" and "/dev/zero (deleted)" (shared anonymous memory) are deleted too.
  return !path.empty() && path[0] == '/' && !IsDeleted();
}

void ProcessMaps::AddMapping(Mapping mapping) {
  if (mapping.length == 0 || mapping.start + mapping.length < mapping.start) return;
  uint64_t start = mapping.start;
  uint64_t end = mapping.end();
  // The first mapping that may overlap is the one before the first starting at or after `start`.
  auto it = mappings_.lower_bound(start);
  if (it != mappings_.begin() && std::prev(it)->second.end() > start) --it;
  std::vector<Mapping> kept_parts;
  while (it != mappings_.end() && it->second.start < end) {
    const Mapping& old = it->second;
    if (old.start < start) {
      Mapping left = old;
      left.length = start - old.start;
      kept_parts.push_back(std::move(left));
    }
    if (old.end() > end) {
      Mapping right = old;
      right.start = end;
      right.length = old.end() - end;
      right.file_offset = old.file_offset + (end - old.start);
      kept_parts.push_back(std::move(right));
    }
    it = mappings_.erase(it);
  }
  for (Mapping& part : kept_parts) mappings_.emplace(part.start, std::move(part));
  mappings_.emplace(start, std::move(mapping));
  Touch();
}

void ProcessMaps::Exec() {
  mappings_.clear();
  Touch();
}

void ProcessMaps::Fork(const ProcessMaps& parent) {
  mappings_ = parent.mappings_;
  Touch();
}

const Mapping* ProcessMaps::Find(uint64_t address) const {
  auto it = mappings_.upper_bound(address);
  if (it == mappings_.begin()) return nullptr;
  --it;
  return address < it->second.end() ? &it->second : nullptr;
}

void ProcessMaps::Touch() { generation_ = NextGeneration(); }

StatusOr<ProcessMaps> ProcessMaps::ParseProcMaps(std::string_view text) {
  ProcessMaps maps;
  size_t line_number = 0;
  while (!text.empty()) {
    size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    ++line_number;
    if (line.empty()) continue;
    Mapping mapping;
    if (!ParseLine(line, &mapping)) {
      return Status::Error("maps line " + std::to_string(line_number) +
                           " does not parse: " + std::string(line));
    }
    maps.AddMapping(std::move(mapping));
  }
  return maps;
}

StatusOr<ProcessMaps> ProcessMaps::SnapshotFromProc(int pid) {
  // read(2) rather than a stream: the process may exit while its maps are read, and the read then
  // fails with ESRCH, which libstdc++'s filebuf throws from an istreambuf_iterator.
  const std::string path = "/proc/" + std::to_string(pid) + "/maps";
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Error("cannot read " + path + ": " + std::strerror(errno));
  std::string text;
  char buffer[16384];
  for (;;) {
    const ssize_t got = read(fd, buffer, sizeof(buffer));
    if (got > 0) {
      text.append(buffer, static_cast<size_t>(got));
    } else if (got == 0) {
      break;
    } else if (errno != EINTR) {
      const int error = errno;
      close(fd);
      return Status::Error("cannot read " + path + ": " + std::strerror(error));
    }
  }
  close(fd);
  return ParseProcMaps(text);
}

}  // namespace prof::symbols
