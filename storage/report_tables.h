// Every table a report can hold, in the order the kAlways ones are created. A new table is one
// definition under storage/tables/ and one line here; ReportWriter::Add<kItsTable>() then fills it.
#pragma once

#include "storage/table_definition.h"
#include "storage/tables/cuda_tables.h"
#include "storage/tables/enum_tables.h"
#include "storage/tables/gpu_metrics_tables.h"
#include "storage/tables/host_tables.h"
#include "storage/tables/session_tables.h"

namespace prof::storage {

using ReportTables = TableList<
    kStringIdsTable, kMetaDataExportTable, kMetaDataCaptureTable, kTargetInfoSessionStartTimeTable,
    kProcessesTable, kThreadNamesTable, kProfSessionTable, kNvtxEventsTable, kOsrtApiTable,
    kOsrtCallchainsTable, kCompositeEventsTable, kSamplingCallchainsTable, kSchedEventsTable,
    kCuptiActivityKindRuntimeTable, kCuptiActivityKindKernelTable, kCuptiActivityKindMemcpyTable,
    kCuptiActivityKindMemsetTable, kCuptiActivityKindSynchronizationTable,
    kCuptiActivityKindGraphTraceTable, kCuptiActivityKindCudaEventTable, kCudaGraphEventsTable,
    kCudaCallchainsTable, kMpiRanksTable, kCublasEventsTable, kCudnnEventsTable,
    kCudaGpuMemoryUsageEventsTable, kDiagnosticEventTable, kProfStatsTable, kTargetInfoGpuTable,
    kTargetInfoCudaDeviceTable, kTargetInfoCudaStreamTable, kTargetInfoCudaContextInfoTable,
    kGpuMetricsTable, kTargetInfoGpuMetricsTable, kEnumNsysEventType, kEnumNsysEventClass,
    kEnumCudaMemcpyOper, kEnumCudaMemKind, kEnumCuptiSyncType, kEnumCudaKernelLaunchType,
    kEnumCudaFuncCacheConfig, kEnumCudaSharedMemLimitConfig, kEnumCuptiStreamType,
    kEnumCudaDevMemEventOper, kEnumDiagnosticTimestampSource, kEnumDiagnosticSourceType,
    kEnumDiagnosticSeverityLevel, kEnumSamplingThreadState, kEnumStackUnwindMethod,
    kEnumSchedulingThreadBlock>;

}  // namespace prof::storage
