"""Maps a recipe over report files on a Dask cluster and reduces on the client."""

import glob
import os

from prof_recipes.per_report import run_on_report
from prof_recipes.rank_summary import across_ranks, per_rank_table
from prof_recipes.recipes import RECIPES


def expand_inputs(arguments):
    """As prof's stats/report_inputs.h: a directory is its *.sqlite files sorted by name, a
    pattern the files it matches, sorted; anything else is kept as given."""
    paths = []
    for argument in arguments:
        if os.path.isdir(argument):
            found = sorted(os.path.join(argument, name) for name in os.listdir(argument)
                           if name.endswith(".sqlite")
                           and os.path.isfile(os.path.join(argument, name)))
            if not found:
                raise ValueError(f"directory {argument} has no .sqlite reports")
            paths.extend(found)
        elif any(c in argument for c in "*?[") and not os.path.exists(argument):
            found = sorted(glob.glob(argument))
            if not found:
                raise ValueError(f"no report file matches {argument}")
            paths.extend(found)
        else:
            paths.append(argument)
    return paths


def default_prof():
    """The prof of this installation: bin/prof beside lib/python/prof_recipes."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", "bin", "prof"))


def run_recipe(name, arguments, client, prof=None):
    """{"per_rank": [...], "across_ranks": [...] or None} of recipe `name` over the reports.

    One Dask task per report, in input order; gather keeps that order whatever order the
    tasks finish in, and only the small per-report tables travel to the client."""
    recipe = RECIPES[name]
    paths = expand_inputs(arguments)
    prof = prof or default_prof()
    futures = client.map(run_on_report, [prof] * len(paths), [recipe.command] * len(paths),
                         [recipe.selection] * len(paths), paths, pure=False)
    files = [(path, rank, rows) for path, (rank, rows) in zip(paths, client.gather(futures))]
    return {"per_rank": per_rank_table(files), "across_ranks": across_ranks(files)}
