"""Shared fixtures: the repository root, the CLI (for comparisons), and a
helper that writes a small CUDA file."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"


def cli_binary():
    """The simulee command of the main build (SIMULEE_CLI overrides)."""
    path = os.environ.get("SIMULEE_CLI") or str(ROOT / "build" / "simulee")
    return path if Path(path).exists() else shutil.which("simulee")


@pytest.fixture(scope="session")
def cli():
    binary = cli_binary()
    if not binary:
        pytest.skip("the simulee command is not built (cmake --build build)")

    def run(*args):
        done = subprocess.run([binary, *map(str, args)], cwd=ROOT, capture_output=True, text=True)
        return done.returncode, done.stdout, done.stderr

    return run


@pytest.fixture(scope="session")
def cli_flags(cli):
    """CLI flags that select the Python API's default warp semantics
    (independent threads) whichever default the CLI has."""
    _, out, err = cli("--help")
    return ["--independent-threads"] if "--independent-threads" in out + err else []


@pytest.fixture
def write_cu(tmp_path):
    def write(source, name="kernel.cu"):
        path = tmp_path / name
        path.write_text(source)
        return path

    return write


def manifest(name):
    return json.loads((CORPUS / f"{name}.json").read_text())
