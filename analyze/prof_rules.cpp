// prof's own rules: they name the cause of lost GPU time and its remedy, where nsys's rules list
// symptoms. Each takes step= and warmup= (the steady state, analysis_window.h).
#include <algorithm>

#include "analyze/rule_definitions.h"

namespace prof::analyze {
namespace {

// The options of every steady-state rule.
const std::vector<RuleOption> kSteadyStateOptions = {
    {"step", OptionKind::kText, std::nullopt,
     "the repeating NVTX range (default: the one whose instances take the most time)"},
    {"warmup", OptionKind::kInteger, 1, "instances of the step range to skip (default 1)", 0},
};

// Every prof rule reads the GPU operations with their launching calls (analyze_stream_ops).
RuleSpec ProfRule(std::string_view name, std::string_view title) {
  RuleSpec rule;
  rule.name = name;
  rule.title = title;
  rule.is_default = false;
  rule.required_tables = {kStringIds, kRuntimeCalls};
  rule.any_of_tables = kGpuOperationTables;
  rule.any_of_missing = kNoGpuOperations;
  rule.optional_tables = {"NVTX_EVENTS", "OSRT_API"};
  rule.views = {"analyze_stream_ops"};
  rule.options = kSteadyStateOptions;
  return rule;
}

RuleSpec Overlap() {
  RuleSpec rule = ProfRule("overlap", "Copy/Kernel Overlap and Launch Overhead");
  rule.views.push_back("analyze_device_overlap");
  rule.advice =
      "Copy Overlap is the share of copy time during which a kernel ran on the same GPU: copies\n"
      "that do not overlap add their whole time to the step. A high Short Kernel Time (kernels\n"
      "under 10 us) with a small launch latency means the GPU waits for the host to launch.\n"
      "\n"
      "Suggestions:\n"
      "   1. Low overlap: copy pinned memory with non_blocking=True, on a side stream, one batch\n"
      "      ahead (DataLoader pin_memory=True, prefetching).\n"
      "   2. Launch-bound: capture the step in a CUDA graph (torch.compile(mode=\"reduce-\n"
      "      overhead\"), torch.cuda.graphs), fuse small kernels, or use larger batches.";
  rule.no_result = "No kernel or copy ran in the window.";
  return rule;
}

RuleSpec SyncHotspots() {
  RuleSpec rule = ProfRule("sync_hotspots", "Host Synchronization Hotspots");
  rule.views = {"analyze_stream_ops",    "cuda_api_calls",     "nvtx_ranges",
                "analyze_thread_ranges", "analyze_cuda_calls", "analyze_sync_calls",
                "python_call_sites"};
  rule.optional_tables = {"NVTX_EVENTS", "CUDA_CALLCHAINS"};
  rule.advice =
      "The host waited for the GPU in these calls, by thread, innermost NVTX range and, with\n"
      "--python-backtrace=cuda, the Python line that made them. Calls\n"
      "equal to Range Instances mean one wait per instance: in a training loop, a sync every\n"
      "step. In PyTorch, .item(), .cpu(), print(tensor), torch.cuda.synchronize() and copies\n"
      "to pageable memory each wait.\n"
      "\n"
      "Suggestion: keep values on the GPU (accumulate the loss as a tensor) and read them every\n"
      "N steps; copy with non_blocking=True into pinned memory.";
  rule.no_result = "No synchronizing call was found in the window.";
  return rule;
}

RuleSpec IdleClass() {
  RuleSpec rule = ProfRule("idle_class", "Stream Idle Time by Class");
  rule.advice =
      "Idle time between the operations of each stream, by what the next operation waited for:\n"
      "Host Wait (it was launched only after the stream ran dry: the host is too slow to keep\n"
      "the GPU fed), Dependency Wait (it was queued but waited for another stream) and Other\n"
      "(queued, nothing else finished meanwhile: launch latency).\n"
      "\n"
      "Suggestions:\n"
      "   1. Host wait: find what the host did with `prof analyze -r gap_cause`; remove syncs,\n"
      "      feed data faster (DataLoader workers, pinned memory), or launch less (CUDA graphs).\n"
      "   2. Dependency wait: split the work so the streams do not wait on each other.";
  rule.no_result = "No stream had operations in the window.";
  return rule;
}

// gap_cause and gap_cause_sum read the gaps and causes of analyze_gap_causes.
RuleSpec GapCauseRule(std::string_view name, std::string_view title) {
  RuleSpec rule = ProfRule(name, title);
  rule.views = {"analyze_stream_ops",    "cuda_api_calls",        "nvtx_ranges",
                "analyze_thread_ranges", "analyze_cuda_calls",    "analyze_sync_calls",
                "analyze_osrt_calls",    "analyze_gap_threshold", "analyze_gap_causes"};
  rule.options.push_back({"gap", OptionKind::kInteger, std::nullopt,
                          "minimum gap length in us (default: 5% of the median steady-state step,"
                          " else 100)",
                          0});
  rule.no_result = "No GPU was idle longer than the gap threshold in the window.";
  return rule;
}

// The remedies, by cause, of the gap rules.
constexpr std::string_view kGapRemedies =
    "Suggestions, by cause:\n"
    "   OS runtime call (poll, read, pthread_cond_wait, sem_wait, ... on the main thread): it\n"
    "      waits for data: more DataLoader workers (num_workers), prefetch_factor,\n"
    "      persistent_workers=True, pin_memory=True.\n"
    "   CUDA synchronization: remove per-step syncs (.item(), .cpu(), print(tensor)).\n"
    "   CUDA API call: slow launches or allocations: CUDA graphs, fewer allocations.\n"
    "   host code: Python work between launches: CUDA graphs or torch.compile, larger batches.";

RuleSpec GapCause() {
  RuleSpec rule = GapCauseRule("gap_cause", "GPU Gap Causes");
  rule.advice =
      "In these gaps a GPU ran nothing. TID is the thread that launched the work ending the\n"
      "gap (the one the GPU waited for), Cause what that thread did for most of the gap.\n"
      "\n" +
      std::string(kGapRemedies);
  return rule;
}

RuleSpec GapCauseSum() {
  RuleSpec rule = GapCauseRule("gap_cause_sum", "GPU Idle Time by Cause");
  rule.advice =
      "GPU idle time (the gaps of gap_cause) by what the launching thread was doing.\n"
      "\n" +
      std::string(kGapRemedies);
  return rule;
}

// The views that describe the CPU threads in spans of time (analyze_cpu_spans), after the view
// that makes the spans: the GPU gaps or the window.
std::vector<std::string_view> CpuSpanViews(std::string_view spans) {
  return {"analyze_cpu_samples",  "thread_states",          spans,
          "analyze_span_samples", "analyze_span_functions", "analyze_span_threads"};
}

// The CPU sample tables cpu_in_gaps reads and summary reads when the file has them.
const std::vector<std::string_view> kCpuSampleTables = {"COMPOSITE_EVENTS", "SAMPLING_CALLCHAINS",
                                                        "SCHED_EVENTS"};

RuleSpec CpuInGaps() {
  RuleSpec rule = GapCauseRule("cpu_in_gaps", "CPU Threads in GPU Gaps");
  constexpr std::string_view kNoSamples =
      "does not contain CPU sample data. Was it profiled with --sample=process-tree?";
  rule.required_tables = {
      kStringIds, {"COMPOSITE_EVENTS", kNoSamples}, {"SAMPLING_CALLCHAINS", kNoSamples}};
  rule.main_form_tables = {kRuntimeCalls};
  rule.optional_tables = {"NVTX_EVENTS", "OSRT_API", "OSRT_CALLCHAINS", "SCHED_EVENTS",
                          "ThreadNames"};
  for (std::string_view view : CpuSpanViews("analyze_gap_spans")) rule.views.push_back(view);
  rule.views.push_back("analyze_span_top_functions");
  rule.views.push_back("analyze_span_blocked_in");
  rule.options.push_back({"functions", OptionKind::kInteger, 3,
                          "functions listed per thread, most self samples first (default 3)", 1,
                          100});
  rule.advice =
      "What each thread of the process did while the GPU was idle, per gap of gap_cause (Gap is\n"
      "its Row#): its CPU samples and the functions they were taken in (self samples; Python\n"
      "frames as function (file:line)), and with --cpuctxsw its time on a CPU (Running), off it\n"
      "waiting (Blocked: I/O, locks, sleeps, DataLoader queues) or waiting for a CPU (Preempted),\n"
      "and with -t osrt the OS runtime call it waited in longest, with the stack it was made from\n"
      "(Blocked In).\n"
      "\n"
      "Suggestions:\n"
      "   1. The launching thread busy in Python or native code: that code delays the next\n"
      "      launch; move it out of the step, into DataLoader workers, or onto the GPU.\n"
      "   2. The launching thread blocked: it waits for data or a lock (see gap_cause's Call):\n"
      "      more DataLoader workers, prefetching, pinned memory.";
  rule.no_result =
      "No GPU was idle longer than the gap threshold in the window, or no CPU sample was taken in "
      "a gap.";
  std::vector<std::string_view> window_views = CpuSpanViews("analyze_window_spans");
  window_views.push_back("analyze_span_top_functions");
  window_views.push_back("analyze_span_blocked_in");
  rule.fallback = RuleFallback{
      window_views,
      "The report has no GPU operations: where each thread's CPU time in the window went. Samples\n"
      "(%) is its share of all samples, Top Functions the functions they were taken in (self\n"
      "samples; Python frames as function (file:line)); with --cpuctxsw, Running, Blocked and\n"
      "Preempted are its time on a CPU, off it waiting, and waiting for a CPU, and with -t osrt\n"
      "Blocked In the OS runtime call it waited in longest, with its stack.",
      "No thread was sampled or switched CPU in the window."};
  return rule;
}

// The thresholds of a busy-but-underused GPU (analyze_gpu_underuse), and what the rules that find
// it read: GPU metrics where the file has them, the step instances, the metric samples.
const std::vector<RuleOption> kUnderuseOptions = {
    {"busy", OptionKind::kInteger, 90,
     "a window counts when kernels run at least this % of it (default 90)", 0, 100},
    {"sm", OptionKind::kInteger, 30,
     "and SMs Active (else SM Issue) averages at most this % (default 30)", 0, 100},
};
constexpr std::string_view kMetricTables[] = {"GPU_METRICS", "TARGET_INFO_GPU_METRICS"};
constexpr std::string_view kUnderuseViews[] = {"nvtx_ranges", "gpu_metric_samples",
                                               "analyze_gpu_underuse"};

void ReadsUnderuse(RuleSpec* rule) {
  for (const RuleOption& option : kUnderuseOptions) rule->options.push_back(option);
  for (std::string_view table : kMetricTables) rule->optional_tables.push_back(table);
  for (std::string_view view : kUnderuseViews) {
    if (std::find(rule->views.begin(), rule->views.end(), view) == rule->views.end()) {
      rule->views.push_back(view);
    }
  }
}

RuleSpec GpuUnderuse() {
  RuleSpec rule = ProfRule("gpu_underuse", "GPU Busy but Underused");
  rule.required_tables = {
      kStringIds,
      {"GPU_METRICS",
       "does not contain GPU metrics. Was it profiled with "
       "--gpu-metrics-devices?"},
      {"TARGET_INFO_GPU_METRICS", "does not contain GPU metric names (TARGET_INFO_GPU_METRICS)."}};
  rule.any_of_tables = {kKernelTable};
  rule.any_of_missing = "does not contain CUDA kernels. Was it traced with --trace=cuda?";
  rule.optional_tables = {"NVTX_EVENTS"};
  rule.views = {};
  ReadsUnderuse(&rule);
  rule.advice =
      "In these windows (steps) the GPU's kernels ran at least {busy}% of the time, yet the SMs\n"
      "were active (or issued instructions) at most {sm}% of it on average: the GPU looks busy\n"
      "in a timeline but most of it idles. Top Kernels are the kernels with the most time there.\n"
      "\n"
      "Suggestions:\n"
      "   1. Give each kernel more parallel work: larger batches, fused or compiled kernels\n"
      "      (torch.compile) instead of many small ones.\n"
      "   2. Look at the top kernel in Nsight Compute (ncu): too few blocks for the SMs, low\n"
      "      occupancy (registers, shared memory) or a latency-bound loop.\n"
      "   3. Run independent work concurrently (CUDA streams, CUDA graphs).";
  rule.no_result = "No GPU was busy at least {busy}% of a window with SMs active at most {sm}%.";
  return rule;
}

RuleSpec Summary() {
  RuleSpec rule = GapCauseRule("summary", "Findings, by Recoverable Time");
  rule.is_default = true;
  rule.views.insert(rule.views.end() - 1, "analyze_device_overlap");
  for (std::string_view view : CpuSpanViews("analyze_gap_spans")) rule.views.push_back(view);
  rule.views.push_back("analyze_span_blocked_in");
  for (std::string_view table : kCpuSampleTables) rule.optional_tables.push_back(table);
  rule.optional_tables.push_back("OSRT_CALLCHAINS");
  // The --pytorch operator and module the blocking calls ran in.
  for (std::string_view view :
       {"pytorch_ranges", "analyze_pytorch_ranges", "analyze_pytorch_places"}) {
    rule.views.push_back(view);
  }
  ReadsUnderuse(&rule);
  rule.advice =
      "What costs the most GPU time in the window, largest first. Recoverable is an estimate of\n"
      "the GPU time a fix could win back; Rows names the rule that lists the evidence.";
  rule.no_result =
      "Nothing found: no GPU gap over the threshold, no copy left without overlap, and the\n"
      "GPU was not found busy enough to call the step GPU-bound.";
  return rule;
}

// The NCCL rules read kernels only (no launching calls needed), with the ranks when recorded.
RuleSpec NcclRule(std::string_view name, std::string_view title) {
  RuleSpec rule;
  rule.name = name;
  rule.title = title;
  rule.required_tables = {kStringIds,
                          {kKernelTable,
                           "does not contain CUDA kernels. Was it traced with "
                           "--trace=cuda?"}};
  rule.optional_tables = {"NVTX_EVENTS", "MPI_RANKS"};
  rule.views = {"analyze_nccl_kernels", "analyze_nccl_collectives"};
  rule.options = kSteadyStateOptions;
  return rule;
}

RuleSpec NcclOverlap() {
  RuleSpec rule = NcclRule("nccl_overlap", "NCCL Communication/Compute Overlap");
  rule.advice =
      "Overlap is the share of NCCL kernel time during which a compute kernel ran on the same\n"
      "GPU: communication that no compute hides adds its whole time to the step. Last Arrivals\n"
      "counts the collectives this rank reached last (the others waited for it; see nccl_skew).\n"
      "\n"
      "Suggestions:\n"
      "   1. Low overlap in DDP: let gradient buckets all-reduce during backward (bucket_cap_mb,\n"
      "      no_sync only where intended, static_graph=True); in FSDP, prefetch the next\n"
      "      all-gather (forward_prefetch, backward_prefetch).\n"
      "   2. One rank often last: balance its input (data loading, uneven batches) or its work.";
  rule.no_result = "No NCCL kernel ran in the window.";
  return rule;
}

RuleSpec NcclSkew() {
  RuleSpec rule = NcclRule("nccl_skew", "NCCL Collective Rank Skew");
  rule.advice =
      "The n-th NCCL kernel of a name on each rank is one collective; its skew is how much later\n"
      "the last rank started it than the first: the time the other ranks waited inside it.\n"
      "\n"
      "Suggestion: look at what the most often last rank does before the collective (prof\n"
      "analyze -r gap_cause on its process): data loading, host syncs or uneven work.";
  rule.no_result = "No NCCL collective ran on two or more ranks in the window.";
  return rule;
}

}  // namespace

std::vector<RuleSpec> ProfRules() {
  return {Summary(),     Overlap(),   SyncHotspots(), IdleClass(), GapCause(),
          GapCauseSum(), CpuInGaps(), NcclOverlap(),  NcclSkew(),  GpuUnderuse()};
}

}  // namespace prof::analyze
