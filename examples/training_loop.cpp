// A CPU-only stand-in for a training loop, bundled so that `prof profile --stats=true` has something
// realistic to show on any machine: a loader thread prepares batches (file reads, sleeps) while the
// main thread waits for them and "trains" inside NVTX ranges, as the seed tutorial's PyTorch loops do.
//
//   training_loop [steps] [work]   (default 20 steps; work 1)
//
// `work` multiplies the compute of each step's forward and backward ranges: `training_loop 20 3`
// stands in for a build that made them 3x slower, for trying `prof diff` (docs/diff.md).
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

namespace {

std::mutex queue_mutex;
std::condition_variable batch_ready;
std::deque<int> batches;

// The "DataLoader": reading and decoding is slower than a step, so the main thread waits on it.
void LoadBatches(int steps) {
  pthread_setname_np(pthread_self(), "loader");
  for (int i = 0; i < steps; ++i) {
    nvtxRangePushA("load_batch");
    if (FILE* file = std::fopen("/proc/self/status", "r")) {
      char line[256];
      while (std::fgets(line, sizeof(line), file) != nullptr) {
      }
      std::fclose(file);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(3));  // decoding
    nvtxRangePop();
    {
      std::lock_guard<std::mutex> lock(queue_mutex);
      batches.push_back(i);
    }
    batch_ready.notify_one();
  }
}

// Busy CPU work standing in for kernels.
double Compute(int iterations) {
  double sum = 0;
  for (int i = 1; i <= iterations; ++i) sum += 1.0 / i;
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 20;
  const int work = argc > 2 ? std::atoi(argv[2]) : 1;
  nvtxRangePushA("setup");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  nvtxRangePop();
  std::thread loader(LoadBatches, steps);
  double loss = 0;
  for (int step = 0; step < steps; ++step) {
    nvtxRangePushA("step");
    {
      std::unique_lock<std::mutex> lock(queue_mutex);
      batch_ready.wait(lock, [] { return !batches.empty(); });
      batches.pop_front();
    }
    nvtxRangePushA("forward");
    loss += Compute(work * 200000);
    nvtxRangePop();
    nvtxRangePushA("backward");
    loss += Compute(work * 400000);
    nvtxRangePop();
    nvtxMarkA("optimizer_step");
    nvtxRangePop();
  }
  loader.join();
  std::printf("trained %d steps, loss %.3f\n", steps, loss);
  return 0;
}
