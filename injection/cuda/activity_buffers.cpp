#include "injection/cuda/activity_buffers.h"

#include <pthread.h>

#include <cstdlib>

#include "injection/core/event_stream.h"
#include "injection/cuda/activity_records.h"

namespace prof::injection::cuda {
namespace {

// Sends converted records into this process's event stream.
class EventStreamSink final : public RecordSink {
 public:
  void Send(protocol::RecordHeader* record, size_t fixed_size, const char* text,
            size_t text_length) override {
    if (text_length == 0) {
      EmitRecord(record, fixed_size);
    } else {
      EmitRecordWithText(record, fixed_size, text, text_length);
    }
  }
  uint32_t SendingThread() override { return CurrentTid(); }
};

const CuptiFunctions* g_cupti = nullptr;
pthread_mutex_t g_pool_mutex = PTHREAD_MUTEX_INITIALIZER;
uint8_t* g_free_buffers[kMaxBuffers];
size_t g_free_count = 0;
size_t g_allocated = 0;

pthread_mutex_t g_convert_mutex = PTHREAD_MUTEX_INITIALIZER;
// Never destroyed: CUPTI may complete a buffer after static destructors ran (its worker thread,
// or a cudaDeviceReset in a program's destructor), and the converter must still be there.
ActivityConverter& Converter() {
  static auto* converter = new ActivityConverter(new EventStreamSink());
  return *converter;
}

uint8_t* TakeBuffer() {
  pthread_mutex_lock(&g_pool_mutex);
  uint8_t* buffer = nullptr;
  if (g_free_count > 0) {
    buffer = g_free_buffers[--g_free_count];
  } else if (g_allocated < kMaxBuffers) {
    // CUPTI requires 8-byte alignment.
    buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kActivityBufferBytes));
    if (buffer != nullptr) ++g_allocated;
  }
  pthread_mutex_unlock(&g_pool_mutex);
  return buffer;
}

void ReturnBuffer(uint8_t* buffer) {
  pthread_mutex_lock(&g_pool_mutex);
  g_free_buffers[g_free_count++] = buffer;
  pthread_mutex_unlock(&g_pool_mutex);
}

void CUPTIAPI OnBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = TakeBuffer();
  *size = *buffer != nullptr ? kActivityBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void SendDropped(CUcontext context, uint32_t stream_id) {
  size_t dropped = 0;
  if (g_cupti->cuptiActivityGetNumDroppedRecords(context, stream_id, &dropped) != CUPTI_SUCCESS ||
      dropped == 0) {
    return;
  }
  protocol::CudaDroppedRecordsRecord record{};
  record.header.kind = protocol::RecordKind::kCudaDroppedRecords;
  record.header.timestamp_ns = MonotonicNowNs();
  record.dropped = dropped;
  record.stream_id = stream_id;
  EmitRecord(&record.header, sizeof(record));
}

void CUPTIAPI OnBufferCompleted(CUcontext context, uint32_t stream_id, uint8_t* buffer, size_t size,
                                size_t valid_size) {
  {
    ScopedPatientEmit patient;
    pthread_mutex_lock(&g_convert_mutex);
    ActivityConverter& converter = Converter();
    CUpti_Activity* record = nullptr;
    while (buffer != nullptr &&
           g_cupti->cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
      converter.Convert(*record);
    }
    SendDropped(context, stream_id);
    pthread_mutex_unlock(&g_convert_mutex);
  }
  if (buffer != nullptr) ReturnBuffer(buffer);
}

}  // namespace

CUptiResult RegisterActivityBuffers(const CuptiFunctions* cupti) {
  g_cupti = cupti;
  return cupti->cuptiActivityRegisterCallbacks(OnBufferRequested, OnBufferCompleted);
}

}  // namespace prof::injection::cuda
