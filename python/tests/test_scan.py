"""scan(): one row per kernel, locally and on a Dask LocalCluster, equal;
a column per finding kind and the reason of every row not judged; a
crashing worker loses one file, never the scan; the Dask example script."""

import subprocess
import sys

import pandas as pd
import pytest

import simulee
from conftest import CORPUS, ROOT

SEARCH = {"generations": 1, "population": 4}


@pytest.fixture(scope="module")
def local_scan():
    return simulee.scan(CORPUS, jobs=2, progress=False, **SEARCH)


def test_local_scan_has_one_row_per_kernel(local_scan):
    files = [f for f in CORPUS.iterdir() if f.suffix in (".cu", ".ll", ".bc")]
    assert set(local_scan["file"]) == {str(f) for f in files}
    assert list(local_scan.columns) == ["file", "kernel", "verdict", "findings", *simulee.FINDING_KINDS,
                                        "launches", "seconds", "reason"]
    assert set(local_scan["verdict"]) <= set(simulee.VERDICTS)
    # The one corpus file with no kernel (a library linked into another) is
    # an error row; every other file is analysed.
    failed = local_scan[local_scan["verdict"] == "error"]
    assert list(failed["file"]) == [str(CORPUS / "linked_helper_lib.cu")]
    assert "no kernel found" in failed["reason"].iloc[0]
    row = local_scan[local_scan["kernel"] == "histogram_nonatomic"].iloc[0]
    assert row["verdict"] == "findings" and row["data-race"] >= 1
    row = local_scan[local_scan["kernel"] == "reduce_sequential"].iloc[0]
    assert row["verdict"] == "clean" and row["findings"] == 0 and row["launches"] > 0
    # Two kernels in one file: two rows.
    assert (local_scan["file"] == str(CORPUS / "device_helper.cu")).sum() == 2


def test_every_finding_kind_has_a_column_and_findings_count_the_warnings(local_scan):
    # The kinds are the detectors' (as the CLI's summary counts them) and
    # exec's host API errors.
    assert simulee.FINDING_KINDS == ("data-race", "redundant-barrier", "barrier-divergence", "out-of-bounds",
                                     "unreached-barrier", "uninitialized-read", "undefined-behavior",
                                     "assertion-failed", "atomicity-violation", "host-api-error")
    # A kernel with findings always counts at least one; a clean one none.
    assert (local_scan[local_scan["verdict"] == "findings"]["findings"] > 0).all()
    assert (local_scan[local_scan["verdict"] == "clean"]["findings"] == 0).all()
    assert local_scan["uninitialized-read"].sum() > 0
    # Notes (unreached barriers, same-value races) are counted by kind, not as findings.
    kinds = local_scan[list(simulee.FINDING_KINDS)].sum(axis=1)
    assert (kinds >= local_scan["findings"]).all()


def test_uninitialized_reads_and_undefined_behaviour_are_counted_and_inconclusive_rows_say_why(tmp_path):
    (tmp_path / "uninit.cu").write_text(
        "__global__ void uninit(int *out) {\n"
        "  __shared__ int tile[64];\n"
        "  out[threadIdx.x] = tile[threadIdx.x];\n"
        "}\n")
    (tmp_path / "shift.cu").write_text(
        "__global__ void shift(int *out) { out[threadIdx.x] = 1 << (threadIdx.x + 32); }\n")
    (tmp_path / "spin.cu").write_text(
        "__global__ void spin(int *out) {\n"
        "  for (;;)\n"
        "    out[threadIdx.x] = 1;\n"
        "}\n")
    frame = simulee.scan(tmp_path, jobs=2, progress=False, budget=10000, **SEARCH).set_index("kernel")
    assert frame.loc["uninit", "verdict"] == "findings"
    assert frame.loc["uninit", "findings"] == frame.loc["uninit", "uninitialized-read"] == 1
    assert frame.loc["shift", "verdict"] == "findings"
    assert frame.loc["shift", "findings"] == frame.loc["shift", "undefined-behavior"] == 1
    assert frame.loc["spin", "verdict"] == "inconclusive" and frame.loc["spin", "findings"] == 0
    reason = frame.loc["spin", "reason"]
    assert reason.startswith("no launch could be judged") and "does not terminate" in reason
    assert frame.loc["uninit", "reason"] == frame.loc["shift", "reason"] == ""


def test_dask_scan_equals_local_scan(local_scan):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        on_dask = simulee.scan(CORPUS, client=client, progress=False, **SEARCH)
    columns = [c for c in local_scan.columns if c != "seconds"]
    assert on_dask[columns].equals(local_scan[columns])


def test_a_file_that_fails_to_load_is_an_error_row(tmp_path):
    (tmp_path / "broken.cu").write_text("__global__ void broken(int *p) { p[0] = ; }\n")
    (tmp_path / "fine.cu").write_text("__global__ void fine(int *p) { p[threadIdx.x] = 1; }\n")
    frame = simulee.scan(tmp_path, jobs=1, progress=False, **SEARCH)
    assert list(frame["verdict"]) == ["error", "clean"]
    assert pd.isna(frame["kernel"].iloc[0]) and "broken.cu" in frame["reason"].iloc[0]


def test_a_crashing_worker_loses_only_its_file(tmp_path, monkeypatch):
    import simulee._scan as scan_module

    (tmp_path / "a.cu").write_text("__global__ void a(int *p) { p[threadIdx.x] = 1; }\n")
    (tmp_path / "b.cu").write_text("__global__ void b(int *p) { p[threadIdx.x] = 2; }\n")
    real = scan_module._worker_command

    def crash_on_a(options):
        command = real(options)
        # The worker exits hard (as a segfault would) when handed a.cu.
        return command[:1] + ["-c", "import sys, os\n"
                              "del sys.path[0]\n"
                              "from simulee._scan_worker import main\n"
                              "import simulee._scan as s\n"
                              "orig = s.scan_file\n"
                              "def f(file, options):\n"
                              "    if file.endswith('a.cu'): os._exit(139)\n"
                              "    return orig(file, options)\n"
                              "import simulee._scan_worker as w; w.scan_file = f\n"
                              "main(sys.argv[1])", command[-1]]

    monkeypatch.setattr(scan_module, "_worker_command", crash_on_a)
    frame = simulee.scan(tmp_path, jobs=1, progress=False, **SEARCH)
    assert list(frame["verdict"]) == ["error", "clean"]
    assert "exit status 139" in frame["reason"].iloc[0]


def test_a_failing_dask_task_loses_only_its_file(tmp_path, monkeypatch):
    distributed = pytest.importorskip("dask.distributed")
    import simulee._scan as scan_module

    (tmp_path / "a.cu").write_text("__global__ void a(int *p) { p[threadIdx.x] = 1; }\n")
    (tmp_path / "b.cu").write_text("__global__ void b(int *p) { p[threadIdx.x] = 2; }\n")
    real = scan_module.scan_file

    def dies_on_a(file, options=None):
        if file.endswith("a.cu"):
            raise RuntimeError("worker lost")  # what a KilledWorker looks like to the scan
        return real(file, options)

    monkeypatch.setattr(scan_module, "scan_file", dies_on_a)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        frame = simulee.scan(tmp_path, client=client, progress=False, **SEARCH)
    assert list(frame["verdict"]) == ["error", "clean"]
    assert "worker lost" in frame["reason"].iloc[0]


def test_the_dask_example_script_scans_on_local_worker_processes(tmp_path):
    pytest.importorskip("dask.distributed")
    (tmp_path / "racy.cu").write_text(
        "__global__ void racy(int *total) { *total += threadIdx.x; }\n")
    (tmp_path / "fine.cu").write_text("__global__ void fine(int *p) { p[threadIdx.x] = 1; }\n")
    # Worker processes import the script again: only its __main__ guard
    # keeps them from each starting a cluster.
    done = subprocess.run([sys.executable, ROOT / "python" / "examples" / "dask_scan.py", tmp_path, "2"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()
    assert len(rows) == 2 and "racy" in rows[1] and "findings" in rows[1], done.stdout
