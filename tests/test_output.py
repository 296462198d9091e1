#!/usr/bin/env python3
"""Whole-program checks of astronomix's snapshot output.

Runs small 3D, 2D and 1D problems through the command line and checks what
they write:
  * the .athdf layout that yt's athena_pp frontend expects (root attributes
    with their HDF5 types, datasets and shapes, coordinates), and the
    effective config stored in the `Config` attribute;
  * read-back: the initial Sod and linear-wave snapshots equal the analytic
    initial conditions computed here; cons and prim datasets agree;
  * yt.load and ParaView (when installed; otherwise a SKIP line);
  * the .xdmf sidecar, evaluated hyperslab by hyperslab against the file;
  * no *.tmp leftovers, the history CSV, the summary JSON, the final time;
  * output.hdf5_mode=sequential writes bitwise the same data as the default
    (collective) mode on 2 MPI ranks.

Environment: ASTRONOMIX_EXE (binary), MPIEXEC (mpirun; empty -> `mpirun`),
ASTRONOMIX_SOURCE (repo root). Run with Debian's /usr/bin/python3.
The last line printed is `N passed, M failed[, K skipped]`; the exit status
is non-zero when anything failed.
"""
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

import h5py
import numpy as np

try:
    import yaml
except ImportError:  # the checks that parse the Config attribute skip (fail with ASTRONOMIX_REQUIRE_TOOLS=1)
    yaml = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from astronomix_testlib import (EXE, MPIEXEC, Run, Skip, assemble, bitwise_equal, check,  # noqa: E402
                                decode, describe_diff, exe_missing, finish, run_env)

NAME_LEN = 21  # Athena++ fixed-length strings: 20 characters + NUL
# Athena++'s .hst columns in its order (the MHD energies after tot-E), then ours.
HISTORY_HEADER = "step,time,dt,mass,mom1,mom2,mom3,ke1,ke2,ke3,energy,rho_min,rho_max"
MHD_HISTORY_HEADER = ("step,time,dt,mass,mom1,mom2,mom3,ke1,ke2,ke3,energy,"
                      "magnetic_energy1,magnetic_energy2,magnetic_energy3,rho_min,rho_max,div_b_max")
DATASET_VARS = {"prim": ["rho", "press", "vel1", "vel2", "vel3"],
                "cons": ["dens", "Etot", "mom1", "mom2", "mom3"],
                "B": ["Bcc1", "Bcc2", "Bcc3"]}


# ---------------------------------------------------------------- reading
def attr_type(f, name):
    return f.attrs.get_id(name).get_type()


def assert_fixed_string_attr(f, name, size=NAME_LEN):
    t = attr_type(f, name)
    assert isinstance(t, h5py.h5t.TypeStringID), f"{name}: HDF5 class {type(t).__name__}, expected a string"
    assert not t.is_variable_str(), f"{name}: variable-length string (yt needs fixed-length)"
    if size is not None:
        assert t.get_size() == size, f"{name}: string size {t.get_size()}, expected {size}"


def assert_int_attr(f, name, shape):
    t = attr_type(f, name)
    assert isinstance(t, h5py.h5t.TypeIntegerID) and t.get_size() == 4, \
        f"{name}: expected int32, got {type(t).__name__} of {t.get_size()} bytes"
    got = np.shape(f.attrs[name])
    assert got == shape, f"{name}: shape {got}, expected {shape}"


def assert_float_attr(f, name, shape, size):
    t = attr_type(f, name)
    assert isinstance(t, h5py.h5t.TypeFloatID) and t.get_size() == size, \
        f"{name}: expected float{8 * size}, got {type(t).__name__} of {t.get_size()} bytes"
    got = np.shape(f.attrs[name])
    assert got == shape, f"{name}: shape {got}, expected {shape}"


# ---------------------------------------------------------------- the cases
class Case:
    """A run plus what the test asked of it."""

    def __init__(self, label, config, cells, lower, upper, t_end, out_dt, ranks, extra=(),
                 variables=("prim", "cons"), max_steps=None, gamma=None, mhd=False):
        self.label, self.config, self.cells, self.lower, self.upper = label, config, cells, lower, upper
        self.t_end, self.out_dt, self.ranks, self.variables = t_end, out_dt, ranks, list(variables)
        self.mhd = mhd
        # Snapshots add Athena++'s dataset B (Bcc1..3) to MHD runs.
        self.datasets = self.variables + (["B"] if mhd else [])
        self.max_steps, self.gamma = max_steps, gamma
        self.sets = [f"mesh.cells=[{','.join(map(str, cells))}]", f"time.end={t_end}",
                     f"output.variables=[{','.join(variables)}]"] + list(extra)
        if out_dt is not None:
            self.sets.append(f"output.dt={out_dt}")
        if max_steps is not None:
            self.sets.append(f"time.max_steps={max_steps}")
        self.run = None

    def start(self, tmp):
        d = os.path.join(tmp, self.label)
        self.run = Run(self.label, self.config, self.sets, d, self.label, self.ranks)
        self.run.execute()


def check_layout(case):
    """Root attributes (values and HDF5 types) and dataset shapes, every snapshot."""
    snaps = case.run.snapshots()
    assert snaps, "no snapshots written"
    summary = case.run.summary()
    fsize = 8 if summary.get("precision", "double") == "double" else 4
    ftype = np.float64 if fsize == 8 else np.float32
    pgrid = summary["process_grid"]
    for path in snaps:
        with h5py.File(path, "r") as f:
            where = os.path.basename(path)
            assert_int_attr(f, "NumCycles", ())
            assert_float_attr(f, "Time", (), fsize)
            assert_fixed_string_attr(f, "Coordinates")
            assert np.shape(f.attrs["Coordinates"]) in ((), (1,)), "Coordinates: expected one string"
            assert decode(np.ravel(f.attrs["Coordinates"])[0]) == "cartesian", \
                f"{where}: Coordinates = {f.attrs['Coordinates']!r}"
            for d in range(3):
                name = f"RootGridX{d + 1}"
                assert_float_attr(f, name, (3,), fsize)
                got = list(f.attrs[name])
                want = [case.lower[d], case.upper[d], 1.0]
                assert got == want, f"{where}: {name} = {got}, expected {want}"
            assert_int_attr(f, "RootGridSize", (3,))
            assert list(f.attrs["RootGridSize"]) == list(case.cells), \
                f"{where}: RootGridSize {list(f.attrs['RootGridSize'])}, expected {case.cells}"
            assert_int_attr(f, "NumMeshBlocks", ())
            nb = int(f.attrs["NumMeshBlocks"])
            assert nb == case.ranks, f"{where}: NumMeshBlocks {nb}, expected one per rank ({case.ranks})"
            assert_int_attr(f, "MeshBlockSize", (3,))
            bs = [int(n) for n in f.attrs["MeshBlockSize"]]
            want_bs = [case.cells[d] // pgrid[d] for d in range(3)]
            assert bs == want_bs, f"{where}: MeshBlockSize {bs}, expected {want_bs} (process grid {pgrid})"
            assert_int_attr(f, "MaxLevel", ())
            assert int(f.attrs["MaxLevel"]) == 0, "MaxLevel should be 0 on a uniform grid"
            nds = len(case.datasets)
            assert_int_attr(f, "NumVariables", (nds,))
            want_n = [len(DATASET_VARS[d]) for d in case.datasets]
            assert list(f.attrs["NumVariables"]) == want_n, f"NumVariables {list(f.attrs['NumVariables'])}"
            assert_fixed_string_attr(f, "DatasetNames")
            assert_fixed_string_attr(f, "VariableNames")
            dnames = [decode(n) for n in f.attrs["DatasetNames"]]
            vnames = [decode(n) for n in f.attrs["VariableNames"]]
            assert dnames == case.datasets, f"DatasetNames {dnames}, expected {case.datasets}"
            want_v = [v for ds in dnames for v in DATASET_VARS[ds]]
            assert vnames == want_v, f"VariableNames {vnames}, expected {want_v}"
            # Datasets.
            assert f["Levels"].shape == (nb,) and f["Levels"].dtype == np.int32, \
                f"Levels {f['Levels'].shape} {f['Levels'].dtype}"
            assert (f["Levels"][...] == 0).all(), "Levels should all be 0"
            ll = f["LogicalLocations"]
            assert ll.shape == (nb, 3) and ll.dtype == np.int64, f"LogicalLocations {ll.shape} {ll.dtype}"
            locs = {tuple(int(x) for x in r) for r in ll[...]}
            want_locs = {(i, j, k) for i in range(pgrid[0]) for j in range(pgrid[1]) for k in range(pgrid[2])}
            assert locs == want_locs, f"LogicalLocations {sorted(locs)} do not cover process grid {pgrid}"
            for d in range(3):
                xf, xv = f[f"x{d + 1}f"], f[f"x{d + 1}v"]
                assert xf.shape == (nb, bs[d] + 1) and xf.dtype == ftype, f"x{d + 1}f {xf.shape} {xf.dtype}"
                assert xv.shape == (nb, bs[d]) and xv.dtype == ftype, f"x{d + 1}v {xv.shape} {xv.dtype}"
            for ds in dnames:
                want = (len(DATASET_VARS[ds]), nb, bs[2], bs[1], bs[0])
                assert f[ds].shape == want and f[ds].dtype == ftype, \
                    f"{ds} shape {f[ds].shape} {f[ds].dtype}, expected {want} {ftype.__name__}"
            assert set(f.keys()) == {"Levels", "LogicalLocations", "x1f", "x2f", "x3f", "x1v", "x2v",
                                     "x3v"} | set(dnames), f"unexpected datasets {sorted(f.keys())}"


def check_coordinates(case):
    """Face coordinates span the config's lower..upper, uniform spacing; centres mid-face."""
    for path in case.run.snapshots():
        with h5py.File(path, "r") as f:
            _, faces, centres = assemble(f)
        for d in range(3):
            gf, gv = faces[d], centres[d]
            n = case.cells[d]
            lo, hi = case.lower[d], case.upper[d]
            assert gf[0] == lo, f"x{d + 1}f starts at {gf[0]!r}, config lower is {lo!r}"
            assert abs(gf[-1] - hi) <= 4 * np.spacing(max(abs(hi), abs(lo), 1.0)), \
                f"x{d + 1}f ends at {gf[-1]!r}, config upper is {hi!r}"
            dx = (hi - lo) / n
            ideal = lo + np.arange(n + 1) * dx
            assert np.allclose(gf, ideal, rtol=0, atol=1e-13 * (hi - lo)), f"x{d + 1}f not uniform"
            assert np.allclose(gv, 0.5 * (gf[:-1] + gf[1:]), rtol=0, atol=1e-13 * (hi - lo)), \
                f"x{d + 1}v not at cell centres"


def check_config_attr(case):
    """`Config` holds the effective YAML, with the --set overrides."""
    path = case.run.snapshots()[0]
    with h5py.File(path, "r") as f:
        assert_fixed_string_attr(f, "Config", size=None)
        text = decode(f.attrs["Config"])
        gamma_attr = f.attrs.get("Gamma")
    assert "mesh:" in text, "Config attribute lacks 'mesh:'"
    if yaml is None:
        raise Skip("python3-yaml missing: the Config attribute cannot be parsed")
    cfg = yaml.safe_load(text)
    assert cfg["mesh"]["cells"] == list(case.cells), f"Config mesh.cells {cfg['mesh']['cells']}"
    assert float(cfg["time"]["end"]) == case.t_end, f"Config time.end {cfg['time']['end']}"
    assert cfg["output"]["basename"] == case.label, f"Config output.basename {cfg['output']['basename']}"
    assert cfg["output"]["directory"] == case.run.dir, f"Config output.directory {cfg['output']['directory']}"
    assert cfg["output"]["variables"] == case.variables, f"Config output.variables {cfg['output']['variables']}"
    for s in case.sets:
        key, value = s.split("=", 1)
        node = cfg
        for part in key.split("."):
            assert isinstance(node, dict) and part in node, f"override {key} missing from Config"
            node = node[part]
        assert node == yaml.safe_load(value), f"Config {key} = {node!r}, --set gave {value!r}"
    if gamma_attr is not None and case.gamma is not None:
        assert float(gamma_attr) == case.gamma, f"Gamma attribute {gamma_attr!r}, expected {case.gamma!r}"


def check_cons_prim(case):
    """rho == dens bitwise, vel == mom/dens to 1e-14, press == (gamma-1)(E - KE)."""
    gm1 = case.gamma - 1.0
    for path in case.run.snapshots():
        with h5py.File(path, "r") as f:
            prim, cons = f["prim"][...], f["cons"][...]
            bcc = f["B"][...] if case.mhd else np.zeros((3,) + prim.shape[1:])
        rho, press, vel = prim[0], prim[1], prim[2:5]
        dens, etot, mom = cons[0], cons[1], cons[2:5]
        where = os.path.basename(path)
        assert bitwise_equal(rho, dens), f"{where}: rho != dens ({describe_diff(rho, dens)})"
        for d in range(3):
            ref = mom[d] / dens
            err = np.abs(vel[d] - ref)
            tol = 1e-14 * np.abs(ref)
            assert (err <= tol).all(), f"{where}: vel{d + 1} vs mom{d + 1}/dens: max rel err " \
                                       f"{np.max(err / np.maximum(np.abs(ref), 1e-300)):.2e}"
        ke = 0.5 * (mom[0] * vel[0] + mom[1] * vel[1] + mom[2] * vel[2])
        me = 0.5 * (bcc[0] ** 2 + bcc[1] ** 2 + bcc[2] ** 2)
        p_ref = gm1 * (etot - ke - me)
        assert (np.abs(press - p_ref) <= 1e-13 * gm1 * np.abs(etot)).all(), \
            f"{where}: press inconsistent with Etot, max err {np.max(np.abs(press - p_ref)):.2e}"


def check_orszag_tang_initial_field(case):
    """Initial Orszag-Tang snapshot: B's components in their order, Bcc1..3 = B0 (sin 2 pi y, sin 4 pi x, 0)."""
    path = case.run.snapshots()[0]
    with h5py.File(path, "r") as f:
        assert int(f.attrs["NumCycles"]) == 0, "not the initial snapshot"
        cells, _, centres = assemble(f)
    b = cells["B"][:, 0, :, :]  # (component, j, i)
    x, y = np.meshgrid(centres[0], centres[1])
    b0 = 1.0 / np.sqrt(4.0 * np.pi)
    # Face averages of the curl, averaged to the centre: within 3% of the
    # point values at 32 cells a period (measured 0.16% and 0.63%); with
    # the components in another order the error is 100%.
    for name, got, want in (("Bcc1", b[0], b0 * np.sin(2 * np.pi * y)), ("Bcc2", b[1], b0 * np.sin(4 * np.pi * x))):
        err = float(np.abs(got - want).max())
        assert err <= 0.03 * b0, f"{name} differs from its analytic value by {err / b0:.3g} B0"
    assert (b[2] == 0).all(), "Bcc3 not zero"


def check_sod_initial(case):
    """Initial Sod snapshot equals the analytic state exactly."""
    path = case.run.snapshots()[0]
    assert path.endswith(".out1.00000.athdf"), f"first snapshot is {path}"
    with h5py.File(path, "r") as f:
        assert int(f.attrs["NumCycles"]) == 0 and float(f.attrs["Time"]) == 0.0, "not the initial snapshot"
        cells, _, centres = assemble(f)
    n = case.cells[0]
    lo, hi = case.lower[0], case.upper[0]
    x = lo + (np.arange(n) + 0.5) * ((hi - lo) / n)
    assert np.array_equal(centres[0], x), "x1v differs from lower + (i + 1/2) dx"
    left = x < 0.5
    rho = np.where(left, 1.0, 0.125)
    press = np.where(left, 1.0, 0.1)
    prim = cells["prim"][:, 0, 0, :]
    assert bitwise_equal(prim[0], rho), f"rho: {describe_diff(prim[0], rho)}"
    assert bitwise_equal(prim[1], press), f"press: {describe_diff(prim[1], press)}"
    for d in range(3):
        assert (prim[2 + d] == 0).all(), f"vel{d + 1} not zero"
    gm1 = case.gamma - 1.0
    cons = cells["cons"][:, 0, 0, :]
    assert bitwise_equal(cons[0], rho), f"dens: {describe_diff(cons[0], rho)}"
    assert bitwise_equal(cons[1], press / gm1), f"Etot: {describe_diff(cons[1], press / gm1)}"
    for d in range(3):
        assert (cons[2 + d] == 0).all(), f"mom{d + 1} not zero"


def check_linear_wave_initial(case):
    """Initial 1D sound wave: rho = 1 + A sin(2 pi x), etc., to one rounding."""
    path = case.run.snapshots()[0]
    with h5py.File(path, "r") as f:
        cells, _, _ = assemble(f)
    n = case.cells[0]
    lo, hi = case.lower[0], case.upper[0]
    gamma, amp = case.gamma, 1e-6
    x = lo + (np.arange(n) + 0.5) * ((hi - lo) / n)
    sn = np.array([math.sin(2 * math.pi / (hi - lo) * xi) for xi in x])
    p0 = 1.0 / gamma
    c = math.sqrt(gamma * p0)  # 1
    h = c * c / (gamma - 1)
    dens = 1.0 + amp * sn
    mom = amp * sn * c
    etot = p0 / (gamma - 1) + amp * sn * h
    cons = cells["cons"][:, 0, 0, :]
    for name, got, want in (("dens", cons[0], dens), ("mom1", cons[2], mom), ("Etot", cons[1], etot)):
        err = np.max(np.abs(got - want))
        assert err <= 4e-16 * np.max(np.abs(want)), f"{name}: max |diff| {err:.3e} from the analytic state"
    assert (cons[3] == 0).all() and (cons[4] == 0).all(), "mom2/mom3 not zero"


def check_yt(case):
    try:
        import yt
    except Exception as e:  # noqa: BLE001 - any import failure means "no yt"
        raise Skip(f"yt not importable ({type(e).__name__}: {e})")
    yt.set_log_level(50)
    for path in (case.run.snapshots()[0], case.run.snapshots()[-1]):
        with h5py.File(path, "r") as f:
            cells, _, _ = assemble(f)
            t = float(f.attrs["Time"])
        ds = yt.load(path)
        fields = set(ds.derived_field_list)
        for fld in (("gas", "density"), ("gas", "pressure"), ("gas", "velocity_x")):
            assert fld in fields, f"yt lacks {fld}"
        assert ds.current_time.to("code_time").d == t, f"yt time {ds.current_time} vs Time {t}"
        assert list(ds.domain_dimensions) == list(case.cells), f"yt dims {ds.domain_dimensions}"
        assert np.allclose(ds.domain_left_edge.to("code_length").d, case.lower, rtol=0, atol=1e-14)
        assert np.allclose(ds.domain_right_edge.to("code_length").d, case.upper, rtol=0, atol=1e-14)
        cg = ds.covering_grid(level=0, left_edge=ds.domain_left_edge, dims=ds.domain_dimensions)
        # covering grid is (x, y, z); the file is (z, y, x)
        rho = np.asarray(cg["gas", "density"].to("code_mass/code_length**3").d).transpose(2, 1, 0)
        assert bitwise_equal(rho, cells["prim"][0]), f"yt density: {describe_diff(rho, cells['prim'][0])}"
        p = np.asarray(cg["gas", "pressure"].to("code_pressure").d).transpose(2, 1, 0)
        assert np.allclose(p, cells["prim"][1], rtol=1e-13, atol=0), "yt pressure differs from prim[1]"
        vx = np.asarray(cg["gas", "velocity_x"].to("code_length/code_time").d).transpose(2, 1, 0)
        assert np.allclose(vx, cells["prim"][2], rtol=1e-13, atol=1e-300), "yt velocity_x differs from prim[2]"
        if case.mhd:
            # yt maps Athena++'s Bcc1..3 to the gas magnetic field (code units).
            for d, ax in enumerate("xyz"):
                fld = ("gas", f"magnetic_field_{ax}")
                assert fld in fields, f"yt lacks {fld}"
                b = np.asarray(cg[fld].to("code_magnetic").d).transpose(2, 1, 0)
                assert np.allclose(b, cells["B"][d], rtol=1e-13, atol=1e-300), \
                    f"yt magnetic_field_{ax} differs from B[{d}]"
            assert ("gas", "magnetic_energy_density") in fields, "yt lacks magnetic_energy_density"


def _ints(text):
    return [int(v) for v in text.split()]


def _eval_item(item, fh, athdf_name):
    """Evaluates an XDMF DataItem (HDF or HyperSlab) against the open file."""
    if item.get("ItemType") == "HyperSlab":
        sub = item.findall("DataItem")
        assert len(sub) == 2, "HyperSlab needs a selection and a source DataItem"
        sel = np.array(_ints(sub[0].text)).reshape(3, -1)
        src = _eval_item(sub[1], fh, athdf_name)
        start, stride, count = sel
        assert len(start) == src.ndim, f"hyperslab rank {len(start)} vs source rank {src.ndim}"
        for s, st, c, n in zip(start, stride, count, src.shape):
            assert s >= 0 and st >= 1 and c >= 1 and s + st * (c - 1) < n, \
                f"hyperslab start {start} stride {stride} count {count} outside {src.shape}"
        out = src[tuple(slice(s, s + st * (c - 1) + 1, st) for s, st, c in zip(start, stride, count))]
        dims = _ints(item.get("Dimensions"))
        assert int(np.prod(dims)) == out.size, f"HyperSlab Dimensions {dims} vs count {list(count)}"
        return out.reshape(dims)
    assert item.get("Format") == "HDF", f"DataItem format {item.get('Format')}"
    fname, _, dset = item.text.strip().partition(":/")
    assert fname == athdf_name, f"DataItem refers to {fname!r}, expected {athdf_name!r}"
    assert dset in fh, f"DataItem refers to missing dataset {dset!r}"
    dims = _ints(item.get("Dimensions"))
    assert tuple(dims) == fh[dset].shape, f"{dset}: Dimensions {dims} vs dataset {fh[dset].shape}"
    assert item.get("NumberType") == "Float" and int(item.get("Precision")) == fh[dset].dtype.itemsize, \
        f"{dset}: NumberType/Precision {item.get('NumberType')}/{item.get('Precision')} vs {fh[dset].dtype}"
    return fh[dset][...]


def check_xdmf(case):
    """The sidecar: Collection with Time, a Uniform grid per block, hyperslabs that read the right block."""
    for path in case.run.snapshots():
        xpath = path + ".xdmf"
        assert os.path.isfile(xpath), f"missing {xpath}"
        root = ET.parse(xpath).getroot()
        assert root.tag == "Xdmf", f"root element {root.tag}"
        athdf_name = os.path.basename(path)
        with h5py.File(path, "r") as fh:
            nb = int(fh.attrs["NumMeshBlocks"])
            bs = [int(n) for n in fh.attrs["MeshBlockSize"]]
            vnames = [decode(n) for n in fh.attrs["VariableNames"]]
            dnames = [decode(n) for n in fh.attrs["DatasetNames"]]
            var_of = {}
            k = 0
            for ds, nv in zip(dnames, fh.attrs["NumVariables"]):
                for n in range(int(nv)):
                    var_of[vnames[k]] = (ds, n)
                    k += 1
            colls = [g for g in root.iter("Grid") if g.get("GridType") == "Collection"]
            assert len(colls) == 1, f"{len(colls)} Collection grids"
            coll = colls[0]
            tel = coll.find("Time")
            assert tel is not None, "Collection has no Time"
            assert float(tel.get("Value")) == float(fh.attrs["Time"]), \
                f"XDMF Time {tel.get('Value')} vs file Time {float(fh.attrs['Time'])!r}"
            grids = [g for g in coll.findall("Grid") if g.get("GridType") == "Uniform"]
            assert len(grids) == nb, f"{len(grids)} Uniform grids for {nb} mesh blocks"
            seen = set()
            for g in grids:
                topo = g.find("Topology")
                ttype = topo.get("TopologyType")
                ne = _ints(topo.get("NumberOfElements"))
                if ttype == "3DRectMesh":
                    assert ne == [bs[2] + 1, bs[1] + 1, bs[0] + 1], f"3DRectMesh NumberOfElements {ne}"
                else:
                    assert ttype == "2DRectMesh" and ne == [bs[1] + 1, bs[0] + 1], f"topology {ttype} {ne}"
                geo = g.find("Geometry")
                assert geo.get("GeometryType") == "VXVYVZ", f"GeometryType {geo.get('GeometryType')}"
                items = geo.findall("DataItem")
                assert len(items) == 3, f"{len(items)} geometry DataItems"
                coords = [_eval_item(it, fh, athdf_name) for it in items]
                # Which block is this? The one whose faces the x1 hyperslab selects.
                block = [b for b in range(nb)
                         if all(bitwise_equal(coords[d], fh[f"x{d + 1}f"][b]) for d in range(3))]
                assert block, f"grid {g.get('Name')}: geometry matches no block's faces"
                b = block[0]
                b_sel = _ints(items[0].findall("DataItem")[0].text)[0]
                assert b_sel not in seen, f"block {b_sel} described twice"
                seen.add(b_sel)
                attrs = g.findall("Attribute")
                names = [a.get("Name") for a in attrs]
                assert sorted(names) == sorted(vnames), f"Attributes {names} vs VariableNames {vnames}"
                for a in attrs:
                    assert a.get("Center") == "Cell", f"{a.get('Name')}: Center {a.get('Center')}"
                    val = _eval_item(a.find("DataItem"), fh, athdf_name)
                    ds, n = var_of[a.get("Name")]
                    want = fh[ds][n, b]
                    assert val.size == want.size, f"{a.get('Name')}: {val.shape} vs block {want.shape}"
                    assert bitwise_equal(val.reshape(want.shape), want), \
                        f"grid {g.get('Name')} attribute {a.get('Name')} does not read {ds}[{n}, {b}]"
            assert seen == set(range(nb)), f"blocks described: {sorted(seen)}"


def check_files(case):
    """Names, sidecars, no *.tmp left behind; summary lists the snapshots."""
    run = case.run
    snaps = run.snapshots()
    left = [n for n in os.listdir(run.dir) if n.endswith(".tmp") or ".tmp" in n]
    assert not left, f"temporary files left in the output directory: {left}"
    idx = [int(p[-11:-6]) for p in snaps]
    assert idx == list(range(len(snaps))), f"snapshot numbers {idx} not consecutive from 0"
    for p in snaps:
        assert os.path.isfile(p + ".xdmf"), f"missing sidecar {p}.xdmf"
    summary = run.summary()
    listed = [os.path.abspath(p) for p in summary.get("snapshots", [])]
    assert listed == [os.path.abspath(p) for p in snaps], f"summary snapshots {listed} vs files {snaps}"
    if case.out_dt is not None and case.max_steps is None:
        want = 1 + int(round(case.t_end / case.out_dt))
        assert len(snaps) == want, f"{len(snaps)} snapshots for end {case.t_end} / dt {case.out_dt}"
        times = []
        for p in snaps:
            with h5py.File(p, "r") as f:
                times.append(float(f.attrs["Time"]))
        for k, t in enumerate(times):
            assert t >= k * case.out_dt * (1 - 1e-12), f"snapshot {k} at t = {t} before {k * case.out_dt}"
        assert all(a < b for a, b in zip(times, times[1:])), f"snapshot times not increasing: {times}"


def check_history_summary(case):
    run = case.run
    summary = run.summary()
    text = run.history()
    lines = text.splitlines()
    header = MHD_HISTORY_HEADER if case.mhd else HISTORY_HEADER
    assert lines[0] == header, f"history header {lines[0]!r}"
    rows = list(csv.DictReader(lines))
    steps = [int(r["step"]) for r in rows]
    assert steps == list(range(summary["steps"] + 1)), \
        f"history steps {steps[:5]}...{steps[-3:]}, expected 0..{summary['steps']}"
    times = [float(r["time"]) for r in rows]
    assert times[0] == 0.0 and all(a < b for a, b in zip(times, times[1:])), "history time not increasing"
    dts = [float(r["dt"]) for r in rows]
    assert all(dt > 0 for dt in dts[1:]), "non-positive dt in history"
    acc = 0.0
    for k in range(1, len(rows)):
        acc = times[k - 1] + dts[k]
        assert acc == times[k], f"row {k}: time {times[k]!r} != previous time + dt {acc!r}"
    assert times[-1] == summary["time"], f"history ends at {times[-1]!r}, summary time {summary['time']!r}"
    ended = "time.end" if summary["time"] >= case.t_end * (1 - 1e-14) else "time.max_steps"
    assert summary["ended_by"] == ended, f"summary ended_by {summary['ended_by']!r}, expected {ended!r}"
    cells = int(np.prod(case.cells))
    assert summary["cells"] == cells, f"summary cells {summary['cells']}, expected {cells}"
    assert summary["steps"] > 0, "summary steps not positive"
    assert summary["cell_updates_per_s"] > 0, "cell_updates_per_s not positive"
    assert summary["host_peak_rss_bytes_max_rank"] > 0, "host_peak_rss_bytes_max_rank not positive"
    assert summary["ranks"] == case.ranks, f"summary ranks {summary['ranks']}, expected {case.ranks}"
    assert int(np.prod(summary["process_grid"])) == case.ranks, f"process_grid {summary['process_grid']}"
    assert list(summary["grid"]) == list(case.cells), f"summary grid {summary['grid']}"
    snaps = run.snapshots()
    with h5py.File(snaps[-1], "r") as f:
        t_final = float(f.attrs["Time"])
        ncyc = int(f.attrs["NumCycles"])
        cells_final, _, _ = assemble(f)
    assert ncyc == summary["steps"], f"final NumCycles {ncyc}, summary steps {summary['steps']}"
    assert t_final == summary["time"], f"final Time {t_final!r}, summary time {summary['time']!r}"
    if case.max_steps is None:
        assert t_final == case.t_end, f"final snapshot Time {t_final!r} != time.end {case.t_end!r}"
    # The last history row describes the state in the final snapshot.
    if "cons" in cells_final:
        dens = cells_final["cons"][0]
        last = rows[-1]
        dv = np.prod([(case.upper[d] - case.lower[d]) / case.cells[d] for d in range(3)])
        assert float(last["rho_min"]) == dens.min() and float(last["rho_max"]) == dens.max(), \
            "history rho_min/rho_max differ from the final snapshot"
        mass = float(np.sum(dens, dtype=np.float64)) * dv
        assert abs(float(last["mass"]) - mass) <= 1e-12 * abs(mass), \
            f"history mass {last['mass']} vs snapshot {mass!r}"
        # Momenta and total energy: the sums of the snapshot's cons (to
        # rounding of the sum of their magnitudes; a net momentum may be 0).
        total = float(last["energy"])
        energy = float(np.sum(cells_final["cons"][1], dtype=np.float64)) * dv
        assert abs(total - energy) <= 1e-12 * abs(energy), f"history energy {total!r} vs snapshot {energy!r}"
        for d in range(3):
            mom = cells_final["cons"][2 + d]
            scale = float(np.sum(np.abs(mom), dtype=np.float64)) * dv
            expect = float(np.sum(mom, dtype=np.float64)) * dv
            assert abs(float(last[f"mom{d + 1}"]) - expect) <= 1e-12 * scale + 1e-300, \
                f"history mom{d + 1} {last[f'mom{d + 1}']} vs snapshot {expect!r}"
        # Athena++'s 1-KE, 2-KE, 3-KE: the sums of m_d^2 / (2 rho).
        for d in range(3):
            ke = float(np.sum(0.5 * cells_final["cons"][2 + d] ** 2 / dens, dtype=np.float64)) * dv
            assert abs(float(last[f"ke{d + 1}"]) - ke) <= 1e-12 * total, \
                f"history ke{d + 1} {last[f'ke{d + 1}']} vs snapshot {ke!r}"


def check_sequential_equals_collective(coll, seq):
    """hdf5_mode=sequential and the default write bitwise the same data (2 ranks)."""
    a, b = coll.run.snapshots(), seq.run.snapshots()
    suffix = lambda paths: [p[p.rindex(".out1."):] for p in paths]  # noqa: E731
    assert suffix(a) == suffix(b), f"snapshot lists differ: {suffix(a)} vs {suffix(b)}"
    assert coll.ranks == seq.ranks == 2
    for pa, pb in zip(a, b):
        with h5py.File(pa, "r") as fa, h5py.File(pb, "r") as fb:
            assert set(fa.keys()) == set(fb.keys()), f"datasets {sorted(fa.keys())} vs {sorted(fb.keys())}"
            for k in fa.keys():
                assert bitwise_equal(fa[k][...], fb[k][...]), \
                    f"{os.path.basename(pa)}:{k}: {describe_diff(fa[k][...], fb[k][...])}"
            assert set(fa.attrs.keys()) == set(fb.attrs.keys()), "attribute names differ"
            for k in fa.attrs.keys():
                if k == "Config":
                    continue
                assert bitwise_equal(fa.attrs[k], fb.attrs[k]), f"attribute {k} differs"
                ta, tb = attr_type(fa, k), attr_type(fb, k)
                assert ta == tb, f"attribute {k}: HDF5 types differ"
            if yaml is None:
                raise Skip("python3-yaml missing: the sequential file's hdf5_mode not checked")
            assert yaml.safe_load(decode(fb.attrs["Config"]))["output"]["hdf5_mode"] == "sequential"


PVSCRIPT = r"""
import sys
from paraview.simple import XDMFReader
# ParaView's XDMF (version 2) reader, the one Athena++'s sidecars are read
# with; its Xdmf3 readers do not read these files yet.
r = XDMFReader(FileNames=[sys.argv[1]])
r.CellArrayStatus = sys.argv[2].split(",")
r.UpdatePipeline()
names = list(r.CellData.keys()) + list(r.PointData.keys())
print("ARRAYS " + " ".join(names))
print("CELLS %d" % r.GetDataInformation().GetNumberOfCells())
"""


def check_paraview(case):
    # pvpython, or pvbatch (what Debian's paraview package ships).
    pv = shutil.which("pvpython") or shutil.which("pvbatch")
    if not pv:
        raise Skip("neither pvpython nor pvbatch on PATH")
    path = case.run.snapshots()[-1] + ".xdmf"
    script = os.path.join(case.run.dir, "pv_check.py")
    with open(script, "w") as f:
        f.write(PVSCRIPT)
    try:
        want = [v for ds in case.datasets for v in DATASET_VARS[ds]]
        p = subprocess.run([pv, script, path, ",".join(want)], capture_output=True,
                           text=True, timeout=180, env=run_env())
    finally:
        os.remove(script)
    out = p.stdout + p.stderr
    assert p.returncode == 0, f"{os.path.basename(pv)} exit {p.returncode}: {out[-2000:]}"
    arrays = [ln.split()[1:] for ln in out.splitlines() if ln.startswith("ARRAYS")]
    assert arrays and "rho" in arrays[0], f"ParaView arrays {arrays}, expected 'rho'\n{out[-2000:]}"
    if case.mhd:
        assert {"Bcc1", "Bcc2", "Bcc3"} <= set(arrays[0]), f"ParaView arrays {arrays[0]} lack Bcc1..3"
    ncells = [int(ln.split()[1]) for ln in out.splitlines() if ln.startswith("CELLS ")]
    assert ncells and ncells[0] == int(np.prod(case.cells)), f"ParaView cells {ncells}"


# ---------------------------------------------------------------- main
def main():
    t_start = time.time()
    if exe_missing():
        return finish()
    tmp = tempfile.mkdtemp(prefix="astronomix_test_output_")
    print(f"astronomix: {EXE}\nmpiexec: {MPIEXEC}\nwork dir: {tmp}", flush=True)
    g53 = 5.0 / 3.0
    cases = {
        # 3D blast on 2 ranks, default (collective) HDF5 mode.
        "blast3d": Case("blast3d", "sedov3d.yaml", cells=[16, 16, 16], lower=[-0.5] * 3,
                             upper=[0.5] * 3, t_end=0.01, out_dt=0.005, ranks=2, gamma=g53,
                             extra=["time.cfl=0.25"]),
        # The same, written rank by rank.
        "blast3d_seq": Case("blast3d_seq", "sedov3d.yaml", cells=[16, 16, 16], lower=[-0.5] * 3,
                                 upper=[0.5] * 3, t_end=0.01, out_dt=0.005, ranks=2, gamma=g53,
                                 extra=["time.cfl=0.25", "output.hdf5_mode=sequential"]),
        "sedov2d": Case("sedov2d", "sedov2d.yaml", cells=[32, 32, 1], lower=[-0.5, -0.5, 0.0],
                             upper=[0.5, 0.5, 1.0], t_end=0.01, out_dt=0.005, ranks=2, gamma=g53),
        "sod": Case("sod", "sod.yaml", cells=[64, 1, 1], lower=[0.0] * 3, upper=[1.0] * 3,
                         t_end=0.05, out_dt=0.025, ranks=1, gamma=1.4),
        # MHD on 2 ranks: dataset B, yt's magnetic fields, ParaView's Bcc arrays.
        "orszag_tang": Case("orszag_tang", "orszag_tang.yaml", cells=[32, 32, 1], lower=[-0.5, -0.5, 0.0],
                            upper=[0.5, 0.5, 1.0], t_end=0.02, out_dt=0.01, ranks=2, gamma=g53, mhd=True),
        "linwave": Case("linwave", "linear_wave1d.yaml", cells=[64, 1, 1], lower=[0.0] * 3,
                             upper=[1.0] * 3, t_end=1.0, out_dt=None, ranks=1, gamma=g53,
                             max_steps=2, extra=["output.every_steps=1"]),
        # An Alfven wave whose CFL steps end 2.3e-13 short of t = 1: one
        # snapshot there, not one short of it and another after a step of
        # 2.3e-13 (check_files counts them).
        "alfven_end": Case("alfven_end", "mhd_linear_wave1d.yaml", cells=[64, 1, 1], lower=[0.0] * 3,
                           upper=[1.0] * 3, t_end=1.0, out_dt=1.0, ranks=1, gamma=g53, mhd=True,
                           extra=["problem.wave=alfven"]),
        # An entropy wave carried along an oblique k (box 3 x 1.5 x 0.75):
        # three different net momenta for the history's mom1..3.
        "linwave3d": Case("linwave3d", "linear_wave3d.yaml", cells=[12, 6, 4], lower=[0.0] * 3,
                          upper=[3.0, 1.5, 0.75], t_end=1.0, out_dt=None, ranks=1, gamma=g53, max_steps=2,
                          extra=["output.every_steps=1", "mesh.upper=[3,1.5,0.75]", "problem.wave=entropy"]),
    }
    for c in cases.values():
        c.start(tmp)
        check(f"run {c.label}", c.run.need)

    for c in cases.values():
        check(f"{c.label}: root attributes, HDF5 types, dataset shapes", check_layout, c)
        check(f"{c.label}: face/centre coordinates match mesh.lower/upper", check_coordinates, c)
        check(f"{c.label}: Config attribute holds the effective YAML", check_config_attr, c)
        check(f"{c.label}: cons and prim consistent", check_cons_prim, c)
        check(f"{c.label}: xdmf sidecar", check_xdmf, c)
        check(f"{c.label}: files, names, no *.tmp", check_files, c)
        check(f"{c.label}: history CSV and summary JSON, final time", check_history_summary, c)
    check("sod: initial snapshot equals the analytic state exactly", check_sod_initial, cases["sod"])
    check("linwave: initial snapshot equals the analytic wave", check_linear_wave_initial, cases["linwave"])
    check("orszag_tang: initial B components equal the analytic field", check_orszag_tang_initial_field,
          cases["orszag_tang"])
    for label in ("blast3d", "sedov2d", "sod", "orszag_tang"):
        check(f"{label}: yt.load and fields match h5py", check_yt, cases[label])
    check("blast3d: hdf5_mode=sequential bitwise equal to collective (2 ranks)",
          check_sequential_equals_collective, cases["blast3d"], cases["blast3d_seq"])
    check("blast3d: ParaView opens the xdmf", check_paraview, cases["blast3d"])
    check("orszag_tang: ParaView opens the xdmf and reads B", check_paraview, cases["orszag_tang"])

    return finish(tmp, t_start)


if __name__ == "__main__":
    sys.exit(main())
