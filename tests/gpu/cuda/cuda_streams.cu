// GPU test program: kernels on three streams, synchronous and asynchronous copies from pageable and
// pinned memory, memsets, events and synchronizations, each phase in an NVTX push/pop range.
// tests/gpu/check_cuda_report.py (program "cuda_streams") asserts exactly what a trace must show:
//
// NVTX push/pop ranges, 1 each, all nested in "cuda_streams":
//   setup, kernels, events, sync-copies, async-copies, memsets, teardown
// KERNEL (N = 4096 floats):
//   fill_kernel   x4 on stream s0, grid 16 block 256, static shared 0,    dynamic 0,   in "kernels"
//   scale_kernel  x3 on stream s1, grid 16 block 256, static shared 1024, dynamic 0,   in "kernels"
//   reduce_kernel x2 on stream s2, grid 8  block 128, static shared 0,    dynamic 512, in "events"
// MEMCPY, 1 each, (copyKind, srcKind, dstKind, bytes):
//   cudaMemcpy on the default stream, in "sync-copies":      (1,0,2) (1,1,2) (2,2,0) (2,2,1) (8,2,2), 16384 B
//   cudaMemcpyAsync on s1, in "async-copies":                 (1,0,2) (1,1,2) (2,2,0) (2,2,1) (8,2,2), 8192 B
// MEMSET, in "memsets": cudaMemset value 0, 16384 B, default stream; cudaMemsetAsync value 1, 8192 B, s2
// SYNCHRONIZATION: cudaStreamWaitEvent 1, cudaEventSynchronize 1, cudaEventQuery 1, cudaStreamQuery 1
//   (under a correlationId with no RUNTIME row: nsys records the sync but not the call),
//   cudaStreamSynchronize 2, cudaDeviceSynchronize 1 (not asserted: nsys's reference export shows none
//   for it); each inside its call, the wait and the event sync naming their event's record
// CUDA_EVENT: cudaEventRecord 2, eventSyncIds 1 and 2
// RUNTIME calls: cudaStreamCreate 3, cudaMalloc 4, cudaHostAlloc 1 (what cudaMallocHost records as), cudaEventCreate 2,
//   cudaLaunchKernel 9, cudaEventRecord 2, cudaStreamWaitEvent 1, cudaEventSynchronize 1,
//   cudaEventQuery 1,
//   cudaMemcpy 5, cudaMemcpyAsync 5, cudaStreamSynchronize 2, cudaMemset 1, cudaMemsetAsync 1,
//   cudaDeviceSynchronize 1, cudaFree 4, cudaFreeHost 1, cudaEventDestroy 2, cudaStreamDestroy 3
// Streams: kernels on 3 distinct streams; GPU operations on 4 (the 3 and the default stream).
#include <nvtx3/nvToolsExt.h>

#include <vector>

#include "cuda_check.h"

namespace {

constexpr int kElements = 4096;
constexpr int kBlock = 256;
constexpr int kGrid = kElements / kBlock;
constexpr int kReduceBlock = 128;
constexpr int kReduceGrid = 8;
constexpr size_t kSyncBytes = kElements * sizeof(float);  // 16384
constexpr size_t kAsyncBytes = kSyncBytes / 2;            // 8192

}  // namespace

// Kernels at global scope, so their names are plain in KERNEL.shortName and demangledName.
__global__ void fill_kernel(float* data, float value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value + i;
}

// Reverses each block's elements through 1024 B of static shared memory (blockDim.x <= 256).
__global__ void scale_kernel(float* data, float factor, int n) {
  __shared__ float tile[kBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? data[i] : 0.0f;
  __syncthreads();
  if (i < n) data[i] = tile[blockDim.x - 1 - threadIdx.x] * factor;
}

// Sums a grid-stride slice per block in dynamic shared memory of blockDim.x floats.
__global__ void reduce_kernel(const float* in, float* out, int n) {
  extern __shared__ float partial[];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    sum += in[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

namespace {

struct Buffers {
  cudaStream_t streams[3];
  cudaEvent_t filled, reduced;
  float *a, *b, *c, *sums;
  float* pinned;
  std::vector<float> pageable = std::vector<float>(kElements, 1.0f);
};

void Setup(Buffers& g) {
  nvtxRangePushA("setup");
  for (cudaStream_t& stream : g.streams) CHECK(cudaStreamCreate(&stream));
  CHECK(cudaMalloc(&g.a, kSyncBytes));
  CHECK(cudaMalloc(&g.b, kSyncBytes));
  CHECK(cudaMalloc(&g.c, kSyncBytes));
  CHECK(cudaMalloc(&g.sums, kReduceGrid * sizeof(float)));
  CHECK(cudaMallocHost(&g.pinned, kSyncBytes));
  CHECK(cudaEventCreate(&g.filled));
  CHECK(cudaEventCreate(&g.reduced));
  nvtxRangePop();
}

void Kernels(Buffers& g) {
  nvtxRangePushA("kernels");
  for (int i = 0; i < 4; ++i)
    fill_kernel<<<kGrid, kBlock, 0, g.streams[0]>>>(g.a, 1.0f * i, kElements);
  for (int i = 0; i < 3; ++i)
    scale_kernel<<<kGrid, kBlock, 0, g.streams[1]>>>(g.b, 0.5f, kElements);
  nvtxRangePop();
}

// s2 reduces what s0 filled: it waits for the event recorded after the fills.
void Events(Buffers& g) {
  nvtxRangePushA("events");
  CHECK(cudaEventRecord(g.filled, g.streams[0]));
  CHECK(cudaStreamWaitEvent(g.streams[2], g.filled, 0));
  const size_t shared = kReduceBlock * sizeof(float);  // 512
  for (int i = 0; i < 2; ++i)
    reduce_kernel<<<kReduceGrid, kReduceBlock, shared, g.streams[2]>>>(g.a, g.sums, kElements);
  CHECK(cudaEventRecord(g.reduced, g.streams[2]));
  CHECK(cudaEventSynchronize(g.reduced));
  CHECK(cudaEventQuery(g.filled));  // complete by now: both queries return cudaSuccess
  CHECK(cudaStreamQuery(g.streams[2]));
  nvtxRangePop();
}

void SyncCopies(Buffers& g) {
  nvtxRangePushA("sync-copies");
  CHECK(cudaMemcpy(g.a, g.pageable.data(), kSyncBytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(g.b, g.pinned, kSyncBytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(g.pageable.data(), g.a, kSyncBytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g.pinned, g.b, kSyncBytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g.c, g.a, kSyncBytes, cudaMemcpyDeviceToDevice));
  nvtxRangePop();
}

void AsyncCopies(Buffers& g) {
  nvtxRangePushA("async-copies");
  cudaStream_t s1 = g.streams[1];
  CHECK(cudaMemcpyAsync(g.a, g.pageable.data(), kAsyncBytes, cudaMemcpyHostToDevice, s1));
  CHECK(cudaMemcpyAsync(g.b, g.pinned, kAsyncBytes, cudaMemcpyHostToDevice, s1));
  CHECK(cudaMemcpyAsync(g.pageable.data(), g.a, kAsyncBytes, cudaMemcpyDeviceToHost, s1));
  CHECK(cudaMemcpyAsync(g.pinned, g.b, kAsyncBytes, cudaMemcpyDeviceToHost, s1));
  CHECK(cudaMemcpyAsync(g.c, g.a, kAsyncBytes, cudaMemcpyDeviceToDevice, s1));
  CHECK(cudaStreamSynchronize(s1));
  nvtxRangePop();
}

void Memsets(Buffers& g) {
  nvtxRangePushA("memsets");
  CHECK(cudaMemset(g.a, 0, kSyncBytes));
  CHECK(cudaMemsetAsync(g.b, 1, kAsyncBytes, g.streams[2]));
  CHECK(cudaStreamSynchronize(g.streams[2]));
  nvtxRangePop();
}

void Teardown(Buffers& g) {
  nvtxRangePushA("teardown");
  CHECK(cudaDeviceSynchronize());
  for (float* device : {g.a, g.b, g.c, g.sums}) CHECK(cudaFree(device));
  CHECK(cudaFreeHost(g.pinned));
  CHECK(cudaEventDestroy(g.filled));
  CHECK(cudaEventDestroy(g.reduced));
  for (cudaStream_t stream : g.streams) CHECK(cudaStreamDestroy(stream));
  nvtxRangePop();
}

}  // namespace

int main() {
  nvtxRangePushA("cuda_streams");
  Buffers g;
  Setup(g);
  Kernels(g);
  Events(g);
  SyncCopies(g);
  AsyncCopies(g);
  Memsets(g);
  Teardown(g);
  nvtxRangePop();
  return 0;
}
