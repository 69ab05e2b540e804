#include "tests/gpu_metrics/recorded_pm_sampling.h"

namespace prof::test {
namespace {

using collector::PmSample;

// Hands out the recorded batches, shifted to the sample clock at the start.
class RecordedSamplingDevice : public collector::PmSamplingDevice {
 public:
  RecordedSamplingDevice(std::vector<std::vector<PmSample>> batches, uint64_t start_clock)
      : batches_(std::move(batches)), start_clock_(start_clock) {}

  // One batch per call while sampling; once stopped, every batch left (as CUPTI decodes the rest
  // of its buffer).
  Status Decode(std::vector<PmSample>* samples, bool* overflowed) override {
    do {
      if (next_ >= batches_.size()) break;
      for (PmSample sample : batches_[next_++]) {
        sample.start_timestamp += start_clock_;
        sample.end_timestamp += start_clock_;
        samples->push_back(std::move(sample));
      }
    } while (stopped_);
    *overflowed = false;
    return Status::Ok();
  }
  Status Stop() override {
    stopped_ = true;
    return Status::Ok();
  }

 private:
  std::vector<std::vector<PmSample>> batches_;
  uint64_t start_clock_;
  size_t next_ = 0;
  bool stopped_ = false;
};

}  // namespace

collector::PmStart RecordedPmSampling::Start(const collector::GpuDevice& device,
                                             const std::vector<std::string>& metrics,
                                             uint64_t interval_ns) {
  ++calls_->starts;
  calls_->metrics.push_back(metrics);
  calls_->intervals_ns.push_back(interval_ns);
  collector::PmStart start;
  for (const RecordedDevice& recorded : devices_) {
    if (recorded.device.id != device.id) continue;
    if (recorded.failure != collector::PmFailure::kNone) {
      start.failure = recorded.failure;
      start.detail = "cuptiPmSamplingEnable: recorded failure";
      return start;
    }
    start.collected = recorded.collected;
    if (start.collected.empty()) {
      for (size_t i = 0; i < metrics.size(); ++i) start.collected.push_back(i);
    }
    calls_->start_clock = ReadClocks().ticks;
    start.device = std::make_unique<RecordedSamplingDevice>(recorded.batches, calls_->start_clock);
  }
  return start;
}

}  // namespace prof::test
