#!/usr/bin/env python3
"""Whole-program test of bad-input handling in the astronomix command line.

Every bad case runs the real binary in a fresh temporary directory and checks:
  * exit code 2,
  * a stderr line starting "astronomix: error: ",
  * each expected piece of the message (file:line:column of the offending key,
    the dotted key, what was expected, did-you-mean suggestions),
  * no crash (segfault, uncaught exception, signal),
  * nothing written: no file appears anywhere under the case's directory
    (an output directory created empty by validation is allowed).
A few good cases make sure valid input is still accepted.

Environment: ASTRONOMIX_EXE (the binary), ASTRONOMIX_SOURCE (the repository
root, for configs/), OMP_NUM_THREADS, ASTRONOMIX_SANITIZED (the sanitizer
build: one in three of the loader's value refusals, sanitized_sample). Standard library only. The last line
printed is "N passed, M failed"; the exit status is non-zero if any failed.
"""

import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("ASTRONOMIX_SOURCE") or os.path.dirname(HERE)
EXE = os.environ.get("ASTRONOMIX_EXE") or os.path.join(SOURCE, "build", "astronomix")
CFG = "cfg.yaml"  # the config file name every case writes (relative to its cwd)
# Set by CMake for the sanitizer build: a sample of the loader's refusals
# (sanitized_sample).
SANITIZED = os.environ.get("ASTRONOMIX_SANITIZED", "")

CRASH_MARKERS = ("Segmentation", "terminate called", "Process received signal",
                 "core dumped", "Aborted", "Assertion", "what():")

# A small valid run (16 cells, a handful of steps). Line numbers below are
# found by searching the edited text, so cases stay right if this changes.
BASE = """\
mesh:
  cells: [16, 1, 1]
  lower: [0, 0, 0]
  upper: [1, 1, 1]
boundaries:
  x: outflow
time:
  end: 0.01
  cfl: 0.4
  integrator: vl2
physics:
  gamma: 1.4
solver:
  reconstruction: plm
  limiter: van_leer
  riemann: hllc
problem:
  name: sod
output:
  directory: out
  basename: snap
  dt: 0.005
"""


def edit(*pairs, text=BASE):
    """BASE with whole lines replaced: (old_line, new_text_or_None) pairs.
    None deletes the line; new text may hold several lines."""
    lines = text.splitlines()
    for old, new in pairs:
        hits = [i for i, l in enumerate(lines) if l == old]
        assert len(hits) == 1, f"edit(): line {old!r} found {len(hits)} times"
        i = hits[0]
        lines[i:i + 1] = [] if new is None else new.splitlines()
    return "\n".join(lines) + "\n"


class Loc:
    """Expects "cfg.yaml:LINE:COL:" where the nth line containing `needle`
    (a key followed by ':') sits in the case's YAML text."""

    def __init__(self, needle, nth=1, file=CFG):
        self.needle, self.nth, self.file = needle, nth, file

    def resolve(self, text):
        seen = 0
        pattern = r"(?<![\w.])" + re.escape(self.needle)  # "name:" must not hit "basename:"
        for n, line in enumerate(text.splitlines(), 1):
            m = re.search(pattern, line)
            if m:
                seen += 1
                if seen == self.nth:
                    return f"{self.file}:{n}:{m.start() + 1}:"
        raise AssertionError(f"Loc: {self.needle!r} (#{self.nth}) not in the case's YAML")


class Re:
    """Expects a match of a regular expression."""

    def __init__(self, pattern):
        self.pattern = pattern


RUN = ["run", "-q", CFG]
CHECK = ["check", CFG]


def case(name, yaml, expect, args=RUN, setup=None, forbid_paths=(), past_loader=False, environ=None):
    """past_loader: refused after the config loader (building the solver,
    setting the problem up), though a plain run or check of a YAML text.
    environ: variables set for the run."""
    return dict(name=name, yaml=yaml, expect=expect, args=args, setup=setup,
                forbid_paths=forbid_paths, past_loader=past_loader, environ=environ)


def mkdir(rel):
    return lambda d: os.makedirs(os.path.join(d, rel))


def touch(rel):
    def f(d):
        with open(os.path.join(d, rel), "w") as fh:
            fh.write("not a directory\n")
    return f


SEDOV = edit(("  name: sod", "  name: sedov\n  energy: 1.0"))

# The MHD blast on FD with reflecting x walls that its field threads.
FD_MHD_WALL = edit(("  cells: [16, 1, 1]", "  cells: [16, 16, 1]"), ("  x: outflow", "  x: reflecting"),
                   ("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"), ("  integrator: vl2", "  integrator: rk3"),
                   ("  reconstruction: plm", "  family: fd"), ("  limiter: van_leer", None), ("  riemann: hllc", None),
                   ("  name: sod", "  name: blast\n  field: [1, 0, 0]"))

BAD = [
    # --- unknown names: did-you-mean ----------------------------------------
    case("top_level_section_typo", edit(("mesh:", "mseh:")),
         [Loc("mseh:"), "mseh", "did you mean 'mesh'"]),
    case("section_key_typo", edit(("  cells: [16, 1, 1]", "  cell: [16, 1, 1]")),
         [Loc("cell:"), "mesh.cell", "did you mean 'cells'"]),
    case("optional_key_typo", edit(("  cfl: 0.4", "  cfll: 0.4")),
         [Loc("cfll:"), "time.cfll", "unknown key", "did you mean 'cfl'"]),
    # Athena++'s names say what they are called here (docs/athena.md).
    case("athena_tlim", edit(("  end: 0.01", "  tlim: 0.01")),
         [Loc("tlim:"), "time.tlim", "unknown key", "Athena++'s tlim is time.end here"]),
    case("athena_ix1_bc", edit(("  x: outflow", "  ix1_bc: outflow")),
         [Loc("ix1_bc:"), "boundaries.ix1_bc", "Athena++'s ix1_bc is boundaries.x_inner here"]),
    case("athena_hydro_block", edit(("physics:", "hydro:")),
         [Loc("hydro:"), "Athena++'s hydro is physics here"]),
    case("athena_problem_amp", edit(("  name: sod", "  name: kelvin_helmholtz\n  amp: 0.1"),
                                    ("  cells: [16, 1, 1]", "  cells: [16, 16, 1]")),
         [Loc("amp:"), "problem.amp", "Athena++'s amp is problem.perturbation here"]),
    # kh.cpp's drat is the layers' density, not the contrast (1 + contrast).
    case("athena_kh_drat", edit(("  name: sod", "  name: kelvin_helmholtz\n  drat: 2"),
                                ("  cells: [16, 1, 1]", "  cells: [16, 16, 1]")),
         [Loc("drat:"), "Athena++'s drat is 1 + problem.density_contrast (the density between the layers) here"]),
    case("athena_shock_tube_dl", edit(("  name: sod", "  name: sod\n  dl: 2")),
         [Loc("dl:"), "Athena++'s dl is problem.left_density here"]),
    case("athena_mhd_shock_tube_bxl",
         edit(("  name: sod", "  name: mhd_shock_tube\n  bxl: 0.75"), ("physics:", "physics:\n  mhd: true"),
              ("  riemann: hllc", "  riemann: hlld")),
         [Loc("bxl:"), "Athena++'s bxl is problem.left.field[0] here"]),
    # check refuses what run refuses: root may write /proc by access(), not mkdir there.
    case("check_output_dir_under_proc", BASE, ["output.directory", "cannot create output directory '/proc/nope'"],
         args=CHECK + ["--set", "output.directory=/proc/nope"]),
    # An empty mapping would change nothing: said, not taken silently.
    case("set_empty_mapping", BASE, ["--set physics={}", "an empty mapping"], args=RUN + ["--set", "physics={}"]),
    # A misspelt section named before the errors its absence brings (the
    # periodic default made the tube meet itself at the seam first).
    case("section_typo_named_first", edit(("boundaries:", "boundary:")),
         [Loc("boundary:"), "unknown key (did you mean 'boundaries'?)"]),
    # An athinput file given as the config: named as such, at its first block.
    case("athena_athinput_file", "# Orszag-Tang\n\n<job>\nproblem_id = OrszagTang\n\n<mesh>\nnx1 = 128\n",
         [Loc("<job>"), "an Athena++ input file", "expected YAML", "docs/athena.md"]),
    # blast.cpp's and field_loop.cpp's names (pamb read "did you mean 'name'?").
    case("athena_blast_pamb", BASE, ["problem.pamb", "Athena++'s pamb is problem.pressure here"],
         args=["check", os.path.join(SOURCE, "configs", "mhd_blast3d.yaml"), "--set", "problem.pamb=0.1"]),
    case("athena_blast_angle", BASE, ["Athena++'s angle is problem.field: [b0 cos(angle), b0 sin(angle), 0] here"],
         args=["check", os.path.join(SOURCE, "configs", "mhd_blast3d.yaml"), "--set", "problem.angle=45"]),
    case("athena_field_loop_vflow_iprob", BASE, ["Athena++'s vflow is problem.velocity here"],
         args=["check", os.path.join(SOURCE, "configs", "field_loop.yaml"), "--set", "problem.vflow=1"]),
    case("athena_field_loop_iprob", BASE, ["Athena++'s iprob is not needed (the loop lies in the x-y plane"],
         args=["check", os.path.join(SOURCE, "configs", "field_loop.yaml"), "--set", "problem.iprob=1"]),
    # The faces win over their axis: a --set of the axis would change nothing, silently.
    case("boundary_axis_set_beside_both_faces",
         edit(("  x: outflow", "  x_inner: reflecting\n  x_outer: reflecting")),
         ["command line (--set boundaries.x)", "x_inner and x_outer are given too", "sets neither face",
          "expected --set x_inner and x_outer instead"], args=RUN + ["--set", "boundaries.x=outflow"]),
    case("boundary_axis_in_file_beside_both_faces",
         edit(("  x: outflow", "  x: outflow\n  x_inner: reflecting\n  x_outer: reflecting")),
         [Loc("x:"), "boundaries.x", "x_inner and x_outer are given too", "sets neither face",
          "expected the axis or its two faces, not both"]),
    # ... whatever --set then changes of one face.
    case("boundary_axis_in_file_beside_both_faces_one_set",
         edit(("  x: outflow", "  x: outflow\n  x_inner: reflecting\n  x_outer: reflecting")),
         [Loc("x:"), "boundaries.x", "sets neither face"], args=RUN + ["--set", "boundaries.x_inner=outflow"]),
    case("duplicate_key", edit(("  end: 0.01", "  end: 0.01\n  end: 0.02")),
         [Loc("end:", nth=2), "time.end", "duplicate"]),
    # --- mesh -----------------------------------------------------------------
    case("cells_not_a_list", edit(("  cells: [16, 1, 1]", '  cells: "abc"')),
         [Loc("cells:"), "mesh.cells", "expected a list of 3 integers", "'abc'"]),
    case("cells_negative", edit(("  cells: [16, 1, 1]", "  cells: [-4, 1, 1]")),
         [Loc("cells:"), "mesh.cells", "expected a list of 3 integers", "'-4'", "position 1"]),
    case("cells_zero", edit(("  cells: [16, 1, 1]", "  cells: [16, 0, 1]")),
         [Loc("cells:"), "mesh.cells", "expected a list of 3 integers", "'0'", "position 2"]),
    case("cells_wrong_length", edit(("  cells: [16, 1, 1]", "  cells: [16, 1]")),
         [Loc("cells:"), "mesh.cells", "expected a list of 3 integers", "got a list of 2"]),
    case("cells_not_integer", edit(("  cells: [16, 1, 1]", "  cells: [16.5, 1, 1]")),
         [Loc("cells:"), "mesh.cells", "expected a list of 3 integers", "'16.5'"]),
    # No active axis: the problems blamed their own keys (sedov its radius).
    case("cells_one_in_all", BASE, ["command line (--set mesh.cells)", "mesh.cells",
                                    "expected at least one axis with more than one cell"],
         args=["check", os.path.join(SOURCE, "configs", "sedov3d.yaml"), "--set", "mesh.cells=[1,1,1]"]),
    case("lower_not_below_upper", edit(("  upper: [1, 1, 1]", "  upper: [1, 0, 1]")),
         [Loc("upper:"), "mesh.upper", "expected upper > lower", "mesh.upper = 0 <= mesh.lower = 0 on axis y"]),
    # Each axis within range, the product past what 64-bit sizes in bytes hold.
    # One rank: the axis named (it read "1 ranks cannot split the grid").
    case("cells_thinner_than_the_fd_stencil", edit(("  cells: [16, 1, 1]", "  cells: [16, 2, 1]")),
         [Loc("cells:"), "mesh.cells", "axis y has 2 cells", "FD WENO5 stencil needs 3 ghost cells",
          "expected at least 3"], args=RUN + ["--set", "solver.family=fd", "--set", "time.integrator=rk3"]),
    case("cells_too_many_in_all", edit(("  cells: [16, 1, 1]", "  cells: [1048576, 1048576, 1048576]")),
         [Loc("cells:"), "mesh.cells", "at most 2^40", "1.153e+18"]),
    case("ranks_not_matching_one_rank", edit(("  upper: [1, 1, 1]", "  upper: [1, 1, 1]\n  ranks: [2, 1, 1]")),
         [Loc("ranks:"), "mesh.ranks", "2 ranks but the run has 1"]),
    case("ranks_uneven_split", edit(("  upper: [1, 1, 1]", "  upper: [1, 1, 1]\n  ranks: [3, 1, 1]")),
         [Loc("ranks:"), "mesh.ranks", "do not split evenly"]),
    # --- boundaries -----------------------------------------------------------
    case("periodic_inner_face_only", edit(("  x: outflow", "  x_inner: periodic\n  x_outer: outflow")),
         [Loc("x_inner:"), "boundaries.x_inner", "periodic on both faces"]),
    case("periodic_outer_face_only", edit(("  x: outflow", "  x: outflow\n  x_outer: periodic")),
         [Loc("x_outer:"), "boundaries.x_outer", "periodic on both faces"]),
    # FD MHD's sixth-order stencils break down on the mirrored normal field
    # (a run used to end in NaNs after 44 steps); refused once the problem
    # has set the field, with the folder the run made removed again.
    case("fd_mhd_field_through_reflecting_wall", FD_MHD_WALL,
         [Loc("x: reflecting"), "boundaries.x", "threads the inner x-wall", "max |B_x| = 1 on the wall",
          "expected a field with B_x = 0 on the wall", "outflow or periodic on x"], forbid_paths=("out",)),
    # `check` sets the problem up too (it said "valid" for what run refused).
    case("fd_mhd_field_through_reflecting_wall_check", FD_MHD_WALL,
         [Loc("x: reflecting"), "boundaries.x", "threads the inner x-wall"], args=CHECK, past_loader=True),
    case("fd_mhd_field_through_inner_wall_set", FD_MHD_WALL,
         ["command line (--set boundaries.x_inner)", "boundaries.x_inner", "threads the inner x-wall"],
         args=RUN + ["--set", "boundaries.x_inner=reflecting", "--set", "boundaries.x_outer=outflow"]),
    # Only the outer wall reflects: the message names that face's key.
    case("fd_mhd_field_through_outer_wall_set", FD_MHD_WALL,
         ["command line (--set boundaries.x_outer)", "boundaries.x_outer", "threads the outer x-wall"],
         args=RUN + ["--set", "boundaries.x_inner=outflow", "--set", "boundaries.x_outer=reflecting"]),
    # A velocity whose square overflows: the energy is infinite. Refused
    # before the first outputs (it used to stop with exit 3 after writing
    # them, moving an earlier run's files aside).
    case("infinite_initial_energy", edit(("  name: sod", "  name: sod\n  left_velocity: 1.0e200")),
         [Loc("name: sod"), "problem 'sod' gives an initial state that cannot be evolved",
          "problem.left_velocity", "total energy = inf in cell (i, j, k) = (0, 0, 0)"], forbid_paths=("out",)),
    case("infinite_initial_energy_check", edit(("  name: sod", "  name: sod\n  left_velocity: 1.0e200")),
         [Loc("name: sod"), "cannot be evolved"], args=CHECK, past_loader=True),
    # --- time -----------------------------------------------------------------
    case("missing_time_end", edit(("  end: 0.01", None)),
         [Loc("time:"), "time.end", "missing required key", "expected a number > 0"]),
    case("cfl_not_a_number", edit(("  cfl: 0.4", "  cfl: fast")),
         [Loc("cfl:"), "time.cfl", "expected a number > 0 and <= 1", "'fast'"]),
    case("cfl_above_one", edit(("  cfl: 0.4", "  cfl: 1.5")),
         [Loc("cfl:"), "time.cfl", "expected a number > 0 and <= 1", "1.5"]),
    case("cfl_negative", edit(("  cfl: 0.4", "  cfl: -0.1")),
         [Loc("cfl:"), "time.cfl", "expected a number > 0 and <= 1", "-0.1"]),
    case("cfl_zero", edit(("  cfl: 0.4", "  cfl: 0")),
         [Loc("cfl:"), "time.cfl", "expected a number > 0 and <= 1"], args=CHECK),
    case("unknown_integrator", edit(("  integrator: vl2", "  integrator: rk4")),
         [Loc("integrator:"), "time.integrator", "unknown value 'rk4'", "did you mean 'lsrk4'",
          "expected one of: rk1, rk2, vl2, rk3, ssprk5_4, lsrk4"]),
    case("riemann_in_capitals", edit(("  riemann: hllc", "  riemann: HLLC")),
         [Loc("riemann:"), "solver.riemann", "unknown value 'HLLC'", "did you mean 'hllc'"]),
    case("fd_with_vl2", edit(("solver:", "solver:\n  family: fd")),
         [Loc("integrator:"), "time.integrator", "'vl2' is not stable with solver.family: fd",
          "expected rk3, ssprk5_4 or lsrk4"]),
    case("fv_with_lsrk4", edit(("  integrator: vl2", "  integrator: lsrk4")),
         [Loc("integrator:"), "time.integrator", "fd only", "rk1, rk2, vl2 or rk3"]),
    case("fd_cfl_above_limit", edit(("solver:", "solver:\n  family: fd"), ("  integrator: vl2", "  integrator: rk3"),
                                    ("  cfl: 0.4", "  cfl: 1.5")),
         [Loc("cfl:"), "time.cfl", "expected a number > 0 and <= 1.4", "1.5"]),
    # --- physics --------------------------------------------------------------
    case("gamma_one", edit(("  gamma: 1.4", "  gamma: 1")),
         [Loc("gamma:"), "physics.gamma", "expected a number > 1"]),
    case("gamma_below_one", edit(("  gamma: 1.4", "  gamma: 0.9")),
         [Loc("gamma:"), "physics.gamma", "expected a number > 1", Re(r"(?m)got 0\.9$")]),
    case("gamma_list", edit(("  gamma: 1.4", "  gamma: [1, 2]")),
         [Loc("gamma:"), "physics.gamma", "expected a number", "got a list"]),
    # --- solver ---------------------------------------------------------------
    case("unknown_riemann", edit(("  riemann: hllc", "  riemann: hlc")),
         [Loc("riemann:"), "solver.riemann", "unknown value 'hlc'", "did you mean 'hllc'"]),
    case("unknown_limiter", edit(("  limiter: van_leer", "  limiter: vanleer")),
         [Loc("limiter:"), "solver.limiter", "unknown value 'vanleer'",
          "did you mean 'van_leer'", "expected one of:"]),
    case("unknown_family", edit(("solver:", "solver:\n  family: fdd")),
         [Loc("family:"), "solver.family", "unknown value 'fdd'", "did you mean 'fd'", "expected one of: fv, fd"]),
    case("unknown_weno_weights", edit(("solver:", "solver:\n  family: fd\n  weno: jz"),
                                      ("  integrator: vl2", "  integrator: rk3")),
         [Loc("weno:"), "solver.weno", "unknown value 'jz'", "expected one of: js, z"]),
    case("weno_epsilon_zero", edit(("solver:", "solver:\n  family: fd\n  weno_epsilon: 0"),
                                   ("  integrator: vl2", "  integrator: rk3")),
         [Loc("weno_epsilon:"), "solver.weno_epsilon", "expected a number >= 1e-"]),
    # The key stops at 0.05 ...
    case("field_filter_too_strong", edit(("solver:", "solver:\n  family: fd\n  field_filter: 0.1"),
                                         ("  integrator: vl2", "  integrator: rk3")),
         [Loc("field_filter:"), "solver.field_filter", "expected a number >= 0 and <= 0.05, got 0.1"]),
    # ... and above 0.035 times time.cfl (in 2D and 3D; 1D runs are not
    # filtered): named with both values and the bound at this cfl, itself allowed.
    case("field_filter_times_cfl", edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
                                        ("solver:", "solver:\n  family: fd\n  field_filter: 0.04"),
                                        ("  integrator: vl2", "  integrator: rk3"), ("  cfl: 0.4", "  cfl: 1.2"),
                                        ("  cells: [16, 1, 1]", "  cells: [16, 16, 1]")),
         [Loc("field_filter:"), "solver.field_filter", "is 0.04 with time.cfl 1.2",
          "field_filter x cfl may be at most 0.035", "expected at most 0.029166"]),
    case("fd_option_typo_in_fv_run", edit(("solver:", "solver:\n  eigen_average: roee")),
         [Loc("eigen_average:"), "solver.eigen_average", "unknown value 'roee'", "did you mean 'roe'"]),
    case("unknown_backend", edit(("solver:", "solver:\n  backend: fast")),
         [Loc("backend:"), "solver.backend", "unknown value 'fast'", "expected one of: auto, native, fused"]),
    case("unknown_fused_layout", edit(("solver:", "solver:\n  fused_layout: rows")),
         [Loc("fused_layout:"), "solver.fused_layout", "unknown value 'rows'",
          "expected one of: auto, cells, sweeps"], args=CHECK),
    # --- problem --------------------------------------------------------------
    case("missing_problem_section", edit(("problem:", None), ("  name: sod", None)),
         [Re(r"cfg\.yaml(:\d+:\d+)?: problem: "), "missing required key"]),
    case("missing_problem_name", edit(("  name: sod", "  direction: x")),
         [Re(r"cfg\.yaml:\d+:\d+: problem\.name"), "missing required key",
          "expected one of: sod, sedov"]),
    case("unknown_problem", edit(("  name: sod", "  name: sedof")),
         [Loc("name:"), "problem.name", "unknown value 'sedof'", "did you mean 'sedov'"]),
    case("problem_param_typo", edit(("  energy: 1.0", "  energi: 1.0"), text=SEDOV),
         [Loc("energi:"), "problem.energi", "unknown key", "did you mean 'energy'"]),
    case("problem_param_wrong_type", edit(("  energy: 1.0", "  energy: lots"), text=SEDOV),
         [Loc("energy:"), "problem.energy", "expected a number > 0", "'lots'"]),
    case("problem_param_unbounded_wrong_type", edit(("  name: sod", "  name: sod\n  position: left")),
         [Loc("position:"), "problem.position", "expected a number, got 'left'"]),
    case("problem_position_outside_domain", edit(("  name: sod", "  name: sod\n  position: 2")),
         [Loc("position:"), "problem.position", "strictly between mesh.lower and mesh.upper along x", "0 .. 1"]),
    case("set_unknown_section", BASE, ["command line (--set solvr.riemann)", "solvr", "unknown key",
                                       "did you mean 'solver'"],
         args=RUN + ["--set", "solvr.riemann=hllc"]),
    case("problem_param_of_other_problem", edit(("  name: sod", "  name: sod\n  energy: 1.0")),
         [Loc("energy:"), "problem.energy", "unknown key"]),
    # --- output ---------------------------------------------------------------
    case("output_dir_in_proc", edit(("  directory: out", "  directory: /proc/astronomix_x")),
         [Loc("directory:"), "output.directory", "cannot create output directory",
          "/proc/astronomix_x"], forbid_paths=("/proc/astronomix_x",)),
    case("output_dir_under_regular_file", edit(("  directory: out", "  directory: blocker/out")),
         [Loc("directory:"), "output.directory", "blocker/out"], setup=touch("blocker")),
    case("output_enabled_not_bool", edit(("  dt: 0.005", "  dt: 0.005\n  enabled: yes")),
         [Loc("enabled:"), "output.enabled", "expected true or false", "'yes'"]),
    case("output_variable_typo", edit(("  dt: 0.005", "  dt: 0.005\n  variables: [prim, cnos]")),
         [Loc("variables:"), "output.variables", "unknown entry 'cnos'", "did you mean 'cons'"]),
    case("output_hdf5_mode_unknown", edit(("  dt: 0.005", "  dt: 0.005\n  hdf5_mode: parallel")),
         [Loc("hdf5_mode:"), "output.hdf5_mode", "expected one of: auto, sequential"]),
    # --- the file itself ------------------------------------------------------
    case("invalid_yaml_unclosed_bracket", edit(("  cells: [16, 1, 1]", "  cells: [16, 1, 1")),
         ["invalid YAML", Re(r"cfg\.yaml:(2|3):\d+: "),  # the bracket's line or the next
          "expected the ']' that closes the list"]),
    # yaml-cpp's messages name the grammar; the cause is added.
    case("invalid_yaml_tab_indent", edit(("  lower: [0, 0, 0]", "\tlower: [0, 0, 0]")),
         ["cfg.yaml:3:", "invalid YAML", "YAML indents with spaces only, and this line's indentation holds a tab"]),
    # A tab in a comment is not the cause; nor a URL in the comment above.
    case("invalid_yaml_indented_deeper_tab_in_comment", edit(("  lower: [0, 0, 0]", "   lower: [0, 0, 0]\t# c")),
         ["cfg.yaml:3:", "indented as the other keys of its section"]),
    case("invalid_yaml_map_value_after_url_comment",
         edit(("  basename: snap", "  # see https://example.org\n  basename: snap: x")),
         ["invalid YAML", "a value holding ': ' is quoted"]),
    case("invalid_yaml_key_indented_deeper", edit(("  lower: [0, 0, 0]", "   lower: [0, 0, 0]")),
         ["cfg.yaml:3:", "invalid YAML", "indented as the other keys of its section"]),
    case("invalid_yaml_section_without_colon", edit(("time:", "time")),
         ["invalid YAML", "a section's name ends in ':' (time:)"]),
    # YAML reads 'cfl:0.4' and the next line as one word and fails there.
    case("key_colon_without_space", edit(("  cfl: 0.4", "  cfl:0.4")),
         ["invalid YAML", "expected a space after the ':' of 'cfl:' on the line before"]),
    # As the section's last key it is one: an unknown key.
    case("last_key_colon_without_space", edit(("  dt: 0.005", "  dt:0.005")),
         [Loc("dt:0.005"), "output.dt:0.005", "unknown key", "a key's ':' needs a space after it: 'dt: 0.005'"]),
    case("set_unclosed_bracket", BASE, ["command line (--set mesh.cells=[16,1,1)", "cannot parse value",
                                        "expected the ']' that closes the list"],
         args=RUN + ["--set", "mesh.cells=[16,1,1"]),
    case("empty_file", "", [Re(r"cfg\.yaml(:\d+:\d+)?: mesh: "), "missing required key"]),
    case("top_level_not_a_mapping", "- mesh\n- time\n", ["cfg.yaml", "expected a mapping"]),
    case("config_does_not_exist", None, ["nothere.yaml", "cannot read"],
         args=["run", "-q", "nothere.yaml"]),
    case("config_is_a_directory", None, ["confdir.yaml", "cannot read", "directory"],
         args=["run", "-q", "confdir.yaml"], setup=mkdir("confdir.yaml")),
    # --- --set overrides ------------------------------------------------------
    case("set_without_equals", BASE, ["command line", "--set time.cfl", "expected key=value"],
         args=RUN + ["--set", "time.cfl"]),
    case("set_unknown_key", BASE, ["command line", "time.cfll", "unknown key", "did you mean 'cfl'"],
         args=RUN + ["--set", "time.cfll=0.3"]),
    case("set_bad_value", BASE, ["command line", "mesh.cells", "expected a list of 3 integers",
                                 "position 1"],
         args=RUN + ["--set", "mesh.cells=[0,1,1]"]),
    case("set_unparsable_value", BASE, ["command line", "mesh.cells", "cannot parse value"],
         args=RUN + ["--set", "mesh.cells=[1,2"]),
    case("set_below_a_scalar", BASE, ["command line", "time.end.x", "'end' is not a section"],
         args=RUN + ["--set", "time.end.x=1"]),
    case("set_empty_key_component", BASE, ["command line", "empty key component"],
         args=CHECK + ["--set", "time..cfl=0.3"]),
    # An empty value is a slip, not a request for the default.
    case("set_empty_value", BASE, ["command line", "time.cfl", "no value given", "leave the key out"],
         args=RUN + ["--set", "time.cfl="]),
    case("key_without_value", edit(("  cfl: 0.4", "  cfl:")),
         [Loc("cfl:"), "time.cfl", "no value given"]),
    case("required_key_null", edit(("  end: 0.01", "  end: ~")),
         [Loc("end:"), "time.end", "no value given"]),
    # --- MHD --------------------------------------------------------------------
    case("mhd_with_hllc", edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: true")),
         [Loc("riemann:"), "solver.riemann", "hllc is a hydrodynamics solver", "llf, hlle, hlld"]),
    case("hlld_without_mhd", edit(("  riemann: hllc", "  riemann: hlld")),
         [Loc("riemann:"), "solver.riemann", "needs physics.mhd: true"]),
    case("fd_mhd_with_roe_average", edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"),
                                         ("  riemann: hllc", "  riemann: hlld\n  family: fd\n  eigen_average: roe"),
                                         ("  integrator: vl2", "  integrator: rk3")),
         [Loc("eigen_average:"), "solver.eigen_average", "roe averages are for hydrodynamics", "arithmetic"]),
    case("mhd_not_a_bool", edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: yes please")),
         [Loc("mhd:"), "physics.mhd", "expected true or false"]),
    case("mhd_problem_without_mhd", edit(("  name: sod", "  name: orszag_tang")),
         [Loc("name:", nth=1), "problem.name", "needs physics.mhd: true"]),
    case("mhd_fused_backend_with_uct", edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"),
                                            ("  riemann: hllc", "  riemann: hlld\n  backend: fused\n"
                                                                "  corner_emf: uct_hlld")),
         [Loc("backend:"), "solver.backend", "corner_emf uct_hlld runs native only"], past_loader=True),
    case("corner_emf_unknown", edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"),
                                    ("  riemann: hllc", "  riemann: hlld\n  corner_emf: gs07")),
         [Loc("corner_emf:"), "solver.corner_emf", "expected one of: gs05"]),
    case("blast_field_without_mhd", edit(("  name: sod", "  name: blast\n  field: [1, 0, 0]")),
         [Loc("field:"), "problem.field", "needs physics.mhd: true"]),
    case("shock_tube_normal_field_jumps",
         edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
              ("  name: sod", "  name: mhd_shock_tube\n  left:\n    field: [1, 0, 0]\n"
                              "  right:\n    field: [0.5, 0, 0]")),
         [Loc("right:"), "problem.right", "normal field must be the same on both sides"]),
    case("shock_tube_side_typo",
         edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
              ("  name: sod", "  name: mhd_shock_tube\n  left:\n    densty: 1.0")),
         [Loc("densty:"), "problem.left.densty", "did you mean 'density'"]),
    case("brio_wu_states_without_gamma",
         edit(("  gamma: 1.4", "  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
              ("  name: sod", "  name: mhd_shock_tube")),
         [Loc("name:", nth=1), "problem.name", "gamma = 2", "physics.gamma is not given"]),
    # --set physics={...} sets the keys it gives and keeps the file's others.
    case("brio_wu_states_physics_set_without_gamma",
         edit(("  riemann: hllc", "  riemann: hlld"), ("  name: sod", "  name: mhd_shock_tube"),
              ("  gamma: 1.4", "  density_floor: 1e-10")),
         [Loc("name:", nth=1), "problem.name", "gamma = 2", "physics.gamma is not given"],
         args=RUN + ["--set", "physics={mhd: true}"]),
    # A tube along an axis the grid lacks would run one state, exit 0.
    case("sod_along_inactive_axis", edit(("  name: sod", "  name: sod\n  direction: y")),
         [Loc("direction:"), "problem.direction", "mesh.cells = [16, 1, 1] has one cell along y",
          "expected more than one cell along y"]),
    case("sod_along_inactive_axis_set", BASE,
         ["command line (--set problem.direction)", "one cell along z"],
         args=RUN + ["--set", "problem.direction=z", "--set", "problem.position=0.3"]),
    case("mhd_shock_tube_along_inactive_axis",
         edit(("  gamma: 1.4", "  gamma: 2\n  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
              ("  name: sod", "  name: mhd_shock_tube\n  direction: y")),
         [Loc("direction:"), "problem.direction", "one cell along y"]),
    # A discontinuity with every cell centre on one side: one state.
    case("sod_position_past_the_last_cell_centre", edit(("  name: sod", "  name: sod\n  position: 0.99")),
         [Loc("position:"), "problem.position", "every cell centre lies on one side of 0.99", "0.96875"]),
    # Boundaries left at their default (periodic) along a tube: its states
    # would meet again at the seam.
    case("sod_periodic_by_default", edit(("boundaries:", None), ("  x: outflow", None)),
         ["problem.direction", "meet again at the periodic seam along x", "expected boundaries.x: outflow"]),
    case("brio_wu_states_given_without_gamma",
         edit(("  gamma: 1.4", "  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
              ("  name: sod", "  name: mhd_shock_tube\n  left:\n    density: 1")),
         [Loc("name:", nth=1), "problem.name", "the states are Brio & Wu's", "physics.gamma is not given"]),
    # Spheres that hold no cell centre, or every one: a uniform state.
    case("blast_sphere_without_cells", edit(("  name: sod", "  name: blast\n  radius: 0.01")),
         [Loc("radius:"), "problem.radius", "the blast's sphere holds no cell centre", "0.03125"]),
    case("blast_sphere_with_every_cell", edit(("  name: sod", "  name: blast\n  radius: 5")),
         [Loc("radius:"), "problem.radius", "holds every cell centre", "expected a smaller radius"]),
    # The density ahead of Shu & Osher's shock would reach zero.
    case("shu_osher_amplitude_too_large", edit(("  name: sod", "  name: shu_osher\n  amplitude: 1.5")),
         [Loc("amplitude:"), "problem.amplitude", "expected |amplitude| < right_density", "got 1.5"]),
    case("sedov_sphere_with_every_cell", edit(("  name: sod", "  name: sedov\n  radius: 5")),
         [Loc("radius:"), "problem.radius", "holds every cell centre"]),
    case("field_loop_outside_the_domain",
         edit(("  cells: [16, 1, 1]", "  cells: [16, 16, 1]"), ("  x: outflow", "  x: outflow\n  y: outflow"),
              ("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
              ("  name: sod", "  name: field_loop\n  center: [5, 0.5, 0]")),
         [Loc("problem:"), "problem.radius", "the field loop holds no cell centre"]),
    case("field_loop_wider_than_half_the_period",
         edit(("  cells: [16, 1, 1]", "  cells: [16, 16, 1]"), ("  x: outflow", "  x: periodic"),
              ("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
              ("  name: sod", "  name: field_loop\n  radius: 0.6")),
         [Loc("radius:"), "problem.radius", "overlaps its periodic image along x"]),
    case("orszag_tang_box_not_whole_periods",
         edit(("  cells: [16, 1, 1]", "  cells: [16, 16, 1]"), ("  upper: [1, 1, 1]", "  upper: [1, 1.5, 1]"),
              ("  x: outflow", "  x: periodic"), ("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"),
              ("  riemann: hllc", "  riemann: hlld"), ("  name: sod", "  name: orszag_tang")),
         [Loc("name:", nth=1), "problem.name", "period 1 along x and y", "1.5 long along y"]),
    # The wave vector's diagonal starts from x, as Athena++'s.
    case("linear_wave_in_y_z_plane",
         edit(("  cells: [16, 1, 1]", "  cells: [1, 16, 16]"), ("  x: outflow", "  x: periodic"),
              ("  name: sod", "  name: linear_wave")),
         [Loc("name:", nth=1), "problem.name", "x active in 2D and 3D", "got a y-z plane"]),
    case("orszag_tang_in_1d",
         edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
              ("  name: sod", "  name: orszag_tang")),
         [Loc("name:", nth=1), "problem.name", "x and y active"]),
    # Gravity along an axis of one cell would only move the whole grid.
    case("gravity_along_an_inactive_axis", edit(("  gamma: 1.4", "  gamma: 1.4\n  gravity: [0, -0.1, 0]")),
         [Loc("gravity:"), "physics.gravity", "component y is -0.1 but mesh.cells[1] is 1"]),
    case("gravity_not_a_vector", edit(("  gamma: 1.4", "  gamma: 1.4\n  gravity: -0.1")),
         [Loc("gravity:"), "physics.gravity", "a list of 3 numbers"]),
    case("rayleigh_taylor_without_gravity",
         edit(("  cells: [16, 1, 1]", "  cells: [16, 16, 1]"), ("  x: outflow", "  x: outflow\n  y: reflecting"),
              ("  name: sod", "  name: rayleigh_taylor")),
         ["cfg.yaml: physics.gravity (default): expected physics.gravity pointing down y", "got [0, 0, 0]",
          "(problem.name: rayleigh_taylor)"]),
    case("rayleigh_taylor_gravity_sideways",
         edit(("  cells: [16, 1, 1]", "  cells: [16, 16, 1]"), ("  x: outflow", "  x: outflow\n  y: reflecting"),
              ("  gamma: 1.4", "  gamma: 1.4\n  gravity: [0.1, -0.1, 0]"),
              ("  name: sod", "  name: rayleigh_taylor")),
         [Loc("gravity:"), "physics.gravity", "expected physics.gravity = [0, g, 0] with g < 0, got [0.1, -0.1, 0]"]),
    # The ghost cells above the top wall count: 10 x 2 x (0.5 + 1.5 / 16).
    case("rayleigh_taylor_pressure_too_low",
         edit(("  cells: [16, 1, 1]", "  cells: [16, 16, 1]"), ("  x: outflow", "  x: outflow\n  y: reflecting"),
              ("  gamma: 1.4", "  gamma: 1.4\n  gravity: [0, -10, 0]"), ("  name: sod", "  name: rayleigh_taylor\n  pressure: 11")),
         [Loc("pressure:", nth=1), "problem.pressure", "above 11.875", "got 11"]),
    case("rayleigh_taylor_periodic_vertical_axis",
         edit(("  cells: [16, 1, 1]", "  cells: [16, 16, 1]"), ("  gamma: 1.4", "  gamma: 1.4\n  gravity: [0, -0.1, 0]"),
              ("  name: sod", "  name: rayleigh_taylor")),
         ["cfg.yaml: boundaries.y (default): the layers rest on walls: expected boundaries.y: reflecting"]),
    case("rayleigh_taylor_outflow_top",
         edit(("  cells: [16, 1, 1]", "  cells: [16, 16, 1]"),
              ("  x: outflow", "  x: outflow\n  y_inner: reflecting\n  y_outer: outflow"),
              ("  gamma: 1.4", "  gamma: 1.4\n  gravity: [0, -0.1, 0]"), ("  name: sod", "  name: rayleigh_taylor")),
         [Loc("y_outer:"), "boundaries.y_outer", "expected boundaries.y: reflecting"]),
    case("kelvin_helmholtz_in_1d", edit(("  name: sod", "  name: kelvin_helmholtz")),
         [Loc("name:", nth=1), "problem.name", "x and y active"]),
    case("kelvin_helmholtz_layers_swapped",
         edit(("  cells: [16, 1, 1]", "  cells: [16, 16, 1]"),
              ("  name: sod", "  name: kelvin_helmholtz\n  lower_layer: 0.7\n  upper_layer: 0.3")),
         [Loc("upper_layer:"), "problem.upper_layer", "above lower_layer"]),
    # Only lower_layer given: it is the key blamed (upper_layer's default is in no file).
    case("kelvin_helmholtz_lower_layer_above_default_upper",
         edit(("  cells: [16, 1, 1]", "  cells: [16, 16, 1]"),
              ("  name: sod", "  name: kelvin_helmholtz\n  lower_layer: 0.8")),
         [Loc("lower_layer:"), "problem.lower_layer", "below upper_layer (0.75, its default), got 0.8"]),
    case("kelvin_helmholtz_layer_outside",
         edit(("  cells: [16, 1, 1]", "  cells: [16, 16, 1]"),
              ("  name: sod", "  name: kelvin_helmholtz\n  upper_layer: 1.5")),
         [Loc("upper_layer:"), "problem.upper_layer", "between mesh.lower and mesh.upper along y"]),
    case("field_loop_in_1d",
         edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
              ("  name: sod", "  name: field_loop")),
         [Loc("name:", nth=1), "problem.name", "x and y active"]),
    case("alfven_wave_without_normal_field",
         edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
              ("  name: sod", "  name: linear_wave\n  wave: alfven\n  field: [0, 1, 0]")),
         [Loc("field:"), "problem.field", "along the wave vector"]),
    case("mhd_wave_is_not_sound",
         edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
              ("  name: sod", "  name: linear_wave\n  wave: sound")),
         [Loc("wave:"), "problem.wave", "expected one of: fast, alfven, slow, entropy"]),
    case("cpaw_without_parallel_field",
         edit(("  gamma: 1.4", "  gamma: 1.4\n  mhd: true"), ("  riemann: hllc", "  riemann: hlld"),
              ("  name: sod", "  name: cpaw\n  b_par: 0")),
         [Loc("b_par:"), "problem.b_par", "b_par != 0"]),
    # --- YAML structure --------------------------------------------------------
    # yaml-cpp's Load read the first document only: `time.end: 5` after a `---` was dropped.
    case("second_yaml_document", BASE + "---\ntime:\n  end: 5\n",
         [Re(r"cfg\.yaml:2[0-9]:1:"), "a second YAML document", "would not be read"]),
    case("second_yaml_document_after_end_marker", BASE + "...\ntime:\n  end: 5\n",
         ["a second YAML document"]),
    # Text the fuzzer found on which yaml-cpp's LoadAll made documents without end (4 GB in seconds).
    case("yaml_text_that_loadall_looped_on",
         '# 2D (cdinlryical) Sedov-Taylor blast: ene\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n'
         ', -0.5, 0]\n  upper: [0\n\n\n\n\n\n\n\n\n\n\n\n\n\nrgy per unit length E = 1.\n3\n\n\n\n'
         '\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n'
         '\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\nmesh:\n  cells: [128, 128, 1, -0.5, 0]\n\n'
         '\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\nmesh:\n'
         '  cellA: [128, 128, 1, -0.5, 0]\n  upper: [0\n\n\n\n\n\n\n\n\n\n\n\n\n\n'
         'rgy per unit length E = 1.\n3\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n'
         '\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n'
         'mesh:\n  cells: [128, 128, 1, -0.5, 0]\n  upper: [0.5, 0.5, 1]\nb\n# Roundar\n'
         ' length vEu =',
         [Re(r"cfg\.yaml:\d+:\d+: text after the config's top-level node")]),
    # yaml-cpp's Load reads the first node and dropped what followed it.
    case("yaml_text_after_a_flow_mapping",
         "{mesh: {cells: [16, 1, 1]}, boundaries: {x: outflow}, time: {end: 0.2}, problem: {name: sod}}\n"
         "physics: {gamma: 7}\n",
         ["cfg.yaml:2:1:", "text after the config's top-level node", "would not be read"]),
    case("set_text_after_the_value", BASE, ["--set output.variables=[prim] cons", "text after the value ('cons')",
                                            "expected one value"],
         args=RUN + ["--set", "output.variables=[prim] cons"]),
    case("set_second_list_after_the_value", BASE, ["text after the value (',[32,1,1]')"],
         args=RUN + ["--set", "mesh.cells=[64,1,1],[32,1,1]"]),
    # An empty value emptied the section: the file's gamma went back to 5/3.
    case("set_section_to_nothing", BASE, ["--set physics=", "'physics' is a section", "physics.KEY=VALUE"],
         args=CHECK + ["--set", "physics="]),
    case("set_fraction_past_a_double", BASE, ["physics.gravity", "expected a list of 3 numbers", "1e300/1e-300"],
         args=CHECK + ["--set", "physics.gravity=[1e300/1e-300,0,0]"]),
    case("hexadecimal_number", edit(("  gamma: 1.4", "  gamma: 0x10")), [Loc("gamma:"), "physics.gamma",
                                                                         "expected a number, got '0x10'"]),
    case("idefix_ini_file", "# Idefix\n[Grid]\nX1-grid    1  0.0  64  u  1.0\n",
         ["cfg.yaml:2:1:", "an Idefix input file", "expected YAML"]),
    case("yaml_merge_key", edit(("  cfl: 0.4", "  cfl: 0.4\n  <<: {integrator: rk2}")),
         [Loc("<<:"), "time.<<", "merge keys (<<) are not supported"]),
    case("yaml_list_as_key", edit(("  cfl: 0.4", "  cfl: 0.4\n  [a, b]: 1")),
         [Loc("[a, b]:"), "a key in time is a list", "expected a name"]),
    case("yaml_null_key", edit(("  cfl: 0.4", "  cfl: 0.4\n  ~: 1")),
         [Loc("~:"), "a key in time is null"]),
    # An alias inside the node it names looped until the stack overflowed (exit 139).
    case("yaml_alias_inside_itself", BASE + "extra: &a {b: *a}\n", ["extra.b", "a YAML alias stands inside the node"]),
    # The first of two equal keys in a --set mapping won silently.
    case("set_mapping_duplicate_key", BASE, ["command line (--set physics={gamma: 1.4, gamma: 2})", "physics.gamma",
                                             "duplicate key"],
         args=RUN + ["--set", "physics={gamma: 1.4, gamma: 2}"]),
    # A --set into a section that an alias shares would change both places.
    case("set_into_aliased_section", edit(("  name: sod", None), ("problem:", "other: &p\n  name: sod\nproblem: *p")),
         ["--set problem.position=0.3", "'problem' is a YAML alias"], args=RUN + ["--set", "problem.position=0.3"]),
    # --- numbers a double cannot hold, and bounds the message must name -------
    case("end_past_the_bound", edit(("  end: 0.01", "  end: 1e301")),
         [Loc("end:"), "time.end", "<= 1e+300", "1e301"]),
    case("end_underflows", edit(("  end: 0.01", "  end: 1e-400")),
         [Loc("end:"), "time.end", "outside what a double holds"]),
    case("gamma_past_the_bound", edit(("  gamma: 1.4", "  gamma: 1e301")),
         [Loc("gamma:"), "physics.gamma", "expected a number <= 1e+300"]),
    case("mesh_width_overflows", edit(("  lower: [0, 0, 0]", "  lower: [-1.7e308, 0, 0]"),
                                      ("  upper: [1, 1, 1]", "  upper: [1.7e308, 1, 1]")),
         [Loc("upper:"), "mesh.upper", "a width (upper - lower) and cell size a double can hold"]),
    # A linear wave whose trough has a negative pressure broke down at step 0 (exit 3), naming no key.
    case("linear_wave_amplitude_too_large", edit(("  x: outflow", "  x: periodic"),
                                                 ("  name: sod", "  name: linear_wave\n  amplitude: 2")),
         [Loc("amplitude:"), "problem.amplitude", "density or gas pressure <= 0", Re(r"below 0\.\d+")]),
    # --- output names -----------------------------------------------------------
    # Twice the same variable failed at the first write (exit 1, a full disk hinted), after writing the history.
    case("variables_listed_twice", edit(("  dt: 0.005", "  dt: 0.005\n  variables: [prim, cons, prim]")),
         [Loc("variables:"), "output.variables", "'prim' is listed twice"], forbid_paths=("out",)),
    case("directory_of_spaces", edit(("  directory: out", "  directory: '  '")),
         [Loc("directory:"), "output.directory", "without spaces at either end"]),
    case("directory_with_tilde", edit(("  directory: out", "  directory: ~/runs")),
         [Loc("directory:"), "output.directory", "'~'"], forbid_paths=("~",)),
    case("basename_dot", edit(("  basename: snap", "  basename: .")),
         [Loc("basename:"), "output.basename", "not starting with '.'"]),
    # --- the command line -----------------------------------------------------
    case("cli_unknown_subcommand", BASE, [Re(r"\brn\b")], args=["rn", CFG]),
    # CLI11 named the extras in reverse order ("time.cfl=0.3 --sett") with no hint.
    case("cli_misspelt_set", BASE, ["unexpected arguments '--sett' 'time.cfl=0.3'", "did you mean '--set'?"],
         args=CHECK + ["--sett", "time.cfl=0.3"]),
    case("cli_run_option_given_to_check", BASE, ["--wall-time is an option of run, not of check"],
         args=CHECK + ["--wall-time", "1:00"]),
    case("cli_override_without_set", BASE, ["unexpected argument 'time.cfl=0.2'", "written --set time.cfl=0.2"],
         args=CHECK + ["time.cfl=0.2"]),
    # An unset variable in a job script: a new run over the old one's files,
    # or no time limit, before.
    case("cli_restart_empty", BASE, ["--restart: got an empty value", "checkpoint file"],
         args=RUN + ["--restart", ""], forbid_paths=("out",)),
    case("cli_check_restart_empty", BASE, ["--restart: got an empty value"], args=CHECK + ["--restart", ""]),
    case("cli_wall_time_empty", BASE, ["--wall-time: got an empty value", "hh:mm:ss"],
         args=RUN + ["--wall-time", ""], forbid_paths=("out",)),
    case("cli_wall_time_not_a_duration", BASE, ["--wall-time", "'soon'", "hh:mm:ss"],
         args=RUN + ["--wall-time", "soon"]),
    case("cli_restart_missing", BASE, ["nothere.rst", "cannot open as a checkpoint"],
         args=RUN + ["--restart", "nothere.rst"]),
    case("cli_missing_config", BASE, ["a config file is required", "--restart CHECKPOINT"], args=["run"]),
    case("cli_check_missing_config", BASE, ["check: a config file is required"], args=["check"]),
    case("cli_check_quiet_bad_value", edit(("  cfl: 0.4", "  cfl: fast")), ["time.cfl", "'fast'"],
         args=["check", "-q", CFG]),
    case("cli_restart_without_config_missing", BASE, ["nothere.rst", "cannot open as a checkpoint"],
         args=["run", "--restart", "nothere.rst"]),
    case("cli_kokkos_threads_not_a_number", BASE, ["--kokkos-num-threads", "'abc'", "N >= 1"],
         args=RUN + ["--kokkos-num-threads=abc"]),
    case("cli_kokkos_threads_zero", BASE, ["--kokkos-threads", "'0'", "N >= 1"],
         args=RUN + ["--kokkos-threads=0"]),
    # Kokkos' OpenMP pool holds 512 threads: more crashed it (segfault) at
    # start-up (OpenMP builds only: OPENMP_CASES).
    case("cli_kokkos_threads_above_pool", BASE, ["--kokkos-threads: got 600", "at most 512 threads a rank"],
         args=RUN + ["--kokkos-threads=600"], forbid_paths=("out",)),
    # Kokkos takes the last of repeated options (the first was checked: segfault).
    case("cli_kokkos_threads_last_above_pool", BASE, ["--kokkos-threads: got 600"],
         args=RUN + ["--kokkos-threads=8", "--kokkos-threads=600"], forbid_paths=("out",)),
    case("omp_num_threads_above_pool", BASE, ["OMP_NUM_THREADS=600", "at most 512 threads a rank"],
         args=CHECK, environ={"OMP_NUM_THREADS": "600"}),
    # Malformed durations ran with a misread limit (1.2.3 as 1.2 s) or aborted (an uncaught std::stod).
    case("cli_wall_time_two_dots", BASE, ["--wall-time", "'1.2.3'", "hh:mm:ss"], args=RUN + ["--wall-time", "1.2.3"]),
    case("cli_wall_time_seconds_field_99", BASE, ["'1:99'", "below 60"], args=RUN + ["--wall-time", "1:99"]),
    case("cli_wall_time_dot", BASE, ["'.'", "hh:mm:ss"], args=RUN + ["--wall-time", "."]),
    case("cli_wall_time_empty_field", BASE, ["'1:.'", "hh:mm:ss"], args=RUN + ["--wall-time", "1:."]),
    # A limit the start-up uses up: refused before anything is written (it wrote a checkpoint of step 0 and
    # exited 0, so a resubmitting job went round without progress).
    case("cli_wall_time_shorter_than_start_up", BASE, ["--wall-time: 1 s leaves no time for a step"],
         args=RUN + ["--wall-time", "1"], forbid_paths=("out",)),
    # Each --set takes one value: `--set a=1 b=2` used to take b=2 as a second override.
    case("cli_set_takes_one_value", BASE, ["unexpected argument 'time.end=0.2'", "written --set time.end=0.2"],
         args=RUN + ["--set", "time.cfl=0.3", "time.end=0.2"]),
    # Athena++'s command-line habits get their names here.
    case("cli_athena_restart_flag", BASE, ["unknown option -r", "Athena++'s -r is --restart FILE here"],
         args=RUN + ["-r", "snap.00000.rst"]),
    case("cli_athena_block_key_value", BASE,
         ["'time/tlim=2' is an Athena++ block/key=value override", "--set SECTION.KEY=VALUE",
          "Athena++'s tlim is time.end"], args=RUN + ["time/tlim=2"]),
    case("cli_athena_problem_key", BASE,
         ["'problem/drat=2' is an Athena++ block/key=value override", "under this problem's name for drat"],
         args=RUN + ["problem/drat=2"]),
    case("cli_athena_block_key_value_in_set", BASE,
         ["'mesh/nx1=64' is an Athena++ block/key=value override", "Athena++'s nx1 is mesh.cells"],
         args=RUN + ["--set", "mesh/nx1=64"]),
    # Kokkos passes over names it does not know (a typo ran with its default).
    case("cli_kokkos_unknown_option", BASE, ["'--kokkos-thread'", "did you mean '--kokkos-threads'"],
         args=RUN + ["--kokkos-thread=2"]),
]

GOOD_RUN_OUTPUTS = (".athdf", ".csv", ".json")


def good_cases():
    sod = os.path.join(SOURCE, "configs", "sod.yaml")
    return [
        dict(name="good_check_sod_yaml", yaml=None, args=["check", sod],
             stdout=[Re(r"sod\.yaml: valid"), Re(r"(?m)^  riemann: hllc$")], writes=False),
        dict(name="good_set_cfl", yaml=None, args=["check", sod, "--set", "time.cfl=0.3"],
             stdout=[Re(r"(?m)^  cfl: 0\.3$")], writes=False),
        # The section given whole on the command line, gamma in it: Brio & Wu's states accepted.
        dict(name="good_set_physics_section", yaml=None,
             args=["check", sod, "--set", "physics={mhd: true, gamma: 2}", "--set", "solver.riemann=hlld",
                   "--set", "problem={name: mhd_shock_tube}"],
             stdout=[Re(r"(?m)^  gamma: 2$"), Re(r"(?m)^  name: mhd_shock_tube$")], writes=False),
        # astronomix's own help, not Kokkos' (Kokkos used to consume --help).
        dict(name="good_help", yaml=None, args=["--help"],
             stdout=["Subcommands:", Re(r"(?m)^  run "), Re(r"(?m)^  check "), "--set KEY=VALUE",
                     "Examples:", "mpirun -n 4 astronomix run", "--kokkos-help"],
             writes=False),
        dict(name="good_help_word", yaml=None, args=["help"], stdout=["Subcommands:", "Examples:"], writes=False),
        dict(name="good_help_run", yaml=None, args=["run", "--help"],
             stdout=["Usage: astronomix run", "config", "--set KEY=VALUE", "--quiet", "--no-memory-check",
                     "Example: astronomix run"], writes=False),
        dict(name="good_help_check", yaml=None, args=["check", "-h"],
             stdout=["Usage: astronomix check", "--set KEY=VALUE", "memory per rank"], writes=False),
        dict(name="good_version", yaml=None, args=["--version"],
             stdout=[Re(r"^astronomix \d+\.\d+\.\d+ \(Kokkos \d+\.\d+\.\d+ on \w+\)")], writes=False),
        # An FV config switched to FD: its FV keys and FV CFL number said.
        dict(name="good_fd_switch_warns_of_fv_keys_and_cfl", yaml=None,
             args=["check", "-q", os.path.join(SOURCE, "configs", "orszag_tang.yaml"), "--set", "solver.family=fd",
                   "--set", "solver.corner_emf=uct_hlld"], stdout=[], stdout_empty=True,
             stderr=["solver.riemann: a finite-volume option (also solver.corner_emf), unused by solver.family fd",
                     "time.cfl: 0.4, this file's value (for its finite-volume solver), is kept though --set "
                     "solver.family=fd changed the solver; FD's default with this integrator is 1.5"], writes=False),
        # The field filter is FD MHD's: stated there, said to go unused in FD hydro.
        dict(name="good_fd_mhd_states_its_field_filter", yaml=None,
             args=["check", os.path.join(SOURCE, "configs", "orszag_tang.yaml"), "--set", "solver.family=fd"],
             stdout=[Re(r"(?m)^  field_filter: 0\.02$")], writes=False),
        dict(name="good_field_filter_unused_in_fd_hydro", yaml=None,
             args=["check", "-q", os.path.join(SOURCE, "configs", "sedov3d_fd.yaml"), "--set",
                   "solver.field_filter=0.02"], stdout=[], stdout_empty=True,
             stderr=["solver.field_filter: the filter of FD MHD's face field, unused with physics.mhd: false"],
             writes=False),
        # Options that do nothing where they were given, said.
        dict(name="good_corner_emf_unused_in_hydro", yaml=None,
             args=["check", "-q", os.path.join(SOURCE, "configs", "sod.yaml"), "--set", "solver.corner_emf=gs05"],
             stdout=[], stdout_empty=True, stderr=["solver.corner_emf", "unused with physics.mhd: false"],
             writes=False),
        dict(name="good_limiter_unused_with_pcm", yaml=None,
             args=["check", "-q", os.path.join(SOURCE, "configs", "sod.yaml"), "--set", "solver.reconstruction=pcm",
                   "--set", "solver.limiter=mc"],
             stdout=[], stdout_empty=True, stderr=["solver.limiter: unused with reconstruction: pcm"], writes=False),
        dict(name="good_fused_layout_unused_with_native", yaml=None,
             args=["check", "-q", os.path.join(SOURCE, "configs", "sod.yaml"), "--set", "solver.backend=native",
                   "--set", "solver.fused_layout=tiles"],
             stdout=[], stdout_empty=True, stderr=["solver.fused_layout", "unused with backend: native"],
             writes=False),
        dict(name="good_fd_config_without_fv_warnings", yaml=None,
             args=["check", "-q", os.path.join(SOURCE, "configs", "sedov3d_fd.yaml")], stdout=[], stdout_empty=True,
             stderr_lacks=["warning"], writes=False),
        # A mapping given with --set sets its keys and keeps the section's
        # others (it replaced the section: the file's gamma fell back to 5/3,
        # and x_inner/x_outer over the file's x read as a conflict).
        dict(name="good_set_mapping_keeps_the_sections_other_keys", yaml=None,
             args=["check", sod, "--set", "physics={mhd: false}", "--set", "time={end: 0.1}"],
             stdout=[Re(r"(?m)^  gamma: 1\.4$"), Re(r"(?m)^  cfl: 0\.4$"), Re(r"(?m)^  end: 0\.1$")], writes=False),
        dict(name="good_set_boundary_faces_as_a_mapping", yaml=None,
             args=["check", sod, "--set", "boundaries={x_inner: reflecting, x_outer: outflow}"],
             stdout=[Re(r"(?m)^  x_inner: reflecting$"), Re(r"(?m)^  x_outer: outflow$")], writes=False),
        # check -q: the exit code alone (warnings still said).
        dict(name="good_check_quiet_says_run_would_refuse", yaml=None,
             args=["check", "-q", os.path.join(SOURCE, "configs", "sedov3d.yaml"), "--set",
                   "mesh.cells=[4096,4096,4096]"], stdout=[], stdout_empty=True,
             stderr=["astronomix: warning: run would refuse this config"], writes=False),
        dict(name="good_check_quiet", yaml=None, args=["check", "-q", sod], stdout=[], stdout_empty=True,
             writes=False),
        dict(name="good_check_quiet_warns", yaml=None,
             args=["check", "--quiet", os.path.join(SOURCE, "configs", "orszag_tang.yaml"), "--set", "time.cfl=0.9"],
             stdout=[], stdout_empty=True, stderr=["above 0.5, the stability limit"], writes=False),
        dict(name="good_check_prints_memory", yaml=None, args=["check", sod],
             stdout=["memory per rank", Re(r"peak host memory\s+[\d.]+ (KiB|MiB)"), "fits: yes",
                     Re(r"cost: 256 cells x 2 stages per step")], writes=False),
        # yt reads a mesh with one cell along y as 1D along x: said for x-z
        # and z-only meshes, not for x-y or y-z ones.
        dict(name="good_check_warns_of_yt_on_z_only", yaml=None,
             args=["check", os.path.join(SOURCE, "configs", "sod_z.yaml")], stdout=["fits: yes"],
             stderr=["astronomix: warning:", "a z-only mesh, which yt's Athena++ reader takes as 1D along x"],
             writes=False),
        dict(name="good_check_warns_of_yt_on_x_z", yaml=None,
             args=["check", sod, "--set", "mesh.cells=[16,1,8]"], stdout=["fits: yes"],
             stderr=["an x-z mesh", "reads the first x row"], writes=False),
        dict(name="good_check_y_z_without_yt_warning", yaml=None,
             args=["check", sod, "--set", "mesh.cells=[1,16,8]", "--set", "problem.direction=y", "--set",
                   "boundaries.y=outflow"],
             stdout=["fits: yes"], stderr_lacks=["yt"], writes=False),
        # FV above cfl 0.5 in 2D: warned; in 1D (stable to 1) not.
        dict(name="good_check_warns_of_fv_cfl_in_2d", yaml=None,
             args=["check", os.path.join(SOURCE, "configs", "orszag_tang.yaml"), "--set", "time.cfl=0.9"],
             stdout=["fits: yes"], stderr=["command line (--set time.cfl)", "0.9 is above 0.5, the stability limit of "
                                                                             "the 2D finite-volume schemes"],
             writes=False),
        dict(name="good_check_fv_cfl_in_1d_without_warning", yaml=None,
             args=["check", sod, "--set", "time.cfl=0.9"], stdout=["fits: yes"], stderr_lacks=["stability limit"],
             writes=False),
        # A config in a folder named like an override is a config.
        dict(name="good_config_path_with_block_key_value", yaml=None,
             args=["check", "time/nx=64/sod.yaml"], files={"time/nx=64/sod.yaml": sod}, stdout=["fits: yes"],
             writes=False),
        # A --set before the config file: the file is not taken as a second override.
        dict(name="good_set_before_config", yaml=None, args=["check", "--set", "time.cfl=0.3", sod],
             stdout=[Re(r"(?m)^  cfl: 0\.3$")], writes=False),
        # --set of a key that an anchor shares changes that key only (it changed time.end too).
        dict(name="good_set_anchored_value", yaml=edit(("  end: 0.01", "  end: &e 0.01"), ("  dt: 0.005", "  dt: *e")),
             args=CHECK + ["--set", "output.dt=0.001"],
             stdout=[Re(r"(?m)^  end: 0\.01$"), Re(r"(?m)^  dt: 0\.001$")], writes=False),
        dict(name="good_wall_time_hh_mm_ss", yaml=BASE, args=RUN + ["--wall-time", "0:10:00.5"], stdout=[],
             writes=True),
        dict(name="good_wall_time_long_minutes", yaml=BASE, args=RUN + ["--wall-time", "90:00"], stdout=[],
             writes=True),
        # One name alone is a list of one, as Athena++ writes `variable = prim`.
        dict(name="good_variables_one_name", yaml=edit(("  dt: 0.005", "  dt: 0.005\n  variables: cons")),
             args=CHECK, stdout=[Re(r"(?m)^  variables: \[cons\]$")], writes=False),
        dict(name="good_gamma_fraction", yaml=edit(("  gamma: 1.4", "  gamma: 5/3")), args=CHECK,
             stdout=[Re(r"(?m)^  gamma: 1\.66666666666666\d*$")], writes=False),
    ] + [
        dict(name="good_check_configs_" + os.path.basename(f)[:-5], yaml=None, args=["check", f],
             stdout=[Re(r": valid\b")], writes=False)
        for f in sorted(glob.glob(os.path.join(SOURCE, "configs", "*.yaml")))
        if os.path.basename(f) != "sod.yaml"
    ] + [
        # The base config really runs and writes: shows that the "nothing
        # written" check of the bad cases is not vacuous.
        dict(name="good_base_run_writes_output", yaml=BASE, args=RUN, stdout=[], writes=True),
        # A field along the walls: the FD MHD blast between reflecting walls runs.
        dict(name="good_fd_mhd_field_along_reflecting_wall",
             yaml=FD_MHD_WALL.replace("field: [1, 0, 0]", "field: [0, 1, 0]"), args=RUN, stdout=[], writes=True),
        # Periodic along a tube when asked for: runs.
        dict(name="good_sod_periodic_given", yaml=edit(("  x: outflow", "  x: periodic")), args=RUN, stdout=[],
             writes=True),
        # A 1D wave along y: k along y (tests/test_linear_wave.cpp checks it).
        dict(name="good_linear_wave_along_y",
             yaml=edit(("  cells: [16, 1, 1]", "  cells: [1, 16, 1]"), ("  x: outflow", "  y: periodic"),
                       ("  name: sod", "  name: linear_wave")), args=RUN, stdout=[], writes=True),
        # Faces given as a --set mapping where the file has no boundaries
        # section: the mapping counted as setting the axis too (refused).
        dict(name="good_set_faces_mapping_without_section", yaml=edit(("boundaries:", None), ("  x: outflow", None)),
             args=CHECK + ["--set", "boundaries={x_inner: reflecting, x_outer: outflow}"],
             stdout=["x_inner: reflecting", "x_outer: outflow"], writes=False),
        dict(name="good_backend_fused_runs", yaml=edit(("solver:", "solver:\n  backend: fused")), args=RUN,
             stdout=[], writes=True),
        # Either generation's spelling reaches Kokkos (3.x reads --kokkos-threads,
        # 4.x --kokkos-num-threads; the environment asks for one thread).
        dict(name="good_kokkos_num_threads", yaml=BASE, args=["run", CFG, "--kokkos-num-threads=2"],
             stdout=[Re(r"on (OpenMP \(2 thread\(s\) per rank\)|Serial|Cuda)")], writes=True),
        dict(name="good_kokkos_threads", yaml=BASE, args=["run", CFG, "--kokkos-threads=2"],
             stdout=[Re(r"on (OpenMP \(2 thread\(s\) per rank\)|Serial|Cuda)")], writes=True),
    ]


def openmp_build():
    """Whether the binary's Kokkos runs on OpenMP (--version names the execution space)."""
    p = subprocess.run([EXE, "--version"], capture_output=True, text=True, timeout=60)
    return "on OpenMP" in p.stdout


OPENMP_CASES = ("cli_kokkos_threads_above_pool", "cli_kokkos_threads_last_above_pool", "omp_num_threads_above_pool")


def env():
    e = dict(os.environ)
    e.setdefault("OMP_NUM_THREADS", "1")
    e.setdefault("OMP_PROC_BIND", "false")
    return e


def files_under(d):
    out = set()
    for root, dirs, files in os.walk(d):
        for f in files:
            out.add(os.path.relpath(os.path.join(root, f), d))
    return out


def dirs_under(d):
    return {os.path.relpath(os.path.join(root, x), d) for root, dirs, _ in os.walk(d) for x in dirs}


def execute(args, cwd, environ=None):
    try:
        p = subprocess.run([EXE] + args, cwd=cwd, env={**env(), **(environ or {})}, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, errors="replace", timeout=60)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        def s(x):
            return x.decode(errors="replace") if isinstance(x, bytes) else (x or "")
        return "timeout", s(e.stdout), s(e.stderr)


def matches(item, text, yaml):
    if isinstance(item, Re):
        return re.search(item.pattern, text) is not None, f"/{item.pattern}/"
    if isinstance(item, Loc):
        item = item.resolve(yaml)
    return item in text, repr(item)


def no_crash(rc, out, err, problems):
    for m in CRASH_MARKERS:
        if m in err or m in out:
            problems.append(f"crash marker {m!r} in output")
    if isinstance(rc, int) and rc < 0:
        problems.append(f"killed by signal {-rc}")


def run_bad(c):
    problems = []
    d = tempfile.mkdtemp(prefix="astronomix_cfgerr_")
    try:
        if c["yaml"] is not None:
            with open(os.path.join(d, CFG), "w") as fh:
                fh.write(c["yaml"])
        if c["setup"]:
            c["setup"](d)
        before = files_under(d)
        rc, out, err = execute(c["args"], d, c.get("environ"))
        if rc != 2:
            problems.append(f"exit code {rc}, expected 2")
        if not any(l.startswith("astronomix: error: ") for l in err.splitlines()):
            problems.append("no stderr line starts with 'astronomix: error: '")
        for item in c["expect"]:
            ok, shown = matches(item, err, c["yaml"] or "")
            if not ok:
                problems.append(f"stderr lacks {shown}")
        if re.search(r": valid\b", out):
            problems.append("stdout claims the config is valid")
        no_crash(rc, out, err, problems)
        new = sorted(files_under(d) - before)
        if new:
            problems.append(f"files written: {new[:6]}")
        for p in c["forbid_paths"]:  # relative to the case's directory
            if os.path.lexists(os.path.join(d, p)):
                problems.append(f"{p} exists afterwards")
        return problems, err
    finally:
        shutil.rmtree(d, ignore_errors=True)


def run_good(c):
    problems = []
    d = tempfile.mkdtemp(prefix="astronomix_cfgok_")
    try:
        if c["yaml"] is not None:
            with open(os.path.join(d, CFG), "w") as fh:
                fh.write(c["yaml"])
        for rel, source in c.get("files", {}).items():  # copies of configs under other names
            os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
            shutil.copy(source, os.path.join(d, rel))
        before, dirs_before = files_under(d), dirs_under(d)
        rc, out, err = execute(c["args"], d)
        if rc != 0:
            problems.append(f"exit code {rc}, expected 0")
        if "astronomix: error" in err:
            problems.append("error message on stderr")
        for item in c["stdout"]:
            ok, shown = matches(item, out, c["yaml"] or "")
            if not ok:
                problems.append(f"stdout lacks {shown}")
        for item in c.get("stderr", []):
            ok, shown = matches(item, err, c["yaml"] or "")
            if not ok:
                problems.append(f"stderr lacks {shown}")
        if c.get("stdout_empty") and out:
            problems.append(f"stdout not empty: {out[:300]}")
        for item in c.get("stderr_lacks", []):
            if item in err:
                problems.append(f"stderr has {item!r}: {err[-300:]}")
        no_crash(rc, out, err, problems)
        new = files_under(d) - before
        if c["writes"]:
            for ext in GOOD_RUN_OUTPUTS:
                if not any(f.endswith(ext) for f in new):
                    problems.append(f"no {ext} file written by a valid run")
        elif new:
            problems.append(f"files written by check: {sorted(new)[:6]}")
        elif dirs_under(d) - dirs_before:  # check validates output.directory without creating it
            problems.append(f"folders created by check: {sorted(dirs_under(d) - dirs_before)[:6]}")
        return problems, err
    finally:
        shutil.rmtree(d, ignore_errors=True)


def parser_only(c):
    """A bad config the loader alone refuses: a plain `run` or `check` of the
    case's YAML, with no files or folders set up beforehand."""
    return (c["args"] in (RUN, CHECK) and c["setup"] is None and c["yaml"] is not None and not c["forbid_paths"]
            and not c["past_loader"])


# Loader refusals the sanitizer pass always runs: the YAML structure itself
# (aliases, merge keys, a text the loader once looped on), where a parser's
# memory errors would be, and athinput files.
ALWAYS_SANITIZED = ("yaml_", "empty_file", "top_level_", "duplicate_key", "athena_", "section_")


def sanitized_sample(cases):
    """The sanitizer pass's cases: every one that goes past the loader
    (files, folders, restarts, the command line, the solver and problem
    set-up), the structural ones above, and one in three of the loader's
    other refusals (values, types, ranges), whose code the config fuzzer
    runs under the same sanitizers (scripts/test.sh). The plain pass runs
    them all; all of them took 105 s of the sanitizer pass in CI."""
    kept, n = [], 0
    for c in cases:
        if parser_only(c) and not c["name"].startswith(ALWAYS_SANITIZED):
            n += 1
            if n % 3 != 1:
                continue
        kept.append(c)
    return kept


def wait_for_exe():
    # The binary may be briefly missing while it is rebuilt.
    for _ in range(3):
        if os.access(EXE, os.X_OK):
            return True
        time.sleep(20)
    return os.access(EXE, os.X_OK)


def main():
    if not wait_for_exe():
        print(f"astronomix binary not found or not executable: {EXE}")
        print("0 passed, 1 failed")
        return 1
    names = [c["name"] for c in BAD] + [c["name"] for c in good_cases()]
    assert len(names) == len(set(names)), "duplicate case names"
    bad = sanitized_sample(BAD) if SANITIZED else BAD
    if not openmp_build():  # Serial or GPU builds have no thread pool to overflow
        print(f"skipped (not an OpenMP build): {', '.join(OPENMP_CASES)}")
        bad = [c for c in bad if c["name"] not in OPENMP_CASES]
    jobs = [(c["name"], run_bad, c) for c in bad] + [(c["name"], run_good, c) for c in good_cases()]
    t0 = time.time()
    # Each run spends most of its ~0.4 s waiting in MPI/Kokkos start-up, so
    # more workers than cores still pays.
    workers = 6
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [(name, pool.submit(fn, c)) for name, fn, c in jobs]
        passed = failed = 0
        for name, fut in futures:
            try:
                problems, err = fut.result()
            except Exception as e:  # a bug in this script counts as a failure
                problems, err = [f"test harness error: {e!r}"], ""
            if problems:
                failed += 1
                print(f"FAIL {name}")
                for p in problems:
                    print(f"     - {p}")
                tail = err.strip().splitlines()[-4:]
                for l in tail:
                    print(f"     | {l}")
            else:
                passed += 1
                print(f"ok   {name}")
    sample = f", {len(BAD) - len(bad)} of the loader's refusals left to the plain pass" if len(bad) < len(BAD) else ""
    print(f"({len(jobs)} cases in {time.time() - t0:.1f} s, {EXE}{sample})")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
