#include "collector/record_dispatcher.h"

#include <utility>

namespace prof::collector {

void RecordDispatcher::Register(protocol::RecordKind kind, size_t min_size, Handler handler) {
  entries_.at(static_cast<size_t>(kind)) = {min_size, std::move(handler)};
}

void RecordDispatcher::Dispatch(const ProcessStream& process,
                                const protocol::RecordHeader& record) {
  const auto index = static_cast<size_t>(record.kind);
  if (index >= kMaxKinds || !entries_[index].handler) {
    ++unknown_records_;
  } else if (record.size < entries_[index].min_size) {
    ++malformed_records_;
  } else {
    entries_[index].handler(process, record);
  }
}

}  // namespace prof::collector
