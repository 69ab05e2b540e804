// Runs one piece of work per report file on a bounded number of threads: `prof stats` and
// `prof analyze` over many ranks' reports use every core while holding at most `jobs` reports
// open at a time.
//
// Contract: work(i) is called once for each i in [0, count), from at most `jobs` threads at once
// (the calling thread waits); each call must only touch its own slot of the caller's results, so
// the output's order is the inputs' order whatever order the calls finish in. After a failure no
// new index starts; the error returned is that of the lowest failed index.
#pragma once

#include <cstddef>
#include <functional>

#include "common/status.h"

namespace prof::stats {

// The CPUs this process may run on (its affinity mask): the default number of jobs.
int UsableCpus();

// `jobs` <= 0 means UsableCpus().
Status ForEachReport(size_t count, int jobs, const std::function<Status(size_t)>& work);

}  // namespace prof::stats
