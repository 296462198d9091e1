// A checksum of a global array that every decomposition computes alike:
// the sum, modulo 2^64, over its elements of a mix of each value's bits
// with its global position. Each rank sums the elements it owns; the sum
// over ranks is the same whatever the ranks' boxes, and a changed bit, or
// a value moved to another place, changes it (bar a 2^-64 chance).
// Checkpoints store it (io/restart.cpp) and a restart verifies it.
#pragma once

#include <cstdint>
#include <vector>

#include "backend/types.hpp"

namespace ax {

// The box start + [0, count) of a global array of shape dims (slowest
// first), whose values lie in data laid out with extents `stored` (>= count
// along each axis, the same start). `array` tells apart the arrays of one
// file.
std::uint64_t box_checksum(std::uint64_t array, const std::vector<unsigned long long>& dims,
                           const std::vector<unsigned long long>& start, const std::vector<unsigned long long>& count,
                           const std::vector<unsigned long long>& stored, const Real* data);

}  // namespace ax
