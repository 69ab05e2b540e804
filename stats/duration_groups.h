// The values of a summary report, grouped by key: what the SQL aggregate duration_groups()
// collects, duration_groups_parallel() merges across threads, and duration_summary() turns into
// statistics (stats/duration_summary.h). Between them it travels as a BLOB in the format Encode()
// writes.
//
// Every value is kept, in row order, because the median needs them all and because statistics
// computed from the same values in the same order give the same digits however the rows were
// scanned: merging the groups of rowid slices in slice order equals one scan of all the rows.
#pragma once

#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace prof::stats {

constexpr int kMaxGroupKeys = 4;

// One group-by key value, typed as SQLite typed it. Compares as GROUP BY compares: NULLs equal,
// otherwise by type and value.
struct KeyValue {
  int type = SQLITE_NULL;  // SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT or SQLITE_BLOB
  int64_t integer = 0;
  double real = 0;
  std::string bytes;  // TEXT or BLOB

  static KeyValue Integer(int64_t value);
  static KeyValue Real(double value);
  // Reads a function argument or column value.
  void Read(sqlite3_value* value);
  bool operator==(const KeyValue& other) const;
};

struct GroupKey {
  KeyValue values[kMaxGroupKeys];
  bool operator==(const GroupKey& other) const;
};

struct GroupKeyHash {
  size_t operator()(const GroupKey& key) const;
};

// One group's values in the order they were added. Integers are kept exactly while every value
// is one (as SQLite's sum() keeps its total); the first non-integer turns them all to doubles,
// and from then on the smallest and largest value are kept with their own type, because SQLite's
// min() and max() return a value as it was (the first of equal ones), not converted.
class GroupValues {
 public:
  void Add(sqlite3_value* value);
  void AddInteger(int64_t value);
  void AddReal(double value);
  // Appends `later`'s values after this group's own.
  void Append(GroupValues&& later);

  bool integers() const { return integers_; }
  size_t size() const { return integers_ ? integer_values_.size() : real_values_.size(); }
  const std::vector<int64_t>& integer_values() const { return integer_values_; }
  // Read once integers() is false.
  const std::vector<double>& real_values() const { return real_values_; }
  const KeyValue& shortest() const { return shortest_; }
  const KeyValue& longest() const { return longest_; }
  // Every value as a double (integers converted as sqlite3_value_double converts them).
  std::vector<double> AsDoubles() const;

 private:
  friend class GroupTable;  // Decode() restores the typed extremes

  void BecomeReal();
  // Keeps `value` as shortest_ or longest_ when it is smaller or larger than the kept one.
  void Extremes(const KeyValue& value);

  bool integers_ = true;
  std::vector<int64_t> integer_values_;
  std::vector<double> real_values_;
  KeyValue shortest_, longest_;  // once integers_ is false; SQLITE_NULL while empty
};

// The groups in first-seen order.
class GroupTable {
 public:
  // The group of `key`, created empty at the end when it is new.
  GroupValues& Find(const GroupKey& key);
  // Appends every group of `later` (a table of rows that come after this table's rows): values of
  // a key already here go after this key's values, new keys come after the existing ones.
  void Merge(GroupTable&& later);

  // Adds every value of `values` (a table of rows that come after those already added) to the
  // group of `key`, whatever keys they had.
  void MergeInto(const GroupKey& key, GroupTable&& values);

  std::vector<std::pair<GroupKey, GroupValues>>& groups() { return groups_; }
  const std::vector<std::pair<GroupKey, GroupValues>>& groups() const { return groups_; }

  // The BLOB: a magic, then per group its keys, its kind (integers or doubles), its count and its
  // values (zigzag varints, or raw doubles followed by the typed extremes). Varints keep the BLOB
  // under SQLite's 1 GB value limit for reports of hundreds of millions of ranges.
  std::string Encode() const;
  // The BLOB of one table of this one group.
  static std::string EncodeGroup(const GroupKey& key, const GroupValues& values);
  // Fails on anything Encode() did not write.
  static bool Decode(const void* data, size_t size, GroupTable* out);

 private:
  std::unordered_map<GroupKey, size_t, GroupKeyHash> index_;  // key -> position in groups_
  std::vector<std::pair<GroupKey, GroupValues>> groups_;
};

}  // namespace prof::stats
