#include "io/checksum.hpp"

#include <cstring>

namespace ax {

namespace {

// SplitMix64's finaliser: every input bit reaches every output bit.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::uint64_t box_checksum(std::uint64_t array, const std::vector<unsigned long long>& dims,
                           const std::vector<unsigned long long>& start, const std::vector<unsigned long long>& count,
                           const std::vector<unsigned long long>& stored, const Real* data) {
  const std::size_t rank = dims.size();
  std::uint64_t total = 1;
  for (auto c : count) total *= c;
  std::vector<unsigned long long> at(rank, 0);
  std::uint64_t sum = 0;
  for (std::uint64_t e = 0; e < total; ++e) {
    std::uint64_t global = 0, here = 0;
    for (std::size_t q = 0; q < rank; ++q) {
      global = global * dims[q] + start[q] + at[q];
      here = here * stored[q] + at[q];
    }
    std::uint64_t bits = 0;
    std::memcpy(&bits, data + here, sizeof(Real));
    sum += mix(mix(array ^ mix(global)) ^ bits);
    for (std::size_t q = rank; q-- > 0;) {
      if (++at[q] < count[q]) break;
      at[q] = 0;
    }
  }
  return sum;
}

}  // namespace ax
