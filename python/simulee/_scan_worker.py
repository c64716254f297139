"""A local scan worker, started by :func:`simulee.scan` as
``main(OPTIONS_JSON)``: file paths in on stdin, one JSON line with the
file's rows out per file. A process of its own so that a crash loses one
file, and so that no user script is re-imported as multiprocessing's spawn
would."""

import json
import sys

from simulee._scan import scan_file


def main(options_json: str) -> None:
    options = json.loads(options_json)
    for line in sys.stdin:
        print(json.dumps(scan_file(line.rstrip("\n"), options)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
