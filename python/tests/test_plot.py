"""simulee.plot draws what it promises: points per access, the race line,
one mark per barrier arrival, F per generation."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import simulee  # noqa: E402
import simulee.plot as splot  # noqa: E402
from conftest import CORPUS  # noqa: E402


def test_access_map_plots_every_access_and_the_race():
    launch = simulee.run(CORPUS / "reduce_missing_loop_barrier.cu", grid=1, block=128, args={"n": 128})
    ax = splot.access_map(launch, "sd")
    points = sum(len(c.get_offsets()) for c in ax.collections)
    assert points == (launch.model.accesses()["variable"] == "sd").sum()
    race = [line for line in ax.get_lines() if line.get_color() == "red"]
    assert len(race) == 1
    finding = launch.findings[0]
    assert list(race[0].get_ydata()) == [finding.example_offset] * 2
    plt.close("all")

    clean = simulee.run(CORPUS / "reduce_sequential.cu", grid=1, block=128, args={"n": 128})
    ax = splot.access_map(clean, "sd")
    assert not [line for line in ax.get_lines() if line.get_color() == "red"]
    plt.close("all")


def test_barrier_timeline_marks_each_arrival():
    launch = simulee.run(CORPUS / "reduce_sequential.cu", grid=1, block=64, args={"n": 64})
    ax = splot.barrier_timeline(launch)
    marks = sum(len(c.get_offsets()) for c in ax.collections)
    assert marks == len(launch.model.barriers())
    plt.close("all")


def test_fitness_plots_best_F_per_generation():
    report = simulee.analyze(CORPUS / "reduce_missing_loop_barrier.cu", generations=3, population=6, progress=False)
    ax = splot.fitness(report)
    best = ax.get_lines()[0].get_ydata()
    assert len(best) == len(np.unique(report.history["generation"]))
    assert (np.diff(best) <= 0).all()  # the best so far never gets worse
    plt.close("all")


def test_help_describes_the_api():
    text = simulee.__doc__
    for name in ("load", "run", "analyze", "scan", "simulee.plot", "Error"):
        assert name in text
    for public in simulee.__all__:
        assert getattr(simulee, public).__doc__ or public in ("VERDICTS", "FINDING_KINDS")
