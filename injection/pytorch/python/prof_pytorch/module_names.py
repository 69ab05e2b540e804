"""Names of nn.Module calls for functions-trace: `<path in its model> (<class>)`.

A module called while no other module's forward runs on the thread is a root: its path is its class
name (`Net`), and its submodules' paths follow named_modules() from it (`Net.layer1.0.conv1`).
The map of a root is built at its first call and rebuilt once when a module called inside it is
missing from it (a submodule added later); a module that is no submodule of the running root (a
loss module called inside forward, say) is a root of its own."""
import weakref

_maps = weakref.WeakKeyDictionary()  # root module -> _RootNames


class _RootNames:
    def __init__(self, root):
        self._root = weakref.ref(root)
        self._names = {}
        self._foreign = set()  # ids of modules known to be outside this root
        self._rebuild(root)

    def _rebuild(self, root):
        prefix = type(root).__name__
        self._names = {
            id(module): ("%s%s (%s)" % (prefix, "." + path if path else "",
                                        type(module).__name__)).encode("utf-8", "replace")
            for path, module in root.named_modules()
        }

    def name_of(self, module):
        """The module's name under this root as UTF-8 bytes, or None when it is not under it."""
        key = id(module)
        name = self._names.get(key)
        if name is None and key not in self._foreign:
            root = self._root()
            if root is not None:
                self._rebuild(root)
                name = self._names.get(key)
            if name is None:
                self._foreign.add(key)
        return name


def names_of_root(root):
    names = _maps.get(root)
    if names is None:
        names = _maps[root] = _RootNames(root)
    return names
