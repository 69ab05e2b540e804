// Interposers of stdio streams. libc's own calls beneath them (the read inside fgets) use internal
// aliases, so a traced fgets is one record, never fgets plus read. Streams have no system-call
// fallback: they fail with ENOSYS in the bootstrap corner described in next_functions.h.
#include <stdio.h>

#include "injection/osrt/wrapper_support.h"

// Declared by glibc's headers only under _FORTIFY_SOURCE, which this library is built without.
extern "C" {
size_t __fread_chk(void* buffer, size_t buffer_size, size_t size, size_t count, FILE* stream);
char* __fgets_chk(char* buffer, size_t buffer_size, int count, FILE* stream);
}

namespace {

using prof::injection::osrt::Unavailable;

// The item count of fread/fwrite when no definition is available: nothing transferred.
size_t NoItems() {
  errno = ENOSYS;
  return 0;
}

}  // namespace

extern "C" PROF_EXPORT FILE* fopen(const char* path, const char* mode) {
  return PROF_OSRT_FORWARD(fopen, Unavailable<FILE*>(), path, mode);
}

extern "C" PROF_EXPORT FILE* fopen64(const char* path, const char* mode) {
  return PROF_OSRT_FORWARD(fopen64, Unavailable<FILE*>(), path, mode);
}

extern "C" PROF_EXPORT int fclose(FILE* stream) {
  return PROF_OSRT_FORWARD(fclose, Unavailable<int>(), stream);
}

extern "C" PROF_EXPORT size_t fread(void* buffer, size_t size, size_t count, FILE* stream) {
  return PROF_OSRT_FORWARD(fread, NoItems(), buffer, size, count, stream);
}

extern "C" PROF_EXPORT size_t fwrite(const void* buffer, size_t size, size_t count, FILE* stream) {
  return PROF_OSRT_FORWARD(fwrite, NoItems(), buffer, size, count, stream);
}

extern "C" PROF_EXPORT char* fgets(char* buffer, int count, FILE* stream) {
  return PROF_OSRT_FORWARD(fgets, Unavailable<char*>(), buffer, count, stream);
}

extern "C" PROF_EXPORT int fflush(FILE* stream) {
  return PROF_OSRT_FORWARD(fflush, Unavailable<int>(), stream);
}

extern "C" PROF_EXPORT size_t __fread_chk(void* buffer, size_t buffer_size, size_t size,
                                          size_t count, FILE* stream) {
  return PROF_OSRT_FORWARD(__fread_chk, NoItems(), buffer, buffer_size, size, count, stream);
}

extern "C" PROF_EXPORT char* __fgets_chk(char* buffer, size_t buffer_size, int count,
                                         FILE* stream) {
  return PROF_OSRT_FORWARD(__fgets_chk, Unavailable<char*>(), buffer, buffer_size, count, stream);
}
