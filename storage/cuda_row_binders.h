// How the CUDA tables' rows (cuda_rows.h) are inserted: their InsertSpecs and Bind()s, like
// row_binders.h does for the other tables. Columns left out of a spec are always NULL.
#pragma once

#include "storage/cuda_rows.h"
#include "storage/row_binders.h"

namespace prof::storage {

inline constexpr InsertSpec kCudaRuntimeInsert{
    "CUPTI_ACTIVITY_KIND_RUNTIME",
    "start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId"};
inline constexpr InsertSpec kCublasEventsInsert{"CUBLAS_EVENTS",
                                                "start, end, eventClass, globalTid, nameId"};
inline constexpr InsertSpec kCudnnEventsInsert{"CUDNN_EVENTS",
                                               "start, end, eventClass, globalTid, nameId"};
inline constexpr InsertSpec kCudaCallchainsInsert{
    "CUDA_CALLCHAINS", "id, symbol, module, unresolved, originalIP, stackDepth"};
inline constexpr InsertSpec kCudaKernelInsert{
    "CUPTI_ACTIVITY_KIND_KERNEL",
    "start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, "
    "demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, "
    "gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, "
    "localMemoryPerThread, localMemoryTotal, gridId, sharedMemoryExecuted, graphNodeId, "
    "sharedMemoryLimitConfig"};
inline constexpr InsertSpec kCudaMemcpyInsert{
    "CUPTI_ACTIVITY_KIND_MEMCPY",
    "start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, bytes, "
    "copyKind, srcKind, dstKind, srcDeviceId, srcContextId, dstDeviceId, dstContextId, "
    "graphNodeId, copyCount"};
inline constexpr InsertSpec kCudaMemsetInsert{
    "CUPTI_ACTIVITY_KIND_MEMSET",
    "start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, value, "
    "bytes, graphNodeId, memKind"};
inline constexpr InsertSpec kCudaSyncInsert{
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
    "start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, "
    "syncType, eventId, eventSyncId"};
inline constexpr InsertSpec kCudaGraphTraceInsert{
    "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
    "start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, "
    "graphId, graphExecId"};
inline constexpr InsertSpec kCudaGraphEventsInsert{
    "CUDA_GRAPH_EVENTS",
    "start, end, eventClass, globalTid, nameId, graphId, originalGraphId, graphExecId"};
inline constexpr InsertSpec kCudaMemoryUsageInsert{
    "CUDA_GPU_MEMORY_USAGE_EVENTS",
    "start, globalPid, deviceId, contextId, address, pc, bytes, memKind, memoryOperationType, "
    "name, correlationId, streamId, localMemoryPoolAddress, localMemoryPoolReleaseThreshold, "
    "localMemoryPoolSize, localMemoryPoolUtilizedSize, importedMemoryPoolAddress, "
    "importedMemoryPoolProcessId"};
inline constexpr InsertSpec kCudaEventInsert{
    "CUPTI_ACTIVITY_KIND_CUDA_EVENT",
    "deviceId, contextId, greenContextId, streamId, correlationId, globalPid, eventId, "
    "eventSyncId"};
inline constexpr InsertSpec kGpuInfoInsert{
    "TARGET_INFO_GPU",
    "vmId, id, name, busLocation, l2CacheSize, totalMemory, memoryBandwidth, clockRate, smCount, "
    "uuid, cuDevice, constantMemory, maxIPC, maxRegistersPerBlock, maxShmemPerBlock, "
    "maxShmemPerBlockOptin, maxShmemPerSm, maxRegistersPerSm, threadsPerWarp, asyncEngines, "
    "maxWarpsPerSm, maxBlocksPerSm, maxThreadsPerBlock, maxBlockDimX, maxBlockDimY, "
    "maxBlockDimZ, maxGridDimX, maxGridDimY, maxGridDimZ, computeMajor, computeMinor, smMajor, "
    "smMinor"};
inline constexpr InsertSpec kCudaDeviceInsert{"TARGET_INFO_CUDA_DEVICE", "gpuId, cudaId, pid"};
inline constexpr InsertSpec kCudaStreamInsert{
    "TARGET_INFO_CUDA_STREAM", "streamId, hwId, vmId, processId, contextId, priority, flag"};
inline constexpr InsertSpec kCudaContextInsert{
    "TARGET_INFO_CUDA_CONTEXT_INFO",
    "nullStreamId, hwId, vmId, processId, deviceId, contextId, parentContextId, isGreenContext"};

void Bind(const CudaApiCallRow& row, RowBinder* binder);
void Bind(const LibraryCallRow& row, RowBinder* binder);
void Bind(const CallchainFrameRow& row, RowBinder* binder);
void Bind(const CudaKernelRow& row, RowBinder* binder);
void Bind(const CudaMemcpyRow& row, RowBinder* binder);
void Bind(const CudaMemsetRow& row, RowBinder* binder);
void Bind(const CudaSyncRow& row, RowBinder* binder);
void Bind(const CudaGraphTraceRow& row, RowBinder* binder);
void Bind(const CudaGraphEventRow& row, RowBinder* binder);
void Bind(const CudaEventRow& row, RowBinder* binder);
void Bind(const CudaMemoryUsageRow& row, RowBinder* binder);
void Bind(const GpuInfoRow& row, RowBinder* binder);
void Bind(const CudaDeviceRow& row, RowBinder* binder);
void Bind(const CudaStreamRow& row, RowBinder* binder);
void Bind(const CudaContextRow& row, RowBinder* binder);

}  // namespace prof::storage
