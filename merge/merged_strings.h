// The merged report's StringIds: every distinct string of the inputs once, numbered densely from
// 0 in the order first seen (the first input's ids stay as they were when its strings are
// distinct). While an input is attached, temp.string_map(old_id, new_id) maps its ids, and the
// table copier reads each StringIds column through it.
//
// Runs on the output connection with the input attached as `schema`; everything it keeps between
// inputs is TEMP, so only WriteStringIds touches the output file.
#pragma once

#include <string_view>

#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::merge {

// Creates the TEMP tables; once per merge, before the first input.
Status CreateStringTables(storage::Database* out);
// Numbers the input's strings not seen before and refills temp.string_map for it.
Status MapInputStrings(storage::Database* out, std::string_view schema);
// Creates main.StringIds and fills it; once, after the last input.
Status WriteStringIds(storage::Database* out);

}  // namespace prof::merge
