#include "io/athdf.hpp"
#include "io/hdf5_file.hpp"
#include "mhd/mhd_eos.hpp"

#include <hdf5.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace ax {

namespace {

constexpr std::size_t kNameLen = 21;  // Athena++: 20 characters + NUL

hid_t real_type() { return hdf5_real_type(); }
hid_t fixed_string_type(std::size_t len) { return hdf5_fixed_string(len); }
void attr(hid_t loc, const char* name, hid_t type, const std::vector<hsize_t>& dims, const void* data) {
  hdf5_attr(loc, name, type, dims, data);
}

void string_attr(hid_t loc, const char* name, const std::vector<std::string>& values) {
  std::vector<char> buf(values.size() * kNameLen, '\0');
  for (std::size_t i = 0; i < values.size(); ++i)
    std::strncpy(&buf[i * kNameLen], values[i].c_str(), kNameLen - 1);
  hid_t t = fixed_string_type(kNameLen);
  attr(loc, name, t, {hsize_t(values.size())}, buf.data());
  H5Tclose(t);
}

// This rank's block, converted to the output variables on the host.
struct BlockData {
  std::vector<std::vector<Real>> fields;  // per dataset: [nvar][nz][ny][nx]
  std::vector<Real> xf[3], xv[3];
  std::int64_t loc[3];
};

BlockData gather_block(const Grid& g, const Comm& comm, const Config& cfg, const Array4& u) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
  BlockData b;
  const int nx = g.nx[0], ny = g.nx[1], nz = g.nx[2];
  const std::size_t ncell = std::size_t(nx) * ny * nz;
  const IdealGas& eos = cfg.eos;
  for (const auto& ds : datasets_of(cfg)) {
    std::vector<Real> f(ds.vars.size() * ncell);
    std::size_t c = 0;
    for (int k = g.is(2); k < g.ie(2); ++k)
      for (int j = g.is(1); j < g.ie(1); ++j)
        for (int i = g.is(0); i < g.ie(0); ++i, ++c) {
          Real uc[NMHD], w[NMHD];
          for (int n = 0; n < cfg.nvar(); ++n) uc[n] = h(n, k, j, i);
          if (ds.name == "B") {
            for (int n = 0; n < 3; ++n) f[n * ncell + c] = uc[IB1 + n];
          } else if (ds.name == "prim") {
            if (cfg.mhd) mhd_cons_to_prim(eos, uc, w);
            else cons_to_prim(eos, uc, w);
            const Real out[5] = {w[IDN], w[IPR], w[IVX], w[IVY], w[IVZ]};
            for (int n = 0; n < 5; ++n) f[n * ncell + c] = out[n];
          } else {
            const Real out[5] = {uc[IDN], uc[IEN], uc[IM1], uc[IM2], uc[IM3]};
            for (int n = 0; n < 5; ++n) f[n * ncell + c] = out[n];
          }
        }
    b.fields.push_back(std::move(f));
  }
  for (int d = 0; d < 3; ++d) {
    for (int i = 0; i <= g.nx[d]; ++i) b.xf[d].push_back(g.x_face(d, g.offset[d] + i));
    for (int i = 0; i < g.nx[d]; ++i) b.xv[d].push_back(g.x_center(d, g.is(d) + i));
    b.loc[d] = comm.coords[d];
  }
  return b;
}

// Creates every dataset and root attribute (run by all ranks in parallel
// mode, by rank 0 alone in sequential mode).
void create_layout(hid_t file, const Grid& g, const Comm& comm, const Config& cfg, double time,
                   long long cycle) {
  const auto sets = datasets_of(cfg);
  const hsize_t nb = hsize_t(comm.size);
  const int ncyc = int(cycle);
  attr(file, "NumCycles", H5T_NATIVE_INT, {}, &ncyc);
  const Real t = Real(time);
  attr(file, "Time", real_type(), {}, &t);
  {
    hid_t t = fixed_string_type(kNameLen);
    char coord[kNameLen] = "cartesian";
    attr(file, "Coordinates", t, {}, coord);
    H5Tclose(t);
  }
  const char* names[3] = {"RootGridX1", "RootGridX2", "RootGridX3"};
  for (int d = 0; d < 3; ++d) {
    const Real x[3] = {g.xmin[d], g.xmax[d], Real(1)};
    attr(file, names[d], real_type(), {3}, x);
  }
  const int root[3] = {g.nx_global[0], g.nx_global[1], g.nx_global[2]};
  const int block[3] = {g.nx[0], g.nx[1], g.nx[2]};
  const int nblocks = comm.size, maxlevel = 0;
  attr(file, "RootGridSize", H5T_NATIVE_INT, {3}, root);
  attr(file, "NumMeshBlocks", H5T_NATIVE_INT, {}, &nblocks);
  attr(file, "MeshBlockSize", H5T_NATIVE_INT, {3}, block);
  attr(file, "MaxLevel", H5T_NATIVE_INT, {}, &maxlevel);
  std::vector<int> nvars;
  std::vector<std::string> dnames, vnames;
  for (const auto& s : sets) {
    nvars.push_back(int(s.vars.size()));
    dnames.push_back(s.name);
    vnames.insert(vnames.end(), s.vars.begin(), s.vars.end());
  }
  attr(file, "NumVariables", H5T_NATIVE_INT, {hsize_t(nvars.size())}, nvars.data());
  string_attr(file, "DatasetNames", dnames);
  string_attr(file, "VariableNames", vnames);
  // The effective config, so every snapshot says how it was made.
  hdf5_string_attr(file, "Config", cfg.effective);
  const double gamma = cfg.gamma;
  attr(file, "Gamma", H5T_NATIVE_DOUBLE, {}, &gamma);

  auto make = [&](const char* name, hid_t type, std::vector<hsize_t> dims) { hdf5_dataset(file, name, type, dims); };
  make("Levels", H5T_NATIVE_INT, {nb});
  make("LogicalLocations", H5T_NATIVE_INT64, {nb, 3});
  const char* xf[3] = {"x1f", "x2f", "x3f"};
  const char* xv[3] = {"x1v", "x2v", "x3v"};
  for (int d = 0; d < 3; ++d) {
    make(xf[d], real_type(), {nb, hsize_t(g.nx[d] + 1)});
    make(xv[d], real_type(), {nb, hsize_t(g.nx[d])});
  }
  for (const auto& s : sets)
    make(s.name.c_str(), real_type(),
         {hsize_t(s.vars.size()), nb, hsize_t(g.nx[2]), hsize_t(g.nx[1]), hsize_t(g.nx[0])});
}

// Writes this rank's row of every dataset.
void write_block(hid_t file, hid_t xfer, const Grid& g, const Comm& comm, const Config& cfg,
                 const BlockData& b) {
  const hsize_t row = hsize_t(comm.rank);
  SlabWriter put(file, xfer);
  const int level = 0;
  put("Levels", H5T_NATIVE_INT, {row}, {1}, &level);
  put("LogicalLocations", H5T_NATIVE_INT64, {row, 0}, {1, 3}, b.loc);
  const char* xf[3] = {"x1f", "x2f", "x3f"};
  const char* xv[3] = {"x1v", "x2v", "x3v"};
  for (int d = 0; d < 3; ++d) {
    put(xf[d], real_type(), {row, 0}, {1, hsize_t(g.nx[d] + 1)}, b.xf[d].data());
    put(xv[d], real_type(), {row, 0}, {1, hsize_t(g.nx[d])}, b.xv[d].data());
  }
  const auto sets = datasets_of(cfg);
  for (std::size_t s = 0; s < sets.size(); ++s)
    put(sets[s].name.c_str(), real_type(), {0, row, 0, 0, 0},
        {hsize_t(sets[s].vars.size()), 1, hsize_t(g.nx[2]), hsize_t(g.nx[1]), hsize_t(g.nx[0])},
        b.fields[s].data());
  put.finish();
}

}  // namespace

std::vector<Dataset> datasets_of(const Config& cfg) {
  std::vector<Dataset> out;
  for (const auto& v : cfg.out_vars) {
    if (v == "prim") out.push_back({"prim", {"rho", "press", "vel1", "vel2", "vel3"}});
    if (v == "cons") out.push_back({"cons", {"dens", "Etot", "mom1", "mom2", "mom3"}});
  }
  // Athena++'s name and layout for the cell-centred field: yt maps Bcc1..3
  // to magnetic_field_x/y/z.
  if (cfg.mhd) out.push_back({"B", {"Bcc1", "Bcc2", "Bcc3"}});
  return out;
}

bool hdf5_is_parallel() {
#ifdef H5_HAVE_PARALLEL
  return true;
#else
  return false;
#endif
}

void write_athdf(const SnapshotRequest& req, const Grid& g, const Comm& comm, const Config& cfg,
                 const Array4& u) {
  const BlockData block = gather_block(g, comm, cfg, u);
  std::int64_t values = 0;
  for (const Dataset& s : datasets_of(cfg)) values += std::int64_t(s.vars.size());
  hdf5_write_file(req.path, comm, req.sequential || !hdf5_is_parallel(),
                  [&](hid_t file) { create_layout(file, g, comm, cfg, req.time, req.cycle); },
                  [&](hid_t file, hid_t xfer) { write_block(file, xfer, g, comm, cfg, block); },
                  values * g.cells_global() * std::int64_t(sizeof(Real)));
  // The sidecar is rank 0's; a failure there must stop every rank alike.
  std::string error;
  if (comm.root()) {
    try {
      const std::string name = std::filesystem::path(req.path).filename().string();
      write_text_atomically(req.path + ".xdmf", xdmf_text(name, g, comm, cfg, req.time));
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  throw_if_root_failed(comm, error, "rank 0 could not write " + req.path + ".xdmf");
}

}  // namespace ax
