-- An empty stand-in for nsys's MPI_RANKS (the rank of each thread of an MPI or torchrun job), for
-- reports without ranks, so that analyze_nccl_kernels reads the same SQL on every report.
CREATE TEMP TABLE IF NOT EXISTS MPI_RANKS (
    globalTid   INTEGER NOT NULL,
    rank        INTEGER NOT NULL
);
