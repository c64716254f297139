"""Plots of a launch's Memory-Access Model and of a search (matplotlib).

- :func:`access_map`: thread x byte offset of one variable, coloured by
  visit order, reads/writes/atomics marked, race pairs drawn.
- :func:`fitness`: the search's F and address range per generation.
- :func:`barrier_timeline`: which warps waited at which barrier when.

Each takes an optional ``ax`` and returns the axes it drew on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ._analysis import Report
    from ._launch import Launch

_MARKERS = {"read": ("o", "read"), "write": ("s", "write"), "atomic": ("^", "atomic"),
            "block-scoped atomic": ("v", "block-scoped atomic")}


def _axes(ax: Any, **figure: Any) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots(**figure)[1]


def access_map(launch: "Launch", variable: str, ax: Any = None, *, block: Optional[int] = None) -> Any:
    """Every access to ``variable`` as a point (x: the thread, linear in the
    grid; y: byte offset), coloured by visit order (barrier interval),
    marked by action (circle read, square write, triangle atomic). The
    launch's data races on ``variable`` are drawn as red lines between the
    two racing threads at the racing offset. ``block`` keeps one block only.
    Needs ``record="full"``."""
    import matplotlib.pyplot as plt

    accesses = launch.model.accesses()
    rows = accesses[accesses["variable"] == variable]
    if block is not None:
        rows = rows[rows["block_linear"] == block]
    ax = _axes(ax, figsize=(8, 4.5))
    threads_per_block = launch.settings.threads_per_block
    thread = rows["block_linear"].astype(np.int64) * threads_per_block + rows["thread_linear"]
    orders = rows["visit_order"]
    norm = plt.Normalize(vmin=0, vmax=max(int(orders.max()) if len(orders) else 0, 1))
    scatter = None
    for action, (marker, label) in _MARKERS.items():
        chosen = rows["action"] == action
        if not chosen.any():
            continue
        scatter = ax.scatter(thread[chosen], rows["offset"][chosen], c=orders[chosen], cmap="viridis",
                             norm=norm, marker=marker, s=14, label=label, edgecolors="none")
    races = [f for f in launch.findings if f.kind == "data-race" and f.variable == variable]
    for index, race in enumerate(races):
        if len(race.sites) != 2 or race.example_offset is None:
            continue
        xs = [s.block_linear * threads_per_block + s.thread_linear for s in race.sites]
        if block is not None and any(s.block_linear != block for s in race.sites):
            continue
        ax.plot(xs, [race.example_offset] * 2, color="red", linewidth=1.5, marker="x", markersize=9,
                label="race" if index == 0 else None, zorder=5)
    if scatter is not None:
        plt.colorbar(scatter, ax=ax, label="visit order")
    ax.set_xlabel("thread (linear in the grid)")
    ax.set_ylabel(f"byte offset in '{variable}'")
    ax.set_title(f"{launch.kernel}: accesses to '{variable}'")
    if rows.size or races:
        ax.legend(loc="best", fontsize="small")
    return ax


def fitness(report: "Report", ax: Any = None, *, kernel: Optional[str] = None) -> Any:
    """The search's history per generation: every judged launch's F (dots)
    and the best F so far (line), with the best address range on a second
    axis. ``kernel`` picks one kernel of a multi-kernel report (default:
    the first)."""
    history = report.history
    if kernel is None and len(history):
        kernel = str(history["kernel"][0])
    rows = history[(history["kernel"] == kernel) & history["valid"]] if len(history) else history
    ax = _axes(ax, figsize=(7, 4))
    generations = np.unique(rows["generation"]) if len(rows) else np.array([], dtype=np.uint32)
    ax.scatter(rows["generation"], rows["F"], s=10, alpha=0.4, color="tab:blue", label="F of a launch")
    best_F = [rows["F"][rows["generation"] <= g].min() for g in generations]
    ax.plot(generations, best_F, color="tab:blue", linewidth=2, label="best F so far")
    ax.set_xlabel("generation")
    ax.set_ylabel("F (distinct addresses / accessing threads)")
    ax.set_title(f"{kernel}: search history" if kernel else "search history")
    second = ax.twinx()
    best_range = [rows["range"][rows["generation"] == g].max() for g in generations]
    second.plot(generations, best_range, color="tab:orange", linestyle="--", label="largest range")
    second.set_ylabel("address range (bytes)")
    lines = ax.get_legend_handles_labels()
    more = second.get_legend_handles_labels()
    ax.legend(lines[0] + more[0], lines[1] + more[1], loc="best", fontsize="small")
    return ax


def barrier_timeline(launch: "Launch", ax: Any = None) -> Any:
    """Which warps waited at which barrier when: one row per (block, warp),
    a mark at each arrival (x: order of barrier events in the launch),
    coloured by the barrier's source line, with a vertical line where the
    block's barrier released its warps. Partial-warp arrivals (divergence)
    are drawn hollow."""
    import matplotlib.pyplot as plt

    rows = launch.model.barriers()
    ax = _axes(ax, figsize=(8, 3.5))
    if not len(rows):
        ax.set_title(f"{launch.kernel}: no barrier executed")
        return ax
    warps_per_block = int(rows["warp"].max()) + 1
    y = rows["block_linear"].astype(np.int64) * warps_per_block + rows["warp"]
    lines = np.unique(rows["line"])
    colours = plt.get_cmap("tab10")
    for index, line in enumerate(lines):
        chosen = rows["line"] == line
        lanes_in_warp = np.minimum(32, launch.settings.threads_per_block - 32 * rows["warp"].astype(np.int64))
        full = chosen & (rows["lanes"] >= lanes_in_warp)
        partial = chosen & ~full
        colour = colours(index % 10)
        ax.scatter(rows["sequence"][full], y[full], color=colour, marker="|", s=200,
                   label=f"barrier at line {line}")
        if partial.any():
            ax.scatter(rows["sequence"][partial], y[partial], facecolors="none", edgecolors=colour,
                       marker="o", s=40, label=f"line {line}, part of a warp")
    for release in np.unique(rows["release_sequence"]):
        if release:
            ax.axvline(release, color="grey", linewidth=0.6, alpha=0.6)
    ax.set_xlabel("barrier events in order (grey: release)")
    ticks = np.unique(y)
    ax.set_yticks(ticks, [f"block {t // warps_per_block} warp {t % warps_per_block}" for t in ticks])
    ax.set_title(f"{launch.kernel}: barrier timeline")
    ax.legend(loc="best", fontsize="small")
    return ax
