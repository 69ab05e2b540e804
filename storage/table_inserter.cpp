#include "storage/table_inserter.h"

#include <utility>

namespace prof::storage {

RowBatch TableInserter::TakeBatch(ByteBuffer spare_bytes) {
  RowBatch batch = std::move(open_);
  open_ = RowBatch();
  open_.table = this;
  open_.bytes = std::move(spare_bytes);
  open_.bytes.Clear();
  return batch;
}

}  // namespace prof::storage
