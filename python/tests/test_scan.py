"""scan(): one row per kernel, locally and on a Dask LocalCluster, equal;
a crashing worker loses one file, never the scan."""

import pandas as pd
import pytest

import simulee
from conftest import CORPUS

SEARCH = {"generations": 1, "population": 4}


@pytest.fixture(scope="module")
def local_scan():
    return simulee.scan(CORPUS, jobs=2, progress=False, **SEARCH)


def test_local_scan_has_one_row_per_kernel(local_scan):
    files = [f for f in CORPUS.iterdir() if f.suffix in (".cu", ".ll", ".bc")]
    assert set(local_scan["file"]) == {str(f) for f in files}
    assert list(local_scan.columns) == ["file", "kernel", "verdict", "findings", *simulee.FINDING_KINDS,
                                        "launches", "seconds", "error"]
    assert set(local_scan["verdict"]) <= set(simulee.VERDICTS)
    # The one corpus file with no kernel (a library linked into another) is
    # an error row; every other file is analysed.
    failed = local_scan[local_scan["error"] != ""]
    assert list(failed["file"]) == [str(CORPUS / "linked_helper_lib.cu")]
    assert "no kernel found" in failed["error"].iloc[0]
    row = local_scan[local_scan["kernel"] == "histogram_nonatomic"].iloc[0]
    assert row["verdict"] == "findings" and row["data-race"] >= 1
    row = local_scan[local_scan["kernel"] == "reduce_sequential"].iloc[0]
    assert row["verdict"] == "clean" and row["findings"] == 0 and row["launches"] > 0
    # Two kernels in one file: two rows.
    assert (local_scan["file"] == str(CORPUS / "device_helper.cu")).sum() == 2


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
    assert pd.isna(frame["kernel"].iloc[0]) and "broken.cu" in frame["error"].iloc[0]


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
    assert "exit status 139" in frame["error"].iloc[0]


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
    assert "worker lost" in frame["error"].iloc[0]
