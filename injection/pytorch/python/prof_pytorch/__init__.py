"""prof's PyTorch ranges (`prof profile --pytorch=...`, docs/pytorch.md), set up inside the program
when it imports torch. Nothing here imports torch: a program that never does pays only for a finder
on sys.meta_path that looks at the names of imported modules."""
import sys

from prof_pytorch import torch_import_hook

_AUTOGRAD_MODES = ("autograd-nvtx", "autograd-shapes-nvtx")


def _warn(message):
    sys.stderr.write("prof: --pytorch: %s\n" % message)


def _on_torch_imported(torch, modes):
    # Each part fails alone, with one line: the program always runs on.
    if any(mode in modes for mode in _AUTOGRAD_MODES):
        try:
            from prof_pytorch import operator_ranges

            problem = operator_ranges.start(torch, "autograd-shapes-nvtx" in modes)
            if problem:
                _warn("no operator ranges: " + problem)
        except Exception as error:  # prof's failure must not become the program's
            _warn("no operator ranges: %s: %s" % (type(error).__name__, error))
    if "functions-trace" in modes:
        try:
            from prof_pytorch import function_ranges

            function_ranges.start(torch)
        except Exception as error:
            _warn("no function ranges: %s: %s" % (type(error).__name__, error))


def arm(modes):
    """Sets up the ranges of `modes` (--pytorch's names) once torch has been imported."""
    modes = frozenset(mode for mode in modes if mode)
    if modes:
        torch_import_hook.call_after_import("torch", lambda torch: _on_torch_imported(torch, modes))
