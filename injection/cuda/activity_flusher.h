// When CUPTI's activity buffers reach prof. CUPTI hands a buffer over only when it is full, when
// its own periodic flush finds it full, or when someone flushes: a program that launches 3,000
// kernels and ends without exit() (os._exit, SIGKILL, SIGTERM, exec) would take all their records
// with it. So a prof thread in the program flushes every kActivityFlushPeriodMs (buffers whose
// records are complete, full or not), and:
// - exit() forces a flush from an atexit handler, in the exiting thread, while CUDA is alive;
// - _exit, exec and fatal signals ask the thread for a forced flush and wait for it (at most
//   kMaxLastFlushWaitMs: a thread that died inside CUPTI may hold its locks) — libprof_core's last
//   words (injection/core/last_words.h);
// - SIGKILL loses at most the last period, and the collector counts the launches whose kernel
//   never came (cuda_kernels_lost).
// The thread is created with libc's pthread_create (not the interposed one: it is not the
// program's), blocks every signal (none of the program's is delivered to it) and never calls CUPTI
// once the exit flush ran or in a fork child (it does not exist there).
#pragma once

#include <cstdint>

#include "injection/cuda/cupti_library.h"

namespace prof::injection::cuda {

inline constexpr uint32_t kMaxLastFlushWaitMs = 2000;

// Starts the flushing thread and registers the exit flush and the last words. Call once, after
// the activity kinds are enabled. False when the thread could not start (records then arrive when
// buffers fill and at exit()).
bool StartActivityFlusher(const CuptiFunctions* cupti);

}  // namespace prof::injection::cuda
