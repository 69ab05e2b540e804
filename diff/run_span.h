// The traced span of a report, from its first event's start to its last event's end over every
// table `prof diff` reads items from: the "run" that --min-time's percentage is of. Read from the
// events rather than prof's PROF_SESSION so that nsys exports have it too.
#pragma once

#include <cstdint>

#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::diff {

// 0 when the report has no events.
Status ReadRunSpan(storage::Database* db, int64_t* span_ns);

}  // namespace prof::diff
