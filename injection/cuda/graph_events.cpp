#include "injection/cuda/graph_events.h"

#include "injection/core/event_stream.h"
#include "injection/protocol/cuda_records.h"

namespace prof::injection::cuda {
namespace {

using protocol::CudaGraphEventKind;

const CuptiFunctions* g_cupti = nullptr;

uint32_t GraphId(CUgraph graph) {
  uint32_t id = protocol::kNoGraphId;
  if (graph == nullptr || g_cupti->cuptiGetGraphId(graph, &id) != CUPTI_SUCCESS) {
    return protocol::kNoGraphId;
  }
  return id;
}

uint32_t GraphExecId(CUgraphExec graph_exec) {
  uint32_t id = protocol::kNoGraphId;
  if (graph_exec == nullptr || g_cupti->cuptiGetGraphExecId(graph_exec, &id) != CUPTI_SUCCESS) {
    return protocol::kNoGraphId;
  }
  return id;
}

}  // namespace

CUptiResult EnableGraphEvents(const CuptiFunctions* cupti, CUpti_SubscriberHandle subscriber) {
  g_cupti = cupti;
  for (CUpti_CallbackId cbid : {CUPTI_CBID_RESOURCE_GRAPH_CREATED, CUPTI_CBID_RESOURCE_GRAPH_CLONED,
                                CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED}) {
    const CUptiResult result =
        cupti->cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, cbid);
    if (result != CUPTI_SUCCESS) return result;
  }
  return CUPTI_SUCCESS;
}

void OnGraphResource(CUpti_CallbackId cbid, const CUpti_ResourceData& data) {
  const auto* graph = static_cast<const CUpti_GraphData*>(data.resourceDescriptor);
  if (graph == nullptr) return;
  protocol::CudaGraphEventRecord record{};
  record.header.kind = protocol::RecordKind::kCudaGraphEvent;
  record.header.timestamp_ns = MonotonicNowNs();
  record.graph_id = GraphId(graph->graph);
  record.original_graph_id = protocol::kNoGraphId;
  record.graph_exec_id = protocol::kNoGraphId;
  switch (cbid) {
    case CUPTI_CBID_RESOURCE_GRAPH_CREATED:
      record.kind = CudaGraphEventKind::kGraphCreated;
      break;
    case CUPTI_CBID_RESOURCE_GRAPH_CLONED:
      record.kind = CudaGraphEventKind::kGraphCloned;
      record.original_graph_id = GraphId(graph->originalGraph);
      break;
    case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED:
      record.kind = CudaGraphEventKind::kGraphExecCreated;
      record.graph_exec_id = GraphExecId(graph->graphExec);
      break;
    default:
      return;
  }
  EmitRecord(&record.header, sizeof(record));
}

}  // namespace prof::injection::cuda
