#!/usr/bin/env python3
"""Tests of check_cuda_report.py without a GPU: a hand-made report of a correct cuda_threads trace
passes; reports with one defect each fail on exactly the assertion that covers the defect; the
nsys reference export compared with itself shows no difference. Run: python3 tests/gpu/test_check_cuda_report.py
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "check_cuda_report.py")
TORCH_MIX = os.path.join(HERE, "..", "data", "nsys-torch_mix", "torch_mix.sqlite")
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)

from fake_cuda_report import FakeReport  # noqa: E402

MAIN_TID, WORKER_TID = 100, 101


def write_threads_report(path, defect=None):
    """The trace cuda_threads.cu should give; `defect` names one thing to get wrong."""
    report = FakeReport(path)
    for tid, range_name, kernel, launches, stream in ((MAIN_TID, "main-work", "main_kernel", 3, 13),
                                                       (WORKER_TID, "worker-work", "worker_kernel", 5, 14)):
        range_start = report.tick()
        report.api(tid, "cudaStreamCreate_v3020")
        report.api(tid, "cudaMalloc_v3020")
        for i in range(launches):
            lost = defect == "lost launch call" and kernel == "worker_kernel" and i == 0
            correlation = report.api(tid, "cudaLaunchKernel_v7000", record=not lost)
            early = report.clock - 120 if defect == "kernel before its call" and i == 1 else None
            report.kernel(correlation, kernel, stream, (2, 1, 1), (128, 1, 1), start=early)
        if defect == "extra kernel" and kernel == "main_kernel":
            report.kernel(report.api(tid, "cudaLaunchKernel_v7000"), kernel, stream, (2, 1, 1), (128, 1, 1))
        report.sync(report.api(tid, "cudaStreamSynchronize_v3020"), stream, 3,
                    after_call=defect == "sync after its call" and kernel == "main_kernel")
        range_end = report.tick()
        if defect == "range closed early" and kernel == "worker_kernel":
            range_end = range_start + 10
        report.push_pop(tid, range_name, range_start, range_end)
    report.close()


def run_checker(*arguments):
    done = subprocess.run([sys.executable, CHECKER, *arguments], capture_output=True, text=True)
    return done.returncode, done.stdout


def failed_names(output):
    return sorted(line[5:].split(":")[0] for line in output.splitlines() if line.startswith("FAIL ")
                  and "failed assertion" not in line)


class SingleReportTest(unittest.TestCase):
    def check(self, defect):
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "report.sqlite")
            write_threads_report(path, defect)
            return run_checker("cuda_threads", path)

    def test_correct_trace_passes(self):
        code, output = self.check(None)
        self.assertEqual(failed_names(output), [], output)
        self.assertEqual(code, 0)
        self.assertIn("PASS GPU operations per (NVTX range of the call, label, API): 2 keys, 8 in all", output)
        self.assertIn("PASS 0 failed assertion(s)", output)

    def test_missing_launch_call_fails(self):
        code, output = self.check("lost launch call")
        self.assertEqual(code, 1)
        self.assertEqual(failed_names(output), [
            "GPU operations per (NVTX range of the call, label, API)",
            "RUNTIME calls per API (base name)",
            "every KERNEL row has a RUNTIME row with its correlationId"])
        self.assertIn("     ('worker-work', 'worker_kernel', 'cudaLaunchKernel'): expected 5, got 4", output)

    def test_kernel_before_its_call_fails(self):
        code, output = self.check("kernel before its call")
        self.assertEqual(code, 1)
        self.assertEqual(failed_names(output), ["every KERNEL row starts after its RUNTIME call"])
        self.assertIn("FAIL every KERNEL row starts after its RUNTIME call: 2 of 8 start before the call", output)

    def test_extra_kernel_fails(self):
        code, output = self.check("extra kernel")
        self.assertEqual(code, 1)
        self.assertEqual(failed_names(output), [
            "GPU operations per (NVTX range of the call, label, API)",
            "RUNTIME calls per API (base name)",
            "kernels per (name, grid, block, static shared, dynamic shared)",
            "kernels per name"])
        self.assertIn("     main_kernel: expected 3, got 4", output)

    def test_launch_outside_its_range_fails(self):
        code, output = self.check("range closed early")
        self.assertEqual(code, 1)
        self.assertEqual(failed_names(output), ["GPU operations per (NVTX range of the call, label, API)"])
        self.assertIn("     ('(no range)', 'worker_kernel', 'cudaLaunchKernel'): expected 0, got 5", output)

    def test_sync_after_its_call_fails(self):
        code, output = self.check("sync after its call")
        self.assertEqual(code, 1)
        self.assertEqual(failed_names(output), ["every SYNCHRONIZATION row with a RUNTIME call lies inside it"])
        self.assertIn("FAIL every SYNCHRONIZATION row with a RUNTIME call lies inside it: 1 of 2 do not: "
                      "['cudaStreamSynchronize']", output)

    def test_unknown_program_is_a_usage_error(self):
        code, _ = run_checker("no_such_program", TORCH_MIX)
        self.assertEqual(code, 2)


class CompareNsysTest(unittest.TestCase):
    def test_nsys_export_equals_itself(self):
        code, output = run_checker("--compare-nsys", TORCH_MIX, TORCH_MIX)
        self.assertEqual(code, 0, output)
        self.assertEqual(failed_names(output), [])
        self.assertIn("PASS kernels by short name: equal to nsys: 321 prof, 321 nsys", output)
        self.assertIn("PASS memcpy by kind, src -> dst, bytes: equal to nsys: 121 prof, 121 nsys", output)
        self.assertIn("PASS NVTX ranges by name: equal to nsys: 121 prof, 121 nsys", output)
        self.assertIn("INFO API names only nsys has: none", output)
        self.assertIn("PASS total GPU kernel time within 5% (or 1 us) of nsys: prof 3149835 ns, nsys 3149835 ns, +0.00%",
                      output)

    def test_different_report_fails(self):
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "prof.sqlite")
            write_threads_report(path)
            code, output = run_checker("--compare-nsys", path, TORCH_MIX)
        self.assertEqual(code, 1)
        self.assertIn("FAIL kernels by short name: equal to nsys: 8 prof, 321 nsys", output)
        self.assertIn("memcpy HtoD pinned->device 4194304B", output)
        self.assertIn("INFO API names only prof has: none", output)
        self.assertIn("INFO API names with different counts: ['cudaLaunchKernel_v7000', 'cudaMalloc_v3020', "
                      "'cudaStreamCreate_v3020', 'cudaStreamSynchronize_v3020']", output)
        self.assertIn("cuKernelGetName", output)
        self.assertIn("  <-- only nsys", output)



class TimingDependentCompareTest(unittest.TestCase):
    """A second run of a PyTorch loop creates and polls events differently: with --timing-dependent,
    event ids and queries are shown but only the other syncs and the event records must be equal."""

    def compare_with(self, change, *options):
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "prof.sqlite")
            shutil.copyfile(TORCH_MIX, path)
            db = sqlite3.connect(path)
            db.executescript(change)
            db.commit()
            db.close()
            return run_checker("--compare-nsys", *options, path, TORCH_MIX)

    # One more event created early: every id after it is one higher. And one stream query (its
    # row has no RUNTIME call, as in nsys's exports).
    SHIFTED_IDS_AND_A_QUERY = """
        UPDATE CUPTI_ACTIVITY_KIND_CUDA_EVENT SET eventId = eventId + 1;
        UPDATE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION SET eventId = eventId + 1 WHERE eventId < 4294967295;
        INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, contextId, streamId,
            correlationId, globalPid, syncType, eventId, eventSyncId)
            SELECT start, end, deviceId, contextId, streamId, 999999999, globalPid, syncType, eventId,
                eventSyncId FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE eventId = 4294967295 LIMIT 1;
    """

    def test_strict_comparison_fails_on_ids_and_queries(self):
        code, output = self.compare_with(self.SHIFTED_IDS_AND_A_QUERY)
        self.assertEqual(code, 1)
        self.assertEqual(failed_names(output), [
            "CUDA_EVENT by API, stream, eventId, eventSyncId",
            "SYNCHRONIZATION by API, syncType, stream, eventId, eventSyncId"])

    def test_timing_dependent_comparison_shows_them_as_info(self):
        code, output = self.compare_with(self.SHIFTED_IDS_AND_A_QUERY, "--timing-dependent")
        self.assertEqual(code, 0, output)
        self.assertIn("PASS SYNCHRONIZATION but queries, by API, syncType, stream: equal to nsys: "
                      "121 prof, 121 nsys", output)
        self.assertIn("INFO SYNCHRONIZATION of queries, by API, syncType: same as nsys: False: "
                      "1 prof, 0 nsys", output)
        self.assertIn("PASS CUDA_EVENT by API, stream: equal to nsys: 41 prof, 41 nsys", output)
        self.assertIn("INFO CUDA_EVENT eventIds: same as nsys: False: 41 prof, 41 nsys", output)

    def test_timing_dependent_comparison_fails_on_a_missing_wait(self):
        code, output = self.compare_with("""
            DELETE FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE rowid = (
                SELECT s.rowid FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION s
                JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = s.correlationId
                JOIN StringIds n ON n.id = r.nameId WHERE n.value = 'cudaStreamWaitEvent_v3020' LIMIT 1);
        """, "--timing-dependent")
        self.assertEqual(code, 1)
        self.assertEqual(failed_names(output), ["SYNCHRONIZATION but queries, by API, syncType, stream"])


if __name__ == "__main__":
    unittest.main()
