#!/usr/bin/env python3
"""Bitwise rank invariance of astronomix.

Each case runs the same config under `mpirun -n 1`, then 2 and 4 ranks
(automatic and explicit process grids) and asserts:
  * every dataset of every snapshot (the initial one, an intermediate one and
    the final one), assembled into global arrays by LogicalLocations *
    MeshBlockSize, is bitwise identical to the 1-rank run; so are the Time
    and NumCycles attributes;
  * NumMeshBlocks equals the rank count and the blocks tile the grid;
  * the history CSV agrees: step, time, dt, rho_min, rho_max bitwise, mass
    and energy to 1e-13 relative (sums in another order), momenta to 1e-13
    of the mass/energy scale;
  * the summary JSON reports the ranks and the process grid requested.
Cases: 3D Sedov 32^3 (outflow; and reflecting/outflow/periodic with the
blast against the walls), 2D Kelvin-Helmholtz 64x128 (periodic; and
reflecting in x), 1D Sod along y and along z (4 ranks must split that axis,
also with a reflecting wall).

Environment: ASTRONOMIX_EXE, MPIEXEC (empty -> `mpirun`), ASTRONOMIX_SOURCE.
Run with Debian's /usr/bin/python3. The last line printed is
`N passed, M failed[, K skipped]`; non-zero exit status on any failure.
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
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
SUM_RTOL = 1e-13


# ---------------------------------------------------------------- harness
PASSED, FAILED = [], []


def check(name, fn, *args):
    try:
        fn(*args)
    except AssertionError as e:
        FAILED.append(name)
        print(f"FAIL {name}: {e}", flush=True)
    except Exception:  # noqa: BLE001 - a crash in a check is a failure too
        FAILED.append(name)
        print(f"FAIL {name}: unexpected exception\n{traceback.format_exc()}", flush=True)
    else:
        PASSED.append(name)
        print(f"PASS {name}", flush=True)


def wait_for_exe():
    # The lead rebuilds the binary from time to time; it may vanish briefly.
    for _ in range(10):
        if os.path.isfile(EXE) and os.access(EXE, os.X_OK):
            return
        print(f"note: {EXE} missing, waiting 30 s", flush=True)
        time.sleep(30)
    raise AssertionError(f"astronomix binary not found at {EXE}")


def mpi_version():
    try:
        v = subprocess.run([MPIEXEC, "--version"], capture_output=True, text=True, timeout=30)
        return (v.stdout + v.stderr).strip().splitlines()[0]
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return ""


MPI_VERSION = mpi_version()
MPI_FLAGS = ["--oversubscribe"] if "open mpi" in MPI_VERSION.lower() else []


def old_ompio():
    """Open MPI before 4.1.7 (and 5.0.0-5.0.5): OMPIO's collective writes can
    corrupt data (open-mpi/ompi#12718, fixed by range locking in fs/ufs)."""
    m = re.search(r"open mpi\)?\s*(\d+)\.(\d+)\.(\d+)", MPI_VERSION.lower())
    if not m:
        return False
    v = tuple(int(x) for x in m.groups())
    return v < (4, 1, 7) or (5, 0, 0) <= v < (5, 0, 6)


def run_env():
    env = dict(os.environ)
    env.update(OMP_NUM_THREADS="1", OMP_PROC_BIND="false", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    return env


# ---------------------------------------------------------------- runs
class Run:
    """One `mpirun -n <ranks> astronomix run` into its own directory."""

    def __init__(self, case, ranks, pgrid, extra, tmp):
        self.case, self.ranks, self.pgrid = case, ranks, pgrid
        tag = f"n{ranks}" + ("" if pgrid is None else "_" + "x".join(map(str, pgrid)))
        if "output.hdf5_mode=sequential" in extra:
            tag += "_seqio"
        self.label = f"{case.label} {tag}"
        self.dir = os.path.join(tmp, case.label, tag)
        self.basename = case.label
        sets = list(case.sets) + list(extra) + [f"output.directory={self.dir}",
                                                f"output.basename={self.basename}"]
        if pgrid is not None:
            sets.append(f"mesh.ranks=[{','.join(map(str, pgrid))}]")
        cmd = [MPIEXEC, "-n", str(ranks)] + MPI_FLAGS + [EXE, "run", os.path.join(CONFIGS, case.config)]
        for s in sets:
            cmd += ["--set", s]
        self.cmd = cmd + ["-q"]
        self.ok, self.error = False, "not run"

    def execute(self):
        wait_for_exe()
        self.exe_mtime = os.stat(EXE).st_mtime
        for _ in range(2):
            t0 = time.time()
            try:
                p = subprocess.run(self.cmd, capture_output=True, text=True, env=run_env(),
                                   timeout=RUN_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.error = f"timed out after {RUN_TIMEOUT_S} s: {' '.join(self.cmd)}"
                return
            if p.returncode == 0:
                self.ok, self.error = True, ""
                print(f"  ran {self.label}: {time.time() - t0:.2f} s", flush=True)
                return
            self.error = (f"exit {p.returncode}: {' '.join(self.cmd)}\n"
                          f"stdout: {p.stdout[-2000:]}\nstderr: {p.stderr[-2000:]}")
            if os.path.isfile(EXE):
                return
            wait_for_exe()  # binary replaced mid-run: try once more

    def need(self):
        assert self.ok, f"run '{self.label}' failed: {self.error}"

    def snapshots(self):
        self.need()
        pat = re.compile(re.escape(self.basename) + r"\.out1\.(\d{5})\.athdf$")
        return sorted(n for n in os.listdir(self.dir) if pat.match(n))

    def summary(self):
        self.need()
        with open(os.path.join(self.dir, self.basename + ".summary.json")) as f:
            return json.load(f)

    def history(self):
        self.need()
        with open(os.path.join(self.dir, self.basename + ".history.csv")) as f:
            return list(csv.DictReader(f))


class Case:
    def __init__(self, label, config, cells, sets, layouts, expect_auto=None):
        """layouts: (ranks, explicit process grid or None[, extra --set
        values]); the first is the 1-rank reference. expect_auto: {ranks: process grid} the automatic
        decomposition must choose."""
        self.label, self.config, self.cells = label, config, cells
        self.sets = [f"mesh.cells=[{','.join(map(str, cells))}]"] + list(sets)
        self.layouts = layouts
        self.expect_auto = expect_auto or {}
        self.runs = []


# ---------------------------------------------------------------- reading
def decode(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def read_global(path):
    """Every dataset of a snapshot as a global array: cell data [nvar, Nz, Ny,
    Nx], coordinates [N+1] / [N], Levels per block; plus the attributes."""
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
        out = {}
        names = [decode(n) for n in f.attrs["DatasetNames"]]
        for name in names:
            data = f[name][...]
            assert data.shape == (data.shape[0], nb, bs[2], bs[1], bs[0]), f"{name} shape {data.shape}"
            g = np.zeros((data.shape[0], root[2], root[1], root[0]), dtype=data.dtype)
            hits = np.zeros((root[2], root[1], root[0]), dtype=np.int64)
            for b in range(nb):
                sl = tuple(slice(int(loc[b][d]) * bs[d], (int(loc[b][d]) + 1) * bs[d]) for d in (2, 1, 0))
                g[(slice(None),) + sl] = data[:, b]
                hits[sl] += 1
            assert (hits == 1).all(), f"{name}: blocks do not tile the grid exactly once"
            out[name] = g
        for d in range(3):
            xf, xv = f[f"x{d + 1}f"][...], f[f"x{d + 1}v"][...]
            gf = np.zeros(root[d] + 1, dtype=xf.dtype)
            gv = np.zeros(root[d], dtype=xv.dtype)
            set_f = np.zeros(root[d] + 1, dtype=bool)
            for b in range(nb):
                o = int(loc[b][d]) * bs[d]
                known = set_f[o:o + bs[d] + 1]
                assert (gf[o:o + bs[d] + 1][known] == xf[b][known]).all(), \
                    f"x{d + 1}f: neighbouring blocks disagree on a shared face"
                gf[o:o + bs[d] + 1] = xf[b]
                gv[o:o + bs[d]] = xv[b]
                set_f[o:o + bs[d] + 1] = True
            out[f"x{d + 1}f"], out[f"x{d + 1}v"] = gf, gv
        extra = set(f.keys()) - set(names) - {"Levels", "LogicalLocations", "x1f", "x2f", "x3f",
                                              "x1v", "x2v", "x3v"}
        assert not extra, f"unexpected datasets {sorted(extra)}"
        attrs = {k: f.attrs[k] for k in ("Time", "NumCycles", "RootGridSize", "RootGridX1",
                                         "RootGridX2", "RootGridX3", "DatasetNames", "VariableNames")}
        return out, attrs, nb, loc


def bitwise_equal(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def describe_diff(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"shape/dtype {a.shape}/{a.dtype} vs {b.shape}/{b.dtype}"
    ne = a != b
    idx = np.argwhere(ne)
    return (f"{int(ne.sum())} of {a.size} values differ, max |diff| {np.max(np.abs(a - b)):.3e}, "
            f"first at index {tuple(int(i) for i in idx[0])}")


# ---------------------------------------------------------------- checks
def compare_snapshot(ref, run, name):
    a, a_attrs, _, _ = read_global(os.path.join(ref.dir, name))
    b, b_attrs, nb, loc = read_global(os.path.join(run.dir, name))
    assert nb == run.ranks, f"NumMeshBlocks {nb}, expected {run.ranks}"
    assert set(a) == set(b), f"datasets {sorted(b)} vs reference {sorted(a)}"
    for k in a:
        assert bitwise_equal(a[k], b[k]), f"{k} differs from 1 rank: {describe_diff(a[k], b[k])}"
    for k in a_attrs:
        assert bitwise_equal(a_attrs[k], b_attrs[k]), f"attribute {k} {b_attrs[k]!r} vs reference {a_attrs[k]!r}"
    pgrid = [int(loc[:, d].max()) + 1 for d in range(3)]
    if run.pgrid is not None:
        assert pgrid == list(run.pgrid), f"LogicalLocations span {pgrid}, requested {run.pgrid}"


def check_snapshots(ref, run):
    names = ref.snapshots()
    if getattr(ref, "exe_mtime", None) != getattr(run, "exe_mtime", None):
        print(f"  note: {EXE} was rebuilt between '{ref.label}' and '{run.label}'", flush=True)
    assert len(names) >= 3, f"reference wrote {len(names)} snapshots; need initial, intermediate, final"
    got = run.snapshots()
    assert got == names, f"snapshots {got} vs reference {names}"
    bad = []
    for name in names:  # every snapshot, so one bad file among many is reported with the rest
        try:
            compare_snapshot(ref, run, name)
        except AssertionError as e:
            bad.append(f"{name}: {e}")
    assert not bad, f"{len(bad)} of {len(names)} snapshots differ:\n    " + "\n    ".join(bad)


def check_history(ref, run):
    a, b = ref.history(), run.history()
    assert len(a) == len(b), f"{len(b)} history rows vs {len(a)} on 1 rank"
    assert len(a) > 1, "history has no steps"
    exact = ("step", "time", "dt", "rho_min", "rho_max")
    sum_tol = max(SUM_RTOL, int(np.prod(run.case.cells)) * np.finfo(np.float64).eps)
    for ra, rb in zip(a, b):
        for k in exact:
            assert float(ra[k]) == float(rb[k]), f"step {ra['step']}: {k} {rb[k]} vs {ra[k]} on 1 rank"
        x, y = float(ra["mass"]), float(rb["mass"])
        assert abs(x - y) <= SUM_RTOL * abs(x), \
            f"step {ra['step']}: mass {y!r} vs {x!r} on 1 rank (rel {abs(x - y) / abs(x):.2e})"
        # Energy and momenta sum values of very different size (a hot blast
        # in a cold medium), so a different order may round differently up
        # to the recursive-summation bound: (number of cells) x epsilon.
        x, y = float(ra["energy"]), float(rb["energy"])
        assert abs(x - y) <= sum_tol * abs(x), \
            f"step {ra['step']}: energy {y!r} vs {x!r} on 1 rank (rel {abs(x - y) / abs(x):.2e})"
        scale = max(abs(float(ra["mass"])), abs(float(ra["energy"])))
        for k in ("mom1", "mom2", "mom3"):
            x, y = float(ra[k]), float(rb[k])
            assert abs(x - y) <= sum_tol * scale, f"step {ra['step']}: {k} {y!r} vs {x!r} on 1 rank"


def check_summary(ref, run):
    s, s1 = run.summary(), ref.summary()
    assert s["ranks"] == run.ranks, f"summary ranks {s['ranks']}, requested {run.ranks}"
    pg = list(s["process_grid"])
    assert len(pg) == 3 and int(np.prod(pg)) == run.ranks, f"process_grid {pg} for {run.ranks} ranks"
    for d in range(3):
        assert run.case.cells[d] % pg[d] == 0, f"process_grid {pg} does not divide {run.case.cells}"
    if run.pgrid is not None:
        assert pg == list(run.pgrid), f"process_grid {pg}, requested mesh.ranks={list(run.pgrid)}"
    elif run.ranks in run.case.expect_auto:
        want = run.case.expect_auto[run.ranks]
        assert pg == want, f"automatic process_grid {pg}, expected {want}"
    for k in ("cells", "steps", "time", "grid"):
        assert s[k] == s1[k], f"summary {k} {s[k]!r} vs {s1[k]!r} on 1 rank"
    assert list(s["grid"]) == list(run.case.cells), f"summary grid {s['grid']}"


# ---------------------------------------------------------------- main
def main():
    t_start = time.time()
    tmp = tempfile.mkdtemp(prefix="astronomix_test_mpi_")
    print(f"astronomix: {EXE}\nmpiexec: {MPIEXEC} {' '.join(MPI_FLAGS)} ({MPI_VERSION})\n"
          f"work dir: {tmp}", flush=True)
    both = "output.variables=[prim,cons]"
    steps10 = ["time.max_steps=10", "output.every_steps=2", both]
    seqio = ["output.hdf5_mode=sequential"]
    cases = [
        Case("sedov3d", "sedov3d.yaml", [32, 32, 32], steps10,
             [(1, None), (2, None), (4, None), (4, [1, 2, 2]), (4, [4, 1, 1]),
              # Rank-by-rank HDF5 as well: tells solver from I/O differences.
              (4, None, seqio)],
             expect_auto={2: [1, 1, 2], 4: [1, 1, 4]}),
        # Blast against the walls: reflecting in x, outflow in y, periodic in z.
        Case("sedov3d_walls", "sedov3d.yaml", [32, 32, 32],
             steps10 + ["boundaries.x=reflecting", "boundaries.y=outflow", "boundaries.z=periodic",
                        "problem.center=[-0.45,0.45,-0.45]"],
             [(1, None), (2, [2, 1, 1]), (4, [1, 2, 2]), (4, [4, 1, 1])]),
        Case("kh", "kelvin_helmholtz.yaml", [64, 128, 1], steps10,
             [(1, None), (2, None), (4, None), (4, [2, 2, 1]), (4, [4, 1, 1])],
             expect_auto={2: [1, 2, 1], 4: [1, 4, 1]}),
        # Shear flow straight into reflecting x walls.
        Case("kh_walls", "kelvin_helmholtz.yaml", [64, 128, 1], steps10 + ["boundaries.x=reflecting"],
             [(1, None), (2, [2, 1, 1]), (4, [2, 2, 1])]),
        Case("sod_y", "sod_y.yaml", [1, 128, 1], ["output.dt=0.04", both], [(1, None), (2, None), (4, None)],
             expect_auto={2: [1, 2, 1], 4: [1, 4, 1]}),
        # Rarefaction reflected off the wall at y = 0.
        Case("sod_y_wall", "sod_y.yaml", [1, 128, 1],
             ["output.dt=0.04", both, "boundaries.y=reflecting", "problem.position=0.15"],
             [(1, None), (4, None)], expect_auto={4: [1, 4, 1]}),
        Case("sod_z", "sod_z.yaml", [1, 1, 128], ["output.dt=0.04", both], [(1, None), (4, None)],
             expect_auto={4: [1, 1, 4]}),
    ]
    for case in cases:
        for layout in case.layouts:
            ranks, pgrid, extra = (tuple(layout) + ((),))[:3]
            run = Run(case, ranks, pgrid, extra, tmp)
            run.execute()
            case.runs.append(run)
            check(f"run {run.label}", run.need)
        ref = case.runs[0]
        assert ref.ranks == 1
        check(f"{ref.label}: summary reports 1 rank", check_summary, ref, ref)
        for run in case.runs[1:]:
            check(f"{run.label}: snapshots bitwise equal to 1 rank", check_snapshots, ref, run)
            check(f"{run.label}: history agrees with 1 rank", check_history, ref, run)
            check(f"{run.label}: summary ranks/process_grid", check_summary, ref, run)

    if FAILED:
        print(f"outputs kept in {tmp}", flush=True)
        if old_ompio():
            print("hint: this Open MPI's OMPIO can corrupt collective HDF5 writes unless byte-range "
                  "locking is on (open-mpi/ompi#12718, fixed in 4.1.7); if only collective-mode "
                  "snapshots differ, retry with OMPI_MCA_fs_ufs_lock_algorithm=3 to confirm", flush=True)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"total {time.time() - t_start:.1f} s", flush=True)
    print(f"{len(PASSED)} passed, {len(FAILED)} failed", flush=True)
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
