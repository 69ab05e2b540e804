"""python3 -m prof_recipes RECIPE [--dask ADDRESS] [--workers N] [--prof PATH] REPORTS...

Prints {"per_rank": [...], "across_ranks": [...]} as JSON. Without --dask a local Dask cluster of
--workers processes (default: the CPUs) runs the tasks."""

import argparse
import json
import os
import sys

from prof_recipes.driver import run_recipe
from prof_recipes.recipes import RECIPES


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="python3 -m prof_recipes",
        description="Run a prof recipe over many reports on a Dask cluster.",
        epilog="Recipes: " + "; ".join(f"{n}: {r.about}" for n, r in RECIPES.items()))
    parser.add_argument("recipe", choices=sorted(RECIPES))
    parser.add_argument("reports", nargs="+",
                        help="report files, directories (their *.sqlite files) or patterns")
    parser.add_argument("--dask", metavar="ADDRESS",
                        help="the scheduler, e.g. tcp://head:8786 (default: a local cluster)")
    parser.add_argument("--workers", type=int, default=os.cpu_count(),
                        help="worker processes of the local cluster")
    parser.add_argument("--prof", help="the prof binary on the workers (default: this install's)")
    return parser.parse_args(argv)


def main(argv=None):
    arguments = parse_arguments(argv)
    from dask.distributed import Client, LocalCluster  # only once the arguments are good

    try:
        if arguments.dask:
            client = Client(arguments.dask)
        else:
            client = Client(LocalCluster(n_workers=arguments.workers, threads_per_worker=1,
                                         processes=True, dashboard_address=None))
        with client:
            result = run_recipe(arguments.recipe, arguments.reports, client, arguments.prof)
    except (ValueError, RuntimeError, OSError) as error:
        print(f"prof_recipes: error: {error}", file=sys.stderr)
        return 1
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
