// CudaTracker with --python-backtrace=cuda records built in memory: Python stacks become
// CUDA_CALLCHAINS frames and the calls that name them get the stack's callchainId, whichever of
// the two arrives first (a stack is sent once per process, by the thread that saw it first).
#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "collector/cuda_tracker.h"
#include "storage/global_id.h"
#include "tests/nvtx/nvtx_record_builder.h"
#include "tests/support/test_support.h"

namespace prof::test {
namespace {

using protocol::RecordKind;
using Rows = std::vector<std::vector<std::string>>;

class StackHarness {
 public:
  StackHarness() : path_(MakeTempDir("python-stacks") + "/report.sqlite") {
    process_.stream_id = 1;
    process_.pid = 77;
    process_.session_start_ns = 1000;
    auto created = storage::ReportWriter::Create(path_);
    REQUIRE(created.ok());
    writer_ = std::move(created).value();
    tracker_ = std::make_unique<collector::CudaTracker>(writer_.get());
    tracker_->RegisterHandlers(&dispatcher_);
    auto name = Record<protocol::CudaApiNameRecord>(RecordKind::kCudaApiName);
    name.domain = protocol::CudaApiDomain::kRuntime;
    name.cbid = 131;
    const std::string text = "cudaStreamSynchronize_v3020";
    name.text_length = static_cast<uint32_t>(text.size());
    Feed(name, text);
  }

  template <typename Record>
  void Feed(const Record& record, std::string_view text = {}) {
    const BuiltRecord built(record, text);
    dispatcher_.Dispatch(process_, built.header());
  }
  void Stack(uint32_t id, uint32_t frames, const std::string& text) {
    auto stack = Record<protocol::CudaPythonStackRecord>(RecordKind::kCudaPythonStack);
    stack.stack_id = id;
    stack.frame_count = frames;
    stack.text_length = static_cast<uint32_t>(text.size());
    Feed(stack, text);
  }
  void Call(uint64_t start, uint32_t stack_id) {
    auto call = Record<protocol::CudaApiCallWithStackRecord>(RecordKind::kCudaApiCallWithStack);
    call.call.header.timestamp_ns = start;
    call.call.end_ns = start + 10;
    call.call.cbid = 131;
    call.call.domain = protocol::CudaApiDomain::kRuntime;
    call.stack_id = stack_id;
    // The record starts with its CudaApiCallRecord, so BuiltRecord needs the header named.
    struct WithHeader {
      protocol::RecordHeader header;
      char rest[sizeof(call) - sizeof(protocol::RecordHeader)];
    } flat;
    static_assert(sizeof(flat) == sizeof(call));
    std::memcpy(&flat, &call, sizeof(call));
    Feed(flat);
  }
  Rows Finish(const std::string& sql) {
    REQUIRE(writer_->Finish(storage::SessionInfo{}).ok());
    return QueryRows(path_, sql);
  }
  const collector::CudaTracker& tracker() const { return *tracker_; }

 private:
  template <typename T>
  static T Record(RecordKind kind) {
    T record{};
    reinterpret_cast<protocol::RecordHeader&>(record) = Header(kind, 77, 0);
    return record;
  }

  std::string path_;
  collector::ProcessStream process_;
  std::unique_ptr<storage::ReportWriter> writer_;
  std::unique_ptr<collector::CudaTracker> tracker_;
  collector::RecordDispatcher dispatcher_;
};

TEST_CASE("Python stacks become CUDA_CALLCHAINS rows named by their calls", "[cuda][python]") {
  StackHarness harness;
  harness.Call(2000, 7);  // another thread's call, before the stack's own record
  harness.Stack(7, 2, "42\tstep\t/w/train.py\n10\t<module>\t/w/train.py\n");
  harness.Call(3000, 7);
  harness.Stack(9, 1, "5\tModel.forward\t/w/model.py\n");
  harness.Call(4000, 9);
  CHECK(harness.tracker().python_stacks() == 2);
  CHECK(harness.Finish("SELECT c.id, stackDepth, s.value, m.value, originalIP, unresolved FROM "
                       "CUDA_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol JOIN StringIds m ON "
                       "m.id = c.module ORDER BY c.id, stackDepth") ==
        Rows{{"1", "0", "step", "/w/train.py", "42", "0"},
             {"1", "1", "<module>", "/w/train.py", "10", "0"},
             {"2", "0", "Model.forward", "/w/model.py", "5", "0"}});
}

TEST_CASE("calls name their callchain and a malformed stack keeps the frames before the fault",
          "[cuda][python]") {
  StackHarness harness;
  harness.Stack(3, 2, "8\tf\t/a.py\nnot-a-line\t");
  harness.Call(2000, 3);
  harness.Call(2500, 3);
  CHECK(harness.tracker().stats().malformed_python_stacks == 1);
  CHECK(harness.Finish("SELECT start, callchainId, (SELECT count(*) FROM CUDA_CALLCHAINS) FROM "
                       "CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY start") ==
        Rows{{"1000", "1", "1"}, {"1500", "1", "1"}});
}

}  // namespace
}  // namespace prof::test
