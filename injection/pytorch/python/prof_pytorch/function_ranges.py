"""functions-trace: NVTX ranges, in the domain "PyTorch", around the PyTorch calls listed in
docs/pytorch.md: every nn.Module's forward (named by module_names), autograd.backward and
autograd.grad (so loss.backward()), each optimizer class's step and zero_grad, DataLoader's
__iter__ and __next__, the batch fetch in DataLoader workers, torch.save, torch.load and
torch.cuda.synchronize. Wrapped at the class or module attribute, so calls made after
`import torch` see them; ranges are per thread (NVTX push/pop)."""
import functools
import threading

from prof_pytorch import module_names
from _prof_nvtx import pop, push


def _wrap(owner, attribute, name):
    original = owner.__dict__.get(attribute) if isinstance(owner, type) else getattr(owner, attribute)
    if original is None or getattr(original, "_prof_range", None) is not None:
        return
    label = name.encode("utf-8")

    @functools.wraps(original)
    def traced(*args, **kwargs):
        push(label)
        try:
            return original(*args, **kwargs)
        finally:
            pop()

    traced._prof_range = label
    setattr(owner, attribute, traced)


def _trace_optimizers(optimizer):
    """Each optimizer class's step, named by its class, wrapped at the first construction of one
    of its instances: after PyTorch's own profiling hook on step (it wraps the class's step there),
    so that prof's range encloses the scope PyTorch opens. zero_grad likewise where a class has
    its own; the inherited one is Optimizer.zero_grad."""
    _wrap(optimizer, "zero_grad", "Optimizer.zero_grad")
    original_init = optimizer.__init__

    @functools.wraps(original_init)
    def init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        cls = type(self)
        _wrap(cls, "step", cls.__name__ + ".step")
        _wrap(cls, "zero_grad", cls.__name__ + ".zero_grad")

    optimizer.__init__ = init


class _ModuleRanges:
    """Global forward pre/post hooks: a range per module call, per thread."""

    def __init__(self):
        self._local = threading.local()

    def _stack(self):
        stack = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    def before(self, module, inputs):
        stack = self._stack()
        names = stack[-1][1] if stack else None
        name = names.name_of(module) if names is not None else None
        if name is None:  # a root: no module runs, or this one is outside the running root
            names = module_names.names_of_root(module)
            name = names.name_of(module)
        stack.append((id(module), names))
        push(name)

    def after(self, module, inputs, outputs):
        # Pops down to this module's entry: a submodule whose forward raised (caught by this one)
        # had no post hook on PyTorch before 2.0.
        stack = self._stack()
        key = id(module)
        while stack:
            pop()
            if stack.pop()[0] == key:
                break


def _hook_modules(torch):
    ranges = _ModuleRanges()
    hooks = torch.nn.modules.module
    hooks.register_module_forward_pre_hook(ranges.before)
    try:  # PyTorch 2.0 and later: the post hook runs when forward raises, too
        hooks.register_module_forward_hook(ranges.after, always_call=True)
    except TypeError:
        hooks.register_module_forward_hook(ranges.after)


def start(torch):
    _hook_modules(torch)
    _wrap(torch.autograd, "backward", "autograd.backward")
    _wrap(torch.autograd, "grad", "autograd.grad")
    _trace_optimizers(torch.optim.Optimizer)
    data = torch.utils.data
    _wrap(data.DataLoader, "__iter__", "DataLoader.__iter__")
    _wrap(data.dataloader._BaseDataLoaderIter, "__next__", "DataLoader.__next__")
    _wrap(data._utils.fetch._MapDatasetFetcher, "fetch", "DataLoader.fetch")
    _wrap(data._utils.fetch._IterableDatasetFetcher, "fetch", "DataLoader.fetch")
    _wrap(torch, "save", "torch.save")
    _wrap(torch, "load", "torch.load")
    _wrap(torch.cuda, "synchronize", "torch.cuda.synchronize")
