// A program with known functions whose own stack it captures, for symbols_test: inside
// hot_seventy it records its registers (in perf's x86-64 order) and copies its stack, then writes
// them with /proc/self/maps and a few known addresses into the directory named by argv[1], and
// exits. The test resolves and unwinds that capture after the process is gone, as prof does.
// Built twice (with and without frame pointers), -O2.
//
// Call chain at the capture: main -> prof_test::Drive(int) -> plugin_call (dlopened) ->
// hot_seventy.
#include <asm/perf_regs.h>
#include <dlfcn.h>
#include <pthread.h>
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/symbols/symbols_target_api.h"

namespace {

CaptureHeader capture;
uint8_t stack_copy[64 * 1024];
volatile int sink;

// Stores the general-purpose registers, SP and an IP inside the calling function into `out`
// (perf_event_x86_regs order). A macro, so that the IP and SP are the caller's own.
#define PROF_CAPTURE_REGISTERS(out)  \
  asm volatile(                      \
      "movq %%rax, 0(%0)\n\t"        \
      "movq %%rbx, 8(%0)\n\t"        \
      "movq %%rcx, 16(%0)\n\t"       \
      "movq %%rdx, 24(%0)\n\t"       \
      "movq %%rsi, 32(%0)\n\t"       \
      "movq %%rdi, 40(%0)\n\t"       \
      "movq %%rbp, 48(%0)\n\t"       \
      "movq %%rsp, 56(%0)\n\t"       \
      "movq %%r8, 128(%0)\n\t"       \
      "movq %%r9, 136(%0)\n\t"       \
      "movq %%r10, 144(%0)\n\t"      \
      "movq %%r11, 152(%0)\n\t"      \
      "movq %%r12, 160(%0)\n\t"      \
      "movq %%r13, 168(%0)\n\t"      \
      "movq %%r14, 176(%0)\n\t"      \
      "movq %%r15, 184(%0)\n\t"      \
      "1: leaq 1b(%%rip), %%rax\n\t" \
      "movq %%rax, 64(%0)\n\t"       \
      :                              \
      : "r"(out)                     \
      : "rax", "memory")

// The top of the main thread's stack, so the copy never reads past it.
uintptr_t StackTop() {
  pthread_attr_t attr;
  void* base = nullptr;
  size_t size = 0;
  pthread_getattr_np(pthread_self(), &attr);
  pthread_attr_getstack(&attr, &base, &size);
  pthread_attr_destroy(&attr);
  return reinterpret_cast<uintptr_t>(base) + size;
}

// Copies [sp, sp + size) word by word; not through memcpy and not instrumented, since under
// AddressSanitizer the stack holds poisoned red zones that prof's unwinder reads like any byte.
__attribute__((no_sanitize_address)) void CopyStack(uintptr_t sp, size_t size) {
  const volatile uint64_t* from = reinterpret_cast<const volatile uint64_t*>(sp);
  for (size_t i = 0; i < size / 8; ++i) {
    uint64_t word = from[i];
    std::memcpy(stack_copy + i * 8, &word, 8);
  }
  capture.stack_size = size / 8 * 8;
}

}  // namespace

extern "C" PROF_TEST_NOINLINE int hot_thirty(int rounds) {
  int total = 0;
  for (int i = 0; i < rounds; ++i) total += i * 7 + sink;
  return total;
}

extern "C" PROF_TEST_NOINLINE int hot_seventy(int rounds) {
  int total = 0;
  for (int i = 0; i < rounds; ++i) total += i * 3 + sink;
  PROF_CAPTURE_REGISTERS(capture.registers);
  uintptr_t sp = capture.registers[PERF_REG_X86_SP];
  size_t size = StackTop() - sp;
  if (size > sizeof(stack_copy)) size = sizeof(stack_copy);
  CopyStack(sp, size);
  return total + 1;
}

namespace prof_test {

PROF_TEST_NOINLINE int Drive(int rounds) {
  void* plugin = dlopen(PROF_SYMBOLS_PLUGIN, RTLD_NOW);
  if (plugin == nullptr) std::abort();
  auto call = reinterpret_cast<decltype(&plugin_call)>(dlsym(plugin, "plugin_call"));
  int result = call(hot_seventy, rounds);
  return result + hot_thirty(rounds) + 2;
}

}  // namespace prof_test

namespace {

// Copies the plugin to `copy` and loads the copy, returning its plugin_call.
void* LoadCopy(const std::string& copy) {
  std::ifstream in(PROF_SYMBOLS_PLUGIN, std::ios::binary);
  std::ofstream(copy, std::ios::binary) << in.rdbuf();
  void* library = dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) std::abort();
  return dlsym(library, "plugin_call");
}

void WriteFile(const std::string& path, const void* data, size_t size) {
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr || std::fwrite(data, 1, size, file) != size) std::abort();
  std::fclose(file);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  std::string dir = argv[1];
  std::memcpy(capture.magic, "PROFCAP1", 8);
  int result = prof_test::Drive(1000);

  // A file that is deleted while mapped, and one the test replaces after the program exits.
  void* doomed = LoadCopy(dir + "/doomed.so");
  std::remove((dir + "/doomed.so").c_str());
  void* replaced = LoadCopy(dir + "/replaced.so");
  void* anonymous =
      mmap(nullptr, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  std::string addresses;
  char line[128];
  const std::pair<const char*, const void*> known[] = {
      {"hot_thirty", reinterpret_cast<const void*>(&hot_thirty)},
      {"drive", reinterpret_cast<const void*>(&prof_test::Drive)},
      {"doomed", doomed},
      {"replaced", replaced},
      {"anonymous", anonymous}};
  for (const auto& [name, address] : known) {
    std::snprintf(line, sizeof(line), "%s %p\n", name, address);
    addresses += line;
  }
  WriteFile(dir + "/addresses.txt", addresses.data(), addresses.size());
  std::ifstream maps("/proc/self/maps");
  std::string maps_text((std::istreambuf_iterator<char>(maps)), std::istreambuf_iterator<char>());
  WriteFile(dir + "/maps.txt", maps_text.data(), maps_text.size());
  std::string bytes(reinterpret_cast<const char*>(&capture), sizeof(capture));
  bytes.append(reinterpret_cast<const char*>(stack_copy), capture.stack_size);
  WriteFile(dir + "/capture.bin", bytes.data(), bytes.size());
  return result == 0 ? 1 : 0;
}
