"""prof's multi-report recipes: `prof stats` / `prof analyze` over many ranks' reports, spread over
the machines of a Dask cluster (dask.distributed, the engine nsys's recipes use).

Each report is analyzed by the `prof` binary on the worker that runs its task (the reports live on
a file system every worker sees); the client combines the per-report tables into the per-rank
table and the summary across ranks, with the rule of prof's C++ code (stats/rank_summary.h), so
the numbers equal those of `prof stats`/`prof analyze` on the same files.

    python3 -m prof_recipes cuda_gpu_kern_sum --dask tcp://head:8786 /shared/run/
    python3 -m prof_recipes nvtx_sum /shared/run/          # a local Dask cluster

docs/multi-gpu.md, "Many reports on a cluster: Dask", says how to set up the workers.
"""

from prof_recipes.driver import run_recipe
from prof_recipes.recipes import RECIPES

__all__ = ["RECIPES", "run_recipe"]
