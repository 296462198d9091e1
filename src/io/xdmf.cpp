// XDMF 2 sidecar for an .athdf file: one uniform rectilinear grid per mesh
// block, coordinates and cell data read as hyperslabs of the HDF5 datasets.
// A 3D rectilinear mesh is used in every dimension (one cell thick along
// inactive axes), which ParaView and VisIt read the same way.
#include <sstream>

#include "io/athdf.hpp"

namespace ax {

std::string xdmf_text(const std::string& file, const Grid& g, const Comm& comm, const Config& cfg,
                      double time) {
  const int nx = g.nx[0], ny = g.nx[1], nz = g.nx[2], nb = comm.size;
  const char* precision = sizeof(Real) == 8 ? "8" : "4";
  std::ostringstream x;
  x.precision(17);
  x << "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n<Xdmf Version=\"2.0\">\n"
    << "<Domain>\n<Grid Name=\"Mesh\" GridType=\"Collection\" CollectionType=\"Spatial\">\n  <Time Value=\"" << time << "\"/>\n";
  for (int b = 0; b < nb; ++b) {
    x << "  <Grid Name=\"MeshBlock" << b << "\" GridType=\"Uniform\">\n"
      << "    <Topology TopologyType=\"3DRectMesh\" NumberOfElements=\"" << nz + 1 << " " << ny + 1
      << " " << nx + 1 << "\"/>\n    <Geometry GeometryType=\"VXVYVZ\">\n";
    const int n[3] = {nx, ny, nz};
    for (int d = 0; d < 3; ++d) {
      x << "      <DataItem ItemType=\"HyperSlab\" Type=\"HyperSlab\" NumberType=\"Float\" Precision=\"" << precision << "\" Dimensions=\"" << n[d] + 1 << "\">\n"
        << "        <DataItem Dimensions=\"3 2\" NumberType=\"Int\" Format=\"XML\"> " << b << " 0 1 1 1 " << n[d] + 1
        << " </DataItem>\n"
        << "        <DataItem Dimensions=\"" << nb << " " << n[d] + 1
        << "\" Format=\"HDF\" NumberType=\"Float\" Precision=\"" << precision << "\"> " << file
        << ":/x" << d + 1 << "f </DataItem>\n      </DataItem>\n";
    }
    x << "    </Geometry>\n";
    for (const auto& ds : datasets_of(cfg)) {
      const std::string& v = ds.name;
      const int nv = int(ds.vars.size());
      for (int n = 0; n < nv; ++n) {
        x << "    <Attribute Name=\"" << ds.vars[n] << "\" Center=\"Cell\">\n"
          << "      <DataItem ItemType=\"HyperSlab\" Type=\"HyperSlab\" NumberType=\"Float\" Precision=\"" << precision << "\" Dimensions=\"" << nz << " " << ny << " " << nx << "\">\n"
          << "        <DataItem Dimensions=\"3 5\" NumberType=\"Int\" Format=\"XML\"> " << n << " " << b
          << " 0 0 0 1 1 1 1 1 1 1 " << nz << " " << ny << " " << nx << " </DataItem>\n"
          << "        <DataItem Dimensions=\"" << nv << " " << nb << " " << nz << " " << ny << " " << nx
          << "\" Format=\"HDF\" NumberType=\"Float\" Precision=\"" << precision << "\"> " << file << ":/"
          << v << " </DataItem>\n      </DataItem>\n    </Attribute>\n";
      }
    }
    x << "  </Grid>\n";
  }
  x << "</Grid>\n</Domain>\n</Xdmf>\n";
  return x.str();
}

}  // namespace ax
