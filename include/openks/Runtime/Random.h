//===- Random.h - Counter-based random numbers ------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
// 3", SC'11): a pure function from (key, counter) to 128 random bits. Keyed
// by a seed and counted by an element's index in a whole tensor, it lets any
// process generate any slice of a random tensor and get exactly the values
// the whole tensor would have, which is what slice-consistent initialisation
// and reproducible synthetic data need. ClassSampler draws class ids from
// it the same way, for sampled losses.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_RANDOM_H
#define OPENKS_RUNTIME_RANDOM_H

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace openks::runtime {

/// Philox4x32 with 10 rounds.
class Philox {
public:
  /// Four 32-bit outputs.
  using Block = std::array<uint32_t, 4>;

  /// Keys the generator with a 64-bit seed.
  explicit Philox(uint64_t seed)
      : key_{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)} {}

  /// Returns the 128 random bits of `counter` (and stream `stream`).
  Block operator()(uint64_t counter, uint64_t stream = 0) const {
    Block x = {static_cast<uint32_t>(counter),
               static_cast<uint32_t>(counter >> 32),
               static_cast<uint32_t>(stream),
               static_cast<uint32_t>(stream >> 32)};
    std::array<uint32_t, 2> key = key_;
    for (int round = 0; round < 10; ++round) {
      uint64_t product0 = uint64_t(kMultiplier0) * x[0];
      uint64_t product1 = uint64_t(kMultiplier1) * x[2];
      x = {static_cast<uint32_t>(product1 >> 32) ^ x[1] ^ key[0],
           static_cast<uint32_t>(product1),
           static_cast<uint32_t>(product0 >> 32) ^ x[3] ^ key[1],
           static_cast<uint32_t>(product0)};
      key[0] += kWeyl0;
      key[1] += kWeyl1;
    }
    return x;
  }

  /// Returns a double uniform in [0, 1) with 53 random bits, from the first
  /// (`second` = false) or last two words of `counter`'s block.
  double uniform(uint64_t counter, uint64_t stream = 0,
                 bool second = false) const {
    Block bits = (*this)(counter, stream);
    uint64_t word = second ? (uint64_t(bits[2]) << 32 | bits[3])
                           : (uint64_t(bits[0]) << 32 | bits[1]);
    return static_cast<double>(word >> 11) * 0x1.0p-53;
  }

  /// Returns a standard normal sample for `counter` (Box-Muller on the two
  /// uniforms of its block).
  double normal(uint64_t counter, uint64_t stream = 0) const {
    // 1 - u lies in (0, 1], so the logarithm is finite.
    double u1 = 1.0 - uniform(counter, stream, /*second=*/false);
    double u2 = uniform(counter, stream, /*second=*/true);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }

private:
  static constexpr uint32_t kMultiplier0 = 0xD2511F53;
  static constexpr uint32_t kMultiplier1 = 0xCD9E8D57;
  static constexpr uint32_t kWeyl0 = 0x9E3779B9;
  static constexpr uint32_t kWeyl1 = 0xBB67AE85;

  std::array<uint32_t, 2> key_;
};

/// Draws class ids in [0, numClasses) from a uniform or a log-uniform
/// (Zipfian) distribution, each draw a pure function of the seed, the
/// counter and the stream, like Philox's numbers. The log-uniform
/// distribution gives id c the probability
/// log((c + 2) / (c + 1)) / log(numClasses + 1), for ids sorted by
/// decreasing frequency; it is drawn by inverting its distribution function.
class ClassSampler {
public:
  enum class Kind { Uniform, LogUniform };

  /// Samples among `numClasses` (at least 1) classes.
  ClassSampler(Kind kind, int64_t numClasses, uint64_t seed)
      : kind_(kind), numClasses_(numClasses), philox_(seed),
        logRange_(std::log1p(static_cast<double>(numClasses))) {}

  /// Returns the class drawn at `counter` of stream `stream`.
  int64_t sample(uint64_t counter, uint64_t stream) const {
    double u = philox_.uniform(counter, stream);
    double drawn = kind_ == Kind::Uniform ? u * static_cast<double>(numClasses_)
                                          : std::exp(u * logRange_) - 1;
    // Rounding can reach numClasses itself; the draw stays in range.
    return std::min(static_cast<int64_t>(drawn), numClasses_ - 1);
  }

  /// Returns the probability that a draw is `id`.
  double probability(int64_t id) const {
    if (kind_ == Kind::Uniform)
      return 1.0 / static_cast<double>(numClasses_);
    return std::log1p(1.0 / static_cast<double>(id + 1)) / logRange_;
  }

private:
  Kind kind_;
  int64_t numClasses_;
  Philox philox_;
  double logRange_;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_RANDOM_H
