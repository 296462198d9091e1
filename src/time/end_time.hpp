// When a run has reached time.end, for the driver and for the restart check
// that refuses a checkpoint already there.
#pragma once

namespace ax {

// The last step is cut to land on t_end, but a time summed over many steps
// may stop a rounding short of it.
inline bool at_end_time(double t, double t_end) { return t >= t_end * (1 - 1e-14); }

}  // namespace ax
