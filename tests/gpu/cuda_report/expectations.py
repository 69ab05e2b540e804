"""What a correct trace of each program in tests/gpu/cuda/ holds, exactly (the header comment of
each .cu file says the same in words). `expected(program, graph_trace)` returns a dict:

  nvtx_ranges   {range text: count} of push/pop ranges
  kernel_shapes {(short name, grid, block, static shared B, dynamic shared B): count}
  copies        {(copyKind, srcKind, dstKind, bytes): count}
  memsets       {(value, bytes): count}
  graph_launches  GRAPH_TRACE rows; graph_execs: distinct graphExecIds (None: not asserted)
  graph_nodes   {table: (operations with graphNodeId set, distinct graphNodeIds)}
  syncs         {API base name: SYNCHRONIZATION rows}; syncs_unasserted: API names only reported
  events        {API base name: CUDA_EVENT rows}
  api           {API base name: RUNTIME rows}; other names are only reported
  ops           {(innermost NVTX range, label, base name of the launching API): count}
  stream_groups lists of labels that share one stream, each group on its own (None: not asserted)
  op_streams    distinct streamIds over all GPU operations (None: not asserted)
  thread_groups lists of labels launched from one thread, each group from its own
  api_threads   distinct threads that launched GPU operations

To add a program: a function returning this dict, registered in PROGRAMS.
"""
from report import NO_CALL, copy_label

COPY_TYPES = [(1, 0, 2), (1, 1, 2), (2, 2, 0), (2, 2, 1), (8, 2, 2)]  # HtoD pageable/pinned, DtoH, DtoD


def _copies(size):
    return {(*kind, size): 1 for kind in COPY_TYPES}


def _copy_labels(size):
    return [copy_label(*kind, size) for kind in COPY_TYPES]


def _ranges(*names):
    return {name: 1 for name in names}


def cuda_streams(graph_trace):
    ops = {("kernels", "fill_kernel", "cudaLaunchKernel"): 4,
           ("kernels", "scale_kernel", "cudaLaunchKernel"): 3,
           ("events", "reduce_kernel", "cudaLaunchKernel"): 2,
           ("memsets", "memset 16384B", "cudaMemset"): 1,
           ("memsets", "memset 8192B", "cudaMemsetAsync"): 1}
    ops.update({("sync-copies", label, "cudaMemcpy"): 1 for label in _copy_labels(16384)})
    ops.update({("async-copies", label, "cudaMemcpyAsync"): 1 for label in _copy_labels(8192)})
    return {
        "nvtx_ranges": _ranges("cuda_streams", "setup", "kernels", "events", "sync-copies", "async-copies",
                               "memsets", "teardown"),
        "kernel_shapes": {("fill_kernel", (16, 1, 1), (256, 1, 1), 0, 0): 4,
                          ("scale_kernel", (16, 1, 1), (256, 1, 1), 1024, 0): 3,
                          ("reduce_kernel", (8, 1, 1), (128, 1, 1), 0, 512): 2},
        "copies": {**_copies(16384), **_copies(8192)},
        "memsets": {(0, 16384): 1, (1, 8192): 1},
        "graph_launches": 0, "graph_execs": None,
        "graph_nodes": {"KERNEL": (0, 0), "MEMCPY": (0, 0), "MEMSET": (0, 0)},
        # cudaStreamQuery's row names no RUNTIME call: nsys writes the sync row, not the call.
        "syncs": {"cudaStreamWaitEvent": 1, "cudaEventSynchronize": 1, "cudaEventQuery": 1,
                  NO_CALL: 1, "cudaStreamSynchronize": 2},
        "events": {"cudaEventRecord": 2},
        "syncs_unasserted": ["cudaDeviceSynchronize"],
        "api": {"cudaStreamCreate": 3, "cudaMalloc": 4, "cudaHostAlloc": 1, "cudaEventCreate": 2,
                "cudaLaunchKernel": 9, "cudaEventRecord": 2, "cudaStreamWaitEvent": 1,
                "cudaEventSynchronize": 1, "cudaEventQuery": 1, "cudaMemcpy": 5, "cudaMemcpyAsync": 5, "cudaStreamSynchronize": 2,
                "cudaMemset": 1, "cudaMemsetAsync": 1, "cudaDeviceSynchronize": 1, "cudaFree": 4,
                "cudaFreeHost": 1, "cudaEventDestroy": 2, "cudaStreamDestroy": 3},
        "ops": ops,
        "stream_groups": [["fill_kernel"], ["scale_kernel", *_copy_labels(8192)],
                          ["reduce_kernel", "memset 8192B"], [*_copy_labels(16384), "memset 16384B"]],
        "op_streams": 4,
        "thread_groups": [["fill_kernel", "scale_kernel", "reduce_kernel"]],
        "api_threads": 1,
    }


def cuda_graph(graph_trace):
    node_level = graph_trace == "node"
    ops = {("warmup", "step_kernel", "cudaLaunchKernel"): 1}
    if node_level:
        ops.update({("launch", "step_kernel", "cudaGraphLaunch"): 20,
                    ("launch", "memset 4096B", "cudaGraphLaunch"): 5})
    else:
        ops[("launch", "graph launch", "cudaGraphLaunch")] = 5
    return {
        "nvtx_ranges": _ranges("cuda_graph", "warmup", "capture", "instantiate", "launch", "teardown"),
        "kernel_shapes": {("step_kernel", (4, 1, 1), (256, 1, 1), 0, 0): 21 if node_level else 1},
        "copies": {},
        "memsets": {(0, 4096): 5} if node_level else {},
        "graph_launches": 0 if node_level else 5,
        "graph_execs": None if node_level else 1,
        "graph_nodes": {"KERNEL": (20, 4) if node_level else (0, 0), "MEMCPY": (0, 0),
                        "MEMSET": (5, 1) if node_level else (0, 0)},
        "syncs": {"cudaStreamSynchronize": 2},
        "syncs_unasserted": [],
        "events": {},
        "api": {"cudaStreamCreate": 1, "cudaMalloc": 1, "cudaLaunchKernel": 5, "cudaMemsetAsync": 1,
                "cudaStreamBeginCapture": 1, "cudaStreamEndCapture": 1, "cudaGraphInstantiateWithFlags": 1,
                "cudaGraphLaunch": 5, "cudaStreamSynchronize": 2, "cudaGraphExecDestroy": 1,
                "cudaGraphDestroy": 1, "cudaFree": 1, "cudaStreamDestroy": 1},
        "ops": ops,
        "stream_groups": None if node_level else [["step_kernel", "graph launch"]],
        "op_streams": None if node_level else 1,
        "thread_groups": [["step_kernel", "memset 4096B", "graph launch"]],
        "api_threads": 1,
    }


def cuda_threads(graph_trace):
    return {
        "nvtx_ranges": _ranges("main-work", "worker-work"),
        "kernel_shapes": {("main_kernel", (2, 1, 1), (128, 1, 1), 0, 0): 3,
                          ("worker_kernel", (2, 1, 1), (128, 1, 1), 0, 0): 5},
        "copies": {}, "memsets": {},
        "graph_launches": 0, "graph_execs": None,
        "graph_nodes": {"KERNEL": (0, 0), "MEMCPY": (0, 0), "MEMSET": (0, 0)},
        "syncs": {"cudaStreamSynchronize": 2},
        "syncs_unasserted": [],
        "events": {},
        "api": {"cudaStreamCreate": 2, "cudaMalloc": 2, "cudaLaunchKernel": 8, "cudaStreamSynchronize": 2},
        "ops": {("main-work", "main_kernel", "cudaLaunchKernel"): 3,
                ("worker-work", "worker_kernel", "cudaLaunchKernel"): 5},
        "stream_groups": [["main_kernel"], ["worker_kernel"]],
        "op_streams": 2,
        "thread_groups": [["main_kernel"], ["worker_kernel"]],
        "api_threads": 2,
    }


PROGRAMS = {"cuda_streams": cuda_streams, "cuda_graph": cuda_graph, "cuda_threads": cuda_threads}


def expected(program, graph_trace="graph"):
    return PROGRAMS[program](graph_trace)
