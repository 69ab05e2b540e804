"""Prints one `PASS`/`FAIL`/`INFO` line per assertion and remembers whether any failed.

For a mapping that differs, the FAIL line is followed by one indented line per differing key, so
the output says what is missing or extra, not just that something is.
"""


def _short(value, width=100):
    text = str(value)
    return text if len(text) <= width else text[: width - 3] + "..."


class Results:
    def __init__(self):
        self.failures = 0

    def report(self, ok, name, detail=""):
        if not ok:
            self.failures += 1
        print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
        return ok

    def info(self, name, detail):
        print(f"INFO {name}: {detail}", flush=True)

    def equal(self, name, expected, actual):
        """Exact equality; for dicts, lists each key whose count differs."""
        if isinstance(expected, dict):
            return self._equal_counts(name, dict(expected), dict(actual))
        return self.report(expected == actual, name, f"expected {expected}, got {actual}")

    def _equal_counts(self, name, expected, actual):
        ok = expected == actual
        total = sum(v for v in actual.values() if isinstance(v, int))
        self.report(ok, name, f"{len(actual)} keys, {total} in all" if ok else "differs")
        for key in sorted(set(expected) | set(actual), key=str):
            if expected.get(key) != actual.get(key):
                print(f"     {_short(key)}: expected {expected.get(key, 0)}, got {actual.get(key, 0)}")
        return ok
