// Shards (shard.hpp): parsing --shard K/N and the input range of shard K of N.
#include "ptovec/generator/shard.hpp"

#include <stdexcept>

namespace ptovec::generator {

ShardSelection ParseShardSelection(const std::string& text) {
  const auto bad = [&text]() {
    return std::invalid_argument("--shard '" + text +
                                 "' is not K/N (accepted: whole numbers K/N with K from 0 to "
                                 "N-1 and N from 1 to 2^32, e.g. 0/4 .. 3/4)");
  };
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) throw bad();
  const std::string k = text.substr(0, slash);
  const std::string n = text.substr(slash + 1);
  for (const std::string& part : {k, n}) {
    if (part.empty() || part.size() > 10 ||
        part.find_first_not_of("0123456789") != std::string::npos) {
      throw bad();
    }
  }
  const ShardSelection shard{std::stoull(k), std::stoull(n)};
  if (shard.of == 0 || shard.of > (std::uint64_t{1} << 32)) throw bad();
  if (shard.index >= shard.of) {
    throw std::invalid_argument("--shard '" + text + "': K must be below N (K counts from 0: " +
                                "0/" + n + " .. " + std::to_string(shard.of - 1) + "/" + n + ")");
  }
  return shard;
}

std::string ShardName(const ShardSelection& shard) {
  return std::to_string(shard.index) + "/" + std::to_string(shard.of);
}

ShardRange ShardRange::Of(std::uint64_t index, std::uint64_t of, std::uint64_t total) {
  __extension__ typedef unsigned __int128 Wide;
  const auto bound = [&](std::uint64_t k) {
    return static_cast<std::uint64_t>(static_cast<Wide>(k) * total / of);
  };
  return {index, of, bound(index), bound(index + 1) - bound(index)};
}

}  // namespace ptovec::generator
