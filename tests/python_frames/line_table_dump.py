"""Prints, for every code object of the threading module compiled by this interpreter, its first
line, co_linetable as hex and what co_lines() says of each range ("start:end:line", line -1 for
none): the reference line_table_test.cpp decodes the tables against."""
import threading
import types


def walk(code):
    yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from walk(constant)


with open(threading.__file__) as source:
    module = compile(source.read(), threading.__file__, "exec")
for code in walk(module):
    ranges = " ".join(f"{start}:{end}:{-1 if line is None else line}"
                      for start, end, line in code.co_lines())
    print(code.co_firstlineno, code.co_linetable.hex() or "-", ranges)
