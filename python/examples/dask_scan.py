"""Every kernel of a directory, analysed on a Dask cluster of local worker
processes; the kernels that are not clean, with why:

    pip install "./python[dask]"
    python python/examples/dask_scan.py corpus [WORKERS]

The `if __name__ == "__main__":` guard is required: each worker process of a
LocalCluster starts by importing this script again, and without the guard
every worker would try to start a cluster of its own.
"""

import sys

from dask.distributed import Client, LocalCluster

import simulee


def main(directory: str, workers: int) -> None:
    with LocalCluster(n_workers=workers, threads_per_worker=1) as cluster, Client(cluster) as client:
        table = simulee.scan(directory, client=client)
    print(table[table["verdict"] != "clean"][["file", "kernel", "verdict", "findings", "reason"]]
          .to_string(index=False))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2)
