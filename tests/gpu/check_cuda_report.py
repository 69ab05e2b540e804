#!/usr/bin/env python3
"""Checks CUDA reports in the nsys export schema (docs/testing-gpu.md). Python 3 stdlib only.

  check_cuda_report.py [--graph-trace=graph|node] <program> <report.sqlite>
      asserts the exact trace content of a tests/gpu/cuda program (cuda_streams, cuda_graph,
      cuda_threads); --graph-trace says how graphs were traced: graph-level GRAPH_TRACE rows
      (nsys's default) or node-level KERNEL/MEMSET rows with graphNodeId (`--cuda-graph-trace=node`)
  check_cuda_report.py --compare-nsys [--timing-dependent] <prof.sqlite> <nsys.sqlite>
      compares prof's report with nsys's export of the same program; --timing-dependent for a
      program whose event queries and event ids vary from run to run (PyTorch training loops)

Prints one PASS/FAIL/INFO line per assertion; exits 1 when one failed, 2 on bad arguments.
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "cuda_report"))

from compare_nsys import compare  # noqa: E402
from expectations import PROGRAMS, expected  # noqa: E402
from report import Report  # noqa: E402
from results import Results  # noqa: E402
from single_checks import SingleReportChecks  # noqa: E402


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare-nsys", action="store_true", help="compare a prof report with an nsys export")
    parser.add_argument("--timing-dependent", action="store_true",
                        help="with --compare-nsys: event queries and ids vary between runs")
    parser.add_argument("--graph-trace", choices=["graph", "node"], default="graph")
    parser.add_argument("first", help="program name, or prof.sqlite with --compare-nsys")
    parser.add_argument("second", help="report.sqlite, or nsys.sqlite with --compare-nsys")
    arguments = parser.parse_args()
    if not arguments.compare_nsys and arguments.first not in PROGRAMS:
        parser.error(f"unknown program {arguments.first!r}; known: {', '.join(sorted(PROGRAMS))}")
    for path in ([arguments.first] if arguments.compare_nsys else []) + [arguments.second]:
        if not os.path.isfile(path):
            parser.error(f"no such report: {path}")
    return arguments


def main():
    arguments = parse_arguments()
    results = Results()
    if arguments.compare_nsys:
        compare(Report(arguments.first), Report(arguments.second), results, arguments.timing_dependent)
    else:
        spec = expected(arguments.first, arguments.graph_trace)
        print(f"== {arguments.first} ({arguments.graph_trace}-level graph tracing): {arguments.second}")
        SingleReportChecks(Report(arguments.second), spec, results).run()
    print(f"{'FAIL' if results.failures else 'PASS'} {results.failures} failed assertion(s)")
    return 1 if results.failures else 0


if __name__ == "__main__":
    sys.exit(main())
