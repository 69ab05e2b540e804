// End-to-end subject: start/end ranges ended on the starting thread and on other threads, and
// ranges still open at exit. Prints "tid <role> <kernel tid>" for the test.
#include <nvtx3/nvToolsExt.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

namespace {

uint32_t ThisTid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

}  // namespace

int main() {
  std::printf("tid main %u\n", ThisTid());
  const nvtxRangeId_t crossing = nvtxRangeStartA("ended-by-ender");
  std::thread ender([crossing] {
    std::printf("tid ender %u\n", ThisTid());
    usleep(500);
    nvtxRangeEnd(crossing);
  });
  ender.join();

  const nvtxRangeId_t local = nvtxRangeStartA("same-thread");
  usleep(200);
  nvtxRangeEnd(local);

  nvtxRangeId_t from_starter = 0;
  std::thread starter([&from_starter] {
    std::printf("tid starter %u\n", ThisTid());
    from_starter = nvtxRangeStartA("started-by-starter");
  });
  starter.join();
  usleep(200);
  nvtxRangeEnd(from_starter);

  nvtxRangeStartA("left-open");
  nvtxRangePushA("left-pushed");
  std::fflush(stdout);
  return 0;
}
