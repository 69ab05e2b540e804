// libcupti, loaded at run time: prof's CUDA injection is built with CUPTI's headers only, so it runs
// with whichever libcupti matches the program (the one PyTorch already loaded, the toolkit's, or the
// pip `nvidia` wheels') and degrades to NVTX/OS-runtime tracing when there is none.
//
// Search order (first usable wins; docs/cuda.md explains why):
//   1. a libcupti already loaded in the process (PyTorch links one): two copies must never coexist;
//   2. the toolkit prof was built with (PROF_BUILD_CUPTI_DIR);
//   3. $CUDA_HOME and $CUDA_PATH: lib64/, extras/CUPTI/lib64/, lib/;
//   4. the `nvidia` pip wheels in the site-packages of any loaded library (torch, nvidia/*);
//   5. the dynamic linker's default search, then /usr/local/cuda (the toolkit's usual home).
// The library is never unloaded: CUPTI's threads and callbacks outlive any point where that is safe.
#pragma once

#include <cupti.h>

#include <cstddef>

namespace prof::injection::cuda {

// The CUPTI functions prof calls, resolved with dlsym.
struct CuptiFunctions {
#define PROF_CUPTI_FUNCTION(name) decltype(&::name) name = nullptr;
#include "injection/cuda/cupti_function_list.h"
#undef PROF_CUPTI_FUNCTION
};

// Loads libcupti and resolves every function. On failure returns false and writes what was tried
// into `message`; on success `message` names the file that was loaded.
bool LoadCupti(CuptiFunctions* out, char* message, size_t message_size);

// The same search for another user of CUPTI (the launcher's GPU metrics, which need other
// functions): the first library `resolve` accepts (it fills `out` with dlsym on `handle`) wins.
using CuptiResolver = bool (*)(void* handle, void* out);
bool LoadCuptiWith(CuptiResolver resolve, void* out, char* message, size_t message_size);

}  // namespace prof::injection::cuda
