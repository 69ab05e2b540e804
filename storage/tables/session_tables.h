// The tables that describe the session rather than trace it: strings, metadata, processes and
// threads, ranks, and problems with the data. The writer fills most of them itself
// (report_writer.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "storage/table_definition.h"
#include "storage/tables/enum_tables.h"

namespace prof::storage {

struct StringIdRow {
  StringId id;
  std::string_view value;
};
struct NameValueRow {  // META_DATA_EXPORT, META_DATA_CAPTURE, PROF_SESSION
  std::string_view name;
  std::string_view value;
};
struct SessionStartRow {
  int64_t utc_epoch_ns;
  std::string_view utc_time;
  std::string_view local_time;
};
struct ProcessRow {
  int64_t global_pid;
  int64_t pid;
  std::string_view name;
};
struct ThreadNameRow {
  StringId name_id;
  int64_t priority;
  int64_t global_tid;
};
struct MpiRankRow {
  int64_t global_tid;
  int64_t rank;
};
// One counter of what went wrong with the session's data (PROF_STATS; collector/data_problems.h).
struct ProfStatRow {
  std::string_view name;
  std::string_view severity;  // "data_loss", "error" or "info"
  int64_t value;
  std::string_view description;
};
// A problem with a process's data (DIAGNOSTIC_EVENT).
struct DiagnosticEventRow {
  int64_t timestamp;
  std::string_view text;
  std::optional<int64_t> global_pid;  // none: a problem of the session, not of one process
};

// What prof's DIAGNOSTIC_EVENT rows are: host timestamps, counted by the launcher ("daemon"),
// warnings (the ENUM_DIAGNOSTIC_* ids).
inline constexpr int64_t kHostTimestamp = 2;
inline constexpr int64_t kDaemon = 2;
inline constexpr int64_t kWarning = 2;

// A table reads as its columns, one per line, aligned.
// clang-format off
// Interned strings: every *Id / nameId column that names text refers to StringIds(id).
inline constexpr auto kStringIdsTable = DefineTable<StringIdRow>("StringIds", TableCreation::kAlways, ColumnList(
    Column("id",    kIntegerPrimaryKey, &StringIdRow::id),
    Column("value", kTextNotNull,       &StringIdRow::value)));

// How and by what the report was written (product, schema version).
inline constexpr auto kMetaDataExportTable = DefineTable<NameValueRow>("META_DATA_EXPORT", TableCreation::kAlways, ColumnList(
    Column("name",  kTextNotNull, &NameValueRow::name),
    Column("value", kText,        &NameValueRow::value)));

// Capture settings, as name/value pairs (several rows may share a name).
inline constexpr auto kMetaDataCaptureTable = DefineTable<NameValueRow>("META_DATA_CAPTURE", TableCreation::kAlways, ColumnList(
    Column("name",  kTextNotNull, &NameValueRow::name),
    Column("value", kText,        &NameValueRow::value)));

// Wall-clock time of the session start; event timestamps count ns from it.
inline constexpr auto kTargetInfoSessionStartTimeTable = DefineTable<SessionStartRow>("TARGET_INFO_SESSION_START_TIME", TableCreation::kAlways, ColumnList(
    Column("utcEpochNs", kInteger, &SessionStartRow::utc_epoch_ns),
    Column("utcTime",    kText,    &SessionStartRow::utc_time),
    Column("localTime",  kText,    &SessionStartRow::local_time)));

// Processes traced in the session (rewritten whole at each commit: a report cut short by prof's
// death has them as of its last commit).
inline constexpr auto kProcessesTable = DefineTable<ProcessRow>("PROCESSES", TableCreation::kAlways, ColumnList(
    Column("globalPid", kInteger, &ProcessRow::global_pid),
    Column("pid",       kInteger, &ProcessRow::pid),
    Column("name",      kText,    &ProcessRow::name))).RewrittenWhole();

// Thread names; nameId refers to StringIds(id). Rewritten whole at each commit.
inline constexpr auto kThreadNamesTable = DefineTable<ThreadNameRow>("ThreadNames", TableCreation::kAlways, ColumnList(
    Column("nameId",    kIntegerNotNull, &ThreadNameRow::name_id),
    Column("priority",  kInteger,        &ThreadNameRow::priority),
    Column("globalTid", kInteger,        &ThreadNameRow::global_tid))).RewrittenWhole();

// prof's own record of the session, one row per SessionInfo field (docs/report-schema.md lists
// the names). Values are text; numbers are written in decimal.
inline constexpr auto kProfSessionTable = DefineTable<NameValueRow>("PROF_SESSION", TableCreation::kAlways, ColumnList(
    Column("name",  kTextNotNull, &NameValueRow::name),
    Column("value", kText,        &NameValueRow::value)));

// The rank of each process of a distributed job (torchrun, mpirun, srun), from the first of RANK,
// OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID in its environment: one row per process,
// for its main thread, as nsys maps threads of MPI jobs to ranks.
inline constexpr auto kMpiRanksTable = DefineTable<MpiRankRow>("MPI_RANKS", TableCreation::kOnFirstRow, ColumnList(
    Column("globalTid", kIntegerNotNull, &MpiRankRow::global_tid),
    Column("rank",      kIntegerNotNull, &MpiRankRow::rank)));

// Problems with the data of a process, one row per kind of problem: records lost (dropped under
// back-pressure, cut by the process's death), a stream cut short. nsys's table; prof writes
// timestampType 2 (host), source 2 (the launcher counted it) and severity 2 (warning).
inline constexpr auto kDiagnosticEventTable = DefineTable<DiagnosticEventRow>("DIAGNOSTIC_EVENT", TableCreation::kOnFirstRow, ColumnList(
    Column("timestamp",    kIntegerNotNull, &DiagnosticEventRow::timestamp),
    Fixed("timestampType", kIntegerNotNull, kHostTimestamp, kEnumDiagnosticTimestampSource),
    Fixed("source",        kIntegerNotNull, kDaemon, kEnumDiagnosticSourceType),
    Fixed("severity",      kIntegerNotNull, kWarning, kEnumDiagnosticSeverityLevel),
    Column("text",         kTextNotNull,    &DiagnosticEventRow::text),
    Column("globalPid",    kInteger,        &DiagnosticEventRow::global_pid)));

// prof's own: every counter of what went wrong with the session's data, zeros included, as
// Perfetto's stats table lists them (collector/data_problems.h declares them). Rewritten whole at
// each commit.
inline constexpr auto kProfStatsTable = DefineTable<ProfStatRow>("PROF_STATS", TableCreation::kOnFirstRow, ColumnList(
    Column("name",        kTextNotNull,    &ProfStatRow::name),
    Column("severity",    kTextNotNull,    &ProfStatRow::severity),
    Column("value",       kIntegerNotNull, &ProfStatRow::value),
    Column("description", kTextNotNull,    &ProfStatRow::description))).RewrittenWhole();
// clang-format on

}  // namespace prof::storage
