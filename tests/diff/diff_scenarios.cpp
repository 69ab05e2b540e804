#include "tests/diff/diff_scenarios.h"

#include "tests/diff/report_builder.h"

namespace prof::diff::test {
namespace {

constexpr int64_t kSteps = 4;
constexpr int64_t kStepPeriod = 10000;

}  // namespace

std::string MakeTrainingBase(const std::string& name) {
  ReportBuilder report;
  for (int64_t step = 0; step < kSteps; ++step) {
    const int64_t t = step * kStepPeriod;
    report.Range("step", t, 3000)
        .ApiCall("cudaLaunchKernel_v7000", t + 10, 100)
        .ApiCall("cudaLaunchKernel_v7000", t + 120, 100)
        .Kernel("gemm(float*)", t + 200, 1000, {8, 128, 0})
        .Kernel("relu(float*)", t + 1200, 500, {4, 128, 0})
        .Memcpy(1, t + 2000, 400)
        .OsrtCall("read", t + 2500, 100);
    if (step == 0) report.Kernel("copy_kernel(float*)", t + 1700, 300);
  }
  return report.Write(name);
}

std::string MakeTrainingNew(const std::string& name) {
  ReportBuilder report;
  for (int64_t step = 0; step < kSteps; ++step) {
    const int64_t t = step * kStepPeriod;
    report.Range("step", t, 3100)
        .ApiCall("cudaLaunchKernel_v7000", t + 10, 103)
        .ApiCall("cudaLaunchKernel_v7000", t + 120, 103)
        .ApiCall("cudaLaunchKernelExC_v11060", t + 230, 50)
        .Kernel("gemm(float*)", t + 200, 1200, {8, 128, 0})
        .Kernel("relu(float*)", t + 1400, 510, {4, 128, 0})
        .Kernel("softmax(float*)", t + 1910, 100)
        .Memcpy(1, t + 2000, 400)
        .OsrtCall("read", t + 2500, 100);
  }
  return report.Write(name);
}

std::string MakeGemmRun(const std::string& name, int64_t gemm_ns) {
  ReportBuilder report;
  for (int64_t step = 0; step < kSteps; ++step) {
    report.Kernel("gemm(float*)", step * kStepPeriod, gemm_ns);
  }
  return report.Write(name);
}

std::string MakeHostOnly(const std::string& name, int64_t read_ns) {
  ReportBuilder report;
  for (int64_t step = 0; step < kSteps; ++step) {
    const int64_t t = step * kStepPeriod;
    report.Range("load", t, 2000, "Lib").OsrtCall("read", t + 100, read_ns);
  }
  return report.Write(name);
}

std::string MakeWaitingRun(const std::string& name, int64_t wait_ns) {
  ReportBuilder report;
  for (int64_t step = 0; step < kSteps; ++step) {
    const int64_t t = step * kStepPeriod;
    report.Range("step", t, 2000 + wait_ns).OsrtCall("pthread_cond_wait", t + 1000, wait_ns);
  }
  return report.Write(name);
}

}  // namespace prof::diff::test
