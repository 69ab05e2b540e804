#include "analyze/steady_state.h"

#include "stats/steady_state.h"

namespace prof::analyze {
namespace {

using stats::SteadyState;

// The sentence that says which part of the report a steady-state rule looked at.
std::string SteadyStateNote(const RuleRequest& request, const std::optional<SteadyState>& steady,
                            bool explicit_window) {
  const int64_t warmup = *request.Integer("warmup");
  if (explicit_window) return "Window: as given by start=, end= or nvtx=.";
  if (!steady) {
    if (const std::optional<std::string> step = request.Text("step")) {
      return "Whole report analyzed: it has no NVTX range named '" + *step + "'.";
    }
    return "Whole report analyzed: no NVTX range repeats 3 or more times, so no warm-up step "
           "was skipped.";
  }
  const std::string count = std::to_string(steady->instances);
  if (warmup == 0) {
    return "Whole report analyzed (warmup=0); the repeating NVTX range is " + steady->name + " (" +
           count + " instances).";
  }
  if (!steady->start) {
    return "Whole report analyzed: " + steady->name + " has only " + count +
           " instances, not more than warmup=" + std::to_string(warmup) + ".";
  }
  return "Steady state: NVTX ranges " + steady->name + " " + std::to_string(warmup + 1) + " to " +
         count + " of " + count + " (" + std::to_string(*steady->start) + " ns to " +
         std::to_string(steady->end) + " ns); the first " + std::to_string(warmup) +
         " skipped as warm-up (warmup=0 keeps them, step= picks the range).";
}

}  // namespace

Status ResolveSteadyState(storage::Database* db, const RuleRequest& request, bool explicit_window,
                          SteadyStateWindow* out) {
  *out = SteadyStateWindow{};
  const int64_t warmup = *request.Integer("warmup");
  std::optional<SteadyState> steady;
  PROF_RETURN_IF_ERROR(stats::FindSteadyState(db, request.Text("step"), warmup, &steady));
  const bool skips_warmup = !explicit_window && steady && steady->start && warmup > 0;
  std::optional<int64_t> steps;
  if (steady && !explicit_window) {
    steps = skips_warmup ? steady->instances - warmup : steady->instances;
  }
  PROF_RETURN_IF_ERROR(stats::StoreSteadyState(db, steady, warmup, steps));
  out->note = SteadyStateNote(request, steady, explicit_window);
  if (skips_warmup) {
    out->start = steady->start;
    out->end = steady->end;
  }
  return Status::Ok();
}

}  // namespace prof::analyze
