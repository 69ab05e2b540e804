#include "stats/sql_statistics.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "storage/sql_function.h"

namespace prof::stats {
namespace {

using storage::AggregateFunction;
using storage::FunctionArgs;
using storage::FunctionResult;

// Keeps every value: a median needs them all. Durations up to 2^53 ns are exact as doubles.
class Median : public AggregateFunction {
 public:
  void Step(const FunctionArgs& args) override {
    if (!args.IsNull(0)) values_.push_back(args.Double(0));
  }
  void Final(FunctionResult* result) override {
    if (values_.empty()) return;  // NULL
    const auto middle = values_.begin() + static_cast<std::ptrdiff_t>(values_.size() / 2);
    std::nth_element(values_.begin(), middle, values_.end());
    if (values_.size() % 2 == 1) {
      result->SetDouble(*middle);
      return;
    }
    // After nth_element the lower middle value is the largest of the lower half.
    const double lower = *std::max_element(values_.begin(), middle);
    result->SetDouble((lower + *middle) / 2);
  }

 private:
  std::vector<double> values_;
};

// Welford's running mean and sum of squared deviations, in long double so that the result rounds
// to the same 0.1 ns as nsys's exact computation.
class SampleStdDev : public AggregateFunction {
 public:
  void Step(const FunctionArgs& args) override {
    if (args.IsNull(0)) return;
    const long double value = args.Double(0);
    ++count_;
    const long double delta = value - mean_;
    mean_ += delta / count_;
    squares_ += delta * (value - mean_);
  }
  void Final(FunctionResult* result) override {
    if (count_ == 0) return;  // NULL
    if (count_ == 1) {
      result->SetDouble(0.0);
      return;
    }
    result->SetDouble(static_cast<double>(std::sqrt(squares_ / (count_ - 1))));
  }

 private:
  int64_t count_ = 0;
  long double mean_ = 0;
  long double squares_ = 0;
};

template <typename Function>
storage::AggregateFactory FactoryOf() {
  return [] { return std::make_unique<Function>(); };
}

}  // namespace

Status RegisterStatisticsFunctions(storage::Database* db) {
  if (Status status = storage::RegisterAggregateFunction(db, "median", 1, FactoryOf<Median>());
      !status.ok()) {
    return status;
  }
  return storage::RegisterAggregateFunction(db, "stdev", 1, FactoryOf<SampleStdDev>());
}

}  // namespace prof::stats
