#include "injection/nvtx/nvtx_handles.h"

#include <pthread.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace prof::injection::nvtx {
namespace {

std::atomic<uint64_t> g_next_domain_id{1};
std::atomic<uint64_t> g_next_string_id{1};
std::atomic<uint64_t> g_next_range_id{1};
std::atomic<uint64_t> g_fork_generation{0};
pthread_once_t g_fork_handler_once = PTHREAD_ONCE_INIT;

void OnForkChild() { g_fork_generation.fetch_add(1, std::memory_order_relaxed); }

void RegisterForkHandler() { pthread_atfork(nullptr, nullptr, OnForkChild); }

// One allocation holding a `Handle` followed by `length` bytes of text; nullptr when out of memory.
template <typename Handle>
Handle* AllocateWithText(const char* text, size_t length, const char** stored_text) {
  void* memory = std::malloc(sizeof(Handle) + length);
  if (memory == nullptr) return nullptr;
  char* copy = static_cast<char*>(memory) + sizeof(Handle);
  if (length > 0) std::memcpy(copy, text, length);
  *stored_text = copy;
  return static_cast<Handle*>(memory);
}

}  // namespace

DomainHandle* NewDomainHandle(const char* name, size_t length) {
  const char* stored = nullptr;
  DomainHandle* memory = AllocateWithText<DomainHandle>(name, length, &stored);
  if (memory == nullptr) return nullptr;
  auto* domain = new (memory) DomainHandle;
  domain->id = g_next_domain_id.fetch_add(1, std::memory_order_relaxed);
  domain->announced_generation.store(g_fork_generation.load(std::memory_order_relaxed),
                                     std::memory_order_relaxed);
  domain->name = stored;
  domain->name_length = static_cast<uint32_t>(length);
  domain->library = protocol::NvtxLibrary::kNone;
  domain->recorded = false;
  return domain;
}

StringHandle* NewStringHandle(uint64_t domain_id, const char* text, size_t length) {
  const char* stored = nullptr;
  StringHandle* memory = AllocateWithText<StringHandle>(text, length, &stored);
  if (memory == nullptr) return nullptr;
  auto* string = new (memory) StringHandle;
  string->id = g_next_string_id.fetch_add(1, std::memory_order_relaxed);
  string->domain_id = domain_id;
  string->text = stored;
  string->text_length = static_cast<uint32_t>(length);
  return string;
}

uint64_t NextRangeId() { return g_next_range_id.fetch_add(1, std::memory_order_relaxed); }

void InstallForkHandler() { pthread_once(&g_fork_handler_once, RegisterForkHandler); }

bool ClaimDomainAnnouncement(DomainHandle* domain) {
  const uint64_t generation = g_fork_generation.load(std::memory_order_relaxed);
  uint64_t announced = domain->announced_generation.load(std::memory_order_relaxed);
  return announced != generation && domain->announced_generation.compare_exchange_strong(
                                        announced, generation, std::memory_order_relaxed);
}

}  // namespace prof::injection::nvtx
