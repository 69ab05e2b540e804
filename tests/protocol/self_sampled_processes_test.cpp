// SelfSampledProcesses (collector/cpu_samples): which moments of a process the kernel's samples
// must not cover, because the process sampled itself then: from its hello to its exit record or
// stream end, per stream (an exec'd image, a reused pid).
#include "collector/cpu_samples/self_sampled_processes.h"

#include <catch2/catch.hpp>

namespace prof::collector {
namespace {

TEST_CASE("a process that samples itself covers its span, from its hello to its end") {
  SelfSampledProcesses spans;
  CHECK(!spans.Covers(7, 100));
  spans.Hello(1, 7, 100, true);
  CHECK(!spans.Covers(7, 99));  // before its hello: the kernel's samples stay
  CHECK(spans.Covers(7, 100));
  CHECK(spans.Covers(7, 1'000'000));
  CHECK(!spans.Covers(8, 100));  // another process
  spans.Ended(1, 500);
  CHECK(spans.Covers(7, 499));
  CHECK(!spans.Covers(7, 500));  // after its own sampler stopped
  spans.Ended(1, 900);           // the stream's end after the exit record changes nothing
  CHECK(!spans.Covers(7, 600));
}

TEST_CASE("an exec'd image or a reused pid decides afresh") {
  SelfSampledProcesses spans;
  spans.Hello(1, 7, 100, true);
  // The new image's hello arrives before the old stream is seen to end: the old span ends there.
  spans.Hello(2, 7, 300, false);
  CHECK(spans.Covers(7, 299));
  CHECK(!spans.Covers(7, 300));
  spans.Ended(1, 400);  // the old stream's end, late
  CHECK(!spans.Covers(7, 350));
  // A later process under the same pid that samples itself.
  spans.Ended(2, 600);
  spans.Hello(3, 7, 700, true);
  CHECK(!spans.Covers(7, 650));
  CHECK(spans.Covers(7, 700));
  // A stream says hello once; a repeat opens nothing new.
  spans.Ended(3, 800);
  spans.Hello(3, 7, 900, true);
  CHECK(!spans.Covers(7, 900));
}

}  // namespace
}  // namespace prof::collector
