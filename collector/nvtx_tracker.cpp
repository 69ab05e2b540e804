#include "collector/nvtx_tracker.h"

#include <cstring>
#include <string>
#include <string_view>

#include "collector/record_copy.h"
#include "collector/record_text.h"

namespace prof::collector {
namespace {

using protocol::NvtxPayloadKind;
using protocol::RecordHeader;
using protocol::RecordKind;

// ENUM_NSYS_EVENT_TYPE ids of the NVTX_EVENTS rows prof writes.
constexpr int32_t kNvtxCategoryEvent = 33;
constexpr int32_t kNvtxMarkEvent = 34;
constexpr int32_t kNvtxPushPopRangeEvent = 59;
constexpr int32_t kNvtxStartEndRangeEvent = 60;
constexpr int32_t kNvtxDomainCreateEvent = 75;
constexpr int32_t kNvtxDomainDestroyEvent = 76;
// ENUM_NSYS_EVENT_CLASS ids of CUDNN_EVENTS and CUBLAS_EVENTS rows.
constexpr int32_t kCudnnEventClass = 28;
constexpr int32_t kCublasEventClass = 29;

template <typename To, typename From>
To BitCast(From bits) {
  To value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// The payload column nsys fills for `kind`; 32-bit payloads arrive zero-extended.
void SetPayload(NvtxPayloadKind kind, uint64_t bits, storage::NvtxEventRow* row) {
  switch (kind) {
    case NvtxPayloadKind::kUnsignedInt64:
      row->uint64_value = static_cast<int64_t>(bits);
      break;
    case NvtxPayloadKind::kInt64:
      row->int64_value = static_cast<int64_t>(bits);
      break;
    case NvtxPayloadKind::kDouble:
      row->double_value = BitCast<double>(bits);
      break;
    case NvtxPayloadKind::kUnsignedInt32:
      row->uint32_value = static_cast<int64_t>(static_cast<uint32_t>(bits));
      break;
    case NvtxPayloadKind::kInt32:
      row->int32_value = static_cast<int32_t>(static_cast<uint32_t>(bits));
      break;
    case NvtxPayloadKind::kFloat:
      row->float_value = BitCast<float>(static_cast<uint32_t>(bits));
      break;
    case NvtxPayloadKind::kNone:
    case NvtxPayloadKind::kJsonRegistered:
      break;
  }
}

}  // namespace

void NvtxTracker::RegisterHandlers(RecordDispatcher* dispatcher) {
  // The dispatcher checks each record against its struct's size, so handlers copy it unchecked.
  const auto add = [this, dispatcher](RecordKind kind, size_t size, Handler handler) {
    dispatcher->Register(kind, size,
                         [this, handler](const ProcessStream& process, const RecordHeader& record) {
                           (this->*handler)(process, record, &processes_[process.stream_id]);
                         });
  };
  add(RecordKind::kNvtxDomainCreate, sizeof(protocol::NvtxDomainRecord),
      &NvtxTracker::OnDomainCreate);
  add(RecordKind::kNvtxLibraryDomain, sizeof(protocol::NvtxLibraryDomainRecord),
      &NvtxTracker::OnLibraryDomain);
  add(RecordKind::kNvtxDomainDestroy, sizeof(protocol::NvtxDomainRecord),
      &NvtxTracker::OnDomainDestroy);
  add(RecordKind::kNvtxStringRegister, sizeof(protocol::NvtxStringRecord),
      &NvtxTracker::OnStringRegister);
  add(RecordKind::kNvtxCategoryName, sizeof(protocol::NvtxCategoryRecord),
      &NvtxTracker::OnCategoryName);
  add(RecordKind::kNvtxPushPopRange, sizeof(protocol::NvtxEventRecord),
      &NvtxTracker::OnPushPopRange);
  add(RecordKind::kNvtxRangeStart, sizeof(protocol::NvtxEventRecord), &NvtxTracker::OnRangeStart);
  add(RecordKind::kNvtxRangeEnd, sizeof(protocol::NvtxRangeEndRecord), &NvtxTracker::OnRangeEnd);
  add(RecordKind::kNvtxMark, sizeof(protocol::NvtxEventRecord), &NvtxTracker::OnMark);
}

void NvtxTracker::OnProcessEnd(const ProcessStream& process, int64_t /*end_time*/) {
  const auto found = processes_.find(process.stream_id);
  if (found == processes_.end()) return;
  ProcessState& state = found->second;
  for (const auto& [range_id, row] : state.open_ranges)
    WriteUnclosed(protocol::NvtxLibrary::kNone, row);
  stats_.unmatched_range_ends += state.early_ends.size();
  processes_.erase(found);
}

void NvtxTracker::WriteUnclosed(protocol::NvtxLibrary library, const storage::NvtxEventRow& row) {
  ++stats_.unclosed_ranges;
  if (library == protocol::NvtxLibrary::kNone) writer_->Add<storage::kNvtxEventsTable>(row);
}

storage::NvtxEventRow NvtxTracker::EventRow(const ProcessStream& process,
                                            const RecordHeader& record, int32_t event_type) {
  const auto event = Copy<protocol::NvtxEventRecord>(record);
  storage::NvtxEventRow row;
  row.start = process.SessionTime(event.header.timestamp_ns);
  row.event_type = event_type;
  row.global_tid = process.GlobalTid(event.header.tid);
  row.domain_id = static_cast<int64_t>(event.domain_id);
  if (event.category != 0) row.category = static_cast<int32_t>(event.category);
  if (event.has_color != 0) row.color = event.color;
  const std::string_view text = TrailingText<protocol::NvtxEventRecord>(record, event.text_length);
  if (event.message_kind == protocol::NvtxMessageKind::kText) {
    row.text = std::string(text);
  } else if (event.message_kind == protocol::NvtxMessageKind::kRegistered) {
    row.text_id = writer_->InternString(text);
  }
  SetPayload(event.payload_kind, event.payload_bits, &row);
  return row;
}

void NvtxTracker::OnDomainCreate(const ProcessStream& process, const RecordHeader& record,
                                 ProcessState* /*state*/) {
  const auto domain = Copy<protocol::NvtxDomainRecord>(record);
  storage::NvtxEventRow row;
  row.start = process.SessionTime(domain.header.timestamp_ns);
  row.event_type = kNvtxDomainCreateEvent;
  row.global_tid = process.GlobalTid(domain.header.tid);
  row.domain_id = static_cast<int64_t>(domain.domain_id);
  row.text = std::string(TrailingText<protocol::NvtxDomainRecord>(record, domain.text_length));
  writer_->Add<storage::kNvtxEventsTable>(row);
}

void NvtxTracker::OnLibraryDomain(const ProcessStream& /*process*/, const RecordHeader& record,
                                  ProcessState* state) {
  const auto domain = Copy<protocol::NvtxLibraryDomainRecord>(record);
  if (domain.library != protocol::NvtxLibrary::kCublas &&
      domain.library != protocol::NvtxLibrary::kCudnn) {
    ++stats_.malformed_records;
    return;
  }
  state->library_domains[domain.domain_id] = domain.library;
}

protocol::NvtxLibrary NvtxTracker::LibraryOf(const ProcessState& state, uint64_t domain_id) {
  const auto found = state.library_domains.find(domain_id);
  return found == state.library_domains.end() ? protocol::NvtxLibrary::kNone : found->second;
}

void NvtxTracker::WriteLibraryCall(protocol::NvtxLibrary library,
                                   const storage::NvtxEventRow& range) {
  storage::LibraryCallRow row;
  row.start = range.start;
  row.end = *range.end;
  row.global_tid = range.global_tid;
  row.name_id = range.text_id ? *range.text_id : writer_->InternString(range.text.value_or(""));
  if (library == protocol::NvtxLibrary::kCublas) {
    row.event_class = kCublasEventClass;
    writer_->Add<storage::kCublasEventsTable>(row);
  } else {
    row.event_class = kCudnnEventClass;
    writer_->Add<storage::kCudnnEventsTable>(row);
  }
}

void NvtxTracker::OnDomainDestroy(const ProcessStream& process, const RecordHeader& record,
                                  ProcessState* /*state*/) {
  const auto domain = Copy<protocol::NvtxDomainRecord>(record);
  storage::NvtxEventRow row;
  row.start = process.SessionTime(domain.header.timestamp_ns);
  row.event_type = kNvtxDomainDestroyEvent;
  row.global_tid = process.GlobalTid(domain.header.tid);
  row.domain_id = static_cast<int64_t>(domain.domain_id);
  writer_->Add<storage::kNvtxEventsTable>(row);
}

// A registered string is a StringIds row; the events that use it carry its text themselves.
void NvtxTracker::OnStringRegister(const ProcessStream& /*process*/, const RecordHeader& record,
                                   ProcessState* /*state*/) {
  const auto string = Copy<protocol::NvtxStringRecord>(record);
  writer_->InternString(TrailingText<protocol::NvtxStringRecord>(record, string.text_length));
}

void NvtxTracker::OnCategoryName(const ProcessStream& process, const RecordHeader& record,
                                 ProcessState* /*state*/) {
  const auto category = Copy<protocol::NvtxCategoryRecord>(record);
  storage::NvtxEventRow row;
  row.start = process.SessionTime(category.header.timestamp_ns);
  row.event_type = kNvtxCategoryEvent;
  row.category = static_cast<int32_t>(category.category);
  row.global_tid = process.GlobalTid(category.header.tid);
  row.domain_id = static_cast<int64_t>(category.domain_id);
  row.text = std::string(TrailingText<protocol::NvtxCategoryRecord>(record, category.text_length));
  writer_->Add<storage::kNvtxEventsTable>(row);
}

void NvtxTracker::OnMark(const ProcessStream& process, const RecordHeader& record,
                         ProcessState* state) {
  const auto mark = Copy<protocol::NvtxEventRecord>(record);
  if (LibraryOf(*state, mark.domain_id) != protocol::NvtxLibrary::kNone) return;
  writer_->Add<storage::kNvtxEventsTable>(EventRow(process, record, kNvtxMarkEvent));
}

// A push/pop range arrives whole. One its process ended with (NvtxRangeEnding) was taken from
// the thread's open ranges by the launcher: open at a normal exit, it keeps a NULL end, as nsys
// writes a range that never ended; open at a death, it ends when the launcher saw the death and
// its endGlobalTid is the process's (a tid of 0), which marks it.
void NvtxTracker::OnPushPopRange(const ProcessStream& process, const RecordHeader& record,
                                 ProcessState* state) {
  const auto range = Copy<protocol::NvtxEventRecord>(record);
  const protocol::NvtxLibrary library = LibraryOf(*state, range.domain_id);
  storage::NvtxEventRow row = EventRow(process, record, kNvtxPushPopRangeEvent);
  switch (range.ending) {
    case protocol::NvtxRangeEnding::kPopped:
      row.end = process.SessionTime(range.end_ns);
      break;
    case protocol::NvtxRangeEnding::kOpenAtExit:
      return WriteUnclosed(library, row);
    case protocol::NvtxRangeEnding::kOpenAtDeath:
      ++stats_.ranges_ended_by_death;
      row.end = process.SessionTime(range.end_ns);
      row.end_global_tid = process.GlobalPid();
      break;
    default:
      ++stats_.malformed_records;
      return;
  }
  if (library == protocol::NvtxLibrary::kNone) {
    writer_->Add<storage::kNvtxEventsTable>(row);
  } else {
    WriteLibraryCall(library, row);
  }
}

void NvtxTracker::OnRangeStart(const ProcessStream& process, const RecordHeader& record,
                               ProcessState* state) {
  const auto start = Copy<protocol::NvtxEventRecord>(record);
  if (LibraryOf(*state, start.domain_id) != protocol::NvtxLibrary::kNone) return;
  storage::NvtxEventRow row = EventRow(process, record, kNvtxStartEndRangeEvent);
  row.range_id = static_cast<int64_t>(start.range_id);
  const auto early = state->early_ends.find(start.range_id);
  if (early == state->early_ends.end()) {
    state->open_ranges[start.range_id] = std::move(row);
    return;
  }
  row.end = early->second.end;
  if (early->second.end_global_tid != row.global_tid)
    row.end_global_tid = early->second.end_global_tid;
  writer_->Add<storage::kNvtxEventsTable>(row);
  state->early_ends.erase(early);
}

void NvtxTracker::OnRangeEnd(const ProcessStream& process, const RecordHeader& record,
                             ProcessState* state) {
  const auto end = Copy<protocol::NvtxRangeEndRecord>(record);
  if (LibraryOf(*state, end.domain_id) != protocol::NvtxLibrary::kNone) return;
  const int64_t end_time = process.SessionTime(end.header.timestamp_ns);
  const int64_t end_global_tid = process.GlobalTid(end.header.tid);
  const auto open = state->open_ranges.find(end.range_id);
  if (open == state->open_ranges.end()) {
    // The start may still be in another thread's buffer; wait for it, within bounds.
    if (state->early_ends.size() < kMaxEarlyEnds) {
      state->early_ends[end.range_id] = {end_time, end_global_tid};
    } else {
      ++stats_.unmatched_range_ends;
    }
    return;
  }
  storage::NvtxEventRow& row = open->second;
  row.end = end_time;
  if (end_global_tid != row.global_tid) row.end_global_tid = end_global_tid;
  writer_->Add<storage::kNvtxEventsTable>(row);
  state->open_ranges.erase(open);
}

}  // namespace prof::collector
