#include "backend/device_check.hpp"

#include <string>

#include "backend/kokkos_compat.hpp"
#include "backend/types.hpp"

namespace ax {

std::string device_view_check() {
  constexpr int n = 4;
  Kokkos::View<Real*, MemSpace> v("device_view_check", n);
  Kokkos::parallel_for("device_view_check", Kokkos::RangePolicy<ExecSpace>(0, n),
                       KOKKOS_LAMBDA(int i) { v(i) = Real(i + 1); });
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += h(i) != Real(i + 1);
  if (wrong == 0) return {};
  return "this Kokkos build (" + kokkos_version_text() + " on " + ExecSpace::name() +
         ") runs kernels that hold a one-dimensional View wrongly: a test kernel left " + std::to_string(wrong) +
         " of its " + std::to_string(n) +
         " values unwritten. Kokkos's mdspan-based View compiled by nvcc in C++20 does this; rebuild Kokkos with "
         "-DKokkos_ENABLE_IMPL_VIEW_LEGACY=ON and astronomix against it (docs/gpu.md)";
}

}  // namespace ax
