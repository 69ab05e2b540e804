// CUDA graph creation, cloning and instantiation, from CUPTI's resource callbacks: the rows of
// nsys's CUDA_GRAPH_EVENTS, which tie the graphExecId of each graph launch back to the graph it
// came from. Runs on the application thread that made the graph; one record per event, no
// allocation.
#pragma once

#include <cupti.h>

#include "injection/cuda/cupti_library.h"

namespace prof::injection::cuda {

// Enables the resource callbacks OnGraphResource handles on `subscriber`.
CUptiResult EnableGraphEvents(const CuptiFunctions* cupti, CUpti_SubscriberHandle subscriber);

// Handles one CUPTI_CB_DOMAIN_RESOURCE callback; ignores the cbids it does not record.
void OnGraphResource(CUpti_CallbackId cbid, const CUpti_ResourceData& data);

}  // namespace prof::injection::cuda
