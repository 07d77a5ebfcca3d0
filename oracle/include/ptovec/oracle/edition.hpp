// The edition of the PTO ISA numeric profile whose specification units the oracle's seeds
// transliterate (docs/oracle.md): what a report names as the specification it checked against
// (`ptovec run --report-json`, "environment").
#pragma once

namespace ptovec::oracle {

/// The specification edition the oracle implements ("MAJOR.MINOR.PATCH").
inline constexpr char kSpecEdition[] = "0.58.3";

}  // namespace ptovec::oracle
