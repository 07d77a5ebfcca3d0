// Shards: --shard K/N (which shard of a run) and the contiguous range of inputs a shard file of a
// vector file holds (schemas/binary-format.md, "shard").
#pragma once

#include <cstdint>
#include <string>

namespace ptovec::generator {

/// Which part of a whole file a shard file holds: shard `index` of `of` (0-based) takes inputs
/// floor(index * inputs / of) up to floor((index + 1) * inputs / of) of the whole file, with all
/// their controls; so its records are a contiguous range of the whole file's.
struct ShardRange {
  std::uint64_t index = 0;
  std::uint64_t of = 1;
  std::uint64_t first_input = 0;
  std::uint64_t inputs = 0;  ///< inputs in this shard
  /// The range of shard `index` of `of` over `total` inputs.
  static ShardRange Of(std::uint64_t index, std::uint64_t of, std::uint64_t total);
};

/// Shard `index` of `of` (0-based) of a run, as --shard K/N selects it.
struct ShardSelection {
  std::uint64_t index = 0;
  std::uint64_t of = 1;
  friend bool operator==(const ShardSelection&, const ShardSelection&) = default;
};

/// Parses --shard "K/N": shard K (0-based, K < N) of N, N from 1 to 2^32. Throws
/// std::invalid_argument with one line naming the bad text and what is accepted.
ShardSelection ParseShardSelection(const std::string& text);
/// "K/N".
std::string ShardName(const ShardSelection& shard);

}  // namespace ptovec::generator
