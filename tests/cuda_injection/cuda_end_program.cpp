// A "CUDA program" on the CUPTI test double (cupti_double.cpp): it loads prof's CUDA injection the
// way the CUDA driver does (CUDA_INJECTION64_PATH, InitializeInjection inside the first cuInit),
// launches kernels, and ends the way the mode says, so that cuda_end_test can count which kernel
// records reached the report.
//
//   cuda_end_program MODE LAUNCHES [EXTRA]
//   exit       exit(0)                      _exit      _exit(3)
//   sigterm    raise(SIGTERM)               segv       a write through a null pointer (raise
//                                                      under the sanitizers)
//   abort      abort()                      exec       execv("/bin/true")
//   sigkill    waits 3 flush periods, then SIGKILL
//   lose       EXTRA more launches whose kernels never run, then exit(0)
//   capture    EXTRA launches while capturing a stream (they run nothing), then exit(0)
//   fork       a fork child launches EXTRA kernels and _exits; the parent waits, then _exit(3)
//   handler    its own SIGTERM handler (_exit(5)), then raise(SIGTERM)
//   asks       exits 0 when sigaction and signal report SIG_DFL for SIGTERM after CUDA started,
//              and SIGTERM set to SIG_DFL again still flushes; 1 otherwise
//   threads    EXTRA threads launch LAUNCHES kernels each, then _exit(3)
//   nesting    before each launch a cudaFuncGetAttributes that loads a module (cuLibraryLoadData
//              and cuKernelGetFunction nested in it), then EXTRA direct cuKernelGetFunction calls,
//              then exit(0)
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" void cupti_double_launch(const char* name, int runs);
extern "C" void cupti_double_capture(int begin);
extern "C" void cupti_double_func_attributes();
extern "C" void cupti_double_kernel_get_function();

namespace {

// What the CUDA driver does inside the first cuInit.
void InitializeCuda() {
  const char* injection = std::getenv("CUDA_INJECTION64_PATH");
  if (injection == nullptr) return;
  void* library = dlopen(injection, RTLD_NOW);
  auto* initialize = library != nullptr
                         ? reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection"))
                         : nullptr;
  if (initialize == nullptr) {
    std::fprintf(stderr, "cannot load %s: %s\n", injection, dlerror());
    std::exit(2);
  }
  initialize();
}

void Launch(int count, int runs = 1) {
  for (int i = 0; i < count; ++i) cupti_double_launch("fill_kernel", runs);
}

void SleepMs(long ms) {
  const timespec pause{ms / 1000, (ms % 1000) * 1'000'000};
  nanosleep(&pause, nullptr);
}

void OnTerm(int) { _exit(5); }

void* LaunchFromThread(void* count) {
  Launch(*static_cast<int*>(count));
  return nullptr;
}

bool ReportsDefault(int signal_number) {
  struct sigaction current {};
  if (sigaction(signal_number, nullptr, &current) != 0) return false;
  if (current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO) != 0) return false;
  const sighandler_t previous = signal(signal_number, SIG_DFL);  // sets the default again
  return previous == SIG_DFL;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: cuda_end_program MODE LAUNCHES [EXTRA]\n");
    return 2;
  }
  const std::string mode = argv[1];
  int launches = std::atoi(argv[2]);
  const int extra = argc > 3 ? std::atoi(argv[3]) : 0;
  InitializeCuda();
  if (mode == "threads") {
    std::vector<pthread_t> threads(static_cast<size_t>(extra));
    for (pthread_t& thread : threads) pthread_create(&thread, nullptr, LaunchFromThread, &launches);
    for (pthread_t& thread : threads) pthread_join(thread, nullptr);
    _exit(3);
  }
  if (mode == "nesting") {
    for (int i = 0; i < launches; ++i) {
      cupti_double_func_attributes();
      cupti_double_launch("fill_kernel", 1);
    }
    for (int i = 0; i < extra; ++i) cupti_double_kernel_get_function();
    return 0;
  }
  if (mode == "handler") signal(SIGTERM, OnTerm);
  Launch(launches);
  if (mode == "exit") return 0;
  if (mode == "_exit") _exit(3);
  if (mode == "sigterm" || mode == "handler") raise(SIGTERM);
  if (mode == "segv") {
#if defined(__SANITIZE_ADDRESS__)
    raise(SIGSEGV);  // UBSan would report a store through a null pointer and exit(1) first
#else
    *static_cast<volatile int*>(nullptr) = 1;
#endif
  }
  if (mode == "abort") abort();
  if (mode == "exec") {
    char* const arguments[] = {const_cast<char*>("/bin/true"), nullptr};
    execv("/bin/true", arguments);
    return 4;
  }
  if (mode == "sigkill") {
    SleepMs(600);
    kill(getpid(), SIGKILL);
  }
  if (mode == "lose") {
    Launch(extra, 0);
    return 0;
  }
  if (mode == "capture") {
    cupti_double_capture(1);
    Launch(extra, 0);
    cupti_double_capture(0);
    return 0;
  }
  if (mode == "fork") {
    const pid_t child = fork();
    if (child == 0) {
      Launch(extra);
      _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    _exit(3);
  }
  if (mode == "asks") {
    if (!ReportsDefault(SIGTERM)) return 1;
    raise(SIGTERM);
  }
  std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
  return 2;
}
