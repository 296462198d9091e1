#include <algorithm>
#include <cctype>
#include <vector>

#include "config/config_error.hpp"

namespace ax {

namespace {
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

// The candidate meant by a misspelt word: the same word in other case
// (HLLC), else the shortest candidate that holds it (rk4: lsrk4, not the
// nearer rk1), else the nearest by edit distance if near enough.
std::string did_you_mean(const std::string& word_as_given, const std::string* begin, const std::string* end) {
  const std::string word = lower(word_as_given);
  for (auto it = begin; it != end; ++it)
    if (lower(*it) == word) return *it;
  std::string holder;
  if (word.size() >= 3)
    for (auto it = begin; it != end; ++it)
      if (lower(*it).find(word) != std::string::npos && (holder.empty() || it->size() < holder.size())) holder = *it;
  if (!holder.empty()) return holder;
  std::string best;
  std::size_t best_d = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (auto it = begin; it != end; ++it) {
    const std::size_t d = edit_distance(word, lower(*it));
    if (d < best_d) {
      best_d = d;
      best = *it;
    }
  }
  return best;
}

}  // namespace ax
