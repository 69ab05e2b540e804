#include "stats/sql_statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
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

// Whether x lies exactly halfway between two multiples of 10^-digits: its exact decimal expansion
// (fmt prints it exactly; 60 places cover every double from 1e-40 up) ends in a 5 right after
// them.
bool IsExactTie(double x, int digits) {
  const std::string text = fmt::format("{:.60f}", std::fabs(x));
  const size_t five = text.find('.') + 1 + digits;
  return text[five] == '5' && text.find_first_not_of('0', five + 1) == std::string::npos;
}

// round(x, digits) as nsys's reports round: by the exact binary value of x, halfway cases away
// from zero. 169709.55 is stored as 169709.5499999..., so it becomes 169709.5 (SQLite 3.40's own
// round() gives 169709.6), while 17428.25 is exact and becomes 17428.3. REAL result; NULL for NULL.
void RoundExactly(const FunctionArgs& args, FunctionResult* result) {
  if (args.IsNull(0) || args.IsNull(1)) return;
  const int digits = static_cast<int>(std::clamp<int64_t>(args.Int64(1), 0, 30));
  double value = args.Double(0);
  if (!std::isfinite(value)) return result->SetDouble(value);
  // fmt breaks exact ties to even; the next double away from zero is past the tie.
  if (IsExactTie(value, digits)) value = std::nextafter(value, value < 0 ? -HUGE_VAL : HUGE_VAL);
  const std::string text = fmt::format("{:.{}f}", value, digits);
  result->SetDouble(std::strtod(text.c_str(), nullptr));
}

template <typename Function>
storage::AggregateFactory FactoryOf() {
  return [] { return std::make_unique<Function>(); };
}

}  // namespace

Status RegisterStatisticsFunctions(storage::Database* db) {
  PROF_RETURN_IF_ERROR(storage::RegisterAggregateFunction(db, "median", 1, FactoryOf<Median>()));
  PROF_RETURN_IF_ERROR(
      storage::RegisterAggregateFunction(db, "stdev", 1, FactoryOf<SampleStdDev>()));
  return storage::RegisterScalarFunction(db, "round", 2, RoundExactly);
}

}  // namespace prof::stats
