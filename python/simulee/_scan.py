"""`scan`: every kernel of many files, one row each, in local processes or
as tasks on a Dask cluster."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from ._core import FINDING_KINDS, Error

SOURCE_SUFFIXES = (".cu", ".ll", ".bc")
COLUMNS = ["file", "kernel", "verdict", "findings", *FINDING_KINDS, "launches", "seconds", "reason"]

PathsLike = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]


def _files(paths: PathsLike) -> List[str]:
    """Files named, and the kernel files under directories named, sorted."""
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    files: List[str] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            files += sorted(str(p) for p in path.rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file())
        else:
            files.append(str(path))
    return files


def _row(file: str, kernel: Optional[str], verdict: str, seconds: float, reason: str = "",
         findings: Sequence[Any] = (), launches: int = 0) -> Dict[str, Any]:
    """As the CLI's summary counts them: ``findings`` the warnings (bugs), a
    kind's column every finding of that kind, notes included."""
    row: Dict[str, Any] = {"file": file, "kernel": kernel, "verdict": verdict}
    row["findings"] = sum(1 for finding in findings if finding.is_bug)
    row.update(dict.fromkeys(FINDING_KINDS, 0))
    for finding in findings:
        row[finding.kind] += 1
    row.update(launches=launches, seconds=seconds, reason=reason)
    return row


def _reason(report: Any) -> str:
    """Why a kernel was not judged (inconclusive, not launched), in the
    CLI's words less the verdict; empty for clean and findings."""
    if report.verdict in ("clean", "findings"):
        return ""
    return report.verdict_text.removeprefix(f"{report.verdict}: ")


def scan_file(file: str, options: Optional[Dict[str, Any]] = None) -> List[Dict[str, Any]]:
    """The rows of one file: one per kernel, or one ``error`` row (kernel
    ``None``) when the file cannot be loaded. A task of :func:`scan`."""
    from ._analysis import analyze
    from ._launch import load

    options = dict(options or {})
    load_options = {k: options.pop(k) for k in ("defines", "include_dirs", "opt") if k in options}
    options.setdefault("jobs", 1)  # files are the unit of parallelism
    started = time.perf_counter()
    try:
        program = load(file, **load_options)
    except Error as error:
        return [_row(file, None, "error", time.perf_counter() - started, str(error))]
    rows = []
    for kernel in program.kernels:
        if rows:  # the first kernel's time includes loading the file
            started = time.perf_counter()
        try:
            report = analyze(program, kernel.symbol, progress=False, **options)
        except Error as error:
            rows.append(_row(file, kernel.name, "error", time.perf_counter() - started, str(error)))
            continue
        rows.append(_row(file, kernel.name, report.verdict, time.perf_counter() - started,
                         _reason(report.kernels[0]), report.findings, report.launches))
    return rows


def _lost(file: str, cause: BaseException) -> List[Dict[str, Any]]:
    return [_row(file, None, "error", 0.0, f"{file}: the worker analysing it failed: {cause!r}")]


def _worker_command(options: Dict[str, Any]) -> List[str]:
    # sys.path[0] is the current directory: dropped, so that the installed
    # package is imported even from inside the source tree's python/.
    bootstrap = "import sys; del sys.path[0]; from simulee._scan_worker import main; main(sys.argv[1])"
    return [sys.executable, "-c", bootstrap, json.dumps(options)]


def _scan_local(files: List[str], options: Dict[str, Any], jobs: int, bar: Any) -> List[Dict[str, Any]]:
    """Files in `jobs` worker processes (simulee._scan_worker), one
    file at a time each: a path goes down a worker's stdin, its rows come
    back as one JSON line. A worker that dies loses only the file it had;
    the next file gets a fresh worker."""
    todo: "queue.Queue[str]" = queue.Queue()
    for file in files:
        todo.put(file)
    rows: List[Dict[str, Any]] = []
    lock = threading.Lock()

    def work() -> None:
        worker: Optional[subprocess.Popen] = None
        try:
            while True:
                try:
                    file = todo.get_nowait()
                except queue.Empty:
                    return
                if worker is None or worker.poll() is not None:
                    worker = subprocess.Popen(_worker_command(options), stdin=subprocess.PIPE,
                                              stdout=subprocess.PIPE, text=True, bufsize=1)
                try:
                    assert worker.stdin is not None and worker.stdout is not None
                    worker.stdin.write(file + "\n")
                    worker.stdin.flush()
                    line = worker.stdout.readline()
                    result = json.loads(line) if line else _lost(file, RuntimeError(
                        f"the worker process died (exit status {worker.wait()})"))
                except (OSError, ValueError) as cause:
                    result = _lost(file, cause)
                with lock:
                    rows.extend(result)
                    bar.update(1)
        finally:
            if worker is not None and worker.poll() is None:
                assert worker.stdin is not None
                worker.stdin.close()
                worker.wait()

    threads = [threading.Thread(target=work, daemon=True) for _ in range(max(1, min(jobs, len(files))))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return rows


def _scan_dask(files: List[str], options: Dict[str, Any], client: Any, bar: Any) -> List[Dict[str, Any]]:
    from dask.distributed import as_completed

    futures = client.map(scan_file, files, options=options, pure=False, key=[f"simulee-scan-{i}-{Path(f).name}" for i, f in enumerate(files)])
    file_of = {future.key: file for future, file in zip(futures, files)}
    rows: List[Dict[str, Any]] = []
    for future in as_completed(futures):
        file = file_of[future.key]
        try:
            rows += future.result()
        except Exception as cause:  # noqa: BLE001 - KilledWorker and the like: one file lost
            rows += _lost(file, cause)
        bar.update(1)
    return rows


def scan(
    paths: PathsLike,
    *,
    client: Any = None,
    jobs: Optional[int] = None,
    progress: bool = True,
    **options: Any,
) -> Any:
    """Analyses every kernel of every file (directories: every ``.cu``,
    ``.ll`` and ``.bc`` under them), like ``simulee scan``.

    Returns a ``pandas.DataFrame`` with one row per kernel, sorted by file
    and kernel: ``file``, ``kernel`` (``None`` when the file could not be
    loaded), ``verdict``, ``findings`` (warnings: the bugs behind a
    ``"findings"`` verdict), one count per finding kind
    (:data:`FINDING_KINDS`, notes included, as the CLI's summary counts
    them; ``host-api-error`` only :func:`simulee.exec` finds),
    ``launches``, ``seconds`` and ``reason``: for an ``error`` row the
    error, for ``inconclusive`` (or ``not launched``) why no launch was
    judged, as the CLI's verdict says it; empty otherwise.

    Files run in ``jobs`` local processes (default: one per core), or as
    tasks on a Dask cluster when ``client`` (a ``dask.distributed.Client``,
    ``pip install "./python[dask]"``) is given; results stream back as they
    finish, and a worker that crashes loses only its file's result (an
    ``error`` row), never the scan. ``options`` go to
    :func:`simulee.analyze` (``seed``, ``generations``,
    ``independent_threads``, ...) and :func:`simulee.load` (``defines``,
    ``include_dirs``, ``opt``).

    A Dask cluster of local processes starts each worker by importing the
    script that made it, so a script needs the ``__main__`` guard
    (``python/examples/dask_scan.py``)::

        import simulee
        from dask.distributed import Client, LocalCluster

        if __name__ == "__main__":
            with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
                table = simulee.scan("corpus", client=client)
            print(table[table.verdict != "clean"])
    """
    import pandas as pd
    from tqdm.auto import tqdm

    files = _files(paths)
    bar = tqdm(total=len(files), desc="scan", disable=not progress, leave=False)
    try:
        if client is not None:
            rows = _scan_dask(files, options, client, bar)
        else:
            rows = _scan_local(files, options, jobs or os.cpu_count() or 1, bar)
    finally:
        bar.close()
    frame = pd.DataFrame(rows, columns=COLUMNS)
    order = frame["kernel"].fillna("")
    return (frame.assign(_kernel=order).sort_values(["file", "_kernel"], kind="stable")
            .drop(columns="_kernel").reset_index(drop=True))

