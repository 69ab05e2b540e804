-- The rank of each process of a distributed job (torchrun, mpirun, srun), from the first of RANK,
-- OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID in its environment: one row per process,
-- for its main thread, as nsys maps threads of MPI jobs to ranks.
CREATE TABLE MPI_RANKS (
    globalTid                   INTEGER NOT NULL,
    rank                        INTEGER NOT NULL
);
