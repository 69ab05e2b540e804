// libprof_torch.so: autograd-nvtx / autograd-shapes-nvtx on PyTorch builds without CUDA, whose
// emit_nvtx refuses to run. It registers a global at::RecordFunction callback (the hook PyTorch's
// own profilers use) that opens one NVTX push/pop range per operator, autograd node and
// record_function scope, on every thread, with emit_nvtx's text (operator_range_text.h) in the
// default domain, as emit_nvtx does. The ranges go through the NVTX instance compiled into this
// library, which NVTX_INJECTION64_PATH attaches to libprof_nvtx.so like any other NVTX user: the
// push/pop machinery and per-thread rings are prof's usual ones.
//
// Loaded by prof's Python code (prof_pytorch/operator_ranges.py) with ctypes only into the very
// libtorch it was built against (it links that library's ABI). Callbacks never throw into PyTorch.
#include <ATen/record_function.h>
#include <nvtx3/nvToolsExt.h>

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "injection/pytorch/operator_range_text.h"

namespace prof::injection::pytorch {
namespace {

// autograd-shapes-nvtx: which operator produced each tensor (its TensorImpl's address), as
// emit_nvtx keeps it for `input_op_ids`. Shared by all threads, so guarded; like PyTorch's map it is
// never pruned (an address that is reused is overwritten).
class ProducerMap {
 public:
  InputProducer Of(const at::Tensor& tensor) {
    if (!tensor.defined()) return {0, -1};
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = producers_.find(tensor.unsafeGetTensorImpl());
    return found == producers_.end() ? InputProducer{0, -1} : found->second;
  }
  void Record(const at::RecordFunction& fn) {
    int output_nr = 0;
    std::lock_guard<std::mutex> lock(mutex_);
    for (const c10::IValue& output : fn.outputs()) {
      if (output.isTensor() && output.toTensor().defined()) {
        producers_[output.toTensor().unsafeGetTensorImpl()] = {fn.handle(), output_nr};
      }
      ++output_nr;
    }
  }

 private:
  std::mutex mutex_;
  std::unordered_map<const void*, InputProducer> producers_;
};

ProducerMap& Producers() {
  static ProducerMap* map = new ProducerMap();  // never destroyed: callbacks may run at exit
  return *map;
}

// One entry per input: a tensor's sizes ([] when undefined), a list's defined tensors' sizes in
// place of the list ([] when it has none), [] for anything else; and each input's producer.
void DescribeInputs(const at::RecordFunction& fn, std::vector<Shape>* shapes,
                    std::vector<InputProducer>* producers) {
  for (const c10::IValue& input : fn.inputs()) {
    if (input.isTensor()) {
      const at::Tensor& tensor = input.toTensor();
      shapes->push_back(tensor.defined() ? tensor.sizes().vec() : Shape());
      producers->push_back(Producers().Of(tensor));
    } else if (input.isList()) {
      size_t tensors = 0, defined = 0;
      for (const c10::IValue& item : input.toListRef()) {
        if (!item.isTensor()) continue;
        ++tensors;
        producers->push_back(Producers().Of(item.toTensor()));
        if (item.toTensor().defined()) {
          shapes->push_back(item.toTensor().sizes().vec());
          ++defined;
        }
      }
      if (defined == 0) shapes->emplace_back();
      if (tensors == 0) producers->emplace_back(0, -1);
    } else {
      shapes->emplace_back();
      producers->emplace_back(0, -1);
    }
  }
}

template <bool kWithShapes>
std::unique_ptr<at::ObserverContext> OnEnter(const at::RecordFunction& fn) {
  if (!kWithShapes) {
    // Every operator of every step: formatted on the stack, no allocation.
    char text[512];
    if (FormatOperatorRange(fn.name(), fn.seqNr(), fn.handle(), text, sizeof(text))) {
      nvtxRangePushA(text);
      return nullptr;
    }
  }
  std::vector<Shape> shapes;
  std::vector<InputProducer> producers;
  if (kWithShapes) DescribeInputs(fn, &shapes, &producers);
  nvtxRangePushA(OperatorRangeText(fn.name(), fn.seqNr(), fn.handle(), shapes, producers).c_str());
  return nullptr;
}

template <bool kWithShapes>
void OnExit(const at::RecordFunction& fn, at::ObserverContext*) {
  nvtxRangePop();
  if (kWithShapes) Producers().Record(fn);
}

std::once_flag g_started;

}  // namespace
}  // namespace prof::injection::pytorch

// Starts the ranges for the rest of the process (forked children keep them: the callback is
// global state of libtorch). Returns 0; a second call changes nothing.
extern "C" __attribute__((visibility("default"))) int prof_torch_operator_ranges_start(
    int with_shapes) {
  using namespace prof::injection::pytorch;
  std::call_once(g_started, [with_shapes] {
    at::RecordFunctionCallback callback =
        with_shapes ? at::RecordFunctionCallback(&OnEnter<true>, &OnExit<true>)
                    : at::RecordFunctionCallback(&OnEnter<false>, &OnExit<false>);
    // Inputs and outputs only for shapes (they cost); ids always, for `op_id` (as emit_nvtx).
    callback.needsInputs(with_shapes != 0).needsOutputs(with_shapes != 0).needsIds(true);
    at::addGlobalCallback(std::move(callback));
  });
  return 0;
}
