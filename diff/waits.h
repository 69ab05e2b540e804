// Which items are waits: OS runtime calls whose duration is time spent waiting for another thread,
// process, descriptor or timer. Their time measures that other work (which has items of its own:
// the loader's NVTX range, the GPU's kernels) or the scheduler's wake-up latency, so by default a
// grown wait does not fail `prof diff` (verdict uncounted); --count-waits counts them.
#pragma once

#include <string_view>
#include <vector>

#include "diff/diff_item.h"

namespace prof::diff {

// The OS runtime functions (injection/protocol/osrt_functions.h names) that are waits.
const std::vector<std::string_view>& WaitFunctions();

// An osrt item of one of WaitFunctions().
bool IsWait(const ItemKey& key);

}  // namespace prof::diff
