// The role of a Python worker process, read from the Python frames of its main thread's samples,
// so that reports name DataLoader and multiprocessing workers by what they do instead of all as
// "python3" (their process name stays the interpreter's: PyTorch 1.x and multiprocessing set no
// process title).
//
// A worker shows its role from its first samples: a fork child's stack holds its parent's frames
// under multiprocessing's Process._bootstrap, a spawned child's under spawn_main. Roles:
//   pt_data_worker   PyTorch's DataLoader worker loop (PyTorch 2 names the worker's thread so)
//   PoolWorker       a multiprocessing.Pool worker
//   <target>         another multiprocessing.Process: its target function's name
#pragma once

#include <string_view>
#include <vector>

#include "collector/cpu_samples/sample_resolver.h"

namespace prof::collector {

// The role that `frames` (a sample's stack, leaf first, Python frames spliced in) says its
// process has; empty when they show none. The view points into `frames`' names or static text.
std::string_view WorkerRoleOf(const std::vector<SampleFrame>& frames);

}  // namespace prof::collector
