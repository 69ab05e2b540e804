// End-to-end subject: nested push/pop ranges on the main thread and three workers, each thread
// named through nvtxNameOsThreadA. Prints "tid <name> <kernel tid>" per thread for the test.
#include <nvtx3/nvToolsExt.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kWorkers = 3;
constexpr int kIterations = 4;

uint32_t ThisTid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

void NameThisThread(const std::string& name) {
  nvtxNameOsThreadA(ThisTid(), name.c_str());
  std::printf("tid %s %u\n", name.c_str(), ThisTid());
}

void Worker(int index) {
  const std::string name = "worker-" + std::to_string(index);
  NameThisThread(name);
  for (int i = 0; i < kIterations; ++i) {
    nvtxRangePushA((name + "-iteration").c_str());
    nvtxRangePushA((name + "-inner").c_str());
    usleep(200);
    nvtxRangePop();
    nvtxRangePop();
  }
}

}  // namespace

int main() {
  NameThisThread("nvtx-main");
  nvtxRangePushA("main-outer");
  std::vector<std::thread> workers;
  for (int i = 0; i < kWorkers; ++i) workers.emplace_back(Worker, i);
  for (std::thread& worker : workers) worker.join();
  nvtxRangePop();
  std::fflush(stdout);
  return 0;
}
