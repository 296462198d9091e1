#include "io/hdf5_file.hpp"

#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ax {

namespace {

herr_t innermost(unsigned n, const H5E_error2_t* e, void* out) {
  // The walk goes from the innermost error outwards: keep the first.
  if (n == 0 && e->desc) *static_cast<std::string*>(out) = e->desc;
  return 0;
}

// Flushes a closed file's data to the disk (the rename that follows must not
// reach the disk before the data does).
void fsync_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw std::runtime_error("cannot reopen " + path + " to flush it: " + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) throw std::runtime_error("cannot flush " + path + " to disk: " + std::strerror(err));
}

void rename_or_throw(const std::string& from, const std::string& to) {
  std::error_code ec;
  std::filesystem::rename(from, to, ec);
  if (ec) throw std::runtime_error("cannot rename " + from + " to " + to + ": " + ec.message());
}

}  // namespace

hid_t hdf5_real_type() { return sizeof(Real) == 8 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT; }

hid_t hdf5_fixed_string(std::size_t len) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, len);
  H5Tset_strpad(t, H5T_STR_NULLTERM);
  return t;
}

std::string hdf5_error_text() {
  std::string text;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost, &text);
  return text;
}

void hdf5_quiet_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

void hdf5_check(herr_t status, const std::string& what) {
  if (status >= 0) return;
  const std::string why = hdf5_error_text();
  throw std::runtime_error("HDF5: " + what + " failed" + (why.empty() ? "" : ": " + why));
}

void hdf5_attr(hid_t loc, const char* name, hid_t type, const std::vector<hsize_t>& dims, const void* data) {
  hid_t space = dims.empty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(int(dims.size()), dims.data(), nullptr);
  hid_t a = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  const herr_t rc = a < 0 ? herr_t(-1) : H5Awrite(a, type, data);
  if (a >= 0) H5Aclose(a);
  H5Sclose(space);
  hdf5_check(rc, std::string("writing attribute ") + name);
}

void hdf5_string_attr(hid_t loc, const char* name, const std::string& text) {
  hid_t t = hdf5_fixed_string(text.size() + 1);
  hdf5_attr(loc, name, t, {}, text.c_str());
  H5Tclose(t);
}

void hdf5_dataset(hid_t file, const char* name, hid_t type, const std::vector<hsize_t>& dims) {
  hid_t space = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
  hid_t ds = H5Dcreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Sclose(space);
  hdf5_check(ds < 0 ? -1 : 0, std::string("creating dataset ") + name);
  H5Dclose(ds);
}

void hdf5_write_slab(hid_t file, hid_t xfer, const char* name, hid_t type, const std::vector<hsize_t>& start,
                     const std::vector<hsize_t>& count, const void* data) {
  hid_t ds = H5Dopen2(file, name, H5P_DEFAULT);
  hdf5_check(ds < 0 ? -1 : 0, std::string("opening dataset ") + name);
  hid_t fspace = H5Dget_space(ds);
  herr_t rc = H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr);
  hid_t mspace = H5Screate_simple(int(count.size()), count.data(), nullptr);
  if (rc >= 0) rc = H5Dwrite(ds, type, mspace, fspace, xfer, data);
  H5Sclose(mspace);
  H5Sclose(fspace);
  H5Dclose(ds);
  hdf5_check(rc, std::string("writing dataset ") + name);
}

void SlabWriter::operator()(const char* name, hid_t type, const std::vector<hsize_t>& start,
                            const std::vector<hsize_t>& count, const void* data) {
  try {
    hdf5_write_slab(file_, xfer_, name, type, start, count, data);
  } catch (const std::exception& e) {
    if (error_.empty()) error_ = e.what();
  }
}

void SlabWriter::finish() const {
  if (!error_.empty()) throw std::runtime_error(error_);
}

namespace {
// Rank 0's check that the file fits in the room left, agreed by all ranks.
// Parallel HDF5 cannot recover from a write that fails for want of room:
// its ranks part ways inside H5Fclose (one in the metadata flush's barrier,
// one in the truncation's broadcast) and wait for ever, as 2 ranks did on
// a full disk. 64 KiB more than the data covers the metadata.
void check_room(const std::string& path, const Comm& comm, std::int64_t bytes) {
  std::string error;
  if (comm.root() && bytes > 0) {
    std::error_code ec;
    const auto dir = std::filesystem::absolute(path).parent_path();
    const auto room = std::filesystem::space(dir, ec);
    const std::int64_t need = bytes + (64 << 10);
    if (!ec && room.available < std::uintmax_t(need))
      error = "writing " + path + " failed: it needs about " + std::to_string(need / 1024) + " KiB, and " +
              std::to_string(room.available / 1024) + " KiB free on the file system of " + dir.string() +
              " (the file is not written; earlier files are intact)";
  }
  int len = int(error.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, comm.cart);
  if (len == 0) return;
  error.resize(std::size_t(len));
  MPI_Bcast(error.data(), len, MPI_CHAR, 0, comm.cart);
  throw CollectiveError(error);
}
}  // namespace

void hdf5_write_file(const std::string& path, const Comm& comm, bool sequential,
                     const std::function<void(hid_t)>& layout,
                     const std::function<void(hid_t, hid_t)>& rows, std::int64_t bytes) {
  check_room(path, comm, bytes);
  const std::string tmp = path + ".tmp";
  std::string error;  // this rank's failure, shared below so all ranks agree
  auto attempt = [&](const std::function<void()>& f) {
    if (!error.empty()) return;
    try {
      f();
    } catch (const std::exception& e) {
      error = e.what();
    }
  };
#ifdef H5_HAVE_PARALLEL
  const bool parallel = !sequential;
#else
  const bool parallel = false;
  (void)sequential;
#endif
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
    if (file < 0) {
      error = "cannot create " + tmp + (hdf5_error_text().empty() ? "" : ": " + hdf5_error_text());
    } else {
      // Collective calls: every rank makes them, failed or not.
      attempt([&] { layout(file); });
      hid_t xfer = H5Pcreate(H5P_DATASET_XFER);
      H5Pset_dxpl_mpio(xfer, H5FD_MPIO_COLLECTIVE);
      attempt([&] { rows(file, xfer); });
      H5Pclose(xfer);
      if (H5Fclose(file) < 0) {
        if (error.empty()) error = "closing " + tmp + ": " + hdf5_error_text();
        // HDF5 keeps a file it could not close open (and tries again when it
        // shuts down): its communicator must outlive it.
        io_comm = MPI_COMM_NULL;
      }
    }
    if (io_comm != MPI_COMM_NULL) MPI_Comm_free(&io_comm);
#endif
  } else {
    // One rank after another: rank 0 creates the layout, each rank then
    // opens the file, writes its rows and passes the token on (with the
    // news of a failure, so later ranks skip their part).
    int ok = 1;
    if (comm.rank > 0) MPI_Recv(&ok, 1, MPI_INT, comm.rank - 1, 77, comm.cart, MPI_STATUS_IGNORE);
    if (!ok) error = "an earlier rank failed";
    if (ok) {
      hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
#ifdef H5_HAVE_PARALLEL
      H5Pset_fapl_sec2(fapl);
#endif
      hid_t file = comm.rank == 0 ? H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl)
                                  : H5Fopen(tmp.c_str(), H5F_ACC_RDWR, fapl);
      H5Pclose(fapl);
      if (file < 0) {
        error = "cannot " + std::string(comm.rank == 0 ? "create " : "open ") + tmp +
                (hdf5_error_text().empty() ? "" : ": " + hdf5_error_text());
      } else {
        if (comm.rank == 0) attempt([&] { layout(file); });
        attempt([&] { rows(file, H5P_DEFAULT); });
        if (H5Fclose(file) < 0 && error.empty()) error = "closing " + tmp + ": " + hdf5_error_text();
      }
    }
    ok = error.empty() ? 1 : 0;
    if (comm.rank + 1 < comm.size) MPI_Send(&ok, 1, MPI_INT, comm.rank + 1, 77, comm.cart);
  }
  // All ranks learn whether any failed; rank 0 then either publishes the
  // file or removes the remains.
  int failed = error.empty() ? 0 : 1, any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, comm.cart);
  if (comm.root() && !any) {
    try {
      fsync_file(tmp);
      rename_or_throw(tmp, path);
    } catch (const std::exception& e) {
      error = e.what();
      failed = 1;
    }
  }
  int published_failed = 0;
  MPI_Allreduce(&failed, &published_failed, 1, MPI_INT, MPI_MAX, comm.cart);
  if (published_failed) {
    // Most often the disk is full or gone: say how much room is left (with
    // the remains still there), then remove them.
    std::string room_text;
    if (comm.root()) {
      std::error_code ec;
      const auto dir = std::filesystem::absolute(path).parent_path();
      const auto room = std::filesystem::space(dir, ec);
      room_text = ec ? "; " + dir.string() + ": " + ec.message()
                     : "; " + std::to_string(room.available / 1024) + " KiB free on the file system of " + dir.string();
      std::filesystem::remove(tmp, ec);
    }
    // The lowest failing rank's message, on every rank.
    const int mine = error.empty() ? comm.size : comm.rank;
    int first = comm.size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm.cart);
    int len = int(error.size());
    MPI_Bcast(&len, 1, MPI_INT, first, comm.cart);
    error.resize(std::size_t(len));
    MPI_Bcast(error.data(), len, MPI_CHAR, first, comm.cart);
    len = int(room_text.size());
    MPI_Bcast(&len, 1, MPI_INT, 0, comm.cart);
    room_text.resize(std::size_t(len));
    MPI_Bcast(room_text.data(), len, MPI_CHAR, 0, comm.cart);
    throw CollectiveError("writing " + path + " failed: " + error + room_text +
                          " (the file is not written; earlier files are intact)");
  }
}

void write_text_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    f << text;
    f.flush();
    if (!f) throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
  }
  fsync_file(tmp);
  rename_or_throw(tmp, path);
}

}  // namespace ax
