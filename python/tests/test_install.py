"""What `pip install ./python` installs: the package carries what it needs at
run time (its CUDA headers, exec's runtime, the simulee command) and uses its
own copies, not the checkout's, so it works wherever it is and wherever the
checkout goes."""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import simulee
from conftest import CORPUS, ROOT

PACKAGE = Path(simulee.__file__).resolve().parent

pytestmark = pytest.mark.skipif(
    not (PACKAGE / "cuda").is_dir(),
    reason="the package is not installed from a wheel with its CUDA headers (a build tree's python/)")


def _inside(path, directory):
    return Path(path).resolve().is_relative_to(Path(directory).resolve())


def test_the_module_compiles_against_the_cuda_headers_installed_with_it(monkeypatch):
    monkeypatch.delenv("SIMULEE_CUDA_PATH", raising=False)
    cuda = simulee.cuda_path()
    assert cuda == str(PACKAGE / "cuda")
    assert not _inside(cuda, ROOT / "build")  # never the checkout's build/cuda
    assert (Path(cuda) / "include" / "cuda_runtime_api.h").is_file()
    assert (Path(cuda) / "bin").is_dir()  # clang's test of a CUDA installation


def test_simulee_cuda_path_overrides_the_installed_headers(monkeypatch, tmp_path):
    monkeypatch.setenv("SIMULEE_CUDA_PATH", str(PACKAGE / "cuda"))
    assert simulee.cuda_path() == str(PACKAGE / "cuda")
    monkeypatch.setenv("SIMULEE_CUDA_PATH", str(tmp_path))
    with pytest.raises(simulee.Error, match="not a CUDA installation"):
        simulee.cuda_path()


def test_a_moved_copy_of_the_package_uses_its_own_files(tmp_path):
    site = tmp_path / "elsewhere"
    shutil.copytree(PACKAGE, site / "simulee", ignore=shutil.ignore_patterns("__pycache__"))
    script = (
        "import simulee, simulee._exec\n"
        "print(simulee.__file__)\n"
        "print(simulee.cuda_path())\n"
        "print(simulee._exec._runtime_dir())\n"
        "report = simulee.exec('examples/exec/vector_add.cu')\n"
        "print(report.exit_status, report.stdout.strip())\n"
        "print(simulee.load('corpus/reduce_missing_loop_barrier.cu').kernels[0].name)\n"
    )
    environment = {k: v for k, v in os.environ.items() if k != "SIMULEE_CUDA_PATH"}
    environment["PYTHONPATH"] = str(site)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=environment, capture_output=True,
                          text=True, check=True)
    module, cuda, runtime, result, kernel = done.stdout.splitlines()
    assert _inside(module, site) and cuda == str(site / "simulee" / "cuda")
    assert runtime == str(site / "simulee")
    assert result == "0 5000 elements: PASSED" and kernel == "reduce_missing_loop_barrier"


def _command():
    path = shutil.which("simulee", path=sysconfig.get_path("scripts"))
    if path is None:
        pytest.fail(f"no simulee command in {sysconfig.get_path('scripts')}")
    return path


def test_the_simulee_command_is_installed_with_the_package():
    assert (PACKAGE / "simulee").is_file() and os.access(PACKAGE / "simulee", os.X_OK)
    done = subprocess.run([_command(), "list", CORPUS / "reduce_missing_loop_barrier.cu"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    direct = subprocess.run([PACKAGE / "simulee", "list", CORPUS / "reduce_missing_loop_barrier.cu"], cwd=ROOT,
                            capture_output=True, text=True)
    assert done.stdout == direct.stdout and "reduce_missing_loop_barrier" in done.stdout


def test_the_installed_command_analyses_and_runs_programs_with_the_package_s_files():
    done = subprocess.run([_command(), "exec", "examples/exec/histogram_skewed.cu", "--keep-build"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 1 and done.stdout == "outliers: 8 (expected 8)\nPASSED\n"
    assert "[data-race]" in done.stderr
    executable = done.stderr.split("simulee: exec: built ", 1)[1].split("\n", 1)[0]
    try:
        # The program links the runtime installed with the package.
        needed = subprocess.run(["ldd", executable], capture_output=True, text=True).stdout
        assert str(PACKAGE / "libsimulee_cudart.so") in needed
    finally:
        shutil.rmtree(Path(executable).parent, ignore_errors=True)
    done = subprocess.run([_command(), CORPUS / "reduce_missing_loop_barrier.cu", "--generations", "1"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 1 and "[data-race]" in done.stdout
