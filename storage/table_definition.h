// How a report table is defined, once: its name, when it is created, and its columns in nsys's
// order, each with its SQL declaration and where a row's value comes from. The CREATE TABLE, the
// INSERT's column list and the binding of a row all come from that one definition
// (storage/tables/ holds them), so they cannot disagree; a declaration that does not fit its
// member (TEXT for an integer, NOT NULL for an optional) does not compile.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "storage/row_binder.h"

namespace prof::storage {

enum class TableCreation {
  kAlways,      // created with every report, even when empty (StringIds, META_DATA_EXPORT, ...)
  kOnFirstRow,  // created when the first row arrives, as nsys's export omits empty tables
};

enum class SqlType { kInteger, kReal, kText };

// A column's declaration, as nsys's export spells it.
struct SqlDeclaration {
  std::string_view text;
  SqlType type;
  bool not_null;
};
inline constexpr SqlDeclaration kInteger{"INTEGER", SqlType::kInteger, false};
inline constexpr SqlDeclaration kIntegerNotNull{"INTEGER NOT NULL", SqlType::kInteger, true};
inline constexpr SqlDeclaration kIntegerPrimaryKey{"INTEGER NOT NULL PRIMARY KEY",
                                                   SqlType::kInteger, true};
inline constexpr SqlDeclaration kReal{"REAL", SqlType::kReal, false};
inline constexpr SqlDeclaration kText{"TEXT", SqlType::kText, false};
inline constexpr SqlDeclaration kTextNotNull{"TEXT NOT NULL", SqlType::kText, true};

// A row of StringIds: the id a text column holds in its place.
using StringId = int64_t;

// An ENUM_* table: fixed (id, name, label) rows from storage/schema/enum_rows.tsv.
struct EnumTable {
  std::string_view name;
};

// What a table looks like to the code that creates and fills it, whatever its row type.
struct TableSpec {
  std::string name;  // exact nsys spelling, e.g. "NVTX_EVENTS", "StringIds"
  TableCreation creation;
  std::vector<std::string> enum_tables;  // ENUM_* tables its columns refer to, in column order
  std::string ddl;                       // CREATE TABLE ...
  std::string insert_columns;            // "start, end, ...": the columns rows bind, in order
  int insert_column_count = 0;
  std::string event_noun;  // what a row is in prof profile's end summary ("" for no event table)
  // Rows are the state of something the writer keeps in memory (the processes, thread names, data
  // problem counts), written again whole at each commit: the rows of a write replace the table's.
  bool rewritten_whole = false;
};

namespace table_definition {

template <typename T>
struct Unwrapped {
  using Type = T;
  static constexpr bool kOptional = false;
};
template <typename T>
struct Unwrapped<std::optional<T>> {
  using Type = T;
  static constexpr bool kOptional = true;
};

template <typename Member>
constexpr SqlType SqlTypeOf() {
  using Value = typename Unwrapped<Member>::Type;
  static_assert(std::is_arithmetic_v<Value> || std::is_convertible_v<Value, std::string_view>,
                "a column's member is an integer, a floating-point number or text");
  if constexpr (std::is_integral_v<Value>) return SqlType::kInteger;
  if constexpr (std::is_floating_point_v<Value>) return SqlType::kReal;
  return SqlType::kText;
}

// Never defined: calling them in a constant expression is the compile error a bad definition gets.
void ColumnDeclarationDoesNotFitTheMembersType();
void OptionalMemberInNotNullColumn();

template <typename Member>
constexpr SqlDeclaration Checked(SqlDeclaration declaration) {
  if (declaration.type != SqlTypeOf<Member>()) ColumnDeclarationDoesNotFitTheMembersType();
  if (Unwrapped<Member>::kOptional && declaration.not_null) OptionalMemberInNotNullColumn();
  return declaration;
}

}  // namespace table_definition

// A column whose value is a member of the row.
template <typename Row, typename Member>
struct MemberColumn {
  std::string_view name;
  SqlDeclaration declaration;
  std::string_view enum_table;
  Member Row::*member;

  void Bind(const Row& row, RowBinder* binder) const { binder->Value(row.*member); }
};

// A column whose value is a member of one of the row's members (columns several tables share).
template <typename Row, typename Part, typename Member>
struct PartColumn {
  std::string_view name;
  SqlDeclaration declaration;
  std::string_view enum_table;
  Part Row::*part;
  Member Part::*member;

  void Bind(const Row& row, RowBinder* binder) const { binder->Value((row.*part).*member); }
};

// A column with the same value in every row prof writes.
struct FixedColumn {
  std::string_view name;
  SqlDeclaration declaration;
  std::string_view enum_table;
  int64_t value;

  template <typename Row>
  void Bind(const Row&, RowBinder* binder) const {
    binder->Value(value);
  }
};

// A column of nsys's schema prof never fills: NULL, and left out of the INSERT.
struct NullColumn {
  std::string_view name;
  SqlDeclaration declaration;
};

// (References, not pointers that may be null: a sanitized build's GCC does not take a null check
// of an object's address as a constant expression.)
template <typename Row, typename Member>
constexpr MemberColumn<Row, Member> Column(std::string_view name, SqlDeclaration declaration,
                                           Member Row::*member) {
  return {name, table_definition::Checked<Member>(declaration), "", member};
}
// A column whose values are ids of the ENUM_* table `names`.
template <typename Row, typename Member>
constexpr MemberColumn<Row, Member> Column(std::string_view name, SqlDeclaration declaration,
                                           Member Row::*member, const EnumTable& names) {
  return {name, table_definition::Checked<Member>(declaration), names.name, member};
}
template <typename Row, typename Part, typename Member>
constexpr PartColumn<Row, Part, Member> Column(std::string_view name, SqlDeclaration declaration,
                                               Part Row::*part, Member Part::*member) {
  return {name, table_definition::Checked<Member>(declaration), "", part, member};
}
constexpr FixedColumn Fixed(std::string_view name, SqlDeclaration declaration, int64_t value) {
  return {name, declaration, "", value};
}
constexpr FixedColumn Fixed(std::string_view name, SqlDeclaration declaration, int64_t value,
                            const EnumTable& names) {
  return {name, declaration, names.name, value};
}
constexpr NullColumn Unfilled(std::string_view name, SqlDeclaration declaration) {
  return {name, declaration};
}

template <typename... Columns>
constexpr std::tuple<Columns...> ColumnList(Columns... columns) {
  return {columns...};
}

// A table whose rows are `RowType`s.
template <typename RowType, typename... Columns>
struct Table {
  using Row = RowType;

  std::string_view name;
  TableCreation creation;
  std::tuple<Columns...> columns;
  std::string_view constraint;   // a table constraint after the columns, e.g. a composite key
  std::string_view event_noun;   // the rows are events the end-of-run summary counts as these
  bool rewritten_whole = false;  // TableSpec::rewritten_whole

  // The table with its rows counted as `noun` ("NVTX events") when a profile run ends.
  constexpr Table CountedAs(std::string_view noun) const {
    Table counted = *this;
    counted.event_noun = noun;
    return counted;
  }
  // The table with each write of its rows replacing the rows before (TableSpec::rewritten_whole).
  constexpr Table RewrittenWhole() const {
    Table rewritten = *this;
    rewritten.rewritten_whole = true;
    return rewritten;
  }

  // Appends `row`'s values in the order of the INSERT's columns.
  void Bind(const Row& row, RowBinder* binder) const {
    std::apply([&](const auto&... column) { (BindColumn(column, row, binder), ...); }, columns);
  }

 private:
  template <typename Column>
  static void BindColumn(const Column& column, const Row& row, RowBinder* binder) {
    if constexpr (!std::is_same_v<Column, NullColumn>) column.Bind(row, binder);
  }
};

template <typename Row, typename... Columns>
constexpr Table<Row, Columns...> DefineTable(std::string_view name, TableCreation creation,
                                             std::tuple<Columns...> columns,
                                             std::string_view constraint = "") {
  return {name, creation, columns, constraint, {}, false};
}

// "CREATE TABLE name (\n    column declaration,\n ...);" with an optional table constraint.
struct ColumnDdl {
  std::string_view name;
  std::string_view declaration;
};
std::string CreateTableSql(std::string_view table, const std::vector<ColumnDdl>& columns,
                           std::string_view constraint);

// The spec of a table or an ENUM_* table: its DDL and INSERT columns spelled out.
template <typename Row, typename... Columns>
TableSpec Describe(const Table<Row, Columns...>& table) {
  TableSpec spec{std::string(table.name),       table.creation,       {}, {}, {}, 0,
                 std::string(table.event_noun), table.rewritten_whole};
  std::vector<ColumnDdl> ddl;
  auto add = [&](const auto& column) {
    ddl.push_back({column.name, column.declaration.text});
    if constexpr (!std::is_same_v<std::decay_t<decltype(column)>, NullColumn>) {
      spec.insert_columns += (spec.insert_column_count++ ? ", " : "") + std::string(column.name);
      const std::string enum_table(column.enum_table);
      if (!enum_table.empty() && std::find(spec.enum_tables.begin(), spec.enum_tables.end(),
                                           enum_table) == spec.enum_tables.end()) {
        spec.enum_tables.push_back(enum_table);
      }
    }
  };
  std::apply([&](const auto&... column) { (add(column), ...); }, table.columns);
  spec.ddl = CreateTableSql(table.name, ddl, table.constraint);
  return spec;
}
TableSpec Describe(const EnumTable& table);

// The row type of table definition `kTable`.
template <const auto& kTable>
using TableRow = typename std::decay_t<decltype(kTable)>::Row;

// Binds a row passed without its type (across ReportWriter's interface) to `kTable`.
using RowBindFunction = void (*)(const void* row, RowBinder* binder);
template <const auto& kTable>
void BindTableRow(const void* row, RowBinder* binder) {
  kTable.Bind(*static_cast<const TableRow<kTable>*>(row), binder);
}

// Every table of a report, in the order the kAlways ones are created.
template <const auto&... kTables>
struct TableList {
  static constexpr size_t kCount = sizeof...(kTables);

  // The position of `kTable` in the list, at compile time. By name, which is unique, not by
  // address: a sanitized build's GCC does not fold address comparisons in constant expressions.
  template <const auto& kTable>
  static constexpr size_t IndexOf() {
    const std::string_view names[] = {kTables.name...};
    for (size_t i = 0; i < kCount; ++i) {
      if (names[i] == kTable.name) return i;
    }
    return kCount;
  }

  static std::vector<TableSpec> Specs() { return {Describe(kTables)...}; }
};

}  // namespace prof::storage
