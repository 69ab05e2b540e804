#include "collector/symbols/symbolizer.h"

#include <cxxabi.h>
#include <elfutils/libdwfl.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "demangle/itanium_demangler.h"

namespace prof::symbols {
namespace {

std::string HexText(uint64_t value) {
  char text[2 + 16 + 1];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

std::string Demangled(const char* raw) {
  std::string_view name(raw);
  if (name.size() < 2 || name[0] != '_' || name[1] != 'Z') return std::string(name);
  if (std::optional<std::string> text =
          collector::DemangleItanium(name, collector::DemangleStyle::kNsys)) {
    return *std::move(text);
  }
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> text(
      abi::__cxa_demangle(raw, nullptr, nullptr, &status), &std::free);
  return status == 0 && text != nullptr ? std::string(text.get()) : std::string(name);
}

}  // namespace

size_t Symbolizer::CacheKeyHash::operator()(const CacheKey& key) const {
  return std::hash<const void*>()(key.file) ^ (std::hash<uint64_t>()(key.offset) * 31);
}

Symbolizer::Symbolizer(const ProcessTable& processes, ModuleFiles& files)
    : processes_(processes), files_(files), unknown_module_(strings_.Intern("[unknown]")) {}

ResolvedFrame Symbolizer::Resolve(int pid, uint64_t ip, FramePosition position) {
  uint64_t address = position == FramePosition::kCaller && ip > 0 ? ip - 1 : ip;
  const ProcessMaps* maps = processes_.Find(pid);
  const Mapping* mapping = maps == nullptr ? nullptr : maps->Find(address);
  if (mapping == nullptr) return Unresolved(ip, unknown_module_);
  if (mapping->path.empty()) return Unresolved(ip, unknown_module_);
  ModuleFiles::Lookup file = files_.Get(*mapping);
  if (file.file == nullptr) return Unresolved(ip, strings_.Intern(mapping->path));
  uint64_t offset = address - mapping->start + mapping->file_offset;
  CachedSymbol symbol = LookUp(*file.file, offset);
  if (symbol.unresolved) ++counts_.unresolved;
  return {symbol.symbol, symbol.module, symbol.unresolved, ip};
}

std::vector<ResolvedFrame> Symbolizer::ResolveStack(int pid, const std::vector<uint64_t>& ips) {
  std::vector<ResolvedFrame> frames;
  frames.reserve(ips.size());
  for (size_t i = 0; i < ips.size(); ++i) {
    frames.push_back(Resolve(pid, ips[i], i == 0 ? FramePosition::kLeaf : FramePosition::kCaller));
  }
  return frames;
}

ResolvedFrame Symbolizer::Unresolved(uint64_t ip, std::string_view module) {
  ++counts_.unresolved;
  return {strings_.Intern(HexText(ip)), module, true, ip};
}

Symbolizer::CachedSymbol Symbolizer::LookUp(const ElfFile& file, uint64_t offset) {
  CacheKey key{&file, offset};
  auto it = cache_.find(key);
  if (it != cache_.end()) {
    ++counts_.cache_hits;
    return it->second;
  }
  ++counts_.resolved_addresses;
  CachedSymbol symbol{{}, strings_.Intern(file.path()), true};
  std::optional<uint64_t> vaddr = file.VaddrOfOffset(offset);
  const char* name = vaddr ? SymbolsOf(file).Lookup(*vaddr) : nullptr;
  if (name != nullptr && name[0] != '\0') {
    symbol.symbol = NameOf(name);
    symbol.unresolved = false;
  } else {
    symbol.symbol = strings_.Intern(HexText(vaddr.value_or(offset)));
  }
  cache_.emplace(key, symbol);
  return symbol;
}

const SymbolTable& Symbolizer::SymbolsOf(const ElfFile& file) {
  auto it = files_symbols_.find(&file);
  if (it != files_symbols_.end()) return it->second.table;
  FileSymbols symbols{NewDwfl(), SymbolTable()};
  if (symbols.dwfl != nullptr) {
    dwfl_report_begin(symbols.dwfl.get());
    Dwfl_Module* module = ReportFile(symbols.dwfl.get(), file, 0);
    if (dwfl_report_end(symbols.dwfl.get(), nullptr, nullptr) == 0 && module != nullptr) {
      symbols.table = SymbolTable::FromModule(module);
    }
  }
  return files_symbols_.emplace(&file, std::move(symbols)).first->second.table;
}

std::string_view Symbolizer::NameOf(const char* raw) { return strings_.Intern(Demangled(raw)); }

}  // namespace prof::symbols
