#include "io/athdf.hpp"
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

hid_t real_type() { return sizeof(Real) == 8 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT; }

void check(herr_t status, const char* what) {
  if (status < 0) throw std::runtime_error(std::string("HDF5: ") + what + " failed");
}

hid_t fixed_string_type(std::size_t len) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, len);
  H5Tset_strpad(t, H5T_STR_NULLTERM);
  return t;
}

void attr(hid_t loc, const char* name, hid_t type, const std::vector<hsize_t>& dims, const void* data) {
  hid_t space = dims.empty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(int(dims.size()), dims.data(), nullptr);
  hid_t a = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  check(H5Awrite(a, type, data), name);
  H5Aclose(a);
  H5Sclose(space);
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
  {
    // The effective config, so every snapshot says how it was made.
    hid_t t = fixed_string_type(cfg.effective.size() + 1);
    attr(file, "Config", t, {}, cfg.effective.c_str());
    H5Tclose(t);
  }
  const double gamma = cfg.gamma;
  attr(file, "Gamma", H5T_NATIVE_DOUBLE, {}, &gamma);

  auto make = [&](const char* name, hid_t type, std::vector<hsize_t> dims) {
    hid_t space = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
    hid_t ds = H5Dcreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (ds < 0) throw std::runtime_error(std::string("HDF5: cannot create dataset ") + name);
    H5Dclose(ds);
    H5Sclose(space);
  };
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
  auto put = [&](const char* name, hid_t type, std::vector<hsize_t> start, std::vector<hsize_t> count,
                 const void* data) {
    hid_t ds = H5Dopen2(file, name, H5P_DEFAULT);
    hid_t fspace = H5Dget_space(ds);
    check(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr), name);
    hid_t mspace = H5Screate_simple(int(count.size()), count.data(), nullptr);
    check(H5Dwrite(ds, type, mspace, fspace, xfer, data), name);
    H5Sclose(mspace);
    H5Sclose(fspace);
    H5Dclose(ds);
  };
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
}

void write_text_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    f << text;
    if (!f) throw std::runtime_error("cannot write " + tmp);
  }
  std::filesystem::rename(tmp, path);
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
  const std::string tmp = req.path + ".tmp";
  const bool parallel = hdf5_is_parallel() && !req.sequential;
  if (parallel) {
#ifdef H5_HAVE_PARALLEL
    // A communicator without the Cartesian topology: Open MPI's MPI-IO
    // groups aggregators by topology, which made its pre-4.1.7 unlocked
    // writes overlap (see apps/astronomix.cpp).
    MPI_Comm io_comm;
    MPI_Comm_split(comm.cart, 0, comm.rank, &io_comm);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, io_comm, MPI_INFO_NULL);
    hid_t file = H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    if (file < 0) throw std::runtime_error("cannot create " + tmp);
    create_layout(file, g, comm, cfg, req.time, req.cycle);
    hid_t xfer = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(xfer, H5FD_MPIO_COLLECTIVE);
    write_block(file, xfer, g, comm, cfg, block);
    H5Pclose(xfer);
    H5Fclose(file);
    MPI_Comm_free(&io_comm);
#endif
  } else {
    // One rank after another: rank 0 creates the layout, each rank then
    // opens the file, writes its rows and passes the token on.
    int token = 0;
    if (comm.rank > 0) MPI_Recv(&token, 1, MPI_INT, comm.rank - 1, 77, comm.cart, MPI_STATUS_IGNORE);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
#ifdef H5_HAVE_PARALLEL
    H5Pset_fapl_sec2(fapl);
#endif
    hid_t file = comm.rank == 0 ? H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl)
                                : H5Fopen(tmp.c_str(), H5F_ACC_RDWR, fapl);
    H5Pclose(fapl);
    if (file < 0) throw std::runtime_error("cannot open " + tmp);
    if (comm.rank == 0) create_layout(file, g, comm, cfg, req.time, req.cycle);
    write_block(file, H5P_DEFAULT, g, comm, cfg, block);
    H5Fclose(file);
    if (comm.rank + 1 < comm.size) MPI_Send(&token, 1, MPI_INT, comm.rank + 1, 77, comm.cart);
  }
  MPI_Barrier(comm.cart);
  if (comm.root()) {
    std::filesystem::rename(tmp, req.path);
    const std::string name = std::filesystem::path(req.path).filename().string();
    write_text_atomically(req.path + ".xdmf", xdmf_text(name, g, comm, cfg, req.time));
  }
  MPI_Barrier(comm.cart);
}

}  // namespace ax
