// Snapshots in Athena++'s .athdf layout (HDF5), which yt loads as an
// athena_pp dataset, plus the .xdmf sidecar that ParaView and VisIt open.
// One file per snapshot whatever the rank count: each rank is one mesh block
// and writes its hyperslab, collectively with parallel HDF5, or in turn when
// the HDF5 library is serial.
#pragma once

#include <string>
#include <vector>

#include "backend/comm.hpp"
#include "backend/grid.hpp"
#include "config/config.hpp"

namespace ax {

struct SnapshotRequest {
  std::string path;        // final name, ending in .athdf
  double time = 0;
  long long cycle = 0;
  bool sequential = false; // write rank by rank even with parallel HDF5
};

// Writes `u` (conserved, with ghosts) as the datasets named in
// cfg.out_vars. Collective over comm. The file appears under its final name
// only once complete (written to a temporary name, then renamed).
void write_athdf(const SnapshotRequest& req, const Grid& g, const Comm& comm, const Config& cfg,
                 const Array4& u);

// The XDMF sidecar describing `athdf_name` (a file name relative to the
// sidecar's folder).
// One cell-data dataset of a snapshot: its name and its variables' names
// (prim, cons, and B for MHD), in file order.
struct Dataset {
  std::string name;
  std::vector<std::string> vars;
};
std::vector<Dataset> datasets_of(const Config& cfg);

std::string xdmf_text(const std::string& athdf_name, const Grid& g, const Comm& comm,
                      const Config& cfg, double time);

// True when the HDF5 library was built with MPI-IO.
bool hdf5_is_parallel();

}  // namespace ax
