// End-to-end subject standing in for cuBLAS and cuDNN: it annotates "library calls" in NVTX domains
// named "cuBLAS" and "cuDNN" the way those libraries do once their *_NVTX_LEVEL variable is set,
// inside a range of the default domain, and prints what prof set in its environment.
#include <nvtx3/nvToolsExt.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>

namespace {

nvtxEventAttributes_t Message(nvtxStringHandle_t registered, const char* ascii) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  if (registered != nullptr) {
    attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    attributes.message.registered = registered;
  } else {
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = ascii;
  }
  return attributes;
}

void PrintVariable(const char* name) {
  const char* value = std::getenv(name);
  std::printf("env %s %s\n", name, value != nullptr ? value : "unset");
}

}  // namespace

int main() {
  std::printf("tid main %ld\n", syscall(SYS_gettid));
  for (const char* name : {"CUBLAS_NVTX_LEVEL", "CUBLASLT_NVTX_LEVEL", "CUDNN_NVTX_LEVEL"}) {
    PrintVariable(name);
  }
  const nvtxDomainHandle_t cublas = nvtxDomainCreateA("cuBLAS");
  const nvtxDomainHandle_t cudnn = nvtxDomainCreateA("cuDNN");
  const nvtxStringHandle_t matmul = nvtxDomainRegisterStringA(cublas, "cublasLtSSSMatmul");

  nvtxRangePushA("step");
  for (int i = 0; i < 3; ++i) {
    const nvtxEventAttributes_t call = Message(matmul, nullptr);
    nvtxDomainRangePushEx(cublas, &call);
    usleep(1000);
    nvtxDomainRangePop(cublas);
  }
  const nvtxEventAttributes_t mark = Message(nullptr, "not a call");
  nvtxDomainMarkEx(cublas, &mark);
  for (int i = 0; i < 2; ++i) {
    const nvtxEventAttributes_t call = Message(nullptr, "cudnnBackendExecute");
    nvtxDomainRangePushEx(cudnn, &call);
    nvtxDomainRangePop(cudnn);
  }
  nvtxRangePop();
  const nvtxEventAttributes_t open = Message(nullptr, "cublasDestroy_v2");
  nvtxDomainRangePushEx(cublas, &open);  // still open at exit: not a finished call
  return 0;
}
