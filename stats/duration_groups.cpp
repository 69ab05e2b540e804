#include "stats/duration_groups.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <iterator>
#include <string_view>

namespace prof::stats {
namespace {

constexpr char kBlobMagic[4] = {'P', 'D', 'G', '2'};
constexpr uint8_t kIntegerValues = 1;
constexpr uint8_t kRealValues = 2;

uint64_t ZigZag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

int64_t UnZigZag(uint64_t bits) {
  return static_cast<int64_t>(bits >> 1) ^ -static_cast<int64_t>(bits & 1);
}

size_t VarintLength(uint64_t value) {
  size_t length = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++length;
  }
  return length;
}

class BlobWriter {
 public:
  explicit BlobWriter(std::string* out) : out_(out) {}
  void Bytes(const void* data, size_t size) { out_->append(static_cast<const char*>(data), size); }
  template <typename T>
  void Plain(T value) {
    Bytes(&value, sizeof(value));
  }
  void Varint(uint64_t value) {
    char bytes[10];
    size_t length = 0;
    while (value >= 0x80) {
      bytes[length++] = static_cast<char>((value & 0x7F) | 0x80);
      value >>= 7;
    }
    bytes[length++] = static_cast<char>(value);
    Bytes(bytes, length);
  }
  // Zigzag varints, sized first and written in place: millions per report, one append each
  // would cost more than the encoding.
  void SignedVarints(const std::vector<int64_t>& values) {
    size_t size = 0;
    for (int64_t value : values) size += VarintLength(ZigZag(value));
    const size_t at = out_->size();
    out_->resize(at + size);
    char* next = out_->data() + at;
    for (int64_t value : values) {
      uint64_t bits = ZigZag(value);
      while (bits >= 0x80) {
        *next++ = static_cast<char>((bits & 0x7F) | 0x80);
        bits >>= 7;
      }
      *next++ = static_cast<char>(bits);
    }
  }
  void Key(const KeyValue& value) {
    Plain(static_cast<uint8_t>(value.type));
    if (value.type == SQLITE_INTEGER) Plain(value.integer);
    if (value.type == SQLITE_FLOAT) Plain(value.real);
    if (value.type == SQLITE_TEXT || value.type == SQLITE_BLOB) {
      Varint(value.bytes.size());
      Bytes(value.bytes.data(), value.bytes.size());
    }
  }

 private:
  std::string* out_;
};

class BlobReader {
 public:
  BlobReader(const void* data, size_t size) : data_(static_cast<const char*>(data)), size_(size) {}
  bool AtEnd() const { return at_ == size_; }
  size_t left() const { return size_ - at_; }
  bool Bytes(void* out, size_t size) {
    if (size > left()) return false;
    std::memcpy(out, data_ + at_, size);
    at_ += size;
    return true;
  }
  template <typename T>
  bool Plain(T* out) {
    return Bytes(out, sizeof(*out));
  }
  bool Varint(uint64_t* out) {
    uint64_t value = 0;
    for (int shift = 0; shift < 64 && at_ < size_; shift += 7) {
      const auto byte = static_cast<uint8_t>(data_[at_++]);
      value |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) {
        *out = value;
        return true;
      }
    }
    return false;
  }
  // `count` zigzag varints into *out.
  bool SignedVarints(uint64_t count, std::vector<int64_t>* out) {
    out->resize(count);
    const auto* next = reinterpret_cast<const uint8_t*>(data_ + at_);
    const auto* end = reinterpret_cast<const uint8_t*>(data_ + size_);
    for (int64_t& value : *out) {
      uint64_t bits = 0;
      for (int shift = 0;; shift += 7) {
        if (next == end || shift >= 64) return false;
        const uint8_t byte = *next++;
        bits |= static_cast<uint64_t>(byte & 0x7F) << shift;
        if ((byte & 0x80) == 0) break;
      }
      value = UnZigZag(bits);
    }
    at_ = static_cast<size_t>(reinterpret_cast<const char*>(next) - data_);
    return true;
  }
  bool Key(KeyValue* out) {
    uint8_t type = 0;
    if (!Plain(&type)) return false;
    out->type = type;
    switch (type) {
      case SQLITE_NULL:
        return true;
      case SQLITE_INTEGER:
        return Plain(&out->integer);
      case SQLITE_FLOAT:
        return Plain(&out->real);
      case SQLITE_TEXT:
      case SQLITE_BLOB: {
        uint64_t length = 0;
        if (!Varint(&length) || length > left()) return false;
        out->bytes.assign(data_ + at_, length);
        at_ += length;
        return true;
      }
      default:
        return false;
    }
  }

 private:
  const char* data_;
  size_t size_;
  size_t at_ = 0;
};

// An INTEGER or FLOAT value as a number that orders both exactly enough for durations.
long double Numeric(const KeyValue& value) {
  return value.type == SQLITE_INTEGER ? static_cast<long double>(value.integer) : value.real;
}

}  // namespace

KeyValue KeyValue::Integer(int64_t value) {
  KeyValue out;
  out.type = SQLITE_INTEGER;
  out.integer = value;
  return out;
}

KeyValue KeyValue::Real(double value) {
  KeyValue out;
  out.type = SQLITE_FLOAT;
  out.real = value;
  return out;
}

void KeyValue::Read(sqlite3_value* value) {
  type = sqlite3_value_type(value);
  switch (type) {
    case SQLITE_INTEGER:
      integer = sqlite3_value_int64(value);
      break;
    case SQLITE_FLOAT:
      real = sqlite3_value_double(value);
      break;
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
      const void* data = type == SQLITE_TEXT ? static_cast<const void*>(sqlite3_value_text(value))
                                             : sqlite3_value_blob(value);
      bytes.assign(static_cast<const char*>(data), static_cast<size_t>(sqlite3_value_bytes(value)));
      break;
    }
    default:
      break;
  }
}

bool KeyValue::operator==(const KeyValue& other) const {
  if (type != other.type) return false;
  switch (type) {
    case SQLITE_INTEGER:
      return integer == other.integer;
    case SQLITE_FLOAT:
      return real == other.real;
    case SQLITE_TEXT:
    case SQLITE_BLOB:
      return bytes == other.bytes;
    default:
      return true;
  }
}

bool GroupKey::operator==(const GroupKey& other) const {
  return std::equal(std::begin(values), std::end(values), std::begin(other.values));
}

size_t GroupKeyHash::operator()(const GroupKey& key) const {
  size_t hash = 0;
  for (const KeyValue& value : key.values) {
    size_t part = std::hash<int>()(value.type);
    if (value.type == SQLITE_INTEGER) part ^= std::hash<int64_t>()(value.integer) * 31;
    if (value.type == SQLITE_FLOAT) part ^= std::hash<double>()(value.real) * 31;
    if (value.type == SQLITE_TEXT || value.type == SQLITE_BLOB) {
      part ^= std::hash<std::string_view>()(value.bytes) * 31;
    }
    hash = hash * 1000003 ^ part;
  }
  return hash;
}

void GroupValues::Add(sqlite3_value* value) {
  if (sqlite3_value_type(value) == SQLITE_INTEGER) {
    AddInteger(sqlite3_value_int64(value));
  } else {
    AddReal(sqlite3_value_double(value));
  }
}

void GroupValues::AddInteger(int64_t value) {
  if (integers_) {
    integer_values_.push_back(value);
  } else {
    real_values_.push_back(static_cast<double>(value));
    Extremes(KeyValue::Integer(value));
  }
}

void GroupValues::AddReal(double value) {
  BecomeReal();
  real_values_.push_back(value);
  Extremes(KeyValue::Real(value));
}

void GroupValues::Append(GroupValues&& later) {
  if (integers_ && later.integers_) {
    integer_values_.insert(integer_values_.end(), later.integer_values_.begin(),
                           later.integer_values_.end());
    return;
  }
  BecomeReal();
  later.BecomeReal();
  real_values_.insert(real_values_.end(), later.real_values_.begin(), later.real_values_.end());
  Extremes(later.shortest_);
  Extremes(later.longest_);
}

void GroupValues::Extremes(const KeyValue& value) {
  if (value.type == SQLITE_NULL) return;
  if (shortest_.type == SQLITE_NULL || Numeric(value) < Numeric(shortest_)) shortest_ = value;
  if (longest_.type == SQLITE_NULL || Numeric(value) > Numeric(longest_)) longest_ = value;
}

std::vector<double> GroupValues::AsDoubles() const {
  if (!integers_) return real_values_;
  return std::vector<double>(integer_values_.begin(), integer_values_.end());
}

void GroupValues::BecomeReal() {
  if (!integers_) return;
  real_values_.assign(integer_values_.begin(), integer_values_.end());
  if (!integer_values_.empty()) {
    const auto [low, high] = std::minmax_element(integer_values_.begin(), integer_values_.end());
    shortest_ = KeyValue::Integer(*low);
    longest_ = KeyValue::Integer(*high);
  }
  integer_values_ = {};
  integers_ = false;
}

GroupValues& GroupTable::Find(const GroupKey& key) {
  auto found = index_.find(key);
  if (found == index_.end()) {
    found = index_.emplace(key, groups_.size()).first;
    groups_.emplace_back(key, GroupValues{});
  }
  return groups_[found->second].second;
}

void GroupTable::Merge(GroupTable&& later) {
  for (auto& [key, values] : later.groups_) Find(key).Append(std::move(values));
  later = GroupTable();
}

void GroupTable::MergeInto(const GroupKey& key, GroupTable&& values) {
  GroupValues& group = Find(key);
  for (auto& [unused, later] : values.groups_) group.Append(std::move(later));
  values = GroupTable();
}

namespace {

void WriteGroup(BlobWriter* writer, const GroupKey& key, const GroupValues& values) {
  for (const KeyValue& value : key.values) writer->Key(value);
  writer->Plain(values.integers() ? kIntegerValues : kRealValues);
  writer->Varint(values.size());
  if (values.integers()) {
    writer->SignedVarints(values.integer_values());
  } else {
    writer->Bytes(values.real_values().data(), values.real_values().size() * sizeof(double));
    writer->Key(values.shortest());
    writer->Key(values.longest());
  }
}

}  // namespace

std::string GroupTable::Encode() const {
  std::string blob;
  BlobWriter writer(&blob);
  writer.Bytes(kBlobMagic, sizeof(kBlobMagic));
  for (const auto& [key, values] : groups_) WriteGroup(&writer, key, values);
  return blob;
}

std::string GroupTable::EncodeGroup(const GroupKey& key, const GroupValues& values) {
  std::string blob;
  BlobWriter writer(&blob);
  writer.Bytes(kBlobMagic, sizeof(kBlobMagic));
  WriteGroup(&writer, key, values);
  return blob;
}

bool GroupTable::Decode(const void* data, size_t size, GroupTable* out) {
  *out = GroupTable();
  BlobReader reader(data, size);
  char magic[sizeof(kBlobMagic)];
  if (!reader.Bytes(magic, sizeof(magic)) || std::memcmp(magic, kBlobMagic, sizeof(magic)) != 0) {
    return false;
  }
  while (!reader.AtEnd()) {
    GroupKey key;
    for (KeyValue& value : key.values) {
      if (!reader.Key(&value)) return false;
    }
    uint8_t kind = 0;
    uint64_t count = 0;
    if (!reader.Plain(&kind) || !reader.Varint(&count) || count == 0 || count > reader.left()) {
      return false;
    }
    GroupValues& values = out->Find(key);
    if (values.size() != 0) return false;  // Encode() writes each key once
    if (kind == kIntegerValues) {
      if (!reader.SignedVarints(count, &values.integer_values_)) return false;
    } else if (kind == kRealValues) {
      if (count > reader.left() / sizeof(double)) return false;
      values.integers_ = false;
      values.real_values_.resize(count);
      reader.Bytes(values.real_values_.data(), count * sizeof(double));
      KeyValue shortest, longest;
      if (!reader.Key(&shortest) || !reader.Key(&longest)) return false;
      const auto numeric = [](const KeyValue& v) {
        return v.type == SQLITE_INTEGER || v.type == SQLITE_FLOAT;
      };
      if (!numeric(shortest) || !numeric(longest)) return false;
      values.shortest_ = shortest;
      values.longest_ = longest;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace prof::stats
