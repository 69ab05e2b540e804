// One hand-made report with NVTX ranges whose summaries and nesting are worked out by hand in the
// NVTX report tests. All times in ns; T1 = pid 100 / tid 1, T2 = pid 100 / tid 2, T5 = pid 200 /
// tid 5.
//
// Push/pop, default domain:
//   T1  :outer [0,1000]      T1 :inner [100,300]   T1 :inner [300,700]   T1 :leaf [400,450]
//   T1  :outer [2000,2600]   T1 :inner [2000,2100]
//   T2  :outer [500,1300]    T2 :inner [600,1150]
// Push/pop, named domains (id 7 means "Lib" in pid 100 and "Other" in pid 200):
//   T1  Lib:load [150,250] (registered string)      T5 Other:load [0,30]
// Start/end: :transfer [10,60] [20,120] [30,330]; :outer [5,15]
// Ignored: a push/pop range without an end, a mark.
#pragma once

#include <string>

namespace prof::stats::test {

// Creates the report in a fresh temp directory named after `name`; returns its path.
std::string MakeNvtxReport(const std::string& name);

}  // namespace prof::stats::test
