#!/usr/bin/env python3
"""Fidelity check of simulee's interpreter against a real NVIDIA GPU.

Runs `simulee replay` on
  * every interpreter test kernel (tests/interp/kernels, the launches of
    tests/interp/KernelOutputTest.cpp with simulee's seeded buffers) and every
    race-free corpus kernel (corpus/*.json with "expected": []): the GPU's
    outputs must be the same in every run and match the simulation (bit for
    bit for integers, within --ulp for floats); a disagreement is an
    interpreter bug;
  * every racy corpus kernel with --sanitizer: which findings racecheck /
    synccheck / memcheck confirm and whose outputs vary across runs.
and prints one Markdown table (and writes every replay's JSON under --out).

Needs nvcc and a GPU (compute-sanitizer for the racy part); without a GPU
every row says why it did not run. Usage, from the repository root:

    python3 bench/replay_fidelity.py [--simulee build/simulee] [--runs 20]
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (file under tests/interp/kernels, kernel, grid, block, args, sharedBytes):
# the launches of KernelOutputTest.cpp / MathLibraryTest.cpp. Buffers are
# simulee's seeded contents (random:N: integers 0..99, floats in [0, 1)).
INTERP_LAUNCHES = [
    ("vector_add.cu", "vectorAdd", [4, 1, 1], [256, 1, 1],
     {"a": "random:1000", "b": "random:1000", "c": "random:1024", "n": "1000"}, 0),
    ("saxpy.cu", "saxpy", [8, 1, 1], [128, 1, 1],
     {"n": "5000", "a": "2.5", "x": "random:5000", "y": "random:5000"}, 0),
    ("reduce_shared.cu", "reduceSum", [8, 1, 1], [256, 1, 1],
     {"in": "random:2000", "blockSums": "zeros:8", "n": "2000"}, 0),
    ("warp_reduce.cu", "warpReduce", [2, 1, 1], [128, 1, 1],
     {"in": "random:256", "warpSums": "zeros:8"}, 0),
    ("warp_reduce.cu", "warpAllReduceDouble", [1, 1, 1], [64, 1, 1],
     {"in": "random:64", "out": "zeros:64"}, 0),
    ("scan_hillis_steele.cu", "inclusiveScan", [1, 1, 1], [512, 1, 1],
     {"in": "random:512", "out": "zeros:512"}, 0),
    ("matmul_tiled.cu", "matmulTiled", [4, 4, 1], [16, 16, 1],
     {"A": "random:4096", "B": "random:4096", "C": "zeros:4096", "n": "64"}, 0),
    ("transpose_shared.cu", "transposeTiled", [3, 2, 1], [32, 8, 1],
     {"in": "random:6144", "out": "zeros:6144", "width": "96", "height": "64"}, 0),
    ("histogram_atomic.cu", "histogram", [4, 1, 1], [128, 1, 1],
     {"data": "random:10000", "bins": "zeros:64", "n": "10000"}, 0),
    ("bitonic_sort.cu", "bitonicSort", [1, 1, 1], [256, 1, 1], {"data": "random:256"}, 0),
    ("stencil2d.cu", "stencil5", [3, 3, 1], [16, 8, 1],
     {"in": "random:960", "out": "zeros:960", "width": "40", "height": "24"}, 0),
    ("device_functions.cu", "deviceCalls", [2, 1, 1], [32, 1, 1],
     {"in": "random:64", "out": "zeros:64"}, 0),
    ("struct_double.cu", "integrate", [2, 1, 1], [64, 1, 1],
     {"particles": "zeros:128", "forceIn": "zeros:1", "dt": "0.01", "n": "100"}, 0),
    ("divergence.cu", "nestedIfs", [1, 1, 1], [64, 1, 1], {"out": "zeros:64"}, 0),
    ("divergence.cu", "divergentLoop", [1, 1, 1], [64, 1, 1], {"out": "zeros:64"}, 0),
    ("divergence.cu", "breakContinue", [1, 1, 1], [64, 1, 1], {"out": "zeros:64"}, 0),
    ("divergence.cu", "earlyReturn", [2, 1, 1], [64, 1, 1],
     {"out": "zeros:128", "limit": "100"}, 0),
    ("divergence.cu", "switchOnThread", [1, 1, 1], [64, 1, 1], {"out": "zeros:64"}, 0),
    ("cas_max.cu", "floatMaxCas", [12, 1, 1], [256, 1, 1],
     {"in": "random:3000", "result": "zeros:1", "n": "3000"}, 0),
    ("sync_count.cu", "syncPredicates", [3, 1, 1], [128, 1, 1],
     {"in": "random:384", "out": "zeros:9"}, 0),
    ("ballot.cu", "ballotVotes", [1, 1, 1], [128, 1, 1],
     {"in": "random:128", "ballots": "zeros:4", "votes": "zeros:8"}, 0),
    ("cg_tile.cu", "tileReduce", [2, 1, 1], [256, 1, 1],
     {"in": "random:512", "tileSums": "zeros:32", "exchanged": "zeros:512"}, 0),
    ("dynamic_shared.cu", "reverseDynamic", [3, 1, 1], [128, 1, 1],
     {"data": "random:384"}, 512),
    ("math_library.cu", "floatMath", [2, 1, 1], [32, 1, 1],
     {"in": "random:64", "out": "zeros:2048", "n": "64"}, 0),
    ("math_library.cu", "doubleMath", [1, 1, 1], [32, 1, 1],
     {"in": "random:32", "out": "zeros:256", "n": "32"}, 0),
]

RACY_KINDS = {"data-race", "barrier-divergence", "out-of-bounds"}


def replay(args, source, kernel, launch, name, sanitizer, independent):
    directory = os.path.join(args.out, name)
    os.makedirs(directory, exist_ok=True)
    launch_file = os.path.join(directory, "launch-in.json")
    with open(launch_file, "w") as f:
        json.dump(dict(launch, kernel=kernel, seed=1), f)
    command = [args.simulee, "replay", source, "--kernel", kernel, "--launch", launch_file,
               "--runs", str(args.runs), "--ulp", str(args.ulp), "--format", "json",
               "--dir", directory]
    if sanitizer:
        command.append("--sanitizer")
    if independent:
        command.append("--independent-threads")
    done = subprocess.run(command, capture_output=True, text=True)
    try:
        result = json.loads(done.stdout)["replays"][0]
    except (ValueError, KeyError, IndexError):
        error = (done.stderr or done.stdout).strip().splitlines()
        return {"state": "error", "reason": error[-1] if error else "exit %d" % done.returncode}
    with open(os.path.join(directory, "replay.json"), "w") as f:
        json.dump(result, f, indent=2)
    return result


def outputs_cell(result):
    if result.get("state") != "ran":
        return "-"
    varying = [b["name"] for b in result["buffers"] if b["runsDifferingFromFirst"]]
    return "vary: " + ", ".join(varying) if varying else "same"


def simulation_cell(result):
    if result.get("state") != "ran":
        return "-"
    mismatched = [b for b in result["buffers"] if b["elementsDifferingFromSimulation"]]
    ulp = max([b["maxUlp"] for b in result["buffers"] if b["floating"]] or [0])
    if not mismatched:
        return "match" + (" (max %d ulp)" % ulp if ulp else "")
    return "DIFFER: " + ", ".join("%s (%d elements%s, first at byte %d: sim %s, gpu %s)" % (
        b["name"], b["elementsDifferingFromSimulation"],
        ", max %d ulp" % b["maxUlp"] if b["floating"] else "", b["firstDifference"]["offset"],
        b["firstDifference"]["simulated"], b["firstDifference"]["gpu"]) for b in mismatched)


def findings_cell(result):
    findings = result.get("findings", [])
    if not findings:
        return "-"
    return "; ".join("%s %s: %s" % (f["kind"], f["location"].rsplit("/", 1)[-1], f["verdict"])
                     for f in findings)


def hazards_cell(result):
    sanitizer = result.get("sanitizer", {})
    if not sanitizer.get("ran"):
        return sanitizer.get("note") or "-"
    hazards = sanitizer.get("hazards", [])
    unmatched = [h for h in hazards if not h["matched"]]
    text = "%d hazards" % len(hazards)
    if unmatched:
        text += ", %d unmatched (%s)" % (len(unmatched), "; ".join(
            "%s lines %d/%d" % (h["kind"], h["first"]["line"], h["second"]["line"])
            for h in unmatched[:3]))
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simulee", default=os.path.join(ROOT, "build", "simulee"))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--ulp", type=int, default=4)
    parser.add_argument("--out", default="/tmp/simulee-fidelity")
    args = parser.parse_args()

    rows = []
    for file, kernel, grid, block, launch_args, shared in INTERP_LAUNCHES:
        source = os.path.join(ROOT, "tests", "interp", "kernels", file)
        launch = {"grid": grid, "block": block, "sharedBytes": shared, "args": launch_args}
        result = replay(args, source, kernel, launch, "interp-" + kernel, False, False)
        rows.append(("interp/" + file, kernel, "race-free", result))
        print("interp/%s %s: %s" % (file, kernel, result.get("state")), file=sys.stderr)

    corpus = os.path.join(ROOT, "corpus")
    for manifest_name in sorted(os.listdir(corpus)):
        if not manifest_name.endswith(".json"):
            continue
        with open(os.path.join(corpus, manifest_name)) as f:
            manifest = json.load(f)
        file = manifest.get("file", manifest_name.split(".")[0] + ".cu")
        if manifest.get("link") or not file.endswith(".cu"):
            continue  # linked device code and old IR have no one-file nvcc build
        racy = any(e["kind"] in RACY_KINDS for e in manifest["expected"])
        launch = dict(manifest["launch"])
        name = "corpus-" + manifest_name[:-len(".json")]
        result = replay(args, os.path.join(corpus, file), manifest["kernel"], launch, name, racy,
                        manifest.get("independentThreads", False))
        rows.append(("corpus/" + manifest_name[:-len(".json")], manifest["kernel"],
                     "racy" if racy else "race-free", result))
        print("%s: %s" % (name, result.get("state")), file=sys.stderr)

    device = next((r[3].get("device") for r in rows if r[3].get("device")), "")
    print("GPU: %s; %d runs per launch; float bound %d ulp\n" % (device or "none", args.runs,
                                                                  args.ulp))
    print("| kernel | class | state | outputs across runs | vs simulation | findings "
          "(verdict) | sanitizer |")
    print("|---|---|---|---|---|---|---|")
    disagreements = 0
    for source, kernel, klass, result in rows:
        state = result.get("state", "?")
        if state != "ran" and result.get("reason"):
            state += ": " + result["reason"]
        if "raceFree" in result and source.startswith("interp/"):
            klass = "race-free" if result["raceFree"] else "racy"
        if klass == "race-free" and result.get("state") == "ran" and (
                not result["matchesSimulation"] or result["variesAcrossRuns"]):
            disagreements += 1
        print("| %s `%s` | %s | %s | %s | %s | %s | %s |" % (
            source, kernel, klass, state, outputs_cell(result), simulation_cell(result),
            findings_cell(result), hazards_cell(result) if klass == "racy" else "-"))
    ran = sum(1 for r in rows if r[3].get("state") == "ran")
    print("\n%d launches, %d ran on the GPU, %d race-free launches where the GPU and the "
          "simulator disagree" % (len(rows), ran, disagreements))
    return 0 if ran else 3


if __name__ == "__main__":
    sys.exit(main())
