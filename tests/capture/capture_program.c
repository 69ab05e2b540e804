/* A program with known timing and NVTX ranges for the capture-control tests:
 *   capture_program phases       marks "phase0".."phase3" 0.5 s apart, each followed by
 *                                usleep(500 ms), then exits 0
 *   capture_program forever      marks "alive", then sleeps forever
 *   capture_program ranges MS    push/pop range "step" (registered, default domain) three times,
 *                                each holding a mark "inside-N" and a 20 ms usleep; an unregistered
 *                                "step" push/pop holding "unregistered"; a start/end range "epoch"
 *                                (registered) in domain "trainer" holding "in-epoch"; then sleeps
 *                                MS ms, marks "after" and exits 0 */
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void PushRegistered(nvtxDomainHandle_t domain, nvtxStringHandle_t message) {
  nvtxEventAttributes_t attributes = {0};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  attributes.message.registered = message;
  nvtxDomainRangePushEx(domain, &attributes);
}

static int Phases(void) {
  char name[16];
  for (int i = 0; i < 4; ++i) {
    snprintf(name, sizeof(name), "phase%d", i);
    nvtxMarkA(name);
    usleep(500 * 1000);
  }
  return 0;
}

static _Noreturn void Forever(void) {
  nvtxMarkA("alive");
  for (;;) sleep(1);
}

static int Ranges(int linger_ms) {
  nvtxStringHandle_t step = nvtxDomainRegisterStringA(NULL, "step");
  char name[16];
  for (int i = 0; i < 3; ++i) {
    PushRegistered(NULL, step);
    snprintf(name, sizeof(name), "inside-%d", i);
    nvtxMarkA(name);
    usleep(20 * 1000);
    nvtxRangePop();
  }
  nvtxRangePushA("step");
  nvtxMarkA("unregistered");
  nvtxRangePop();

  nvtxDomainHandle_t trainer = nvtxDomainCreateA("trainer");
  nvtxEventAttributes_t epoch = {0};
  epoch.version = NVTX_VERSION;
  epoch.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  epoch.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  epoch.message.registered = nvtxDomainRegisterStringA(trainer, "epoch");
  nvtxRangeId_t id = nvtxDomainRangeStartEx(trainer, &epoch);
  nvtxMarkA("in-epoch");
  nvtxDomainRangeEnd(trainer, id);

  usleep((useconds_t)linger_ms * 1000);
  nvtxMarkA("after");
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 2 && strcmp(argv[1], "phases") == 0) return Phases();
  if (argc >= 2 && strcmp(argv[1], "forever") == 0) Forever();
  if (argc >= 3 && strcmp(argv[1], "ranges") == 0) return Ranges(atoi(argv[2]));
  return 2;
}
