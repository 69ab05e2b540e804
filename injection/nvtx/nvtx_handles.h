// The values prof hands back to NVTX callers: domain handles, registered-string handles and range
// ids.
//
// Handles are heap objects that live until the process exits: NVTX cannot tell when the last user
// of a handle is done, so destroyed domains keep theirs (a few bytes each). Each carries a small
// process-unique id for the records (never 0; domain id 0 is NVTX's default domain) and its UTF-8
// text. Events that use a registered string carry the text itself, so the collector never depends
// on the order in which different threads' records reach it.
//
// Fork: a child inherits the parent's handles but starts a stream of its own. A domain remembers
// the fork generation whose stream has seen its create record; ClaimDomainAnnouncement tells the
// first user in a child to repeat that record.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "injection/protocol/record_format.h"

namespace prof::injection::nvtx {

struct DomainHandle {
  uint64_t id;
  std::atomic<uint64_t> announced_generation;
  const char* name;  // UTF-8, name_length bytes, stored right after the handle
  uint32_t name_length;
  protocol::NvtxLibrary library;  // the library whose API calls the domain annotates, if any
  bool recorded;                  // whether prof traces this domain's events (library_domains.h)
};

struct StringHandle {
  uint64_t id;
  uint64_t domain_id;
  const char* text;  // UTF-8, text_length bytes, stored right after the handle
  uint32_t text_length;
};

// New handles owning a copy of `text`; nullptr when out of memory. `length` <= kMaxTextLength.
DomainHandle* NewDomainHandle(const char* name, size_t length);
StringHandle* NewStringHandle(uint64_t domain_id, const char* text, size_t length);

// Range ids for nvtxRangeStart: 1, 2, ... (0 is never returned, so it can mean "no range").
uint64_t NextRangeId();

// Registers the fork counter's pthread_atfork handler; idempotent and thread-safe.
void InstallForkHandler();

// True for exactly one caller per process generation in which `domain` has not been announced yet.
bool ClaimDomainAnnouncement(DomainHandle* domain);

}  // namespace prof::injection::nvtx
