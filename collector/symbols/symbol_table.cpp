#include "collector/symbols/symbol_table.h"

#include <elfutils/libdwfl.h>

#include <algorithm>
#include <tuple>

namespace prof::symbols {
namespace {

int BindingRank(unsigned char info) {
  switch (GELF_ST_BIND(info)) {
    case STB_GLOBAL:
      return 0;
    case STB_WEAK:
      return 1;
    default:
      return 2;
  }
}

bool IsCode(const GElf_Sym& symbol, GElf_Word section) {
  int type = GELF_ST_TYPE(symbol.st_info);
  bool typed = type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_NOTYPE;
  return typed && section != SHN_UNDEF && section != SHN_ABS;
}

}  // namespace

SymbolTable SymbolTable::FromModule(Dwfl_Module* module) {
  SymbolTable table;
  int count = dwfl_module_getsymtab(module);
  struct Candidate {
    uint64_t address;
    int rank;
    uint64_t size;
    const char* name;
  };
  std::vector<Candidate> candidates;
  candidates.reserve(count > 0 ? static_cast<size_t>(count) : 0);
  for (int i = 1; i < count; ++i) {  // symbol 0 is the null symbol
    GElf_Sym symbol;
    GElf_Addr address = 0;
    GElf_Word section = 0;
    const char* name =
        dwfl_module_getsym_info(module, i, &symbol, &address, &section, nullptr, nullptr);
    if (name == nullptr || name[0] == '\0' || !IsCode(symbol, section)) continue;
    candidates.push_back({address, BindingRank(symbol.st_info), symbol.st_size, name});
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    bool a_sizeless = a.size == 0, b_sizeless = b.size == 0;
    return std::tie(a.address, a_sizeless, a.rank) < std::tie(b.address, b_sizeless, b.rank);
  });
  table.entries_.reserve(candidates.size());
  for (const Candidate& candidate : candidates) {
    if (!table.entries_.empty() && table.entries_.back().address == candidate.address) continue;
    table.entries_.push_back({candidate.address, candidate.size, candidate.name});
  }
  return table;
}

const char* SymbolTable::Lookup(uint64_t vaddr) const {
  auto after =
      std::upper_bound(entries_.begin(), entries_.end(), vaddr,
                       [](uint64_t value, const Entry& entry) { return value < entry.address; });
  if (after == entries_.begin()) return nullptr;
  const Entry& entry = *std::prev(after);
  if (entry.size == 0) return entry.name;  // up to the next symbol, which lies past vaddr
  return vaddr - entry.address < entry.size ? entry.name : nullptr;
}

}  // namespace prof::symbols
