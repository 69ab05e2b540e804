-- The GPUs with device-memory allocations (memKind 2, Device): each gets a memory counter.
SELECT DISTINCT deviceId FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memKind = 2;
