// Reads the timeline of a report (prof's or an nsys SQLite export) and feeds it to a TimelineSink:
// first every track, then the events table by table (NVTX, OS runtime, CUDA API, kernels, copies,
// memsets, graph launches), each in start-time order, straight from sqlite3_step to the sink. Only
// the small catalogs (threads, streams and their names) are held in memory, never the events;
// tables the report lacks are skipped.
#pragma once

#include "common/status.h"
#include "export/timeline.h"
#include "storage/sqlite_database.h"

namespace prof::exporter {

// `db` is an open report (stats::OpenReportDatabase); the reader adds TEMP tables to its
// connection only, never to the file.
Status ReadTimeline(storage::Database* db, TimelineSink* sink);

}  // namespace prof::exporter
