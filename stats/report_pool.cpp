#include "stats/report_pool.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace prof::stats {

int UsableCpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

Status ForEachReport(size_t count, int jobs, const std::function<Status(size_t)>& work) {
  std::vector<Status> results(count, Status::Ok());
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  // An index taken is always run: every index below a failed one has then run too, so the error
  // returned is that of the first bad file, as a run on one thread would find it.
  const auto run = [&] {
    while (!failed) {
      const size_t i = next++;
      if (i >= count) return;
      results[i] = work(i);
      if (!results[i].ok()) failed = true;
    }
  };
  const size_t threads = std::min(count, static_cast<size_t>(jobs > 0 ? jobs : UsableCpus()));
  if (threads <= 1) {
    run();
  } else {
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t) pool.emplace_back(run);
    for (std::thread& thread : pool) thread.join();
  }
  for (Status& result : results) {
    if (!result.ok()) return result;
  }
  return Status::Ok();
}

}  // namespace prof::stats
