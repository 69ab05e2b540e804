// Which CUDA API calls libprof_cuda.so records, by CUPTI's callback names.
#include "injection/cuda/api_selection.h"

#include <catch2/catch.hpp>

using prof::injection::cuda::BaseApiName;
using prof::injection::cuda::IsRecordedDriverApi;
using prof::injection::cuda::IsRecordedRuntimeApi;
using prof::injection::cuda::LaunchRoleOf;
using prof::injection::cuda::TracksNestingOnly;
using prof::protocol::CudaLaunchRole;

TEST_CASE("the version suffix is stripped from CUPTI's names") {
  CHECK(BaseApiName("cudaMemcpyAsync_v3020") == "cudaMemcpyAsync");
  CHECK(BaseApiName("cudaStreamIsCapturing_v10000") == "cudaStreamIsCapturing");
  CHECK(BaseApiName("cuGetProcAddress_v2") == "cuGetProcAddress");
  CHECK(BaseApiName("cuLaunchKernel") == "cuLaunchKernel");
  CHECK(BaseApiName("cudaMemcpyAsync_ptsz_v7000") == "cudaMemcpyAsync_ptsz");
  CHECK(BaseApiName("cuMemcpy_v_x") == "cuMemcpy_v_x");  // not digits: not a version
  CHECK(BaseApiName("_v2") == "_v2");
}

TEST_CASE("the calls nsys records in a PyTorch program are recorded") {
  // Every name in the CUPTI_ACTIVITY_KIND_RUNTIME table of tests/data/nsys-torch_mix/torch_mix.sqlite.
  for (const char* name : {"cudaLaunchKernel_v7000",
                           "cudaStreamIsCapturing_v10000",
                           "cudaStreamCreateWithPriority_v5050",
                           "cudaMemcpyAsync_v3020",
                           "cudaStreamSynchronize_v3020",
                           "cudaMemsetAsync_v3020",
                           "cudaEventCreateWithFlags_v3020",
                           "cudaOccupancyMaxActiveClusters_v11070",
                           "cudaEventRecordWithFlags_v11010",
                           "cudaStreamWaitEvent_v3020",
                           "cudaLaunchKernelExC_v11060",
                           "cudaEventDestroy_v3020",
                           "cudaMalloc_v3020",
                           "cudaGetDriverEntryPointByVersion_v12050",
                           "cudaOccupancyAvailableDynamicSMemPerBlock_v10200",
                           "cudaHostAlloc_v3020",
                           "cudaGetDeviceProperties_v12000",
                           "cudaStreamDestroy_v5050",
                           "cudaStreamCreate_v3020",
                           "cudaFree_v3020",
                           "cudaDeviceSynchronize_v3020",
                           "cudaMemcpyAsync_ptsz_v7000"}) {
    INFO(name);
    CHECK(IsRecordedRuntimeApi(name));
  }
  for (const char* name :
       {"cuGetProcAddress_v2", "cuKernelGetName", "cuLibraryLoadData", "cuLibraryGetKernel",
        "cuInit", "cuModuleGetLoadingMode", "cuLaunchKernel", "cuKernelGetFunction"}) {
    INFO(name);
    CHECK(IsRecordedDriverApi(name));
  }
}

TEST_CASE("trivial queries are not recorded - in every variant") {
  for (const char* name : {"cudaGetDevice_v3020", "cudaGetLastError_v3020",
                           "cudaPeekAtLastError_v3020", "cudaGetDeviceCount_v3020",
                           "cudaDeviceGetAttribute_v5000", "cudaStreamGetPriority_ptsz_v7000",
                           "cudaFuncSetAttribute_v9000", "cudaDeviceGetStreamPriorityRange_v5050",
                           "cudaStreamQuery_v3020", "cudaStreamQuery_ptsz_v7000", ""}) {
    INFO(name);
    CHECK_FALSE(IsRecordedRuntimeApi(name));
  }
  for (const char* name :
       {"cuCtxGetCurrent", "cuDeviceGetAttribute", "cuDevicePrimaryCtxGetState",
        "cuPointerGetAttribute", "cuStreamGetPriority_ptsz", "cuCtxPushCurrent_v2",
        "cuDeviceTotalMem_v2", "cuCtxGetLimit", "cuStreamQuery", "cuStreamQuery_ptsz", ""}) {
    INFO(name);
    CHECK_FALSE(IsRecordedDriverApi(name));
  }
}

TEST_CASE("unrecorded runtime calls that load modules keep their nesting, hot queries do not") {
  for (const char* name : {"cudaFuncGetAttributes_v3020", "cudaFuncSetAttribute_v9000",
                           "cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6000"}) {
    INFO(name);
    CHECK_FALSE(IsRecordedRuntimeApi(name));
    CHECK(TracksNestingOnly(name));
  }
  for (const char* name :
       {"cudaGetDevice_v3020", "cudaGetLastError_v3020", "cudaLaunchKernel_v7000", ""}) {
    INFO(name);
    CHECK_FALSE(TracksNestingOnly(name));
  }
}

TEST_CASE("the functions that launch one kernel, and the stream capture pair, in every variant") {
  for (const char* name :
       {"cudaLaunchKernel_v7000", "cudaLaunchKernel_ptsz_v7000", "cudaLaunchKernelExC_v11060",
        "cudaLaunchCooperativeKernel_v9000", "cuLaunchKernel", "cuLaunchKernel_ptsz",
        "cuLaunchKernelEx", "cuLaunchCooperativeKernel_ptsz", "cuLaunchGrid"}) {
    INFO(name);
    CHECK(LaunchRoleOf(name) == CudaLaunchRole::kLaunchesKernel);
  }
  for (const char* name : {"cudaGraphLaunch_v10000", "cudaLaunchHostFunc_v10000", "cuGraphLaunch",
                           "cudaMemcpyAsync_v3020", "cuLaunchHostFunc", ""}) {
    INFO(name);
    CHECK(LaunchRoleOf(name) == CudaLaunchRole::kNone);
  }
  CHECK(LaunchRoleOf("cudaStreamBeginCapture_ptsz_v10000") == CudaLaunchRole::kBeginsStreamCapture);
  CHECK(LaunchRoleOf("cuStreamBeginCapture_v2") == CudaLaunchRole::kBeginsStreamCapture);
  CHECK(LaunchRoleOf("cudaStreamEndCapture_v10000") == CudaLaunchRole::kEndsStreamCapture);
  CHECK(LaunchRoleOf("cuStreamEndCapture_ptsz") == CudaLaunchRole::kEndsStreamCapture);
}
