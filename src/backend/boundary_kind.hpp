#pragma once

namespace ax {

// Physical boundary condition of one domain face. Periodic faces are handled
// by the MPI neighbour wrap-around, the others by a ghost-fill kernel.
enum class BoundaryKind { periodic, outflow, reflecting };

}  // namespace ax
