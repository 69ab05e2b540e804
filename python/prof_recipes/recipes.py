"""The recipes: which prof command and report (or rule) each one runs per report file."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Recipe:
    command: str  # "stats" or "analyze"
    selection: str  # the -r value, options included
    about: str


RECIPES = {
    "cuda_gpu_kern_sum": Recipe(
        "stats", "cuda_gpu_kern_sum", "kernel time per rank; per kernel the spread over ranks"),
    "nvtx_sum": Recipe(
        "stats", "nvtx_sum", "NVTX range (step) time per rank; the slowest ranks"),
    "gpu_gaps": Recipe(
        "analyze", "gpu_gaps:gap=1:rows=-1", "GPU idle stretches over 1 ms per rank"),
    "nccl_overlap": Recipe(
        "analyze", "nccl_overlap", "NCCL kernel time per rank and how much compute hides it"),
}
