// End-to-end subject: named domains (A and W), registered strings, category names, marks, ARGB
// colours, every payload type, wide messages and a destroyed domain. Prints "tid main <tid>" and
// the push/pop return values for the test.
#include <nvtx3/nvToolsExt.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>

namespace {

nvtxEventAttributes_t Attributes() {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  return attributes;
}

nvtxEventAttributes_t Registered(nvtxStringHandle_t string) {
  nvtxEventAttributes_t attributes = Attributes();
  attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  attributes.message.registered = string;
  return attributes;
}

nvtxEventAttributes_t Ascii(const char* message) {
  nvtxEventAttributes_t attributes = Attributes();
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message;
  return attributes;
}

}  // namespace

int main() {
  std::printf("tid main %ld\n", syscall(SYS_gettid));
  const nvtxDomainHandle_t net = nvtxDomainCreateA("net");
  const nvtxDomainHandle_t disk = nvtxDomainCreateW(L"disk");
  const nvtxStringHandle_t send = nvtxDomainRegisterStringA(net, "send");
  const nvtxStringHandle_t read = nvtxDomainRegisterStringW(disk, L"read");
  nvtxDomainNameCategoryA(net, 1, "io");
  nvtxDomainNameCategoryW(disk, 2, L"storage");
  nvtxNameCategoryA(3, "compute");

  nvtxEventAttributes_t attributes = Registered(send);
  attributes.colorType = NVTX_COLOR_ARGB;
  attributes.color = 0xFF112233u;
  attributes.category = 1;
  attributes.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
  attributes.payload.ullValue = 123;
  std::printf("push %d\n", nvtxDomainRangePushEx(net, &attributes));
  std::printf("pop %d\n", nvtxDomainRangePop(net));

  attributes = Registered(read);
  attributes.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
  attributes.payload.dValue = 0.5;
  nvtxDomainMarkEx(disk, &attributes);

  attributes = Ascii("int64 mark");
  attributes.payloadType = NVTX_PAYLOAD_TYPE_INT64;
  attributes.payload.llValue = -9;
  nvtxMarkEx(&attributes);
  attributes = Ascii("uint32 mark");
  attributes.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT32;
  attributes.payload.uiValue = 4000000000u;
  nvtxMarkEx(&attributes);
  attributes = Ascii("int32 mark");
  attributes.payloadType = NVTX_PAYLOAD_TYPE_INT32;
  attributes.payload.iValue = -7;
  attributes.category = 3;
  nvtxMarkEx(&attributes);
  attributes = Ascii("float mark");
  attributes.payloadType = NVTX_PAYLOAD_TYPE_FLOAT;
  attributes.payload.fValue = 1.5f;
  nvtxMarkEx(&attributes);

  attributes = Ascii("disk op");
  attributes.category = 2;
  const nvtxRangeId_t disk_op = nvtxDomainRangeStartEx(disk, &attributes);
  nvtxDomainRangeEnd(disk, disk_op);

  nvtxRangePushW(L"wide \u00fcnic\u00f8de \u20ac");
  nvtxRangePop();
  nvtxMarkA("plain mark");
  nvtxDomainDestroy(disk);
  std::fflush(stdout);
  return 0;
}
