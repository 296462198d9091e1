#include "io/restart.hpp"

#include <hdf5.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config/config_error.hpp"
#include "io/athdf.hpp"
#include "io/checksum.hpp"
#include "io/hdf5_file.hpp"
#include "time/end_time.hpp"

namespace ax {

namespace {

constexpr int kRestartVersion = 1;
const char* const kFaceNames[3] = {"x1f", "x2f", "x3f"};

// The part of the global arrays this rank holds: cells [start, start +
// count) per axis (x, y, z), and for faces normal to d the same with d's
// faces, the upper one of the domain by the last rank along d. An inactive
// axis keeps its two (equal) faces.
struct Slab {
  hsize_t start[3], count[3];
};

Slab cell_slab(const Grid& g) {
  Slab s;
  for (int d = 0; d < 3; ++d) {
    s.start[d] = hsize_t(g.offset[d]);
    s.count[d] = hsize_t(g.nx[d]);
  }
  return s;
}

Slab face_slab(const Grid& g, const Comm& comm, int d, bool reading) {
  Slab s = cell_slab(g);
  if (!g.active(d)) {
    s.start[d] = 0;
    s.count[d] = 2;
  } else if (reading || comm.coords[d] == comm.dims[d] - 1) {
    s.count[d] += 1;  // readers take both faces of their block
  }
  return s;
}

// Global dataset dims, slowest first.
std::vector<hsize_t> cell_dims(const Config& cfg) {
  return {hsize_t(cfg.nvar()), hsize_t(cfg.nx[2]), hsize_t(cfg.nx[1]), hsize_t(cfg.nx[0])};
}
std::vector<hsize_t> face_dims(const Config& cfg, int d) {
  std::vector<hsize_t> n = {hsize_t(cfg.nx[2]), hsize_t(cfg.nx[1]), hsize_t(cfg.nx[0])};
  n[2 - d] += 1;
  return n;
}

// This rank's part of the checksum of the cell variables (dataset 0; the
// block's cells, nvar x nz x ny x nx, slowest first), the same on write and read.
std::uint64_t cells_checksum(const Config& cfg, const Slab& cs, const std::vector<Real>& cells) {
  const std::vector<hsize_t> box = {hsize_t(cfg.nvar()), cs.count[2], cs.count[1], cs.count[0]};
  return box_checksum(0, cell_dims(cfg), {0, cs.start[2], cs.start[1], cs.start[0]}, box, box, cells.data());
}

// Dotted key -> value text of a resolved config.
void flatten(const YAML::Node& n, const std::string& path, std::map<std::string, std::string>* out) {
  if (n.IsMap()) {
    for (auto it = n.begin(); it != n.end(); ++it)
      flatten(it->second, path.empty() ? it->first.Scalar() : path + "." + it->first.Scalar(), out);
    return;
  }
  YAML::Emitter em;
  em << YAML::Flow << n;
  (*out)[path] = em.c_str();
}

// Opens attribute `name`, which must hold one element of type class `cls`
// (a checkpoint edited by hand could hold a list there: read into one
// value, it overran the buffer and crashed).
hid_t open_single_attr(hid_t file, const char* name, H5T_class_t cls, const char* expected, const std::string& path) {
  hid_t a = H5Aexists(file, name) > 0 ? H5Aopen(file, name, H5P_DEFAULT) : -1;
  if (a < 0) throw ConfigError(path + ": not a complete astronomix checkpoint (attribute " + name + " missing)");
  const hid_t space = H5Aget_space(a), type = H5Aget_type(a);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  const H5T_class_t have = H5Tget_class(type);
  H5Sclose(space);
  H5Tclose(type);
  if (n != 1 || have != cls) {
    H5Aclose(a);
    throw ConfigError(path + ": attribute " + name + " is not " + expected + " (" +
                      (n != 1 ? std::to_string(n) + " elements" : std::string("another type")) +
                      "): a damaged or edited checkpoint?");
  }
  return a;
}

// Reads a one-element attribute (or throws the reader's error).
template <class T>
T read_attr(hid_t file, const char* name, hid_t type, const std::string& path) {
  const bool real = H5Tget_class(type) == H5T_FLOAT;
  hid_t a = open_single_attr(file, name, real ? H5T_FLOAT : H5T_INTEGER, real ? "one number" : "one integer", path);
  T value{};
  const herr_t rc = H5Aread(a, type, &value);
  H5Aclose(a);
  if (rc < 0) throw ConfigError(path + ": cannot read attribute " + std::string(name));
  return value;
}

std::string read_string_attr(hid_t file, const char* name, const std::string& path) {
  hid_t a = open_single_attr(file, name, H5T_STRING, "one string", path);
  hid_t t = H5Aget_type(a);
  std::string out;
  herr_t rc;
  if (H5Tis_variable_str(t) > 0) {  // as h5py writes strings
    char* s = nullptr;
    rc = H5Aread(a, t, &s);
    if (rc >= 0 && s) out = s;
    if (s) H5free_memory(s);
  } else {
    std::vector<char> buf(H5Tget_size(t) + 1, '\0');
    rc = H5Aread(a, t, buf.data());
    out = buf.data();
  }
  H5Tclose(t);
  H5Aclose(a);
  if (rc < 0) throw ConfigError(path + ": cannot read attribute " + std::string(name));
  return out;
}

// The run counters a checkpoint holds beside its data, which its checksum
// does not cover: a NaN time ran on for ever, a negative snapshot index
// wrote snap.out1.-0005.athdf. Refused as a damaged checkpoint.
void check_counters(hid_t file, const std::string& path) {
  auto refuse = [&](const char* name, const std::string& is, const char* expected) {
    throw ConfigError(path + ": attribute " + name + " is " + is + ", expected " + expected +
                      ": a damaged or edited checkpoint?");
  };
  for (const char* name : {"Time", "LastDt", "NextOutputTime", "NextRestartTime", "MaxDivB"}) {
    const double x = read_attr<double>(file, name, H5T_NATIVE_DOUBLE, path);
    if (!(std::isfinite(x) && x >= 0)) {
      char is[32];
      std::snprintf(is, sizeof(is), "%g", x);
      refuse(name, is, "a finite number >= 0");
    }
  }
  for (const char* name : {"Step", "FloorHits"}) {
    const std::int64_t n = read_attr<std::int64_t>(file, name, H5T_NATIVE_INT64, path);
    if (n < 0) refuse(name, std::to_string(n), "a count >= 0");
  }
  for (const char* name : {"SnapshotIndex", "RestartIndex"}) {
    const int n = read_attr<int>(file, name, H5T_NATIVE_INT, path);
    if (n < 0) refuse(name, std::to_string(n), "an index >= 0");
  }
}

// This rank's hyperslab of a dataset whose global dims must be `dims`.
void read_slab(hid_t file, const char* name, const std::vector<hsize_t>& dims, const std::vector<hsize_t>& start,
               const std::vector<hsize_t>& count, Real* data, const std::string& path) {
  hid_t ds = H5Lexists(file, name, H5P_DEFAULT) > 0 ? H5Dopen2(file, name, H5P_DEFAULT) : -1;
  if (ds < 0) throw ConfigError(path + ": not a complete astronomix checkpoint (dataset " + name + " missing)");
  hid_t fspace = H5Dget_space(ds);
  std::vector<hsize_t> have(dims.size(), 0);
  const int rank = H5Sget_simple_extent_ndims(fspace);
  if (rank == int(dims.size())) H5Sget_simple_extent_dims(fspace, have.data(), nullptr);
  std::string error;
  const hid_t type = H5Dget_type(ds);
  const bool real = H5Tget_class(type) == H5T_FLOAT;
  H5Tclose(type);
  if (!real) {
    error = path + ": dataset " + name + " does not hold floating-point numbers (a damaged or edited checkpoint?)";
  } else if (have != dims) {
    error = path + ": dataset " + name + " has another shape than this config's grid";
  } else {
    herr_t rc = H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr);
    hid_t mspace = H5Screate_simple(int(count.size()), count.data(), nullptr);
    if (rc >= 0) rc = H5Dread(ds, hdf5_real_type(), mspace, fspace, H5P_DEFAULT, data);
    H5Sclose(mspace);
    if (rc < 0)
      error = path + ": cannot read dataset " + name + " (a truncated or damaged checkpoint?): " + hdf5_error_text();
  }
  H5Sclose(fspace);
  H5Dclose(ds);
  if (!error.empty()) throw ConfigError(error);
}

}  // namespace

namespace {
// time.cfl and the floors too: lowering the CFL number, or raising a floor,
// and continuing is how a run that broke down is carried on (as Athena++
// allows); the continued run then differs from the first by design.
// "output." stands for every key of the section.
const char* const kRestartSafeKeys[] = {"time.end",        "time.max_steps",     "time.cfl",
                                        "physics.density_floor", "physics.pressure_floor", "output.",
                                        "mesh.ranks",      "mesh.gpu_aware_mpi", "mesh.overlap_exchange",
                                        "solver.backend",  "solver.fused_layout"};
}  // namespace

bool restart_safe_key(const std::string& key) {
  for (const std::string k : kRestartSafeKeys)
    if (k.back() == '.' ? key.rfind(k, 0) == 0 : key == k) return true;
  return false;
}

std::string restart_safe_keys_text() {
  std::string text;
  const std::size_t n = std::size(kRestartSafeKeys);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string k = kRestartSafeKeys[i];
    text += (i == 0 ? "" : i + 1 == n ? " and " : ", ") + (k.back() == '.' ? k + "*" : k);
  }
  return text;
}

void write_restart(const std::string& path, const Grid& g, const Comm& comm, const Config& cfg, const State& u,
                   const RunCounters& c) {
  // This rank's part in the global arrays' order.
  auto hu = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u.u);
  const Slab cs = cell_slab(g);
  std::vector<Real> cells;
  cells.reserve(std::size_t(cfg.nvar()) * cs.count[0] * cs.count[1] * cs.count[2]);
  for (int n = 0; n < cfg.nvar(); ++n)
    for (int k = g.is(2); k < g.ie(2); ++k)
      for (int j = g.is(1); j < g.ie(1); ++j)
        for (int i = g.is(0); i < g.ie(0); ++i) cells.push_back(hu(n, k, j, i));
  std::vector<Real> faces[3];
  Slab fs[3];
  for (int d = 0; d < 3 && cfg.mhd; ++d) {
    auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u.b[d]);
    fs[d] = face_slab(g, comm, d, false);
    const int lo[3] = {g.active(0) ? g.is(0) : 0, g.active(1) ? g.is(1) : 0, g.active(2) ? g.is(2) : 0};
    for (hsize_t k = 0; k < fs[d].count[2]; ++k)
      for (hsize_t j = 0; j < fs[d].count[1]; ++j)
        for (hsize_t i = 0; i < fs[d].count[0]; ++i)
          faces[d].push_back(hb(0, lo[2] + int(k), lo[1] + int(j), lo[0] + int(i)));
  }
  // The data's checksum over all ranks (io/checksum.hpp): each element is
  // written by one rank.
  std::uint64_t part = cells_checksum(cfg, cs, cells);
  for (int d = 0; d < 3 && cfg.mhd; ++d) {
    const std::vector<hsize_t> box = {fs[d].count[2], fs[d].count[1], fs[d].count[0]};
    part += box_checksum(1 + d, face_dims(cfg, d), {fs[d].start[2], fs[d].start[1], fs[d].start[0]}, box, box,
                         faces[d].data());
  }
  std::uint64_t checksum = 0;
  MPI_Allreduce(&part, &checksum, 1, MPI_UINT64_T, MPI_SUM, comm.cart);
  auto layout = [&](hid_t file) {
    const int version = kRestartVersion, nvar = cfg.nvar(), mhd = cfg.mhd ? 1 : 0, bytes = int(sizeof(Real));
    hdf5_attr(file, "DataChecksum", H5T_NATIVE_UINT64, {}, &checksum);
    const int root[3] = {cfg.nx[0], cfg.nx[1], cfg.nx[2]};
    hdf5_attr(file, "astronomix_restart", H5T_NATIVE_INT, {}, &version);
    hdf5_attr(file, "RealBytes", H5T_NATIVE_INT, {}, &bytes);
    hdf5_attr(file, "NumCellVariables", H5T_NATIVE_INT, {}, &nvar);
    hdf5_attr(file, "Mhd", H5T_NATIVE_INT, {}, &mhd);
    hdf5_attr(file, "RootGridSize", H5T_NATIVE_INT, {3}, root);
    hdf5_attr(file, "Time", H5T_NATIVE_DOUBLE, {}, &c.time);
    hdf5_attr(file, "LastDt", H5T_NATIVE_DOUBLE, {}, &c.last_dt);
    const std::int64_t step = c.steps, floors = c.floor_hits;
    hdf5_attr(file, "Step", H5T_NATIVE_INT64, {}, &step);
    hdf5_attr(file, "FloorHits", H5T_NATIVE_INT64, {}, &floors);
    hdf5_attr(file, "SnapshotIndex", H5T_NATIVE_INT, {}, &c.snapshot_index);
    hdf5_attr(file, "NextOutputTime", H5T_NATIVE_DOUBLE, {}, &c.next_output);
    hdf5_attr(file, "RestartIndex", H5T_NATIVE_INT, {}, &c.restart_index);
    hdf5_attr(file, "NextRestartTime", H5T_NATIVE_DOUBLE, {}, &c.next_restart);
    hdf5_attr(file, "MaxDivB", H5T_NATIVE_DOUBLE, {}, &c.max_div_b);
    hdf5_attr(file, "InitialFieldStrength", H5T_NATIVE_DOUBLE, {}, &c.initial_b);
    hdf5_string_attr(file, "Config", cfg.effective);
    hdf5_dataset(file, "cons", hdf5_real_type(), cell_dims(cfg));
    for (int d = 0; d < 3 && cfg.mhd; ++d) hdf5_dataset(file, kFaceNames[d], hdf5_real_type(), face_dims(cfg, d));
  };
  auto rows = [&](hid_t file, hid_t xfer) {
    SlabWriter put(file, xfer);
    put("cons", hdf5_real_type(), {0, cs.start[2], cs.start[1], cs.start[0]},
        {hsize_t(cfg.nvar()), cs.count[2], cs.count[1], cs.count[0]}, cells.data());
    for (int d = 0; d < 3 && cfg.mhd; ++d)
      put(kFaceNames[d], hdf5_real_type(), {fs[d].start[2], fs[d].start[1], fs[d].start[0]},
          {fs[d].count[2], fs[d].count[1], fs[d].count[0]}, faces[d].data());
    put.finish();
  };
  // The cells' variables and, for MHD, three face arrays of about a cell each.
  const std::int64_t values = cfg.nvar() + (cfg.mhd ? 3 : 0);
  hdf5_write_file(path, comm, cfg.sequential_io || !hdf5_is_parallel(), layout, rows,
                  values * g.cells_global() * std::int64_t(sizeof(Real)));
}

namespace {

// Why a checkpoint cannot be opened, where the file system can say (HDF5's
// own message names only the call that failed).
std::string unopenable_because(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) return "no such file";
  if (fs::is_directory(st)) return "it is a directory";
  if (!fs::is_regular_file(st)) return "not a regular file";
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    unsigned char sig[8] = {0};
    const std::size_t got = std::fread(sig, 1, 8, f);
    std::fclose(f);
    const std::uintmax_t size = fs::file_size(path, ec);
    if (size == 0) return "the file is empty";
    static const unsigned char hdf5_sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    if (got < 8 || std::memcmp(sig, hdf5_sig, 8) != 0) return "not an HDF5 file";
    return "an HDF5 file that cannot be opened: truncated or damaged";
  }
  return std::string("cannot read it: ") + std::strerror(errno);
}

// The checkpoint `path` opened for reading (every rank reads its own part).
hid_t open_checkpoint(const std::string& path) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
#ifdef H5_HAVE_PARALLEL
  H5Pset_fapl_sec2(fapl);
#endif
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl);
  H5Pclose(fapl);
  if (file < 0)
    throw ConfigError(path + ": cannot open as a checkpoint (" + unopenable_because(path) + ")");
  return file;
}

// Runs read(file) on the checkpoint `path` opened for reading, and closes
// it whatever happens; a Config attribute yaml-cpp cannot parse is refused
// as such.
template <class Read>
void with_checkpoint(const std::string& path, Read read) {
  const hid_t file = open_checkpoint(path);
  try {
    read(file);
  } catch (const YAML::Exception& e) {
    H5Fclose(file);
    throw ConfigError(path + ": the checkpoint's Config attribute is not valid YAML: " + e.msg);
  } catch (...) {
    H5Fclose(file);
    throw;
  }
  H5Fclose(file);
}

// Whether the open checkpoint can continue the run `cfg`: an astronomix
// checkpoint of this format and precision, made with the same value of every
// key that may not change. The problem and the grid are compared first: a
// checkpoint of another run differs in many keys, and those two say so.
// The format and precision: whether this build reads the file at all.
void check_format(hid_t file, const std::string& path) {
  if (H5Aexists(file, "astronomix_restart") <= 0)
    throw ConfigError(path + ": not an astronomix checkpoint (no astronomix_restart attribute)");
  const int version = read_attr<int>(file, "astronomix_restart", H5T_NATIVE_INT, path);
  if (version != kRestartVersion)
    throw ConfigError(path + ": checkpoint format " + std::to_string(version) + ", this astronomix reads " +
                      std::to_string(kRestartVersion));
  if (read_attr<int>(file, "RealBytes", H5T_NATIVE_INT, path) != int(sizeof(Real)))
    throw ConfigError(path + ": written in another precision than this build's (" +
                      std::string(sizeof(Real) == 8 ? "double" : "float") + ")");
}

// Boundaries compare face by face: a resolved config states an axis as `y`
// where its faces agree, else as y_inner and y_outer; checkpoints written
// before 2026-12-07 held all three, `y` then possibly the default that the
// faces overrode.
void boundaries_by_face(std::map<std::string, std::string>* keys) {
  for (const char* a : {"x", "y", "z"}) {
    const std::string axis = std::string("boundaries.") + a;
    const auto both = keys->find(axis);
    if (both == keys->end()) continue;
    for (const char* side : {"_inner", "_outer"}) keys->emplace(axis + side, both->second);  // kept where given
    keys->erase(both);
  }
}

// Axes of more than one cell in a flattened mesh.cells ("[32, 32, 1]").
int active_axes(const std::map<std::string, std::string>& keys) {
  const auto cells = keys.find("mesh.cells");
  if (cells == keys.end()) return 0;
  int active = 0;
  std::istringstream in(cells->second);
  std::string token;
  while (std::getline(in, token, ',')) {
    token.erase(std::remove_if(token.begin(), token.end(), [](char ch) { return !std::isdigit(ch); }), token.end());
    if (!token.empty() && std::stoll(token) > 1) ++active;
  }
  return active;
}

// Keys added since a checkpoint was made, whose default changed what an
// older run did, stated as that run had them: FD MHD's field filter
// (2026-12-07) was off before (1D runs are not filtered).
std::set<std::string> implied_keys(std::map<std::string, std::string>* then) {
  std::set<std::string> implied;
  const auto mhd = then->find("physics.mhd"), family = then->find("solver.family");
  if (mhd != then->end() && mhd->second == "true" && family != then->end() && family->second == "fd" &&
      !then->count("solver.field_filter") && active_axes(*then) >= 2) {
    (*then)["solver.field_filter"] = "0";
    implied.insert("solver.field_filter");
  }
  return implied;
}

CheckpointPlace check_checkpoint(hid_t file, const std::string& path, const Config& cfg) {
  check_format(file, path);
  std::map<std::string, std::string> then, now;
  try {
    flatten(YAML::Load(read_string_attr(file, "Config", path)), "", &then);
  } catch (const YAML::Exception& e) {
    throw ConfigError(path + ": the checkpoint's Config attribute is not valid YAML: " + e.msg);
  }
  flatten(YAML::Load(cfg.effective), "", &now);
  boundaries_by_face(&then);
  boundaries_by_face(&now);
  const std::set<std::string> implied = implied_keys(&then);
  std::vector<std::string> keys = {"problem.name", "mesh.cells"};
  for (const auto& kv : then) keys.push_back(kv.first);
  for (const auto& kv : now) keys.push_back(kv.first);
  std::set<std::string> seen;
  for (const auto& key : keys) {
    if (!seen.insert(key).second || restart_safe_key(key)) continue;
    const auto a = then.find(key), b = now.find(key);
    const std::string was = a == then.end() ? "(absent)" : a->second, is = b == now.end() ? "(absent)" : b->second;
    if (was == is) continue;
    // A face's value may come from its axis key (boundaries.y for boundaries.y_inner).
    const std::string given = cfg.key_where.count(key) || key.rfind("boundaries.", 0) != 0 ? key : key.substr(0, 12);
    // A key newer than the checkpoint, left at its default, changes nothing
    // the checkpoint's run did; nor does one this run does not read (FD MHD
    // checkpoints before 2026-12-07 stated FV's solver.corner_emf).
    if (a == then.end() && !cfg.key_where.count(given)) continue;
    if (b == now.end() && !cfg.key_where.count(given)) continue;
    if (implied.count(key))
      throw ConfigError(key_place(cfg, given) + ": is " + is + " but the checkpoint " + path + " predates " + key +
                        " and was made without it, as " + key + ": " + was + "; continue it with --set " + key +
                        "=" + was);
    throw ConfigError(key_place(cfg, given) + ": is " + is + " but the checkpoint " + path + " was made with " +
                      (given == key ? was : key + ": " + was) + "; a restart may change only " +
                      restart_safe_keys_text());
  }
  // A run that would end before it starts would still write its closing
  // checkpoint, history and snapshot over the newer ones of the first run.
  check_counters(file, path);
  CheckpointPlace at;
  at.time = read_attr<double>(file, "Time", H5T_NATIVE_DOUBLE, path);
  at.steps = read_attr<std::int64_t>(file, "Step", H5T_NATIVE_INT64, path);
  char when[160];
  std::snprintf(when, sizeof(when), "the checkpoint %s is at t = %.9g, step %lld", path.c_str(), at.time, at.steps);
  if (at_end_time(at.time, cfg.t_end)) {
    char end[32];
    std::snprintf(end, sizeof(end), "%.9g", double(cfg.t_end));
    throw ConfigError(key_place(cfg, "time.end") + ": is " + end + " but " + when +
                      "; give a later time.end to continue the run");
  }
  if (cfg.max_steps >= 0 && cfg.max_steps <= at.steps)
    throw ConfigError(key_place(cfg, "time.max_steps") + ": is " + std::to_string(cfg.max_steps) + " but " + when +
                      "; give more steps to continue the run");
  return at;
}

}  // namespace

// The checksum of a whole dataset (dims slowest first), read a few planes
// of its slowest spatial axis (`plane_axis`) at a time: `check` reads what a
// run spreads over its ranks, and a checkpoint may exceed one node's memory.
std::uint64_t dataset_checksum(hid_t file, const char* name, std::uint64_t array, const std::vector<hsize_t>& dims,
                               std::size_t plane_axis, const std::string& path) {
  hsize_t per_plane = 1;
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (i != plane_axis) per_plane *= dims[i];
  const hsize_t planes = std::max<hsize_t>(1, (hsize_t(1) << 16) / per_plane);  // about 512 KiB of doubles
  std::vector<Real> buf;
  std::uint64_t sum = 0;
  for (hsize_t k = 0; k < dims[plane_axis]; k += planes) {
    std::vector<hsize_t> start(dims.size(), 0), count = dims;
    start[plane_axis] = k;
    count[plane_axis] = std::min(planes, dims[plane_axis] - k);
    buf.resize(std::size_t(per_plane * count[plane_axis]));
    read_slab(file, name, dims, start, count, buf.data(), path);
    sum += box_checksum(array, dims, start, count, count, buf.data());
  }
  return sum;
}

// Whether the checkpoint's data match the checksum it stores (files
// without one pass), and the checksum.
bool verify_data(hid_t file, const std::string& path, const Config& cfg, std::uint64_t& checksum) {
  if (H5Aexists(file, "DataChecksum") <= 0) return false;
  std::uint64_t sum = dataset_checksum(file, "cons", 0, cell_dims(cfg), 1, path);
  for (int d = 0; d < 3 && cfg.mhd; ++d) sum += dataset_checksum(file, kFaceNames[d], 1 + d, face_dims(cfg, d), 0, path);
  checksum = read_attr<std::uint64_t>(file, "DataChecksum", H5T_NATIVE_UINT64, path);
  if (sum != checksum) throw ConfigError(damaged_text(path));
  return true;
}

CheckpointPlace check_restart(const std::string& path, const Config& cfg, RestartData data) {
  CheckpointPlace at;
  with_checkpoint(path, [&](hid_t file) {
    at = check_checkpoint(file, path, cfg);
    if (data == RestartData::verify) at.checksum_verified = verify_data(file, path, cfg, at.checksum);
  });
  return at;
}

void check_stored_output_dir(const Config& cfg, const std::string& checkpoint) {
  namespace fs = std::filesystem;
  const std::string where = key_place(cfg, "output.directory");
  if (!cfg.write_files || key_from_set(cfg, "output.directory")) return;
  std::error_code ec;
  const fs::path out = fs::weakly_canonical(fs::absolute(cfg.out_dir, ec), ec);
  // A checkpoint named without a folder lies in "." (its empty parent
  // path named no folder, and the --set it suggested was refused).
  fs::path dir = fs::path(checkpoint).parent_path();
  if (dir.empty()) dir = ".";
  const fs::path lies = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  if (out == lies) return;
  const std::string named = dir.is_absolute() ? lies.string() : dir.string() + " (" + lies.string() + ")";
  throw ConfigError(where + ": is '" + cfg.out_dir + "', here " + out.string() + ", but the checkpoint lies in " +
                    named + ": run from the directory the first run ran in, or give --set output.directory=" +
                    dir.string());
}

std::string damaged_text(const std::string& path) {
  return path + ": the data do not match the checkpoint's checksum: the file is damaged; use an earlier checkpoint";
}

std::string checkpoint_config_text(const std::string& path) {
  std::string text;
  with_checkpoint(path, [&](hid_t file) {
    check_format(file, path);
    text = read_string_attr(file, "Config", path);
  });
  return text;
}

void read_restart(const std::string& path, const Grid& g, const Comm& comm, const Config& cfg, const State& u,
                  RunCounters* c) {
  with_checkpoint(path, [&](hid_t file) {
    check_checkpoint(file, path, cfg);
    // With the config equal, grid and variables are too; the shapes are
    // checked again as the datasets are read.
    const Slab cs = cell_slab(g);
    std::vector<Real> cells(std::size_t(cfg.nvar()) * cs.count[0] * cs.count[1] * cs.count[2]);
    const std::vector<hsize_t> cell_box = {hsize_t(cfg.nvar()), cs.count[2], cs.count[1], cs.count[0]};
    read_slab(file, "cons", cell_dims(cfg), {0, cs.start[2], cs.start[1], cs.start[0]}, cell_box, cells.data(), path);
    c->has_checksum = H5Aexists(file, "DataChecksum") > 0;
    if (c->has_checksum) c->stored_checksum = read_attr<std::uint64_t>(file, "DataChecksum", H5T_NATIVE_UINT64, path);
    c->read_checksum_part = cells_checksum(cfg, cs, cells);
    auto hu = Kokkos::create_mirror_view(u.u);
    std::size_t at = 0;
    for (int n = 0; n < cfg.nvar(); ++n)
      for (int k = g.is(2); k < g.ie(2); ++k)
        for (int j = g.is(1); j < g.ie(1); ++j)
          for (int i = g.is(0); i < g.ie(0); ++i) hu(n, k, j, i) = cells[at++];
    Kokkos::deep_copy(u.u, hu);
    for (int d = 0; d < 3 && cfg.mhd; ++d) {
      const Slab fs = face_slab(g, comm, d, true);
      std::vector<Real> faces(fs.count[0] * fs.count[1] * fs.count[2]);
      read_slab(file, kFaceNames[d], face_dims(cfg, d), {fs.start[2], fs.start[1], fs.start[0]},
                {fs.count[2], fs.count[1], fs.count[0]}, faces.data(), path);
      // Readers take both faces of their block; the checksum counts the
      // faces this rank would write.
      const Slab own = face_slab(g, comm, d, false);
      c->read_checksum_part +=
          box_checksum(1 + d, face_dims(cfg, d), {fs.start[2], fs.start[1], fs.start[0]},
                       {own.count[2], own.count[1], own.count[0]}, {fs.count[2], fs.count[1], fs.count[0]},
                       faces.data());
      auto hb = Kokkos::create_mirror_view(u.b[d]);
      Kokkos::deep_copy(hb, u.b[d]);
      const int lo[3] = {g.active(0) ? g.is(0) : 0, g.active(1) ? g.is(1) : 0, g.active(2) ? g.is(2) : 0};
      at = 0;
      for (hsize_t k = 0; k < fs.count[2]; ++k)
        for (hsize_t j = 0; j < fs.count[1]; ++j)
          for (hsize_t i = 0; i < fs.count[0]; ++i) hb(0, lo[2] + int(k), lo[1] + int(j), lo[0] + int(i)) = faces[at++];
      Kokkos::deep_copy(u.b[d], hb);
    }
    c->time = read_attr<double>(file, "Time", H5T_NATIVE_DOUBLE, path);
    c->last_dt = read_attr<double>(file, "LastDt", H5T_NATIVE_DOUBLE, path);
    c->steps = read_attr<std::int64_t>(file, "Step", H5T_NATIVE_INT64, path);
    c->floor_hits = read_attr<std::int64_t>(file, "FloorHits", H5T_NATIVE_INT64, path);
    c->snapshot_index = read_attr<int>(file, "SnapshotIndex", H5T_NATIVE_INT, path);
    c->next_output = read_attr<double>(file, "NextOutputTime", H5T_NATIVE_DOUBLE, path);
    c->restart_index = read_attr<int>(file, "RestartIndex", H5T_NATIVE_INT, path);
    c->next_restart = read_attr<double>(file, "NextRestartTime", H5T_NATIVE_DOUBLE, path);
    c->max_div_b = read_attr<double>(file, "MaxDivB", H5T_NATIVE_DOUBLE, path);
    // Checkpoints before 2026-12-07 lack it: each check's own field is the scale.
    c->initial_b = H5Aexists(file, "InitialFieldStrength") > 0
                       ? read_attr<double>(file, "InitialFieldStrength", H5T_NATIVE_DOUBLE, path)
                       : 0.0;
  });
}

}  // namespace ax
