"""simulee: find synchronization bugs in GPU kernels without a GPU.

simulee interprets a CUDA kernel's LLVM IR for every simulated thread
(warps of 32, barriers, shared and global memory), records who touched which
address in which barrier interval (the Memory-Access Model), searches launch
settings with evolutionary programming to provoke conflicts, and reports data
races, redundant barriers, barrier divergence, out-of-bounds accesses,
uninitialized reads and undefined behaviour.
This package is the same library the ``simulee`` command uses.

Start here::

    import simulee
    launch = simulee.run("corpus/reduce_missing_loop_barrier.cu", grid=1, block=128)
    print(launch.findings[0])                 # the race, with source lines
    launch.model.accesses(as_frame=True)      # one row per access
    report = simulee.analyze("corpus/reduce_missing_loop_barrier.cu")
    report.verdict, report.history            # "findings", the search's launches

Functions:
    load(path)          -> Program    a .cu/.ll/.bc file, its kernels and parameters
    run(path, ...)      -> Launch     one launch: findings, outputs, model arrays
    analyze(path, ...)  -> Report     search + detect (the CLI's default)
    scan(paths, ...)    -> DataFrame  one row per kernel, locally or on Dask
    exec(program, ...)  -> ExecReport a whole CUDA program run and checked (simulee exec)
    cuda_path()         -> str        the CUDA headers .cu files compile against

The ``simulee`` command is installed with the package.

Modules:
    simulee.plot        access_map, fitness, barrier_timeline (matplotlib)

Errors: bad input raises :class:`simulee.Error` with the CLI's message.
Long calls release the GIL and stop on Ctrl-C (KeyboardInterrupt).
"""

from typing import Optional

from . import _core
from ._core import FINDING_KINDS, Error
from ._analysis import VERDICTS, KernelReport, Report, analyze, combine_verdicts
from ._exec import ExecReport, exec
from ._launch import Launch, Model, Program, load, run
from ._scan import scan
from ._types import Finding, HostFinding, Kernel, KernelVerdict, LaunchSettings, Parameter, Progress, Site

Error.__doc__ = (
    "Bad input: a file that cannot be loaded, no such kernel or parameter, a bad "
    "argument, a launch over hardware limits, a launch that does not terminate. "
    "str(error) is the message the CLI prints after 'simulee: error: '."
)


def cuda_path() -> Optional[str]:
    """The CUDA installation (NVIDIA's headers) ``.cu`` files compile
    against: ``$SIMULEE_CUDA_PATH`` when set, else the ``cuda`` directory
    installed in this package, else the one of the build it was built in;
    None when there is none (simulee's stand-in header alone)."""
    return _core.cuda_path()


for _public in (Error, ExecReport, Finding, HostFinding, Kernel, KernelReport, KernelVerdict, Launch,
                LaunchSettings, Model, Parameter, Program, Progress, Report, Site):
    _public.__module__ = "simulee"  # as users name them (help, repr, pickling)
del _public

__version__ = "0.1.0"

__all__ = [
    "Error",
    "ExecReport",
    "FINDING_KINDS",
    "Finding",
    "HostFinding",
    "Kernel",
    "KernelReport",
    "KernelVerdict",
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
    "cuda_path",
    "exec",
    "load",
    "run",
    "scan",
]
