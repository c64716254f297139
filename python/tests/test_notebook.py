"""The example notebook runs from top to bottom without error."""

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "explore.ipynb"


def test_explore_notebook_runs():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    outputs = "".join(o.get("text", "") for cell in notebook.cells if cell.cell_type == "code"
                      for o in cell.get("outputs", []))
    assert "data race on shared 'sd'" in outputs
    assert "findings: []" in outputs
    images = sum("image/png" in o.get("data", {}) for cell in notebook.cells if cell.cell_type == "code"
                 for o in cell.get("outputs", []))
    assert images == 4
