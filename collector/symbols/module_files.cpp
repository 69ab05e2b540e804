#include "collector/symbols/module_files.h"

#include <functional>
#include <utility>

namespace prof::symbols {

bool ModuleFiles::Key::operator==(const Key& other) const {
  return path == other.path && identity.device_major == other.identity.device_major &&
         identity.device_minor == other.identity.device_minor &&
         identity.inode == other.identity.inode && build_id == other.build_id;
}

size_t ModuleFiles::KeyHash::operator()(const Key& key) const {
  size_t hash = std::hash<std::string_view>()(key.path);
  hash ^= std::hash<uint64_t>()(key.identity.inode) + 0x9e3779b97f4a7c15ULL + (hash << 6);
  return hash;
}

ModuleFiles::Lookup ModuleFiles::Get(const Mapping& mapping) {
  Key key{mapping.path, mapping.identity, mapping.build_id};
  auto it = decisions_.find(key);
  if (it != decisions_.end()) return it->second;
  Lookup decided = Decide(mapping);
  switch (decided.state) {
    case FileState::kUsable:
    case FileState::kNotAFile:
      break;
    case FileState::kDeleted:
      ++counts_.deleted;
      break;
    case FileState::kMissing:
      ++counts_.missing;
      break;
    case FileState::kReplaced:
      ++counts_.replaced;
      break;
  }
  key.path = key_texts_.Intern(mapping.path);
  key.build_id = key_texts_.Intern(mapping.build_id);
  decisions_.emplace(key, decided);
  return decided;
}

ModuleFiles::Lookup ModuleFiles::Decide(const Mapping& mapping) {
  if (mapping.IsDeleted()) return {nullptr, FileState::kDeleted};
  if (!mapping.HasFilePath()) return {nullptr, FileState::kNotAFile};
  auto it = files_.find(mapping.path);
  if (it == files_.end()) {
    ++counts_.opened;
    StatusOr<std::unique_ptr<ElfFile>> opened = ElfFile::Open(mapping.path);
    // A failed open is remembered as a null file, so the path is not tried again.
    it = files_.emplace(mapping.path, opened.ok() ? std::move(opened).value() : nullptr).first;
  }
  const ElfFile* file = it->second.get();
  if (file == nullptr) return {nullptr, FileState::kMissing};
  const FileIdentity& mapped = mapping.identity;
  bool same_device =
      mapped.device_major == file->device_major() && mapped.device_minor == file->device_minor();
  if (mapped.inode != 0 && same_device && mapped.inode != file->inode()) {
    return {nullptr, FileState::kReplaced};
  }
  if (!mapping.build_id.empty() && mapping.build_id != file->build_id()) {
    return {nullptr, FileState::kReplaced};
  }
  return {file, FileState::kUsable};
}

}  // namespace prof::symbols
