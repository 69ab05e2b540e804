// The one main() of every Catch2 test executable, and the listener that cleans up after each test
// case.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "tests/support/test_support.h"

namespace {

class TempDirCleaner : public Catch::TestEventListenerBase {
 public:
  using TestEventListenerBase::TestEventListenerBase;

  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    prof::test::EndTempDirs(stats.totals.assertions.allOk());
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(TempDirCleaner)
