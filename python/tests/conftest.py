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
def cli_mode(cli):
    """The CLI flags that select independent-thread (True) or lockstep
    (False) warp semantics, whichever the CLI's default is."""
    _, out, err = cli("--help")
    text = out + err

    def flags(independent):
        if independent:
            return ["--independent-threads"] if "--independent-threads" in text else []
        return ["--lockstep"] if "--lockstep" in text else []

    return flags


@pytest.fixture(scope="session")
def cli_flags(cli_mode):
    """CLI flags for the Python API's default: independent threads."""
    return cli_mode(True)


def independent_threads(manifest):
    """Whether a corpus manifest's launch uses independent-thread semantics."""
    return not manifest.get("lockstep", False)


@pytest.fixture
def write_cu(tmp_path):
    def write(source, name="kernel.cu"):
        path = tmp_path / name
        path.write_text(source)
        return path

    return write


def manifest(name):
    return json.loads((CORPUS / f"{name}.json").read_text())
