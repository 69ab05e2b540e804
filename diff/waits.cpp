#include "diff/waits.h"

#include <algorithm>

namespace prof::diff {

// Functions that block until something else happens. Descriptor I/O (read, recv...) is not here:
// a file read is work, and prof cannot tell it from a pipe read by name. Nor is pthread_create: it
// waits for nothing, and the min-time (min_time.h) absorbs its scheduling noise.
const std::vector<std::string_view>& WaitFunctions() {
  static const std::vector<std::string_view> waits = {
      "__poll_chk",
      "__ppoll_chk",
      "accept",
      "accept4",
      "clock_nanosleep",
      "epoll_pwait",
      "epoll_wait",
      "nanosleep",
      "poll",
      "ppoll",
      "pselect",
      "pthread_cond_clockwait",
      "pthread_cond_timedwait",
      "pthread_cond_wait",
      "pthread_join",
      "pthread_mutex_lock",  // recorded only when contended: waiting for the holder
      "pthread_mutex_timedlock",
      "pthread_rwlock_rdlock",
      "pthread_rwlock_timedrdlock",
      "pthread_rwlock_timedwrlock",
      "pthread_rwlock_wrlock",
      "select",
      "sem_clockwait",
      "sem_timedwait",
      "sem_wait",
      "sleep",
      "system",  // waits for the command it runs
      "usleep",
      "wait",
      "wait4",
      "waitid",
      "waitpid",
  };
  return waits;
}

bool IsWait(const ItemKey& key) {
  const std::vector<std::string_view>& waits = WaitFunctions();
  return key.kind == ItemKind::kOsrt &&
         std::find(waits.begin(), waits.end(), key.name) != waits.end();
}

}  // namespace prof::diff
