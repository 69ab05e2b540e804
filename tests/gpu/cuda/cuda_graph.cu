// GPU test program: a CUDA graph of 1 memset + 4 kernels captured on a stream, instantiated once and
// launched 5 times, after one ordinary launch of the same kernel.
// tests/gpu/check_cuda_report.py (program "cuda_graph") asserts exactly what a trace must show:
//
// NVTX push/pop ranges, 1 each, nested in "cuda_graph": warmup, capture, instantiate, launch, teardown
// Graph-level tracing (nsys's default, --cuda-graph-trace=graph):
//   KERNEL: step_kernel x1 (graphNodeId NULL, grid 4 block 256) in "warmup"
//   GRAPH_TRACE: 5 rows, all of one graphExecId, each correlated to a cudaGraphLaunch, in "launch"
//   MEMSET: none
// Node-level tracing (--cuda-graph-trace=node):
//   KERNEL: step_kernel x21: 1 in "warmup" (graphNodeId NULL), 20 in "launch" with graphNodeId
//     set, 4 distinct graphNodeIds
//   MEMSET: 5 of 4096 B value 0 in "launch", graphNodeId set, 1 distinct graphNodeId
//   GRAPH_TRACE: none
// Graph-level: the kernel and the graph launches are on the one created stream (node-level: not
// asserted, CUPTI may report graph nodes on the streams the graph runs them on).
// SYNCHRONIZATION: cudaStreamSynchronize 2
// RUNTIME calls: cudaStreamCreate 1, cudaMalloc 1, cudaLaunchKernel 5 (4 of them captured, with no
//   GPU work of their own), cudaMemsetAsync 1 (captured), cudaStreamBeginCapture 1,
//   cudaStreamEndCapture 1, cudaGraphInstantiateWithFlags 1, cudaGraphLaunch 5,
//   cudaStreamSynchronize 2, cudaGraphExecDestroy 1, cudaGraphDestroy 1, cudaFree 1,
//   cudaStreamDestroy 1
#include <nvtx3/nvToolsExt.h>

#include "cuda_check.h"

namespace {

constexpr int kElements = 1024;
constexpr int kBlock = 256;
constexpr int kGrid = kElements / kBlock;
constexpr int kGraphKernels = 4;
constexpr int kGraphLaunches = 5;

}  // namespace

// Kernels at global scope, so their names are plain in KERNEL.shortName and demangledName.
__global__ void step_kernel(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * 0.5f + 1.0f;
}

namespace {

cudaGraph_t Capture(cudaStream_t stream, float* data) {
  nvtxRangePushA("capture");
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemsetAsync(data, 0, kElements * sizeof(float), stream));
  for (int i = 0; i < kGraphKernels; ++i)
    step_kernel<<<kGrid, kBlock, 0, stream>>>(data, kElements);
  CHECK(cudaStreamEndCapture(stream, &graph));
  nvtxRangePop();
  return graph;
}

}  // namespace

int main() {
  nvtxRangePushA("cuda_graph");
  cudaStream_t stream;
  float* data;
  nvtxRangePushA("warmup");
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaMalloc(&data, kElements * sizeof(float)));
  step_kernel<<<kGrid, kBlock, 0, stream>>>(data, kElements);
  CHECK(cudaStreamSynchronize(stream));
  nvtxRangePop();

  cudaGraph_t graph = Capture(stream, data);
  nvtxRangePushA("instantiate");
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiateWithFlags(&exec, graph, 0));
  nvtxRangePop();

  nvtxRangePushA("launch");
  for (int i = 0; i < kGraphLaunches; ++i) CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  nvtxRangePop();

  nvtxRangePushA("teardown");
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFree(data));
  CHECK(cudaStreamDestroy(stream));
  nvtxRangePop();
  nvtxRangePop();
  return 0;
}
