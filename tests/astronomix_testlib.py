"""Shared helpers of the whole-program test scripts (test_output.py, test_mpi_invariance.py).

The check()/finish() counting, launching `astronomix run` (under mpirun when
asked), and reading .athdf snapshots back as global arrays. The scripts add
this folder to sys.path and import from here.

Environment: ASTRONOMIX_EXE (binary), MPIEXEC (mpirun; empty -> `mpirun`),
ASTRONOMIX_SOURCE (repo root), ASTRONOMIX_REQUIRE_TOOLS=1 (a check that
would skip for a missing tool, yt or ParaView, fails instead: the test command
installs them, so on its machines a skip would hide a broken check).
"""
import csv
import functools
import json
import os
import re
import shutil
import subprocess
import time
import traceback

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("ASTRONOMIX_SOURCE") or os.path.dirname(HERE)
EXE = os.environ.get("ASTRONOMIX_EXE") or os.path.join(SOURCE, "build", "astronomix")
MPIEXEC = os.environ.get("MPIEXEC") or shutil.which("mpirun") or "mpirun"
CONFIGS = os.path.join(SOURCE, "configs")
RUN_TIMEOUT_S = 180


# ---------------------------------------------------------------- harness
class Skip(Exception):
    """Raised by a check that cannot run here (a missing optional tool)."""


class NotPermitted(Skip):
    """Raised by a check this machine does not permit (say, mounting a file
    system): skipped even where the tools are required."""


PASSED, FAILED, SKIPPED = [], [], []
SKIP_ALL = 77  # the exit status of a script whose every check was skipped


def check(name, fn, *args):
    """Runs one named check; AssertionError or any exception is a failure.
    Each line ends with the check's wall time, so slow checks show in CI logs."""
    t0 = time.monotonic()
    took = lambda: f"({time.monotonic() - t0:.1f} s)"  # noqa: E731
    try:
        fn(*args)
    except Skip as e:
        if os.environ.get("ASTRONOMIX_REQUIRE_TOOLS") == "1" and not isinstance(e, NotPermitted):
            FAILED.append(name)
            print(f"FAIL {name}: {e} (ASTRONOMIX_REQUIRE_TOOLS=1) {took()}", flush=True)
        else:
            SKIPPED.append(name)
            print(f"SKIP {name}: {e} {took()}", flush=True)
    except AssertionError as e:
        FAILED.append(name)
        print(f"FAIL {name}: {e} {took()}", flush=True)
    except Exception:  # noqa: BLE001 - a crash in a check is a failure too
        FAILED.append(name)
        print(f"FAIL {name}: unexpected exception {took()}\n{traceback.format_exc()}", flush=True)
    else:
        PASSED.append(name)
        print(f"PASS {name} {took()}", flush=True)


def exe_missing():
    """Records a failure and returns True when the astronomix binary is missing or not executable."""
    if os.path.isfile(EXE) and os.access(EXE, os.X_OK):
        return False
    FAILED.append("astronomix binary")
    print(f"FAIL astronomix binary: not found or not executable: {EXE}", flush=True)
    return True


def finish(tmp=None, t_start=None, hint=None):
    """Keeps tmp (printing hint) or removes it; prints `N passed, M failed[, K skipped]`; returns the status
    (1 if any failed, SKIP_ALL if all were skipped)."""
    if tmp is not None:
        if FAILED:
            print(f"outputs kept in {tmp}", flush=True)
            if hint:
                print(hint, flush=True)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    if t_start is not None:
        print(f"total {time.time() - t_start:.1f} s", flush=True)
    line = f"{len(PASSED)} passed, {len(FAILED)} failed"
    if SKIPPED:
        line += f", {len(SKIPPED)} skipped"
    print(line, flush=True)
    # Nothing checked is no pass: ctest shows the entry as skipped
    # (SKIP_RETURN_CODE in tests/CMakeLists.txt).
    return 1 if FAILED else (SKIP_ALL if SKIPPED and not PASSED else 0)


# ---------------------------------------------------------------- running
@functools.lru_cache(maxsize=None)
def mpi_version():
    """First line of `MPIEXEC --version`, or "" when it cannot be run."""
    try:
        v = subprocess.run([MPIEXEC, "--version"], capture_output=True, text=True, timeout=30)
        return (v.stdout + v.stderr).strip().splitlines()[0]
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return ""


def mpi_flags():
    """Extra mpirun flags: --oversubscribe for Open MPI."""
    return ["--oversubscribe"] if "open mpi" in mpi_version().lower() else []


def run_env():
    """The environment for astronomix runs: one OpenMP thread, Open MPI allowed as root and oversubscribed."""
    env = dict(os.environ)
    env.update(OMP_NUM_THREADS="1", OMP_PROC_BIND="false", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    return env


class Run:
    """One `astronomix run` into its own directory; under mpirun when ranks > 1 or mpirun is set."""

    def __init__(self, label, config, sets, outdir, basename, ranks=1, mpirun=False):
        self.label, self.dir, self.basename, self.ranks = label, outdir, basename, ranks
        self.sets = list(sets) + [f"output.directory={outdir}", f"output.basename={basename}"]
        cmd = [EXE, "run", os.path.join(CONFIGS, config)]
        for s in self.sets:
            cmd += ["--set", s]
        cmd.append("-q")
        if mpirun or ranks > 1:
            cmd = [MPIEXEC, "-n", str(ranks)] + mpi_flags() + cmd
        self.cmd = cmd
        self.ok = False
        self.error = "not run"

    def execute(self):
        """Runs the command once; sets ok, or error with the command and its output."""
        t0 = time.time()
        try:
            p = subprocess.run(self.cmd, capture_output=True, text=True, env=run_env(),
                               timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.error = f"timed out after {RUN_TIMEOUT_S} s: {' '.join(self.cmd)}"
            return
        except OSError as e:
            self.error = f"cannot start {' '.join(self.cmd)}: {e}"
            return
        self.wall = time.time() - t0
        if p.returncode == 0:
            self.ok, self.error = True, ""
            print(f"  ran {self.label}: {self.wall:.2f} s", flush=True)
            return
        self.error = (f"exit {p.returncode}: {' '.join(self.cmd)}\n"
                      f"stdout: {p.stdout[-2000:]}\nstderr: {p.stderr[-2000:]}")

    def need(self):
        """Asserts that the run succeeded."""
        assert self.ok, f"run '{self.label}' failed: {self.error}"

    def snapshot_names(self):
        """File names of the run's snapshots, in order."""
        self.need()
        pat = re.compile(re.escape(self.basename) + r"\.out1\.(\d{5})\.athdf$")
        return sorted(n for n in os.listdir(self.dir) if pat.match(n))

    def snapshots(self):
        """Paths of the run's snapshots, in order."""
        return [os.path.join(self.dir, n) for n in self.snapshot_names()]

    def summary(self):
        """The run's summary JSON."""
        self.need()
        with open(os.path.join(self.dir, self.basename + ".summary.json")) as f:
            return json.load(f)

    def history(self):
        """The run's history CSV as text."""
        self.need()
        with open(os.path.join(self.dir, self.basename + ".history.csv")) as f:
            return f.read()

    def history_rows(self):
        """The run's history CSV as a list of dicts."""
        self.need()
        with open(os.path.join(self.dir, self.basename + ".history.csv")) as f:
            return list(csv.DictReader(f))


# ---------------------------------------------------------------- reading
def decode(v):
    """An HDF5 string attribute value as str."""
    return v.decode() if isinstance(v, bytes) else str(v)


def assemble(f):
    """Blocks placed at LogicalLocations * MeshBlockSize: {dataset: [nvar, Nz, Ny, Nx]}, faces, centres."""
    nb = int(f.attrs["NumMeshBlocks"])
    bs = [int(n) for n in f.attrs["MeshBlockSize"]]
    root = [int(n) for n in f.attrs["RootGridSize"]]
    loc = f["LogicalLocations"][...]
    assert loc.shape == (nb, 3), f"LogicalLocations shape {loc.shape}, expected {(nb, 3)}"
    cells = {}
    for name in (decode(n) for n in f.attrs["DatasetNames"]):
        data = f[name][...]
        out = np.zeros((data.shape[0], root[2], root[1], root[0]), dtype=data.dtype)
        hits = np.zeros((root[2], root[1], root[0]), dtype=np.int64)
        for b in range(nb):
            sl = tuple(slice(int(loc[b][d]) * bs[d], (int(loc[b][d]) + 1) * bs[d]) for d in (2, 1, 0))
            out[(slice(None),) + sl] = data[:, b]
            hits[sl] += 1
        assert (hits == 1).all(), f"{name}: blocks do not tile the root grid exactly once"
        cells[name] = out
    faces, centres = [], []
    for d in range(3):
        xf = f[f"x{d + 1}f"][...]
        xv = f[f"x{d + 1}v"][...]
        gf = np.full(root[d] + 1, np.nan)
        gv = np.full(root[d], np.nan)
        for b in range(nb):
            o = int(loc[b][d]) * bs[d]
            seg = gf[o:o + bs[d] + 1]
            known = ~np.isnan(seg)
            assert (seg[known] == xf[b][known]).all(), f"x{d + 1}f: blocks disagree on shared faces"
            gf[o:o + bs[d] + 1] = xf[b]
            gv[o:o + bs[d]] = xv[b]
        assert not np.isnan(gf).any() and not np.isnan(gv).any(), f"x{d + 1}: coordinates not covered"
        faces.append(gf)
        centres.append(gv)
    return cells, faces, centres


def read_global(path):
    """A snapshot file as {name: global array} (datasets, x*f, x*v), checked; attrs, block count, locations."""
    with h5py.File(path, "r") as f:
        nb = int(f.attrs["NumMeshBlocks"])
        bs = [int(n) for n in f.attrs["MeshBlockSize"]]
        root = [int(n) for n in f.attrs["RootGridSize"]]
        loc = f["LogicalLocations"][...]
        assert loc.shape == (nb, 3), f"LogicalLocations shape {loc.shape} for {nb} blocks"
        assert (f["Levels"][...] == 0).all(), "Levels not all 0"
        for d in range(3):
            assert bs[d] * (int(loc[:, d].max()) + 1) == root[d], \
                f"axis {d}: MeshBlockSize {bs[d]} x {int(loc[:, d].max()) + 1} blocks != {root[d]}"
        names = [decode(n) for n in f.attrs["DatasetNames"]]
        for name in names:
            shape = f[name].shape
            assert shape == (shape[0], nb, bs[2], bs[1], bs[0]), f"{name} shape {shape}"
        out, faces, centres = assemble(f)
        for d in range(3):
            out[f"x{d + 1}f"], out[f"x{d + 1}v"] = faces[d], centres[d]
        extra = set(f.keys()) - set(names) - {"Levels", "LogicalLocations", "x1f", "x2f", "x3f",
                                              "x1v", "x2v", "x3v"}
        assert not extra, f"unexpected datasets {sorted(extra)}"
        attrs = {k: f.attrs[k] for k in ("Time", "NumCycles", "RootGridSize", "RootGridX1",
                                         "RootGridX2", "RootGridX3", "DatasetNames", "VariableNames")}
        return out, attrs, nb, loc


def bitwise_equal(a, b):
    """True when a and b have the same dtype, shape and bytes."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def describe_diff(a, b):
    """How two arrays differ: shape/dtype, or how many values, the largest difference and the first index."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"shape/dtype {a.shape}/{a.dtype} vs {b.shape}/{b.dtype}"
    ne = a != b
    text = f"{int(ne.sum())} of {a.size} values differ, max |diff| {np.max(np.abs(a - b)):.3e}"
    idx = np.argwhere(ne)
    if len(idx):
        text += f", first at index {tuple(int(i) for i in idx[0])}"
    return text
