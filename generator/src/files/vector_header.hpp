// The header keys that a binary and a JSON vector file share, checked against the registry
// (VectorReader, vector_reader.cpp).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "ptovec/generator/readers.hpp"

namespace ptovec::generator {

/// Checks the header keys both formats share against the registry; sets op, pair, version,
/// controls, inputs, shard and count of `info`. `fail` throws with the problem it is given.
void CheckCommonHeader(const nlohmann::ordered_json& h, std::string_view format,
                       VectorFileInfo& info, const std::function<void(const std::string&)>& fail);

}  // namespace ptovec::generator
