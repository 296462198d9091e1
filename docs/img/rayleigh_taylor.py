#!/usr/bin/env python3
"""Draws docs/img/rayleigh_taylor.png: the density of configs/rayleigh_taylor.yaml
(Athena++'s 2D Rayleigh-Taylor set-up, 64 x 192 cells) at five times.

    python3 docs/img/rayleigh_taylor.py [path/to/astronomix]   (default build/astronomix)

Runs from the repository root; writes its run under /tmp/astronomix_rayleigh_taylor.
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
out = "/tmp/astronomix_rayleigh_taylor"
subprocess.run([exe, "run", os.path.join(root, "configs", "rayleigh_taylor.yaml"), "-q", "--overwrite",
                "--set", f"output.directory={out}"], check=True)
snapshots = sorted(glob.glob(os.path.join(out, "*.athdf")))
times = [0, 4, 7, 10, 12.75]

fig, axes = plt.subplots(1, len(times), figsize=(10, 5.6), sharey=True)
for ax, t in zip(axes, times):
    # Snapshots every 0.5 (the config's output.dt), the last at t = 12.75.
    with h5py.File(snapshots[min(int(round(t / 0.5)), len(snapshots) - 1)], "r") as f:
        names = [n.decode() for n in f.attrs["VariableNames"]]
        rho = f["prim"][names.index("rho"), 0, 0]
        ax.imshow(rho, origin="lower", extent=[-0.25, 0.25, -0.75, 0.75], vmin=0.95, vmax=2.05, cmap="viridis")
        ax.set_title(f"t = {f.attrs['Time']:.2f}", fontsize=10)
        ax.set_xticks([-0.25, 0, 0.25])
axes[0].set_ylabel("y")
fig.suptitle("Rayleigh-Taylor, density (configs/rayleigh_taylor.yaml: PLM + MC + HLLC + VL2, 64 x 192)", fontsize=10)
fig.tight_layout()
path = os.path.join(root, "docs", "img", "rayleigh_taylor.png")
fig.savefig(path, dpi=90)
print("wrote", path)
