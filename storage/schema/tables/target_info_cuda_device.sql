-- Which CUDA device ids each process used.
CREATE TABLE TARGET_INFO_CUDA_DEVICE (
    gpuId                       INTEGER,
    cudaId                      INTEGER NOT NULL,
    pid                         INTEGER NOT NULL
);
