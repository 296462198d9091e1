#!/usr/bin/env python3
"""Strong-scaling sweep for astronomix.

For every cube size N in --sizes, rank count R in --ranks and solver backend
in --backends this runs

    mpirun -n R <exe> run <config> --set mesh.cells=[N,N,N] ... -q

in its own temporary output directory, reads the run's
<basename>.summary.json, and writes one CSV row per (size, ranks, backend).
Speed-up is measured against the smallest rank count of the same size and
backend (1 rank when 1 is in --ranks), which counts as ideal:
speedup = R0 * rate(R) / rate(R0), efficiency = speedup / R.  Afterwards it prints a table and draws a
PNG with two panels: speed-up vs ranks (with the ideal line) and
cell-updates/s vs ranks (log y).

Needs python3 with matplotlib (Debian: /usr/bin/python3, python3-matplotlib).

Relative paths given on the command line are taken from the current
directory; the defaults point into the repository.

Examples (from the repository root):

    /usr/bin/python3 scaling/sweep.py                       # 64^3, 128^3 on 1, 2 ranks
    /usr/bin/python3 scaling/sweep.py --sizes 64 96 --ranks 1 2 \\
        --csv docs/img/scaling_cpu.csv --png docs/img/scaling_cpu.png
    /usr/bin/python3 scaling/sweep.py --plot-only --csv docs/img/scaling_cpu.csv \\
        --png docs/img/scaling_cpu.png
"""

import argparse
import csv
import datetime
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

COLUMNS = [
    "size", "ranks", "threads", "backend", "cells", "steps", "wall_s",
    "cell_updates_per_s", "speedup", "efficiency", "host_peak_rss_bytes_max_rank",
    "device_memory_used_bytes", "execution_space", "hostname", "date",
    # extra context
    "process_grid", "hydro_path", "precision", "step_wall_s", "cell_updates_per_s_steps_only",
    "ghost_exchange_overlapped", "solver_family",
]


def die(msg):
    sys.stderr.write("sweep.py: error: " + msg.rstrip() + "\n")
    sys.exit(1)


def tail(text, n=30):
    lines = (text or "").rstrip().splitlines()
    return "\n".join(lines[-n:]) if lines else "(empty)"


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Strong-scaling sweep of astronomix (cell-updates/s vs MPI ranks).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[64, 128],
                   help="cube edge lengths N (grid N x N x N on [-0.5,0.5]^3)")
    p.add_argument("--ranks", type=int, nargs="+", default=[1, 2], help="MPI rank counts")
    p.add_argument("--backends", nargs="+", default=["native"],
                   help="values for solver.backend (native, fused, auto)")
    p.add_argument("--threads", type=int, default=1, help="OMP_NUM_THREADS per rank")
    p.add_argument("--steps", type=int, default=20, help="time.max_steps per run")
    p.add_argument("--repeat", type=int, default=1,
                   help="runs per point; the fastest (highest cell-updates/s) is kept")
    p.add_argument("--config", default=None,
                   help="run configuration (default: the repository's configs/blast3d.yaml)")
    p.add_argument("--exe", default=None,
                   help="astronomix binary (default: the repository's build/astronomix)")
    p.add_argument("--mpirun", default="mpirun", help="MPI launcher")
    p.add_argument("--mpirun-args", default="",
                   help="extra launcher arguments, one string, e.g. --mpirun-args='--bind-to none'")
    p.add_argument("--exe-args", default="",
                   help="extra arguments after the config, one string; attach it with '=' "
                        "when it starts with '-', e.g. --exe-args=--kokkos-num-devices=4 "
                        "(one rank per GPU)")
    p.add_argument("--extra", nargs="*", default=[], metavar="KEY=VALUE",
                   help="extra --set pairs passed to every run")
    p.add_argument("--timeout", type=float, default=0,
                   help="seconds before a run is killed, its ranks too (0: no limit)")
    p.add_argument("--csv", default=None,
                   help="CSV written (or read with --plot-only; default: the repository's scaling/results.csv)")
    p.add_argument("--png", default=None, help="plot written (default: the repository's scaling/scaling.png)")
    p.add_argument("--title", default=None, help="plot title (default: from the CSV)")
    p.add_argument("--plot-only", action="store_true",
                   help="do not run anything; redraw the plot and table from --csv")
    a = p.parse_args(argv)
    for name in ("sizes", "ranks"):
        if any(v < 1 for v in getattr(a, name)):
            p.error("--%s values must be >= 1" % name)
    if a.threads < 1 or a.steps < 1 or a.repeat < 1:
        p.error("--threads, --steps and --repeat must be >= 1")
    for kv in a.extra:
        if "=" not in kv:
            p.error("--extra expects KEY=VALUE pairs, got %r" % kv)
    return a


def given_or_default(p, default):
    """A path given on the command line, from the current directory; the
    default, from the repository."""
    return Path(p).absolute() if p is not None else REPO / default


def is_open_mpi(mpirun):
    try:
        r = subprocess.run([mpirun, "--version"], capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        die("MPI launcher %r not found (use --mpirun)" % mpirun)
    except subprocess.TimeoutExpired:
        return False
    text = r.stdout + r.stderr
    return "Open MPI" in text or "OpenRTE" in text


def run_once(a, exe, config, size, ranks, backend, openmpi):
    out = tempfile.mkdtemp(prefix="astronomix-scaling-")
    try:
        cmd = [a.mpirun, "-n", str(ranks)]
        if openmpi:
            cmd.append("--oversubscribe")
        cmd += shlex.split(a.mpirun_args)
        cmd += [str(exe), "run", str(config)] + shlex.split(a.exe_args)
        sets = [
            "mesh.cells=[%d,%d,%d]" % (size, size, size),
            "mesh.lower=[-0.5,-0.5,-0.5]",
            "mesh.upper=[0.5,0.5,0.5]",
            "time.max_steps=%d" % a.steps,
            "output.directory=" + out,
            "output.dt=0",
            "output.every_steps=0",
            "output.history_every=0",
            "output.progress_every=0",
            "output.restart_at_end=false",
            "solver.backend=" + backend,
        ] + list(a.extra)
        for s in sets:
            cmd += ["--set", s]
        cmd.append("-q")
        env = dict(os.environ)
        env.update(OMP_NUM_THREADS=str(a.threads), OMPI_ALLOW_RUN_AS_ROOT="1",
                   OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        # Its own session, so that a run past --timeout can be stopped with
        # its ranks: SIGTERM first (mpirun passes it on, and astronomix stops
        # cleanly), then SIGKILL to the whole group. Killing mpirun alone
        # left the ranks running.
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=a.timeout or None)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                stdout, stderr = proc.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                stdout, stderr = proc.communicate()
            die("run timed out after %g s: %s\n--- stderr tail ---\n%s"
                % (a.timeout, shlex.join(cmd), tail(stderr)))
        r = subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)
        summaries = sorted(Path(out).glob("*.summary.json"))
        if r.returncode != 0 or not summaries:
            why = ("exit code %d" % r.returncode) if r.returncode != 0 else "no *.summary.json written"
            die("run failed (%s): N=%d ranks=%d backend=%s\n  command: %s\n"
                "--- stderr tail ---\n%s\n--- stdout tail ---\n%s"
                % (why, size, ranks, backend, shlex.join(cmd), tail(r.stderr), tail(r.stdout, 10)))
        with open(summaries[0]) as f:
            return json.load(f)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def add_speedups(rows):
    """speedup vs the smallest rank count of the same size and backend."""
    groups = {}
    for r in rows:
        groups.setdefault((int(r["size"]), r["backend"]), []).append(r)
    for grp in groups.values():
        base = min(grp, key=lambda r: int(r["ranks"]))
        r0, rate0 = int(base["ranks"]), float(base["cell_updates_per_s"])
        for r in grp:
            s = r0 * float(r["cell_updates_per_s"]) / rate0 if rate0 > 0 else float("nan")
            r["speedup"] = "%.4f" % s
            # s already counts the R0 ranks of the base as ideal.
            r["efficiency"] = "%.4f" % (s / int(r["ranks"]))


def write_csv(path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)


def read_csv(path):
    if not path.exists():
        die("CSV %s does not exist" % path)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        die("CSV %s has no rows" % path)
    missing = {"size", "ranks", "backend", "cell_updates_per_s", "wall_s"} - set(rows[0])
    if missing:
        die("CSV %s lacks column(s): %s" % (path, ", ".join(sorted(missing))))
    return rows


def fmt_bytes(b):
    b = float(b)
    return "-" if b < 0 else "%.0f MiB" % (b / 2**20)


def print_table(rows):
    head = ("size", "ranks", "thr", "backend", "steps", "wall s", "cell-upd/s", "speedup", "eff.",
            "host RSS")
    out = [head]
    for r in sorted(rows, key=lambda r: (r["backend"], int(r["size"]), int(r["ranks"]))):
        out.append(("%s^3" % r["size"], r["ranks"], r.get("threads", ""), r["backend"],
                    r.get("steps", ""), "%.3f" % float(r["wall_s"]),
                    "%.3e" % float(r["cell_updates_per_s"]), "%.2f" % float(r["speedup"]),
                    "%.0f%%" % (100 * float(r["efficiency"])),
                    fmt_bytes(r.get("host_peak_rss_bytes_max_rank", -1) or -1)))
    width = [max(len(str(row[i])) for row in out) for i in range(len(head))]
    for k, row in enumerate(out):
        print("  ".join(str(v).rjust(width[i]) for i, v in enumerate(row)))
        if k == 0:
            print("  ".join("-" * w for w in width))


def plot(rows, png, title=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

    groups = {}
    for r in rows:
        groups.setdefault((r["backend"], int(r["size"])), []).append(r)
    backends = sorted({b for b, _ in groups})
    ranks_all = sorted({int(r["ranks"]) for r in rows})

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 4), dpi=100)
    markers = "osD^v<>ph"
    for i, ((backend, size), grp) in enumerate(sorted(groups.items())):
        grp.sort(key=lambda r: int(r["ranks"]))
        x = [int(r["ranks"]) for r in grp]
        label = "%d$^3$" % size + (" %s" % backend if len(backends) > 1 else "")
        m = markers[i % len(markers)]
        ax1.plot(x, [float(r["speedup"]) for r in grp], marker=m, label=label)
        ax2.plot(x, [float(r["cell_updates_per_s"]) for r in grp], marker=m, label=label)
    lo, hi = ranks_all[0], ranks_all[-1]
    ax1.plot([lo, hi], [lo, hi], "k--", lw=1, label="ideal")

    for ax in (ax1, ax2):
        if hi / lo >= 4:
            ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(FixedLocator(ranks_all))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.set_xlabel("MPI ranks")
        ax.grid(True, alpha=0.3, which="both")
    if hi / lo >= 4:
        ax1.set_yscale("log", base=2)
        ax1.yaxis.set_major_formatter(ScalarFormatter())
    ax1.set_ylabel("speed-up")
    ax1.set_title("strong scaling: speed-up")
    ax1.legend(fontsize=8)
    ax2.set_yscale("log")
    ax2.set_ylabel("cell-updates / s")
    ax2.set_title("throughput")
    ax2.legend(fontsize=8)

    if title is None:
        r = rows[0]
        paths = sorted({row.get("hydro_path", "") for row in rows if row.get("hydro_path")})
        # Older CSVs have no solver_family: FV then, the only family they swept.
        family = (r.get("solver_family") or "fv").upper()
        bits = [r.get("execution_space", ""), paths and " vs ".join(paths) + " " + family,
                r.get("precision", ""), "%s thread(s)/rank" % r.get("threads", "?"),
                "%s steps" % r.get("steps", "?")]
        title = "astronomix: " + ", ".join(b for b in bits if b)
        if r.get("hostname"):
            title += " (host %s)" % r["hostname"]
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=100)
    plt.close(fig)


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    try:  # before the runs: without it the sweep would end in a traceback after them
        import matplotlib  # noqa: F401
    except ImportError:
        die("matplotlib is missing for %s: install python3-matplotlib (Debian), or run the sweep with "
            "/usr/bin/python3" % sys.executable)
    csv_path = given_or_default(a.csv, "scaling/results.csv")
    png_path = given_or_default(a.png, "scaling/scaling.png")

    if a.plot_only:
        rows = read_csv(csv_path)
        add_speedups(rows)  # from the rates: a CSV's own columns may predate a fix
        print_table(rows)
        plot(rows, png_path, a.title)
        print("plot: %s" % png_path)
        return 0

    exe = given_or_default(a.exe, "build/astronomix")
    config = given_or_default(a.config, "configs/blast3d.yaml")
    if not exe.is_file() or not os.access(exe, os.X_OK):
        die("executable %s not found or not executable (build it, or use --exe)" % exe)
    if not config.is_file():
        die("config %s not found (use --config)" % config)
    if shutil.which(a.mpirun) is None and not Path(a.mpirun).is_file():
        die("MPI launcher %r not found (use --mpirun)" % a.mpirun)
    openmpi = is_open_mpi(a.mpirun)
    host = socket.gethostname()

    rows = []
    total = len(a.sizes) * len(a.ranks) * len(a.backends)
    k = 0
    for backend in a.backends:
        for size in a.sizes:
            for ranks in sorted(a.ranks):
                k += 1
                best = None
                for rep in range(a.repeat):
                    print("[%d/%d] N=%d^3 ranks=%d threads=%d backend=%s run %d/%d ..."
                          % (k, total, size, ranks, a.threads, backend, rep + 1, a.repeat),
                          end=" ", flush=True)
                    s = run_once(a, exe, config, size, ranks, backend, openmpi)
                    print("%.3e cell-updates/s" % s["cell_updates_per_s"], flush=True)
                    if best is None or s["cell_updates_per_s"] > best["cell_updates_per_s"]:
                        best = s
                rows.append({
                    "size": size, "ranks": ranks, "threads": a.threads, "backend": backend,
                    "cells": best["cells"], "steps": best["steps"],
                    "wall_s": "%.6f" % best["wall_s"],
                    "cell_updates_per_s": "%.6e" % best["cell_updates_per_s"],
                    "host_peak_rss_bytes_max_rank": best.get("host_peak_rss_bytes_max_rank", -1),
                    "device_memory_used_bytes": best.get("device_memory_used_bytes", -1),
                    "execution_space": best.get("execution_space", ""),
                    "hostname": host,
                    "date": datetime.datetime.now(datetime.timezone.utc)
                            .replace(microsecond=0).isoformat(),
                    "process_grid": "x".join(str(v) for v in best.get("process_grid", [])),
                    "hydro_path": best.get("hydro_path", ""),
                    "precision": best.get("precision", ""),
                    "step_wall_s": "%.6f" % best.get("step_wall_s", float("nan")),
                    "cell_updates_per_s_steps_only":
                        "%.6e" % best.get("cell_updates_per_s_steps_only", float("nan")),
                    "ghost_exchange_overlapped": best.get("ghost_exchange_overlapped", ""),
                    "solver_family": best.get("solver_family", ""),
                })
                add_speedups(rows)
                write_csv(csv_path, rows)  # rewritten after every run: partial sweeps survive

    print()
    print_table(rows)
    plot(rows, png_path, a.title)
    print("\ncsv:  %s\nplot: %s" % (csv_path, png_path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
