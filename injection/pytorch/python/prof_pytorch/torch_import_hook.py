"""Runs a function right after a module's first import, from a finder on sys.meta_path.

The finder answers only for that name: it asks the finders behind it for the module's spec and
wraps the loader so that the function runs once the module's code has executed (a failed import
runs nothing). It leaves sys.meta_path at its first use, so later imports never pass through it."""
import sys


class _LoaderThenCall:
    def __init__(self, loader, after):
        self._loader = loader
        self._after = after

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        # The module keeps its own loader (importlib.resources and pickling look at it).
        module.__loader__ = self._loader
        if getattr(module, "__spec__", None) is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        self._after(module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


class _ImportWatcher:
    def __init__(self, name, after):
        self._name = name
        self._after = after

    def find_spec(self, name, path=None, target=None):
        if name != self._name:
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            find_spec = getattr(finder, "find_spec", None)
            spec = find_spec(name, path, target) if find_spec is not None else None
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _LoaderThenCall(spec.loader, self._after)
                return spec
        return None


def call_after_import(name, after):
    """Calls after(module) once `name` has been imported; at once when it already is."""
    if name in sys.modules:
        after(sys.modules[name])
    else:
        sys.meta_path.insert(0, _ImportWatcher(name, after))
