// The editions of the PTO specification ptovec follows (docs/semantics.md): 0.58.3, the seeds
// (the profile units of pto-spec release 0.58.3, the default), and 2026-09, the newer texts of
// /work/shared/spec-2026-09 (edition_2026_09.hpp). Every layer that answers by edition (the op
// registry, the type names, the CLI's --edition) takes an Edition; kSpecEdition is what a report
// names as the specification it checked against (`ptovec run --report-json`, "environment").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ptovec::oracle {

/// An edition of the specification.
enum class Edition : std::uint8_t {
  V0_58_3,   ///< "0.58.3": the seeds, the default
  V2026_09,  ///< "2026-09": the texts of /work/shared/spec-2026-09 (commit 01445483 first)
};

/// The edition every command, file and API takes when none is named.
inline constexpr Edition kDefaultEdition = Edition::V0_58_3;

/// Every edition, oldest first.
inline constexpr std::array<Edition, 2> kAllEditions = {Edition::V0_58_3, Edition::V2026_09};

/// The edition's name as `--edition` takes it: "0.58.3" or "2026-09".
constexpr std::string_view EditionName(Edition edition) {
  return edition == Edition::V2026_09 ? "2026-09" : "0.58.3";
}

/// The specification edition the seeds are (`run`'s reports name it).
inline constexpr char kSpecEdition[] = "0.58.3";
static_assert(EditionName(kDefaultEdition) == kSpecEdition);

/// The edition named `name` exactly ("0.58.3", "2026-09"); nullopt for any other text.
constexpr std::optional<Edition> ParseEdition(std::string_view name) {
  for (const Edition edition : kAllEditions) {
    if (name == EditionName(edition)) return edition;
  }
  return std::nullopt;
}

/// "0.58.3, 2026-09": the accepted names, for error messages.
inline std::string EditionNamesList() {
  std::string out;
  for (const Edition edition : kAllEditions) {
    if (!out.empty()) out += ", ";
    out += EditionName(edition);
  }
  return out;
}

}  // namespace ptovec::oracle
