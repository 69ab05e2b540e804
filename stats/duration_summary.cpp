#include "stats/duration_summary.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace prof::stats {
namespace {

constexpr int kMaxKeys = 3;
constexpr char kBlobMagic[4] = {'P', 'D', 'S', '1'};

// One group-by key value, typed as SQLite typed it.
struct KeyValue {
  int type = SQLITE_NULL;  // SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT or SQLITE_BLOB
  int64_t integer = 0;
  double real = 0;
  std::string bytes;  // TEXT or BLOB

  bool operator==(const KeyValue& other) const {
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
};

struct Key {
  KeyValue values[kMaxKeys];
  bool operator==(const Key& other) const {
    return std::equal(std::begin(values), std::end(values), std::begin(other.values));
  }
};

struct KeyHash {
  size_t operator()(const Key& key) const {
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
};

// The values of one group. The sum is kept exactly in int64 while every value is an integer (as
// SQLite's sum() does); the standard deviation uses the same long-double Welford recurrence as
// sql_statistics.cpp's stdev(), so both give the same digits.
struct Group {
  std::vector<double> values;  // for the median; exact for |durations| < 2^53 ns
  bool all_integers = true;
  int64_t integer_sum = 0;
  double real_sum = 0;
  int64_t integer_min = 0, integer_max = 0;
  double real_min = 0, real_max = 0;
  long double mean = 0, squares = 0;

  void Add(sqlite3_value* value) {
    const bool integer = sqlite3_value_type(value) == SQLITE_INTEGER;
    const double real = sqlite3_value_double(value);
    if (integer) {
      const int64_t v = sqlite3_value_int64(value);
      integer_min = values.empty() ? v : std::min(integer_min, v);
      integer_max = values.empty() ? v : std::max(integer_max, v);
      if (all_integers && __builtin_add_overflow(integer_sum, v, &integer_sum))
        all_integers = false;
    } else {
      all_integers = false;
    }
    real_min = values.empty() ? real : std::min(real_min, real);
    real_max = values.empty() ? real : std::max(real_max, real);
    real_sum += real;
    values.push_back(real);
    const long double delta = real - mean;
    mean += delta / static_cast<long double>(values.size());
    squares += delta * (real - mean);
  }

  double Median() {
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    if (values.size() % 2 == 1) return *middle;
    const double lower = *std::max_element(values.begin(), middle);  // the lower half's largest
    return (lower + *middle) / 2;
  }
};

struct Groups {
  std::unordered_map<Key, size_t, KeyHash> index;  // key -> position in `order`
  std::vector<std::pair<Key, Group>> order;        // first-seen order
  Key scratch;  // the current row's key, reused so that a lookup allocates nothing
};

void ReadKey(sqlite3_value* value, KeyValue* out) {
  out->type = sqlite3_value_type(value);
  switch (out->type) {
    case SQLITE_INTEGER:
      out->integer = sqlite3_value_int64(value);
      break;
    case SQLITE_FLOAT:
      out->real = sqlite3_value_double(value);
      break;
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
      const void* data = out->type == SQLITE_TEXT
                             ? static_cast<const void*>(sqlite3_value_text(value))
                             : sqlite3_value_blob(value);
      out->bytes.assign(static_cast<const char*>(data),
                        static_cast<size_t>(sqlite3_value_bytes(value)));
      break;
    }
    default:
      break;
  }
}

void GroupsStep(sqlite3_context* context, int argc, sqlite3_value** argv) {
  auto** state = static_cast<Groups**>(sqlite3_aggregate_context(context, sizeof(Groups*)));
  if (state == nullptr) return sqlite3_result_error_nomem(context);
  if (*state == nullptr) *state = new Groups();
  Groups& groups = **state;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  for (int i = 0; i < kMaxKeys; ++i) {
    if (i + 1 < argc) {
      ReadKey(argv[i + 1], &groups.scratch.values[i]);
    } else {
      groups.scratch.values[i].type = SQLITE_NULL;
    }
  }
  auto found = groups.index.find(groups.scratch);
  if (found == groups.index.end()) {
    found = groups.index.emplace(groups.scratch, groups.order.size()).first;
    groups.order.emplace_back(groups.scratch, Group{});
  }
  groups.order[found->second].second.Add(argv[0]);
}

// The BLOB: magic, then per group its keys and its statistics. Each number is tagged with its
// SQLite type so that duration_summary returns INTEGER where SQLite's own aggregates would.
class BlobWriter {
 public:
  void Bytes(const void* data, size_t size) {
    const auto* bytes = static_cast<const char*>(data);
    blob_.insert(blob_.end(), bytes, bytes + size);
  }
  template <typename T>
  void Plain(T value) {
    Bytes(&value, sizeof(value));
  }
  void Value(const KeyValue& value) {
    Plain(static_cast<uint8_t>(value.type));
    if (value.type == SQLITE_INTEGER) Plain(value.integer);
    if (value.type == SQLITE_FLOAT) Plain(value.real);
    if (value.type == SQLITE_TEXT || value.type == SQLITE_BLOB) {
      Plain(static_cast<uint32_t>(value.bytes.size()));
      Bytes(value.bytes.data(), value.bytes.size());
    }
  }
  void Number(bool integer, int64_t as_integer, double as_real) {
    KeyValue value;
    value.type = integer ? SQLITE_INTEGER : SQLITE_FLOAT;
    value.integer = as_integer;
    value.real = as_real;
    Value(value);
  }
  const std::vector<char>& blob() const { return blob_; }

 private:
  std::vector<char> blob_;
};

void GroupsFinal(sqlite3_context* context) {
  auto** state = static_cast<Groups**>(sqlite3_aggregate_context(context, 0));
  Groups* groups = state != nullptr ? *state : nullptr;
  BlobWriter writer;
  writer.Bytes(kBlobMagic, sizeof(kBlobMagic));
  if (groups != nullptr) {
    for (auto& [key, group] : groups->order) {
      for (const KeyValue& value : key.values) writer.Value(value);
      const auto count = static_cast<int64_t>(group.values.size());
      const bool integers = group.all_integers;
      writer.Plain(count);
      writer.Number(integers, group.integer_sum, group.real_sum);
      const double total = integers ? static_cast<double>(group.integer_sum) : group.real_sum;
      writer.Plain(total / static_cast<double>(count));
      writer.Plain(group.Median());
      writer.Number(integers, group.integer_min, group.real_min);
      writer.Number(integers, group.integer_max, group.real_max);
      writer.Plain(count == 1 ? 0.0 : static_cast<double>(std::sqrt(group.squares / (count - 1))));
    }
    delete groups;
  }
  sqlite3_result_blob(context, writer.blob().data(), static_cast<int>(writer.blob().size()),
                      SQLITE_TRANSIENT);
}

// ---- duration_summary: an eponymous table-valued function over the BLOB ----

enum Column {
  kKey1,
  kKey2,
  kKey3,
  kInstances,
  kTotal,
  kMean,
  kMiddle,
  kShortest,
  kLongest,
  kDeviation,
  kGroupsArgument
};

struct SummaryRow {
  KeyValue keys[kMaxKeys];
  int64_t instances = 0;
  KeyValue total, shortest, longest;
  double mean = 0, middle = 0, deviation = 0;
};

class BlobReader {
 public:
  BlobReader(const char* data, size_t size) : data_(data), size_(size) {}
  bool AtEnd() const { return at_ == size_; }
  bool Bytes(void* out, size_t size) {
    if (size > size_ - at_) return false;
    std::memcpy(out, data_ + at_, size);
    at_ += size;
    return true;
  }
  template <typename T>
  bool Plain(T* out) {
    return Bytes(out, sizeof(*out));
  }
  bool Value(KeyValue* out) {
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
        uint32_t length = 0;
        if (!Plain(&length) || length > size_ - at_) return false;
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

bool ParseRows(const char* data, size_t size, std::vector<SummaryRow>* rows) {
  char magic[sizeof(kBlobMagic)];
  BlobReader reader(data, size);
  if (!reader.Bytes(magic, sizeof(magic)) || std::memcmp(magic, kBlobMagic, sizeof(magic)) != 0) {
    return false;
  }
  while (!reader.AtEnd()) {
    SummaryRow row;
    for (KeyValue& key : row.keys) {
      if (!reader.Value(&key)) return false;
    }
    if (!reader.Plain(&row.instances) || !reader.Value(&row.total) || !reader.Plain(&row.mean) ||
        !reader.Plain(&row.middle) || !reader.Value(&row.shortest) || !reader.Value(&row.longest) ||
        !reader.Plain(&row.deviation)) {
      return false;
    }
    rows->push_back(std::move(row));
  }
  return true;
}

struct SummaryCursor : sqlite3_vtab_cursor {
  std::vector<SummaryRow> rows;
  size_t at = 0;
};

int SummaryConnect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc = sqlite3_declare_vtab(
      db,
      "CREATE TABLE x(key1, key2, key3, instances, total, mean, middle, shortest, longest, "
      "deviation, groups HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  *out = static_cast<sqlite3_vtab*>(sqlite3_malloc(sizeof(sqlite3_vtab)));
  if (*out == nullptr) return SQLITE_NOMEM;
  std::memset(*out, 0, sizeof(sqlite3_vtab));
  return SQLITE_OK;
}

int SummaryDisconnect(sqlite3_vtab* table) {
  sqlite3_free(table);
  return SQLITE_OK;
}

// Usable only with its argument: duration_summary(<groups>).
int SummaryBestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& constraint = info->aConstraint[i];
    if (constraint.iColumn == kGroupsArgument && constraint.op == SQLITE_INDEX_CONSTRAINT_EQ &&
        constraint.usable) {
      info->aConstraintUsage[i].argvIndex = 1;
      info->aConstraintUsage[i].omit = 1;
      info->estimatedCost = 1;
      return SQLITE_OK;
    }
  }
  return SQLITE_CONSTRAINT;
}

int SummaryOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = new SummaryCursor();
  return SQLITE_OK;
}

int SummaryClose(sqlite3_vtab_cursor* cursor) {
  delete static_cast<SummaryCursor*>(cursor);
  return SQLITE_OK;
}

int SummaryFilter(sqlite3_vtab_cursor* base, int, const char*, int argc, sqlite3_value** argv) {
  auto* cursor = static_cast<SummaryCursor*>(base);
  cursor->rows.clear();
  cursor->at = 0;
  if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return SQLITE_OK;
  const auto* data = static_cast<const char*>(sqlite3_value_blob(argv[0]));
  const auto size = static_cast<size_t>(sqlite3_value_bytes(argv[0]));
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB || !ParseRows(data, size, &cursor->rows)) {
    sqlite3_free(base->pVtab->zErrMsg);
    base->pVtab->zErrMsg =
        sqlite3_mprintf("duration_summary: the argument is not from duration_groups()");
    return SQLITE_ERROR;
  }
  return SQLITE_OK;
}

int SummaryNext(sqlite3_vtab_cursor* cursor) {
  ++static_cast<SummaryCursor*>(cursor)->at;
  return SQLITE_OK;
}

int SummaryEof(sqlite3_vtab_cursor* base) {
  const auto* cursor = static_cast<SummaryCursor*>(base);
  return cursor->at >= cursor->rows.size();
}

void ResultValue(sqlite3_context* context, const KeyValue& value) {
  switch (value.type) {
    case SQLITE_INTEGER:
      return sqlite3_result_int64(context, value.integer);
    case SQLITE_FLOAT:
      return sqlite3_result_double(context, value.real);
    case SQLITE_TEXT:
      return sqlite3_result_text(context, value.bytes.data(), static_cast<int>(value.bytes.size()),
                                 SQLITE_TRANSIENT);
    case SQLITE_BLOB:
      return sqlite3_result_blob(context, value.bytes.data(), static_cast<int>(value.bytes.size()),
                                 SQLITE_TRANSIENT);
    default:
      return sqlite3_result_null(context);
  }
}

int SummaryColumn(sqlite3_vtab_cursor* base, sqlite3_context* context, int column) {
  const SummaryRow& row =
      static_cast<SummaryCursor*>(base)->rows[static_cast<SummaryCursor*>(base)->at];
  switch (column) {
    case kKey1:
    case kKey2:
    case kKey3:
      ResultValue(context, row.keys[column - kKey1]);
      break;
    case kInstances:
      sqlite3_result_int64(context, row.instances);
      break;
    case kTotal:
      ResultValue(context, row.total);
      break;
    case kMean:
      sqlite3_result_double(context, row.mean);
      break;
    case kMiddle:
      sqlite3_result_double(context, row.middle);
      break;
    case kShortest:
      ResultValue(context, row.shortest);
      break;
    case kLongest:
      ResultValue(context, row.longest);
      break;
    case kDeviation:
      sqlite3_result_double(context, row.deviation);
      break;
    default:
      sqlite3_result_null(context);
      break;
  }
  return SQLITE_OK;
}

int SummaryRowid(sqlite3_vtab_cursor* cursor, sqlite3_int64* rowid) {
  *rowid = static_cast<sqlite3_int64>(static_cast<SummaryCursor*>(cursor)->at) + 1;
  return SQLITE_OK;
}

sqlite3_module MakeSummaryModule() {
  sqlite3_module module{};
  module.xConnect = SummaryConnect;  // no xCreate: eponymous only, never a CREATE VIRTUAL TABLE
  module.xBestIndex = SummaryBestIndex;
  module.xDisconnect = SummaryDisconnect;
  module.xOpen = SummaryOpen;
  module.xClose = SummaryClose;
  module.xFilter = SummaryFilter;
  module.xNext = SummaryNext;
  module.xEof = SummaryEof;
  module.xColumn = SummaryColumn;
  module.xRowid = SummaryRowid;
  return module;
}

const sqlite3_module kSummaryModule = MakeSummaryModule();

}  // namespace

Status RegisterDurationSummary(storage::Database* db) {
  for (int args = 2; args <= kMaxKeys + 1; ++args) {
    if (sqlite3_create_function_v2(db->handle(), "duration_groups", args, SQLITE_UTF8, nullptr,
                                   nullptr, GroupsStep, GroupsFinal, nullptr) != SQLITE_OK) {
      return Status::Error("cannot register SQL function duration_groups: " + db->ErrorText());
    }
  }
  if (sqlite3_create_module_v2(db->handle(), "duration_summary", &kSummaryModule, nullptr,
                               nullptr) != SQLITE_OK) {
    return Status::Error("cannot register SQL table function duration_summary: " + db->ErrorText());
  }
  return Status::Ok();
}

}  // namespace prof::stats
