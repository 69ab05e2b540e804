#include "collector/gpu_metrics/cupti_pm_sampling.h"

#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <dlfcn.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "collector/gpu_metrics/cuda_driver.h"
#include "injection/cuda/cupti_library.h"
#include "injection/protocol/clock.h"

namespace prof::collector {
namespace {

// The hardware buffer the GPU writes samples into until they are decoded (every
// GpuMetricsSampler::kDecodePeriodMs): seconds of headroom at 10 kHz for a set of a dozen metrics.
constexpr size_t kHardwareBufferBytes = size_t{64} << 20;
// Samples one decode may hold: 100 ms of samples (decoding repeats while the image fills).
constexpr uint64_t kImageSpanNs = 100'000'000;
constexpr uint32_t kMinImageSamples = 256;

struct CuptiPm {
#define PROF_CUPTI_PM_FUNCTION(name) decltype(&::name) name = nullptr;
#include "collector/gpu_metrics/cupti_pm_functions.h"
#undef PROF_CUPTI_PM_FUNCTION
};

bool ResolvePmFunctions(void* handle, void* functions) {
  auto* out = static_cast<CuptiPm*>(functions);
  bool complete = true;
#define PROF_CUPTI_PM_FUNCTION(name)                                       \
  out->name = reinterpret_cast<decltype(out->name)>(dlsym(handle, #name)); \
  complete = complete && out->name != nullptr;
#include "collector/gpu_metrics/cupti_pm_functions.h"
#undef PROF_CUPTI_PM_FUNCTION
  return complete;
}

template <typename Params>
Params Init(size_t struct_size) {
  Params params{};
  params.structSize = struct_size;
  return params;
}

class CuptiCall {
 public:
  CuptiCall(const CuptiPm* cupti, PmStart* start) : cupti_(cupti), start_(start) {}

  // True when `result` is success; else records why in *start (`enabling`: the call that takes the
  // device's counters, where an invalid operation means another session holds them).
  bool Ok(CUptiResult result, const char* call, bool enabling = false) {
    if (result == CUPTI_SUCCESS) return true;
    const char* text = nullptr;
    cupti_->cuptiGetResultString(result, &text);
    start_->detail = std::string(call) + ": " + (text != nullptr ? text : "CUPTI error");
    start_->failure = FailureOf(result, enabling);
    return false;
  }

 private:
  static PmFailure FailureOf(CUptiResult result, bool enabling) {
    switch (result) {
      case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return PmFailure::kNoPermission;
      case CUPTI_ERROR_HARDWARE_BUSY:
      case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
        return PmFailure::kBusy;
      case CUPTI_ERROR_INVALID_OPERATION:
        return enabling ? PmFailure::kBusy : PmFailure::kFailed;
      case CUPTI_ERROR_NOT_SUPPORTED:
      case CUPTI_ERROR_INVALID_CHIP_NAME:
      case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
      case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
      case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
      case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
      case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
      case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
      case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
        return PmFailure::kUnsupported;
      default:
        return PmFailure::kFailed;
    }
  }

  const CuptiPm* cupti_;
  PmStart* start_;
};

// A profiler host object for one chip: metric configuration and evaluation.
// CUPTI's host object keeps the pointers it is given (chip name, counter availability, metric
// names) and reads them again when it evaluates samples, so it owns what they point to.
class HostObject {
 public:
  HostObject(const CuptiPm* cupti, std::string chip, std::vector<uint8_t> availability)
      : cupti_(cupti), chip_(std::move(chip)), availability_(std::move(availability)) {}
  ~HostObject() {
    if (object_ == nullptr) return;
    auto params = Init<CUpti_Profiler_Host_Deinitialize_Params>(
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    params.pHostObject = object_;
    cupti_->cuptiProfilerHostDeinitialize(&params);
  }
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;

  static std::unique_ptr<HostObject> Create(const CuptiPm* cupti, const std::string& chip,
                                            const std::vector<uint8_t>& availability,
                                            CuptiCall* call) {
    auto host = std::make_unique<HostObject>(cupti, chip, availability);
    auto params = Init<CUpti_Profiler_Host_Initialize_Params>(
        CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    params.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
    params.pChipName = host->chip_.c_str();
    params.pCounterAvailabilityImage = host->availability_.data();
    if (!call->Ok(cupti->cuptiProfilerHostInitialize(&params), "cuptiProfilerHostInitialize")) {
      return nullptr;
    }
    host->object_ = params.pHostObject;
    return host;
  }

  // Adds `names` to the configuration; the object keeps them (metric_names()).
  CUptiResult AddMetrics(const std::vector<std::string>& names) {
    metric_names_ = names;
    metric_pointers_.clear();
    for (const std::string& name : metric_names_) metric_pointers_.push_back(name.c_str());
    auto params = Init<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    params.pHostObject = object_;
    params.ppMetricNames = metric_pointers_.data();
    params.numMetrics = metric_pointers_.size();
    return cupti_->cuptiProfilerHostConfigAddMetrics(&params);
  }
  // The metrics added, as CUPTI takes them.
  std::vector<const char*>& metric_names() { return metric_pointers_; }

  // The config image of the metrics added; empty (with *call's reason) when it fails or needs more
  // than the one pass PM sampling can make.
  std::vector<uint8_t> ConfigImage(CuptiCall* call) {
    auto size = Init<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    size.pHostObject = object_;
    if (!call->Ok(cupti_->cuptiProfilerHostGetConfigImageSize(&size), "config image size")) {
      return {};
    }
    std::vector<uint8_t> image(size.configImageSize);
    auto get = Init<CUpti_Profiler_Host_GetConfigImage_Params>(
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    get.pHostObject = object_;
    get.configImageSize = image.size();
    get.pConfigImage = image.data();
    auto passes = Init<CUpti_Profiler_Host_GetNumOfPasses_Params>(
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
    passes.configImageSize = image.size();
    passes.pConfigImage = image.data();
    if (!call->Ok(cupti_->cuptiProfilerHostGetConfigImage(&get), "config image") ||
        !call->Ok(cupti_->cuptiProfilerHostGetNumOfPasses(&passes), "config passes")) {
      return {};
    }
    if (passes.numOfPasses != 1) {
      call->Ok(CUPTI_ERROR_NOT_SUPPORTED, "the metric set needs several passes");
      return {};
    }
    return image;
  }

  CUpti_Profiler_Host_Object* get() const { return object_; }

 private:
  const CuptiPm* cupti_;
  const std::string chip_;
  const std::vector<uint8_t> availability_;
  std::vector<std::string> metric_names_;
  std::vector<const char*> metric_pointers_;  // into metric_names_
  CUpti_Profiler_Host_Object* object_ = nullptr;
};

class CuptiPmDevice : public PmSamplingDevice {
 public:
  CuptiPmDevice(const CuptiPm* cupti, std::unique_ptr<HostObject> host)
      : cupti_(cupti), host_(std::move(host)) {}
  ~CuptiPmDevice() override {
    if (object_ == nullptr) return;
    auto params =
        Init<CUpti_PmSampling_Disable_Params>(CUpti_PmSampling_Disable_Params_STRUCT_SIZE);
    params.pPmSamplingObject = object_;
    cupti_->cuptiPmSamplingDisable(&params);
  }

  // Enables, configures and starts PM sampling; false with *call's reason.
  bool Begin(uint32_t device, std::vector<uint8_t> config, uint64_t interval_ns, CuptiCall* call) {
    config_ = std::move(config);  // kept for the sampling's life, as the host object's inputs
    auto enable = Init<CUpti_PmSampling_Enable_Params>(CUpti_PmSampling_Enable_Params_STRUCT_SIZE);
    enable.deviceIndex = device;
    if (!call->Ok(cupti_->cuptiPmSamplingEnable(&enable), "cuptiPmSamplingEnable", true)) {
      return false;
    }
    object_ = enable.pPmSamplingObject;
    auto set =
        Init<CUpti_PmSampling_SetConfig_Params>(CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE);
    set.pPmSamplingObject = object_;
    set.configSize = config_.size();
    set.pConfig = config_.data();
    set.hardwareBufferSize = kHardwareBufferBytes;
    set.samplingInterval = interval_ns;
    set.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    // Keep the oldest: a full buffer drops the newest samples, which shows as a gap (counted).
    set.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    auto size = Init<CUpti_PmSampling_GetCounterDataSize_Params>(
        CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE);
    size.pPmSamplingObject = object_;
    size.pMetricNames = host_->metric_names().data();
    size.numMetrics = host_->metric_names().size();
    size.maxSamples =
        std::max<uint32_t>(kMinImageSamples, static_cast<uint32_t>(kImageSpanNs / interval_ns));
    if (!call->Ok(cupti_->cuptiPmSamplingSetConfig(&set), "cuptiPmSamplingSetConfig") ||
        !call->Ok(cupti_->cuptiPmSamplingGetCounterDataSize(&size), "counter data size")) {
      return false;
    }
    image_.resize(size.counterDataSize);
    auto start = Init<CUpti_PmSampling_Start_Params>(CUpti_PmSampling_Start_Params_STRUCT_SIZE);
    start.pPmSamplingObject = object_;
    return ResetImage() == CUPTI_SUCCESS &&
           call->Ok(cupti_->cuptiPmSamplingStart(&start), "cuptiPmSamplingStart");
  }

  Status Decode(std::vector<PmSample>* samples, bool* overflowed) override {
    while (true) {
      auto decode =
          Init<CUpti_PmSampling_DecodeData_Params>(CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE);
      decode.pPmSamplingObject = object_;
      decode.pCounterDataImage = image_.data();
      decode.counterDataImageSize = image_.size();
      const CUptiResult result = cupti_->cuptiPmSamplingDecodeData(&decode);
      // Out of memory: the hardware buffer overflowed; what it kept still decodes.
      if (result != CUPTI_SUCCESS && result != CUPTI_ERROR_OUT_OF_MEMORY) {
        return Failure("cuptiPmSamplingDecodeData", result);
      }
      *overflowed = *overflowed || decode.overflow != 0 || result == CUPTI_ERROR_OUT_OF_MEMORY;
      PROF_RETURN_IF_ERROR(Evaluate(samples));
      if (decode.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) {
        return Status::Ok();
      }
    }
  }

  Status Stop() override {
    auto params = Init<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
    params.pPmSamplingObject = object_;
    const CUptiResult result = cupti_->cuptiPmSamplingStop(&params);
    return result == CUPTI_SUCCESS ? Status::Ok() : Failure("cuptiPmSamplingStop", result);
  }

 private:
  // Every completed sample of the image, then the image emptied for the next decode.
  Status Evaluate(std::vector<PmSample>* samples) {
    auto info = Init<CUpti_PmSampling_GetCounterDataInfo_Params>(
        CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
    info.pCounterDataImage = image_.data();
    info.counterDataImageSize = image_.size();
    CUptiResult result = cupti_->cuptiPmSamplingGetCounterDataInfo(&info);
    if (result != CUPTI_SUCCESS) return Failure("cuptiPmSamplingGetCounterDataInfo", result);
    for (size_t index = 0; index < info.numCompletedSamples; ++index) {
      auto times = Init<CUpti_PmSampling_CounterData_GetSampleInfo_Params>(
          CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE);
      times.pPmSamplingObject = object_;
      times.pCounterDataImage = image_.data();
      times.counterDataImageSize = image_.size();
      times.sampleIndex = index;
      PmSample sample;
      std::vector<const char*>& metrics = host_->metric_names();
      sample.values.resize(metrics.size());
      auto evaluate = Init<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
          CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
      evaluate.pHostObject = host_->get();
      evaluate.pCounterDataImage = image_.data();
      evaluate.counterDataImageSize = image_.size();
      evaluate.rangeIndex = index;
      evaluate.ppMetricNames = metrics.data();
      evaluate.numMetrics = metrics.size();
      evaluate.pMetricValues = sample.values.data();
      if ((result = cupti_->cuptiPmSamplingCounterDataGetSampleInfo(&times)) != CUPTI_SUCCESS ||
          (result = cupti_->cuptiProfilerHostEvaluateToGpuValues(&evaluate)) != CUPTI_SUCCESS) {
        return Failure("evaluating a sample", result);
      }
      sample.start_timestamp = times.startTimestamp;
      sample.end_timestamp = times.endTimestamp;
      samples->push_back(std::move(sample));
    }
    result = ResetImage();
    return result == CUPTI_SUCCESS ? Status::Ok() : Failure("counter data reset", result);
  }

  CUptiResult ResetImage() {
    auto params = Init<CUpti_PmSampling_CounterDataImage_Initialize_Params>(
        CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    params.pPmSamplingObject = object_;
    params.counterDataSize = image_.size();
    params.pCounterData = image_.data();
    return cupti_->cuptiPmSamplingCounterDataImageInitialize(&params);
  }

  Status Failure(const char* call, CUptiResult result) const {
    const char* text = nullptr;
    cupti_->cuptiGetResultString(result, &text);
    return Status::Error(std::string(call) + ": " + (text != nullptr ? text : "CUPTI error"));
  }

  const CuptiPm* cupti_;
  std::unique_ptr<HostObject> host_;
  std::vector<uint8_t> config_;
  CUpti_PmSampling_Object* object_ = nullptr;
  std::vector<uint8_t> image_;
};

class CuptiPmSamplingApi : public PmSamplingApi {
 public:
  Status Load() override {
    PROF_RETURN_IF_ERROR(LoadCudaDriver(&driver_));
    char message[1024] = {};
    if (!injection::cuda::LoadCuptiWith(ResolvePmFunctions, &cupti_, message, sizeof(message))) {
      return Status::Error(std::string("no libcupti with PM sampling: ") + message);
    }
    auto params =
        Init<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    if (cupti_.cuptiProfilerInitialize(&params) != CUPTI_SUCCESS) {
      return Status::Error("CUPTI's profiler did not start (cuptiProfilerInitialize)");
    }
    return Status::Ok();
  }

  StatusOr<std::vector<GpuDevice>> Devices() override {
    PROF_ASSIGN_OR_RETURN(std::vector<GpuDevice> devices, ListCudaDevices(driver_));
    for (GpuDevice& device : devices) {
      auto params =
          Init<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
      params.deviceIndex = device.id;
      if (cupti_.cuptiDeviceGetChipName(&params) == CUPTI_SUCCESS && params.pChipName != nullptr) {
        device.chip = params.pChipName;
      }
    }
    return devices;
  }

  PmStart Start(const GpuDevice& device, const std::vector<std::string>& metrics,
                uint64_t interval_ns) override {
    PmStart start;
    CuptiCall call(&cupti_, &start);
    std::vector<uint8_t> availability;
    if (!CounterAvailability(device.id, &availability, &call)) return start;
    std::unique_ptr<HostObject> host =
        HostObject::Create(&cupti_, device.chip, availability, &call);
    if (host == nullptr) return start;
    // Each metric alone first: one the chip lacks must not cost the others.
    std::vector<std::string> names;
    for (size_t i = 0; i < metrics.size(); ++i) {
      std::unique_ptr<HostObject> probe =
          HostObject::Create(&cupti_, device.chip, availability, &call);
      if (probe == nullptr || probe->AddMetrics({metrics[i]}) != CUPTI_SUCCESS) continue;
      names.push_back(metrics[i]);
      start.collected.push_back(i);
    }
    if (names.empty()) {
      call.Ok(CUPTI_ERROR_NOT_SUPPORTED, "none of the set's metrics exists on this chip");
      return start;
    }
    std::vector<uint8_t> config;
    if (!call.Ok(host->AddMetrics(names), "cuptiProfilerHostConfigAddMetrics") ||
        (config = host->ConfigImage(&call)).empty()) {
      return start;
    }
    auto sampling = std::make_unique<CuptiPmDevice>(&cupti_, std::move(host));
    if (sampling->Begin(device.id, std::move(config), interval_ns, &call)) {
      start.device = std::move(sampling);
    }
    return start;
  }

  protocol::CounterSample ReadClocks() override {
    // CUPTI's timestamp between two monotonic reads: the pair's error is half their distance.
    const uint64_t before = protocol::MonotonicNowNs();
    uint64_t timestamp = 0;
    cupti_.cuptiGetTimestamp(&timestamp);
    const uint64_t after = protocol::MonotonicNowNs();
    return {timestamp, before + (after - before) / 2};
  }

 private:
  bool CounterAvailability(uint32_t device, std::vector<uint8_t>* image, CuptiCall* call) {
    auto params = Init<CUpti_PmSampling_GetCounterAvailability_Params>(
        CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE);
    params.deviceIndex = device;
    if (!call->Ok(cupti_.cuptiPmSamplingGetCounterAvailability(&params), "counter availability")) {
      return false;
    }
    image->resize(params.counterAvailabilityImageSize);
    params.pCounterAvailabilityImage = image->data();
    return call->Ok(cupti_.cuptiPmSamplingGetCounterAvailability(&params), "counter availability");
  }

  CudaDriver driver_;
  CuptiPm cupti_;
};

}  // namespace

std::unique_ptr<PmSamplingApi> MakeCuptiPmSamplingApi() {
  return std::make_unique<CuptiPmSamplingApi>();
}

}  // namespace prof::collector
