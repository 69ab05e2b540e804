// The name/value rows of META_DATA_EXPORT and PROF_SESSION and the time texts of
// TARGET_INFO_SESSION_START_TIME, kept apart from the SQL so they are tested as plain values.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "storage/report_writer.h"

namespace prof::storage {

// The nsys export schema prof follows (META_DATA_EXPORT.EXPORT_SCHEMA_VERSION*).
inline constexpr int kNsysSchemaMajor = 3;
inline constexpr int kNsysSchemaMinor = 20;
inline constexpr int kNsysSchemaMicro = 3;

using NameValues = std::vector<std::pair<std::string, std::string>>;

// META_DATA_EXPORT as nsys writes it, for a report that will be named `final_path`, written at
// `now_utc_ns` (ns since the Unix epoch).
NameValues ExportMetadata(const std::string& final_path, int64_t now_utc_ns);
// PROF_SESSION: one row per SessionInfo field, named like the field, numbers in decimal.
NameValues SessionRows(const SessionInfo& session);

// "2026-12-02T15:55:14": the format of TARGET_INFO_SESSION_START_TIME's utcTime / localTime.
std::string FormatUtcTime(int64_t epoch_ns);
std::string FormatLocalTime(int64_t epoch_ns);

}  // namespace prof::storage
