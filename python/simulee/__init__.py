"""simulee: find synchronization bugs in GPU kernels without a GPU.

simulee interprets a CUDA kernel's LLVM IR for every simulated thread
(warps of 32, barriers, shared and global memory), records who touched which
address in which barrier interval (the Memory-Access Model), searches launch
settings with evolutionary programming to provoke conflicts, and reports data
races, redundant barriers, barrier divergence and out-of-bounds accesses.
This package is the same library the ``simulee`` command uses.

Start here::

    import simulee
    launch = simulee.run("corpus/reduce_missing_loop_barrier.cu", grid=1, block=128)
    print(launch.findings[0])                 # the race, with source lines
    launch.model.accesses(as_frame=True)      # one row per access
    report = simulee.analyze("corpus/reduce_missing_loop_barrier.cu")
    report.verdict, report.history            # "findings", the search's launches

Functions:
    load(path)          -> Program   a .cu/.ll/.bc file, its kernels and parameters
    run(path, ...)      -> Launch    one launch: findings, outputs, model arrays
    analyze(path, ...)  -> Report    search + detect (the CLI's default)
    scan(paths, ...)    -> DataFrame one row per kernel, locally or on Dask

Modules:
    simulee.plot        access_map, fitness, barrier_timeline (matplotlib)

Errors: bad input raises :class:`simulee.Error` with the CLI's message.
Long calls release the GIL and stop on Ctrl-C (KeyboardInterrupt).
"""

from ._core import Error
from ._analysis import VERDICTS, KernelReport, Report, analyze, combine_verdicts
from ._launch import Launch, Model, Program, load, run
from ._scan import FINDING_KINDS, scan
from ._types import Finding, Kernel, LaunchSettings, Parameter, Progress, Site

Error.__doc__ = (
    "Bad input: a file that cannot be loaded, no such kernel or parameter, a bad "
    "argument, a launch over hardware limits, a launch that does not terminate. "
    "str(error) is the message the CLI prints after 'simulee: error: '."
)
for _public in (Error, Finding, Kernel, KernelReport, Launch, LaunchSettings, Model, Parameter, Program,
                Progress, Report, Site):
    _public.__module__ = "simulee"  # as users name them (help, repr, pickling)
del _public

__version__ = "0.1.0"

__all__ = [
    "Error",
    "FINDING_KINDS",
    "Finding",
    "Kernel",
    "KernelReport",
    "Launch",
    "LaunchSettings",
    "Model",
    "Parameter",
    "Program",
    "Progress",
    "Report",
    "Site",
    "VERDICTS",
    "analyze",
    "combine_verdicts",
    "load",
    "run",
    "scan",
]
