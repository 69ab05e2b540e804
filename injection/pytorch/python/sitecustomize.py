"""prof's sitecustomize, first on the program's PYTHONPATH under `prof profile --pytorch=...`.

It arms prof's PyTorch ranges for the moment the program imports torch (prof never imports torch
itself), then runs the sitecustomize that Python would have run without prof: the next one on
sys.path after this directory, so a user's (or the distribution's) keeps working. usercustomize is
a module of its own that Python imports next, untouched by prof."""
import os
import sys


def _run_next_sitecustomize():
    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    entries = [os.path.abspath(entry or os.curdir) for entry in sys.path]
    later = entries[entries.index(here) + 1:] if here in entries else []
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", later)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


_modes = os.environ.get("PROF_PYTORCH", "")
if _modes:
    import prof_pytorch

    prof_pytorch.arm(_modes.split(","))
_run_next_sitecustomize()
