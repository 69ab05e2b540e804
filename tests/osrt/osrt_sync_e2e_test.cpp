// End-to-end: lock calls are recorded only when they wait (nsys's policy), condition waits,
// timed-out waits and joins.
#include <catch2/catch.hpp>

#include "storage/global_id.h"
#include "tests/osrt/osrt_report.h"
#include "tests/support/test_support.h"

namespace prof::test {
namespace {

using storage::GlobalTid;

// The waiters block for 20-30 ms; they publish "about to block" just before the call, so only
// being descheduled at that very point could shorten the recorded wait below 10 ms.
constexpr int64_t kMinWaitNs = 10'000'000;

void CheckOneWait(const std::vector<OsrtRow>& rows, int64_t global_tid, int64_t min_duration_ns,
                  int64_t return_value) {
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].global_tid == global_tid);
  CHECK(rows[0].duration() >= min_duration_ns);
  CHECK(rows[0].return_value == return_value);
  CHECK(rows[0].nesting_level == 0);
}

}  // namespace

TEST_CASE("a contended mutex lock is one row and uncontended locks are never recorded") {
  // Threshold 0 records every call that is timed at all: the 1001 uncontended lock calls are
  // settled by the try-lock and must still not appear.
  for (const char* threshold : {"--osrt-threshold=1000", "--osrt-threshold=0"}) {
    INFO(threshold);
    const OsrtRun run =
        ProfileWithOsrt(MakeTempDir("osrt-mutex"), "osrt_mutex_wait", {}, {threshold});
    const uint32_t pid = static_cast<uint32_t>(ValueAfter(run.out, "pid="));
    const uint32_t waiter = static_cast<uint32_t>(ValueAfter(run.out, "waiter_tid="));
    CheckOneWait(OsrtRows(run.report, "pthread_mutex_lock"), GlobalTid(pid, waiter), kMinWaitNs, 0);
  }
}

TEST_CASE("rwlock semaphore condition and join waits are recorded on the waiting thread") {
  const OsrtRun run = ProfileWithOsrt(MakeTempDir("osrt-sync"), "osrt_sync_waits");
  const uint32_t pid = static_cast<uint32_t>(ValueAfter(run.out, "pid="));
  const int64_t waiter = GlobalTid(pid, static_cast<uint32_t>(ValueAfter(run.out, "waiter_tid=")));
  CheckOneWait(OsrtRows(run.report, "pthread_rwlock_wrlock"), waiter, kMinWaitNs, 0);
  CheckOneWait(OsrtRows(run.report, "sem_wait"), waiter, kMinWaitNs, 0);
  CheckOneWait(OsrtRows(run.report, "pthread_cond_wait"), waiter, kMinWaitNs, 0);
  // Timed out after 5 ms: -1, and the program checked that errno still said ETIMEDOUT.
  CheckOneWait(OsrtRows(run.report, "sem_timedwait"), waiter, 4'000'000, -1);
  CheckOneWait(OsrtRows(run.report, "pthread_join"), GlobalTid(pid, pid), kMinWaitNs, 0);
  CHECK(OsrtRows(run.report, "pthread_rwlock_rdlock").empty());
}

}  // namespace prof::test
