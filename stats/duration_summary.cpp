#include "stats/duration_summary.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stats/duration_groups.h"

namespace prof::stats {
namespace {

// ---- duration_groups: the aggregate ----

struct GroupsState {
  GroupTable table;
  GroupKey scratch;  // the current row's key, reused so that a lookup allocates nothing
};

// The aggregate's state, with the current row's keys (argv[1..]) read into its scratch key; null
// when out of memory.
GroupsState* StepState(sqlite3_context* context, int argc, sqlite3_value** argv) {
  auto** state =
      static_cast<GroupsState**>(sqlite3_aggregate_context(context, sizeof(GroupsState*)));
  if (state == nullptr) return nullptr;
  if (*state == nullptr) *state = new GroupsState();
  GroupsState* groups = *state;
  for (int i = 0; i < kMaxGroupKeys; ++i) {
    if (i + 1 < argc) {
      groups->scratch.values[i].Read(argv[i + 1]);
    } else {
      groups->scratch.values[i].type = SQLITE_NULL;
    }
  }
  return groups;
}

void GroupsStep(sqlite3_context* context, int argc, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  GroupsState* groups = StepState(context, argc, argv);
  if (groups == nullptr) return sqlite3_result_error_nomem(context);
  groups->table.Find(groups->scratch).Add(argv[0]);
}

// duration_groups_merge(group_values, key...): like duration_groups, with every value of a
// duration_groups() BLOB (a duration_summary row's group_values) added at once.
void MergeStep(sqlite3_context* context, int argc, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  GroupTable values;
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB ||
      !GroupTable::Decode(sqlite3_value_blob(argv[0]),
                          static_cast<size_t>(sqlite3_value_bytes(argv[0])), &values)) {
    return sqlite3_result_error(
        context, "duration_groups_merge: the first argument is not from duration_groups()", -1);
  }
  GroupsState* groups = StepState(context, argc, argv);
  if (groups == nullptr) return sqlite3_result_error_nomem(context);
  groups->table.MergeInto(groups->scratch, std::move(values));
}

void GroupsFinal(sqlite3_context* context) {
  auto** state = static_cast<GroupsState**>(sqlite3_aggregate_context(context, 0));
  std::unique_ptr<GroupsState> groups(state != nullptr ? *state : nullptr);
  const std::string blob = groups != nullptr ? groups->table.Encode() : GroupTable().Encode();
  sqlite3_result_blob64(context, blob.data(), blob.size(), SQLITE_TRANSIENT);
}

// ---- the statistics of one group ----

struct SummaryRow {
  int64_t instances = 0;
  KeyValue total, shortest, longest;  // INTEGER or FLOAT
  double mean = 0, middle = 0, deviation = 0;
};

// Mean of the two middle values for an even count; reorders `values`.
double Median(std::vector<double>& values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1) return *middle;
  const double lower = *std::max_element(values.begin(), middle);  // the lower half's largest
  return (lower + *middle) / 2;
}

// Typed as SQLite's aggregates type them: the total is INTEGER while every value is an integer and
// the sum does not overflow (where SQLite's sum() would fail, REAL like total()); min and max are
// values as they were. The standard deviation is computed in long double, like
// sql_statistics.cpp's stdev(), and agrees with it far below the 0.1 ns the reports print.
SummaryRow Summarize(const GroupValues& group) {
  SummaryRow row;
  std::vector<double> values = group.AsDoubles();
  row.instances = static_cast<int64_t>(values.size());
  bool integers = group.integers();
  int64_t integer_sum = 0;
  if (integers) {
    for (int64_t value : group.integer_values()) {
      if (__builtin_add_overflow(integer_sum, value, &integer_sum)) integers = false;
    }
  }
  double real_sum = 0;
  long double long_sum = 0;
  for (double value : values) {
    real_sum += value;
    long_sum += value;
  }
  // Two passes (the mean first, then the squared deviations from it) rather than Welford's
  // recurrence: as exact, and without a long-double division per value.
  const long double mean = long_sum / static_cast<long double>(values.size());
  long double squares = 0;
  for (double value : values) squares += (value - mean) * (value - mean);
  if (group.integers()) {
    const auto [low, high] =
        std::minmax_element(group.integer_values().begin(), group.integer_values().end());
    row.shortest = KeyValue::Integer(*low);
    row.longest = KeyValue::Integer(*high);
  } else {
    row.shortest = group.shortest();
    row.longest = group.longest();
  }
  row.total = integers ? KeyValue::Integer(integer_sum) : KeyValue::Real(real_sum);
  row.mean =
      (integers ? static_cast<double>(integer_sum) : real_sum) / static_cast<double>(row.instances);
  row.deviation =
      row.instances == 1 ? 0.0 : static_cast<double>(std::sqrt(squares / (row.instances - 1)));
  row.middle = Median(values);
  return row;
}

// ---- duration_summary: an eponymous table-valued function over the BLOB ----

enum Column {
  kKey1,
  kKey2,
  kKey3,
  kKey4,
  kInstances,
  kTotal,
  kMean,
  kMiddle,
  kShortest,
  kLongest,
  kDeviation,
  kGroupValues,
  kGroupsArgument
};

// The statistics of a row are computed when a column asks for them: a query may read only the
// keys and group_values of groups it merges on (duration_groups_merge).
struct SummaryCursor : sqlite3_vtab_cursor {
  GroupTable groups;
  std::vector<std::optional<SummaryRow>> statistics;  // per group
  size_t at = 0;

  const SummaryRow& Statistics() {
    if (!statistics[at]) statistics[at] = Summarize(groups.groups()[at].second);
    return *statistics[at];
  }
};

int SummaryConnect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc = sqlite3_declare_vtab(
      db,
      "CREATE TABLE x(key1, key2, key3, key4, instances, total, mean, middle, shortest, longest, "
      "deviation, group_values, groups HIDDEN)");
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
  cursor->groups = GroupTable();
  cursor->statistics.clear();
  cursor->at = 0;
  if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return SQLITE_OK;
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB ||
      !GroupTable::Decode(sqlite3_value_blob(argv[0]),
                          static_cast<size_t>(sqlite3_value_bytes(argv[0])), &cursor->groups)) {
    sqlite3_free(base->pVtab->zErrMsg);
    base->pVtab->zErrMsg =
        sqlite3_mprintf("duration_summary: the argument is not from duration_groups()");
    return SQLITE_ERROR;
  }
  cursor->statistics.resize(cursor->groups.groups().size());
  return SQLITE_OK;
}

int SummaryNext(sqlite3_vtab_cursor* cursor) {
  ++static_cast<SummaryCursor*>(cursor)->at;
  return SQLITE_OK;
}

int SummaryEof(sqlite3_vtab_cursor* base) {
  const auto* cursor = static_cast<SummaryCursor*>(base);
  return cursor->at >= cursor->statistics.size();
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
  auto* cursor = static_cast<SummaryCursor*>(base);
  const auto& [key, values] = cursor->groups.groups()[cursor->at];
  if (column >= kKey1 && column <= kKey4) {
    ResultValue(context, key.values[column - kKey1]);
    return SQLITE_OK;
  }
  if (column == kGroupValues) {
    const std::string blob = GroupTable::EncodeGroup(key, values);
    sqlite3_result_blob64(context, blob.data(), blob.size(), SQLITE_TRANSIENT);
    return SQLITE_OK;
  }
  const SummaryRow& row = cursor->Statistics();
  switch (column) {
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
  for (int args = 2; args <= kMaxGroupKeys + 1; ++args) {
    if (sqlite3_create_function_v2(db->handle(), "duration_groups", args, SQLITE_UTF8, nullptr,
                                   nullptr, GroupsStep, GroupsFinal, nullptr) != SQLITE_OK ||
        sqlite3_create_function_v2(db->handle(), "duration_groups_merge", args, SQLITE_UTF8,
                                   nullptr, nullptr, MergeStep, GroupsFinal,
                                   nullptr) != SQLITE_OK) {
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
