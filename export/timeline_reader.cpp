#include "export/timeline_reader.h"

#include <array>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "export/embedded_sql.h"
#include "stats/report_registry.h"
#include "storage/global_id.h"

namespace prof::exporter {
namespace {

constexpr std::string_view kNvtxTable = "NVTX_EVENTS";
constexpr std::string_view kOsrtTable = "OSRT_API";
constexpr std::string_view kCudaApiTable = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr std::string_view kSampleTable = "COMPOSITE_EVENTS";
constexpr std::string_view kFrameTable = "SAMPLING_CALLCHAINS";
constexpr std::array<std::string_view, 4> kThreadTables = {kNvtxTable, kOsrtTable, kCudaApiTable,
                                                           kSampleTable};
// SAMPLING_CALLCHAINS.unwindMethod of prof's Python frames (storage/tables/host_tables.h).
constexpr int64_t kPythonFrameUnwindMethod = 1001;
constexpr std::string_view kGpuMemoryTable = "CUDA_GPU_MEMORY_USAGE_EVENTS";
constexpr std::string_view kGpuMetricsTable = "GPU_METRICS";
constexpr std::string_view kGpuMetricNamesTable = "TARGET_INFO_GPU_METRICS";

struct GpuTable {
  std::string_view table;
  std::string_view query;  // export/sql/<query>
  EventKind kind;
};
constexpr std::array<GpuTable, 4> kGpuTables = {{
    {"CUPTI_ACTIVITY_KIND_KERNEL", "gpu_kernels.sql", EventKind::kGpuKernel},
    {"CUPTI_ACTIVITY_KIND_MEMCPY", "gpu_memcpy.sql", EventKind::kGpuMemcpy},
    {"CUPTI_ACTIVITY_KIND_MEMSET", "gpu_memset.sql", EventKind::kGpuMemset},
    {"CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "gpu_graphs.sql", EventKind::kGpuGraph},
}};

// Tables the queries join for names. An nsys export or a hand-made report may lack them; an empty
// TEMP table of the same name stands in (unqualified names find TEMP tables first), so names fall
// back instead of the query failing.
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kNameTables = {{
    {"StringIds", "CREATE TEMP TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)"},
    {"ENUM_CUDA_MEMCPY_OPER",
     "CREATE TEMP TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER PRIMARY KEY, name TEXT, label TEXT)"},
}};

// A GPU stream's identity: CUDA device, process, stream id (unique within the process).
using StreamKey = std::tuple<int64_t, int64_t, int64_t>;

std::string Sql(std::string_view file, std::string_view table = {}) {
  std::string sql(FindEmbeddedFile(EmbeddedSqlFiles(), file).value());
  for (size_t at = sql.find("$TABLE"); at != std::string::npos; at = sql.find("$TABLE", at)) {
    sql.replace(at, 6, table);
  }
  return sql;
}

std::string ColorText(int64_t argb) {
  char text[16];
  std::snprintf(text, sizeof text, "#%06x", static_cast<unsigned>(argb & 0xFFFFFF));
  return text;
}

class TimelineReader {
 public:
  TimelineReader(storage::Database* db, TimelineSink* sink) : db_(db), sink_(sink) {}

  Status Read() {
    Status status = FindTables();
    if (status.ok()) status = PrepareFlows();
    if (status.ok()) status = ReadThreads();
    if (status.ok()) status = ReadGpuStreams();
    if (status.ok()) AddTracks();
    if (status.ok() && sink_->TakesEvents()) status = ReadEvents();
    if (status.ok() && Has(kSampleTable) && Has(kFrameTable)) status = ReadCpuSamples();
    if (status.ok()) sink_->Finish();
    return status;
  }

 private:
  Status ReadEvents() {
    Status status = Status::Ok();
    if (Has(kNvtxTable)) status = ReadNvtx();
    if (status.ok() && Has(kNvtxTable)) status = ReadPytorchModuleBackward();
    if (status.ok() && Has(kOsrtTable)) status = ReadOsRuntime();
    if (status.ok() && Has(kCudaApiTable)) status = ReadCudaApi();
    for (const GpuTable& gpu : kGpuTables) {
      if (status.ok() && Has(gpu.table)) status = ReadGpuOperations(gpu);
    }
    if (status.ok() && Has(kGpuMemoryTable)) status = ReadGpuMemory();
    if (status.ok() && HasGpuMetrics()) status = ReadGpuMetrics();
    return status;
  }

  bool Has(std::string_view table) const { return tables_.count(std::string(table)) > 0; }
  bool HasGpuMetrics() const { return Has(kGpuMetricsTable) && Has(kGpuMetricNamesTable); }

  Status FindTables() {
    std::vector<std::string_view> wanted(kThreadTables.begin(), kThreadTables.end());
    for (const GpuTable& gpu : kGpuTables) wanted.push_back(gpu.table);
    for (std::string_view table :
         {kGpuMemoryTable, kGpuMetricsTable, kGpuMetricNamesTable, kFrameTable,
          std::string_view("ThreadNames"), std::string_view("PROCESSES"),
          std::string_view("TARGET_INFO_GPU")}) {
      wanted.push_back(table);
    }
    for (std::string_view table : wanted) {
      bool exists = false;
      PROF_RETURN_IF_ERROR(db_->TableExists(table, &exists));
      if (exists) tables_.insert(std::string(table));
    }
    for (const auto& [table, ddl] : kNameTables) {
      bool exists = false;
      PROF_RETURN_IF_ERROR(db_->TableExists(table, &exists));
      if (!exists) {
        PROF_RETURN_IF_ERROR(db_->Exec(ddl));
      }
    }
    return Status::Ok();
  }

  Status PrepareFlows() {
    PROF_RETURN_IF_ERROR(Run("flow_tables.sql"));
    for (const GpuTable& gpu : kGpuTables) {
      if (!Has(gpu.table)) continue;
      PROF_RETURN_IF_ERROR(Run("gpu_launches_insert.sql", gpu.table));
    }
    if (!Has(kCudaApiTable)) return Status::Ok();
    return Run("flows_insert.sql");
  }

  // Runs export/sql/<file> (on `table`) and calls `on_row` for each row.
  template <typename OnRow>
  Status ForEachRow(std::string_view file, std::string_view table, OnRow on_row) {
    storage::Statement query;
    if (!db_->Prepare(Sql(file, table), &query).ok()) return QueryError(file);
    for (;;) {
      bool has_row = false;
      if (!query.Step(&has_row).ok()) return QueryError(file);
      if (!has_row) return Status::Ok();
      on_row(query);
    }
  }
  template <typename OnRow>
  Status ForEachRow(std::string_view file, OnRow on_row) {
    return ForEachRow(file, {}, on_row);
  }

  Status Run(std::string_view file, std::string_view table = {}) {
    return db_->Exec(Sql(file, table)).ok() ? Status::Ok() : QueryError(file);
  }

  // One line: SQLite's reason (a report whose tables lack nsys's columns, say), not the SQL.
  Status QueryError(std::string_view file) const {
    return Status::Error("cannot read " + db_->path() + ": " + db_->ErrorText() + " (in " +
                         std::string(file) + ")");
  }

  Status ReadThreads() {
    for (std::string_view table : kThreadTables) {
      if (!Has(table)) continue;
      Status status = ForEachRow("table_threads.sql", table, [&](storage::Statement& row) {
        threads_.emplace(row.ColumnInt64(0), std::string());
      });
      if (!status.ok()) return status;
    }
    if (Has("ThreadNames")) {
      Status status = ForEachRow("thread_names.sql", [&](storage::Statement& row) {
        auto thread = threads_.find(row.ColumnInt64(0));
        if (thread != threads_.end()) thread->second = std::string(row.ColumnText(1));
      });
      if (!status.ok()) return status;
    }
    for (const auto& [global_tid, name] : threads_) process_names_[storage::PidOf(global_tid)];
    if (!Has("PROCESSES")) return Status::Ok();
    return ForEachRow("process_names.sql", [&](storage::Statement& row) {
      auto process = process_names_.find(row.ColumnInt64(0));
      if (process != process_names_.end()) process->second = std::string(row.ColumnText(1));
    });
  }

  Status ReadGpuStreams() {
    for (const GpuTable& gpu : kGpuTables) {
      if (!Has(gpu.table)) continue;
      Status status = ForEachRow("table_gpu_streams.sql", gpu.table, [&](storage::Statement& row) {
        const int64_t device = row.ColumnInt64(0);
        streams_.emplace(StreamKey{device, row.ColumnInt64(1), row.ColumnInt64(2)}, 0);
        gpu_names_.emplace(device, "GPU " + std::to_string(device));
      });
      if (!status.ok()) return status;
    }
    // A GPU with allocations or metrics but no operations still gets its track, for the counters.
    if (Has(kGpuMemoryTable)) PROF_RETURN_IF_ERROR(AddCounterGpus("gpu_memory_devices.sql"));
    if (HasGpuMetrics()) PROF_RETURN_IF_ERROR(AddCounterGpus("gpu_metrics_devices.sql"));
    // Streams are numbered in (device, pid, stream id) order: the map's order.
    int64_t number = 0;
    for (auto& [key, tid] : streams_) tid = kGpuStreamTidBase + ++number;
    if (!Has("TARGET_INFO_GPU")) return Status::Ok();
    return ForEachRow("gpu_names.sql", [&](storage::Statement& row) {
      auto gpu = gpu_names_.find(row.ColumnInt64(0));
      if (gpu != gpu_names_.end()) {
        gpu->second = "GPU " + std::to_string(gpu->first) + ": " + std::string(row.ColumnText(1));
      }
    });
  }

  // The GPUs that `query` lists (their ids in its first column).
  Status AddCounterGpus(std::string_view query) {
    return ForEachRow(query, [&](storage::Statement& row) {
      const int64_t device = row.ColumnInt64(0);
      gpu_names_.emplace(device, "GPU " + std::to_string(device));
    });
  }

  void AddTracks() {
    for (const auto& [pid, name] : process_names_) {
      sink_->AddTrack({TrackKind::kProcess, pid, 0, name});
    }
    for (const auto& [global_tid, name] : threads_) {
      sink_->AddTrack(
          {TrackKind::kThread, storage::PidOf(global_tid), storage::TidOf(global_tid), name});
    }
    for (const auto& [device, name] : gpu_names_) {
      sink_->AddTrack({TrackKind::kGpu, kGpuPidBase + device, 0, name});
    }
    for (const auto& [key, tid] : streams_) {
      const auto& [device, pid, stream] = key;
      sink_->AddTrack({TrackKind::kGpuStream, kGpuPidBase + device, tid,
                       "Stream " + std::to_string(stream) + " (pid " + std::to_string(pid) + ")"});
    }
  }

  // Resets the reused event for the next row, keeping the args' capacity.
  void StartEvent(EventKind kind, storage::Statement& row) {
    event_.kind = kind;
    event_.args.clear();
    event_.flow_id = 0;
    event_.start_ns = row.ColumnInt64(0);
    event_.end_ns = row.ColumnInt64(1);
    event_.name = row.ColumnText(2);
  }

  void SetThread(int64_t global_tid) {
    event_.pid = storage::PidOf(global_tid);
    event_.tid = storage::TidOf(global_tid);
  }

  void AddNumberArg(std::string_view key, int64_t value) {
    event_.args.push_back({key, false, value, {}});
  }
  void AddTextArg(std::string_view key, std::string_view value) {
    event_.args.push_back({key, true, 0, value});
  }

  Status ReadNvtx() {
    constexpr std::array<EventKind, 3> kKinds = {EventKind::kNvtxPushPop, EventKind::kNvtxStartEnd,
                                                 EventKind::kNvtxMark};
    return ForEachRow("nvtx_events.sql", [&](storage::Statement& row) {
      StartEvent(kKinds[row.ColumnInt64(7)], row);
      SetThread(row.ColumnInt64(3));
      if (!row.ColumnIsNull(4)) AddTextArg("domain", row.ColumnText(4));
      if (!row.ColumnIsNull(5)) AddTextArg("category", row.ColumnText(5));
      std::string color;
      if (!row.ColumnIsNull(6)) {
        color = ColorText(row.ColumnInt64(6));
        AddTextArg("color", color);
      }
      sink_->AddEvent(event_);
    });
  }

  // Only for a report with --pytorch's module ranges (the domain "PyTorch"): the views behind the
  // slices cost a few seconds per 100,000 operator ranges.
  Status ReadPytorchModuleBackward() {
    bool has_modules = false;
    PROF_RETURN_IF_ERROR(
        ForEachRow("pytorch_domain.sql", [&](storage::Statement&) { has_modules = true; }));
    if (!has_modules) return Status::Ok();
    for (std::string_view view : {"nvtx_ranges", "pytorch_ranges"}) {
      if (!db_->Exec(std::string(stats::ViewSql(view).value())).ok()) return QueryError(view);
    }
    return ForEachRow("pytorch_module_backward.sql", [&](storage::Statement& row) {
      StartEvent(EventKind::kPytorchModuleBackward, row);
      SetThread(row.ColumnInt64(3));
      AddNumberArg("nodes", row.ColumnInt64(4));
      sink_->AddEvent(event_);
    });
  }

  Status ReadOsRuntime() {
    return ForEachRow("osrt_api.sql", [&](storage::Statement& row) {
      StartEvent(EventKind::kOsRuntime, row);
      SetThread(row.ColumnInt64(3));
      AddNumberArg("returnValue", row.ColumnInt64(4));
      sink_->AddEvent(event_);
    });
  }

  Status ReadCudaApi() {
    return ForEachRow("cuda_api.sql", [&](storage::Statement& row) {
      StartEvent(EventKind::kCudaApi, row);
      SetThread(row.ColumnInt64(3));
      AddNumberArg("correlationId", row.ColumnInt64(4));
      AddNumberArg("returnValue", row.ColumnInt64(5));
      event_.flow_id = row.ColumnIsNull(6) ? 0 : static_cast<uint64_t>(row.ColumnInt64(6));
      sink_->AddEvent(event_);
    });
  }

  // Columns shared by the GPU queries: start, end, name, deviceId, pid, streamId, correlationId,
  // flowId, then the table's own.
  Status ReadGpuOperations(const GpuTable& gpu) {
    return ForEachRow(gpu.query, [&](storage::Statement& row) {
      StartEvent(gpu.kind, row);
      const int64_t device = row.ColumnInt64(3);
      event_.pid = kGpuPidBase + device;
      event_.tid = streams_[StreamKey{device, row.ColumnInt64(4), row.ColumnInt64(5)}];
      AddNumberArg("correlationId", row.ColumnInt64(6));
      event_.flow_id = row.ColumnIsNull(7) ? 0 : static_cast<uint64_t>(row.ColumnInt64(7));
      if (gpu.kind == EventKind::kGpuKernel) {
        AddTextArg("grid", row.ColumnText(8));
        AddTextArg("block", row.ColumnText(9));
      } else if (gpu.kind == EventKind::kGpuGraph) {
        AddNumberArg("graphExecId", row.ColumnInt64(8));
      } else {
        AddNumberArg("bytes", row.ColumnInt64(8));
      }
      sink_->AddEvent(event_);
    });
  }

  Status ReadGpuMemory() {
    return ForEachRow("gpu_memory.sql", [&](storage::Statement& row) {
      sink_->AddCounter({kGpuPidBase + row.ColumnInt64(0), kGpuMemoryCounterName,
                         row.ColumnInt64(1), row.ColumnInt64(2)});
    });
  }

  // One counter per GPU and metric, named as the report names the metric.
  Status ReadGpuMetrics() {
    return ForEachRow("gpu_metrics.sql", [&](storage::Statement& row) {
      sink_->AddCounter({kGpuPidBase + row.ColumnInt64(0), row.ColumnText(1), row.ColumnInt64(2),
                         row.ColumnInt64(3)});
    });
  }

  // One sample is the run of rows with its id; its frames' text lives in frame_text_ until the
  // sample is handed over.
  Status ReadCpuSamples() {
    int64_t current_id = 0;
    bool open = false;
    Status status = ForEachRow("cpu_samples.sql", [&](storage::Statement& row) {
      const int64_t id = row.ColumnInt64(0);
      if (open && id != current_id) EmitSample();
      if (!open || id != current_id) {
        open = true;
        current_id = id;
        const int64_t global_tid = row.ColumnInt64(3);
        sample_ = CpuSample{storage::PidOf(global_tid),
                            storage::TidOf(global_tid),
                            row.ColumnInt64(1),
                            row.ColumnInt64(2),
                            {}};
        frame_text_.clear();
      }
      if (row.ColumnIsNull(4)) return;  // a sample without a stack
      frame_text_.emplace_back(row.ColumnText(4), row.ColumnIsNull(5) ? "" : row.ColumnText(5));
      StackFrame frame;
      frame.is_python = row.ColumnInt64(6) == kPythonFrameUnwindMethod;
      frame.address_or_line = row.ColumnInt64(7);
      frame.unresolved = row.ColumnInt64(8) != 0;
      sample_.frames.push_back(frame);
    });
    if (status.ok() && open) EmitSample();
    return status;
  }

  void EmitSample() {
    for (size_t i = 0; i < sample_.frames.size(); ++i) {
      sample_.frames[i].function = frame_text_[i].first;
      sample_.frames[i].module = frame_text_[i].second;
    }
    sink_->AddCpuSample(sample_);
  }

  storage::Database* db_;
  TimelineSink* sink_;
  CpuSample sample_;                                             // the sample being read
  std::vector<std::pair<std::string, std::string>> frame_text_;  // its frames' function, module
  std::set<std::string> tables_;
  std::map<int64_t, std::string> threads_;        // globalTid -> name
  std::map<int64_t, std::string> process_names_;  // pid -> name
  std::map<int64_t, std::string> gpu_names_;      // deviceId -> name
  std::map<StreamKey, int64_t> streams_;          // -> pseudo-thread id on the GPU's track
  TimelineEvent event_;                           // reused so that args keep their capacity
};

}  // namespace

Status ReadTimeline(storage::Database* db, TimelineSink* sink) {
  return TimelineReader(db, sink).Read();
}

}  // namespace prof::exporter
