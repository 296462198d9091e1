// Density and pressure floors on one cell (hydro/floors.hpp,
// mhd/mhd_floors.hpp): what a floored cell holds afterwards. The density
// floor keeps the momentum (so the velocity drops) and the pressure is then
// measured with the new density; the magnetic energy is kept.
#include <gtest/gtest.h>

#include <cmath>

#include "hydro/floors.hpp"
#include "mhd/mhd_floors.hpp"

namespace ax {
namespace {

constexpr double kTol = sizeof(Real) == 8 ? 1e-12 : 1e-5;

double pressure_of(const IdealGas& eos, const Real* u, bool mhd) {
  const double ke = 0.5 * (u[IM1] * u[IM1] + u[IM2] * u[IM2] + u[IM3] * u[IM3]) / u[IDN];
  const double me = mhd ? 0.5 * (u[IB1] * u[IB1] + u[IB2] * u[IB2] + u[IB3] * u[IB3]) : 0.0;
  return eos.gm1 * (u[IEN] - ke - me);
}

// A thin, cold, moving cell: density 1e-3 under a floor of 0.1, pressure
// 1e-6 under a floor of 0.01.
template <bool Mhd>
void check_floored_cell() {
  const IdealGas eos(Real(5) / Real(3));
  const Floors f{Real(0.1), Real(0.01)};
  Real u[NMHD] = {Real(1e-3), Real(1e-3), Real(-2e-3), Real(5e-4), 0, Real(0.3), Real(-0.2), Real(0.1)};
  const double ke = 0.5 * (1e-6 + 4e-6 + 0.25e-6) / 1e-3;
  const double me = Mhd ? 0.5 * (0.09 + 0.04 + 0.01) : 0.0;
  u[IEN] = Real(1e-6 / eos.gm1 + ke + me);
  Real before[NMHD];
  for (int n = 0; n < NMHD; ++n) before[n] = u[n];
  const bool hit = Mhd ? apply_mhd_floors(eos, f, u) : apply_floors(eos, f, u);
  EXPECT_TRUE(hit);
  EXPECT_EQ(u[IDN], f.density);
  for (int n : {IM1, IM2, IM3}) EXPECT_EQ(u[n], before[n]) << "momentum " << n;
  if (Mhd) {
    for (int n : {IB1, IB2, IB3}) EXPECT_EQ(u[n], before[n]) << "field " << n;
  }
  // The pressure of the floored state, with its new density, is the floor.
  EXPECT_NEAR(pressure_of(eos, u, Mhd), double(f.pressure), kTol * double(f.pressure) / 1e-3);
}

TEST(Floors, FlooredCellHoldsTheFloorsWithItsMomentum) {
  check_floored_cell<false>();
  check_floored_cell<true>();
}

TEST(Floors, SoundCellUntouchedAndPressureAloneRaised) {
  const IdealGas eos(Real(1.4));
  const Floors f{Real(1e-10), Real(1e-3)};
  Real u[NMHD] = {1, Real(0.5), 0, 0, Real(2.5), Real(0.2), 0, 0};
  Real before[NMHD];
  for (int n = 0; n < NMHD; ++n) before[n] = u[n];
  EXPECT_FALSE(apply_floors(eos, f, u));
  EXPECT_FALSE(apply_mhd_floors(eos, f, u));
  for (int n = 0; n < NMHD; ++n) EXPECT_EQ(u[n], before[n]) << n;
  // Only the pressure below its floor: the density stays, the energy rises.
  u[IEN] = Real(0.5 * 0.25 + 0.5 * 0.04 + 1e-5);
  EXPECT_TRUE(apply_mhd_floors(eos, f, u));
  EXPECT_EQ(u[IDN], Real(1));
  EXPECT_NEAR(pressure_of(eos, u, true), 1e-3, 1e-15);
}

}  // namespace
}  // namespace ax
