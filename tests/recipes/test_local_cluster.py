"""The Dask driver (python/prof_recipes) on a LocalCluster of several worker processes over 32
generated rank reports: every recipe's per-rank table and summary across ranks must equal, number
for number, what prof's own multi-report run (one process, its thread pool) prints for the same
files. Run by CTest (tests/recipes/CMakeLists.txt)."""

import argparse
import json
import os
import shutil
import subprocess
import sys
import unittest

RANKS = 32
EVENTS = 1400  # 200 steps per rank
SLOW_RANKS = ["7", "21"]
ARGS = None


def prof_tables(command, selection, directory, out_dir):
    """prof's multi-report json of one report or rule: (per-rank rows, across-ranks rows)."""
    os.makedirs(out_dir)
    subprocess.run([ARGS.prof, command, "-q", "-f", "json", "-o", os.path.join(out_dir, "out"),
                    "-r", selection, directory], check=True)
    names = sorted(os.listdir(out_dir))  # out_<report>[_<options>].json, then its _ranks.json
    assert len(names) == 2 and names[1].endswith("_ranks.json"), names

    def load(name):
        with open(os.path.join(out_dir, name)) as file:
            return json.load(file)
    return load(names[0]), load(names[1])


class LocalClusterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from dask.distributed import Client, LocalCluster

        shutil.rmtree(ARGS.work_dir, ignore_errors=True)
        cls.reports = os.path.join(ARGS.work_dir, "reports")
        os.makedirs(cls.reports)
        subprocess.run([ARGS.make_reports, cls.reports, str(RANKS), str(EVENTS)] + SLOW_RANKS,
                       check=True)
        cls.cluster = LocalCluster(n_workers=3, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
        cls.client = Client(cls.cluster)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        shutil.rmtree(ARGS.work_dir, ignore_errors=True)

    def check_recipe(self, name):
        from prof_recipes import RECIPES, run_recipe

        recipe = RECIPES[name]
        result = run_recipe(name, [self.reports], self.client, prof=ARGS.prof)
        per_rank, across = prof_tables(recipe.command, recipe.selection, self.reports,
                                       os.path.join(ARGS.work_dir, name))
        self.assertEqual(result["per_rank"], per_rank)
        self.assertEqual(result["across_ranks"], across)
        return result

    def test_kernel_summary_names_the_slow_ranks(self):
        result = self.check_recipe("cuda_gpu_kern_sum")
        gemm = next(row for row in result["across_ranks"] if row["Name"].startswith("gemm_bwd"))
        self.assertEqual(gemm["Ranks"], RANKS)
        self.assertEqual(gemm["Outlier Ranks"], " ".join(SLOW_RANKS))

    def test_step_time_per_rank(self):
        result = self.check_recipe("nvtx_sum")
        step = result["across_ranks"][0]
        self.assertEqual(step["Range"], ":step")
        self.assertIn(step["Max Rank"], SLOW_RANKS)

    def test_gpu_gaps_per_rank(self):
        result = self.check_recipe("gpu_gaps")
        self.assertEqual({str(row["Rank"]) for row in result["per_rank"]}, set(SLOW_RANKS))

    def test_nccl_overlap_per_rank(self):
        result = self.check_recipe("nccl_overlap")
        self.assertEqual(len(result["per_rank"]), RANKS)

    def test_a_bad_report_fails_with_prof_error(self):
        from prof_recipes import run_recipe

        with self.assertRaisesRegex(RuntimeError, "report file not found"):
            run_recipe("nvtx_sum", ["/nonexistent.sqlite"], self.client, prof=ARGS.prof)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    for option in ("--prof", "--make-reports", "--python-path", "--work-dir"):
        parser.add_argument(option, required=True)
    ARGS, rest = parser.parse_known_args()
    sys.path.insert(0, ARGS.python_path)
    unittest.main(argv=[sys.argv[0]] + rest)
