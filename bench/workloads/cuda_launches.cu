// Workload cuda_launches: `launches` launches of an empty kernel alternating between two streams,
// after 1,000 untimed ones, then one device synchronize. Prints the cost per launch (the loop and
// the final synchronize, on the program's own clock) and the program's peak RSS:
//   us_per_launch=<x> launches=<n>
//   peak_rss_kb=<k>
// Usage: cuda_launches [launches]   (default 100000)
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "workload_support.h"

namespace {

__global__ void Empty() {}

void Check(cudaError_t error, const char* what) {
  if (error == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(error));
  std::exit(1);
}

void Launch(cudaStream_t streams[2], long count) {
  for (long i = 0; i < count; ++i) Empty<<<1, 1, 0, streams[i % 2]>>>();
  Check(cudaGetLastError(), "launch");
  Check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

}  // namespace

int main(int argc, char** argv) {
  const long launches = argc > 1 ? std::atol(argv[1]) : 100000;
  if (launches <= 0) return 2;
  cudaStream_t streams[2];
  for (auto& stream : streams)
    Check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  Launch(streams, 1000);  // context creation, module loading, first-launch costs
  const int64_t start = BenchNowNs();
  Launch(streams, launches);
  const double seconds = (double)(BenchNowNs() - start) / 1e9;
  std::printf("us_per_launch=%.3f launches=%ld\n", seconds * 1e6 / (double)launches, launches);
  BenchPrintPeakRss();
  for (auto& stream : streams) Check(cudaStreamDestroy(stream), "stream");
  return 0;
}
