#!/usr/bin/env python3
"""Draws docs/img/shu_osher.png: Shu & Osher's shock-entropy wave at t = 1.8
on 400 cells with PLM (FV) and WENO5 (FD), against FD WENO5 on 3200 cells.

    python3 docs/img/shu_osher.py [path/to/astronomix]   (default build/astronomix)

Runs from the repository root; writes its runs under /tmp/astronomix_shu_osher.
"""
import glob
import os
import subprocess
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
exe = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "astronomix"))
work = "/tmp/astronomix_shu_osher"
fd = ["solver.family=fd", "time.cfl=1.5"]
runs = {"reference": (3200, fd), "fd": (400, fd), "fv": (400, [])}


def density(label):
    cells, sets = runs[label]
    out = os.path.join(work, label)
    args = [exe, "run", os.path.join(root, "configs", "shu_osher.yaml"), "-q", "--overwrite",
            "--set", f"mesh.cells=[{cells},1,1]", "--set", f"output.directory={out}", "--set", "output.dt=1.8"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True)
    with h5py.File(sorted(glob.glob(os.path.join(out, "*.athdf")))[-1], "r") as f:
        return f["x1v"][0], f["prim"][0].ravel()


fig, ax = plt.subplots(figsize=(8, 4.5))
x, rho = density("reference")
ax.plot(x, rho, "k-", lw=0.8, label="FD WENO5, 3200 cells")
x, rho = density("fv")
ax.plot(x, rho, "o", ms=2.5, color="tab:blue", label="FV PLM + van Leer + HLLC, 400 cells")
x, rho = density("fd")
ax.plot(x, rho, "s", ms=2.5, color="tab:red", label="FD WENO5, 400 cells")
ax.set_xlabel("x")
ax.set_ylabel("density")
ax.set_title("Shu & Osher's shock-entropy wave, t = 1.8 (configs/shu_osher.yaml)")
ax.set_xlim(-5, 5)
ax.legend(loc="lower left", fontsize=8)
fig.tight_layout()
fig.savefig(os.path.join(root, "docs", "img", "shu_osher.png"), dpi=110)
print("wrote docs/img/shu_osher.png")
