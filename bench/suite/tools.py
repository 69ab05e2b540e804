"""What this machine offers the suite: prof and the workload binaries next to it, nsys, PyTorch and
a GPU. Each missing piece becomes a reason that skips the workloads or modes needing it."""
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

# Where nsys lives on the lent H200 (docs/testing-gpu.md), tried when it is not on PATH.
H200_NSYS = "/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys"


@dataclass
class Tools:
    prof: str
    bin_dir: str
    nsys: str | None
    nsys_env: dict = field(default_factory=dict)  # nsys's importer needs .device-libs there
    python: str = sys.executable
    perf: str | None = shutil.which("perf")  # Linux's perf: the kernel's own sampler, a floor
    missing: dict = field(default_factory=dict)  # need -> why it is missing

    def binary(self, name):
        return os.path.join(self.bin_dir, name)

    def library(self, name):
        """A library of prof's build: lib/ beside prof's bin/."""
        return os.path.join(os.path.dirname(self.bin_dir), "lib", name)

    def skip_reason(self, needs):
        """The first missing need of `needs`, as a sentence, or None when all are present."""
        for need in needs:
            if need.startswith("bin:") and not os.access(self.binary(need[4:]), os.X_OK):
                return f"{need[4:]} not built in {self.bin_dir}"
            if need.startswith("lib:") and not os.path.exists(self.library(need[4:])):
                return f"{need[4:]} not built beside {self.bin_dir}"
            if need in self.missing:
                return self.missing[need]
        return None


def _torch_state(python):
    """'gpu' when torch imports and sees a GPU, 'cpu' when it imports without, else None."""
    probe = "import torch; print('gpu' if torch.cuda.is_available() else 'cpu')"
    try:
        done = subprocess.run([python, "-c", probe], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _find_nsys(requested):
    if requested == "none":
        return None
    for candidate in (requested, os.environ.get("NSYS"), shutil.which("nsys"), H200_NSYS):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def _has_gpu():
    return any(os.path.exists(f"/dev/nvidia{i}") for i in range(16))


def discover(prof, nsys, device_libs):
    """Probes the machine once. `nsys` is a path, 'none' (never use it) or None (search)."""
    prof = os.path.abspath(prof)
    tools = Tools(prof=prof, bin_dir=os.path.dirname(prof), nsys=_find_nsys(nsys))
    if not os.access(prof, os.X_OK):
        tools.missing["prof"] = f"prof not found at {prof} (--prof PATH)"
    if tools.nsys is None:
        tools.missing["nsys"] = "nsys not found (--nsys PATH)" if nsys != "none" else "--nsys none"
    elif os.path.isdir(device_libs):
        previous = os.environ.get("LD_LIBRARY_PATH")
        libs = os.path.abspath(device_libs)
        tools.nsys_env["LD_LIBRARY_PATH"] = f"{libs}:{previous}" if previous else libs
    if tools.perf is None:
        tools.missing["perf"] = "perf not found (linux-perf)"
    if not _has_gpu():
        tools.missing["gpu"] = "no GPU (/dev/nvidia*)"
    state = _torch_state(tools.python)
    if state is None:
        tools.missing["torch"] = f"torch not importable by {tools.python}"
        tools.missing["torch_gpu"] = tools.missing["torch"]
    elif state == "cpu":
        tools.missing["torch_gpu"] = "torch sees no GPU"
    return tools
