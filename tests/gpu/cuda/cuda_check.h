// CHECK(call): stops a GPU test program with a message and exit code 1 when a CUDA runtime call
// fails, so a broken run is never mistaken for a trace with missing events. Uses only return
// codes: cudaGetLastError would add RUNTIME rows that the expected counts do not list.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                             \
  do {                                                                          \
    const cudaError_t check_status = (call);                                    \
    if (check_status != cudaSuccess) {                                          \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(check_status));                           \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)
