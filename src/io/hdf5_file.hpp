// The HDF5 plumbing the snapshot (.athdf) and checkpoint (.rst) writers
// share: typed attributes, hyperslab writes, and the one way a file is
// written by all ranks (collectively with parallel HDF5, or rank by rank)
// under a temporary name that becomes the final name only once the file is
// complete and flushed to disk, so a crash never leaves a half-written file
// under a final name.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backend/comm.hpp"
#include "backend/types.hpp"

namespace ax {

hid_t hdf5_real_type();
hid_t hdf5_fixed_string(std::size_t len);  // caller closes

// Throws std::runtime_error naming `what` and HDF5's innermost error (the
// system's, e.g. "No space left on device") if status < 0.
void hdf5_check(herr_t status, const std::string& what);
// The innermost message of HDF5's current error stack ("" if none).
std::string hdf5_error_text();
// HDF5 prints its error stack by default; astronomix reports errors itself.
void hdf5_quiet_errors();

void hdf5_attr(hid_t loc, const char* name, hid_t type, const std::vector<hsize_t>& dims, const void* data);
void hdf5_string_attr(hid_t loc, const char* name, const std::string& text);
void hdf5_dataset(hid_t file, const char* name, hid_t type, const std::vector<hsize_t>& dims);
void hdf5_write_slab(hid_t file, hid_t xfer, const char* name, hid_t type, const std::vector<hsize_t>& start,
                     const std::vector<hsize_t>& count, const void* data);

// A rank's slabs of one file. With parallel HDF5 each write is a collective
// call that every rank must make: one that fails here (a full disk) must
// not skip the next, or the other ranks wait in it for ever (2 ranks hung
// so on a full disk). So the writes go on and finish() throws the first
// failure.
class SlabWriter {
 public:
  SlabWriter(hid_t file, hid_t xfer) : file_(file), xfer_(xfer) {}
  void operator()(const char* name, hid_t type, const std::vector<hsize_t>& start, const std::vector<hsize_t>& count,
                  const void* data);
  void finish() const;

 private:
  hid_t file_, xfer_;
  std::string error_;
};

// Writes `path` from every rank: `layout(file)` creates datasets and
// attributes (all ranks with parallel HDF5, rank 0 alone otherwise), then
// `rows(file, xfer)` writes this rank's part. Written to path + ".tmp",
// fsync'ed and renamed by rank 0. Collective; throws on failure (the
// temporary file is removed, earlier files are untouched). `bytes`: about
// what the datasets hold, checked against the room left first (0: not).
void hdf5_write_file(const std::string& path, const Comm& comm, bool sequential,
                     const std::function<void(hid_t)>& layout,
                     const std::function<void(hid_t, hid_t)>& rows, std::int64_t bytes = 0);

// Writes `text` to `path` through a temporary file, fsync'ed and renamed.
void write_text_atomically(const std::string& path, const std::string& text);

}  // namespace ax
