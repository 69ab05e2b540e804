// GPU test program: kernels launched from the main thread and from a second std::thread at the same
// time, each thread inside its own NVTX range, and then exit(0) called from the second thread while
// the main thread is blocked in join(): the end-of-program flush runs on a non-main thread.
// tests/gpu/check_cuda_report.py (program "cuda_threads") asserts exactly what a trace must show:
//
// NVTX push/pop ranges, 1 each: main-work (main thread), worker-work (second thread)
// KERNEL: main_kernel x3 on the main thread's stream, in "main-work";
//         worker_kernel x5 on the worker's stream, in "worker-work"; grid 2 block 128 both
// Kernel launches from 2 distinct threads (one per kernel name), on 2 distinct streams
// SYNCHRONIZATION: cudaStreamSynchronize 2
// RUNTIME calls: cudaStreamCreate 2, cudaMalloc 2, cudaLaunchKernel 8, cudaStreamSynchronize 2
// (nothing is freed: the process ends in exit()).
#include <nvtx3/nvToolsExt.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "cuda_check.h"

namespace {

constexpr int kElements = 256;
constexpr int kBlock = 128;
constexpr int kGrid = kElements / kBlock;

}  // namespace

// Kernels at global scope, so their names are plain in KERNEL.shortName and demangledName.
__global__ void main_kernel(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1.0f;
}

__global__ void worker_kernel(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.0f;
}

namespace {

std::atomic<bool> main_done{false};

// Both threads run this with their own range name, kernel and launch count.
template <typename Kernel>
void LaunchOnOwnStream(const char* range, Kernel kernel, int launches) {
  nvtxRangePushA(range);
  cudaStream_t stream;
  float* data;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaMalloc(&data, kElements * sizeof(float)));
  for (int i = 0; i < launches; ++i) kernel<<<kGrid, kBlock, 0, stream>>>(data, kElements);
  CHECK(cudaStreamSynchronize(stream));
  nvtxRangePop();
}

// Ends the process from this thread once the main thread's work is traced: exit() runs the
// atexit handlers and static destructors here, not on the main thread.
void Worker() {
  LaunchOnOwnStream("worker-work", worker_kernel, 5);
  while (!main_done.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::exit(0);
}

}  // namespace

int main() {
  std::thread worker(Worker);
  LaunchOnOwnStream("main-work", main_kernel, 3);
  main_done.store(true);
  worker.join();  // never returns: the worker calls exit(0)
  return 1;
}
