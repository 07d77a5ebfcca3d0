// How the gate compares a device's answer with the oracle's, and how it names a difference:
// the comparison policy (--compare, --flags), the class of a result word, the kind of a word
// difference, and the triage signature that groups mismatches with the same cause
// (docs/bring-up.md, "Triage").
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/compare_policy.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

using oracle::Status;

using generator::ComparePolicy;
using generator::ComparePolicyFromName;
using generator::ParseComparePolicy;
using generator::ParseFlagNames;

/// The class of a result word of type `type`, for triage and known-difference rules. Floating
/// types: "+0" "-0" "+subnormal" "-subnormal" "+normal" "-normal" "+largest" "-largest" (the
/// largest finite magnitude) "+inf" "-inf" "nan" "invalid"; E8M0 (no sign): "+normal",
/// "+largest" (0xfe), "nan". Integer types: "0", "min", "max" (the type's range ends), "+int",
/// "-int". Only the low Format(type).width bits of `word` are read.
std::string_view ResultClass(oracle::TileDataType type, oracle::Word word);

/// How a device's word differs from the expected one of the same type.
enum class WordDifference : std::uint8_t {
  Same,        ///< equal words (only flags differ)
  Sign,        ///< the same magnitude with the other sign (-0 for +0 included)
  OneNearer,   ///< floating: the adjacent magnitude toward zero, same sign
  OneFarther,  ///< floating: the adjacent magnitude away from zero, same sign
  Nearer,      ///< floating: a smaller magnitude, same sign, farther than one code
  Farther,     ///< floating: a larger magnitude, same sign, farther than one code
  OneBelow,    ///< integer: the value minus 1
  OneAbove,    ///< integer: the value plus 1
  Below,       ///< integer: a smaller value
  Above,       ///< integer: a larger value
  Other,       ///< anything else: another sign and magnitude, a NaN or an invalid encoding
};

/// "same", "sign", "1 code nearer zero", "1 code farther from zero", "nearer zero", "farther
/// from zero", "1 below", "1 above", "below", "above", "other".
std::string_view WordDifferenceName(WordDifference d);

/// How a status differs from the expected one: "same", "-UF" (missing), "+OF" (extra), "-OF|NX
/// +NV" (both), with the flag names of generator::FlagNames.
std::string FlagDifferenceText(Status expected, Status got);

/// The difference between two words of `type` (low Format(type).width bits of each).
WordDifference WordDifferenceOf(oracle::TileDataType type, oracle::Word expected, oracle::Word got);

/// The triage signature of one mismatch: what differs, and the Sat it differs under, so that
/// one cause is one group. The mode stays out (a group's line lists the modes it was seen under,
/// and a shrink of the group may move the mode); Sat is in, since a fault under Sat on and one
/// under Sat off are two causes, and a shrink of the group keeps its Sat (SignatureSat). Two
/// mismatches of one (op, pair) with the same signature differ from the oracle the same way.
/// Signature::input_class of an unsupported answer (one group per pair and Sat, whatever the
/// input).
inline constexpr std::uint8_t kAnyInputClass = 0xFF;

struct Signature {
  /// The words of the op's slots that have named values (OpDef::slot_values: fpatr's
  /// pre_quant_mode and relu_mode), -1 for the other slots.
  std::array<std::int32_t, generator::kMaxSlots> named{-1, -1, -1, -1, -1};
  /// The case's Sat for an op with controls (OpDef::uses_controls): 0 off, 1 on; -1 for an op
  /// without controls.
  std::int8_t sat = -1;
  /// The status bits the policy compares (ComparePolicy::flags); with none (--compare word) the
  /// signature has no flags and its text shows none.
  Status compared_flags = oracle::kStatusAll;
  std::uint8_t input_class = 0;  ///< generator::InputClassOf
  std::string_view expected_class;
  Status expected_flags = 0;  ///< masked by the policy
  /// ResultClass of the device's word, or "unsupported" (then got_flags is 0 and word Other).
  std::string_view got_class;
  Status got_flags = 0;  ///< masked by the policy
  WordDifference word = WordDifference::Same;
  friend auto operator<=>(const Signature&, const Signature&) = default;
};

/// The signature of case `c` answered `got` where the oracle gives `expected` (`got`'s word
/// within the destination's width), the flags masked by `policy`.
Signature SignatureOf(const Case& c, const oracle::Encoded& expected, const DeviceAnswer& got,
                      const ComparePolicy& policy);
/// The same with the case's input class (generator::InputClassOf) already known.
Signature SignatureOf(const Case& c, std::uint8_t input_class, const oracle::Encoded& expected,
                      const DeviceAnswer& got, const ComparePolicy& policy);

/// The name reports give input class k ("+normal", "qnan", "+int"; 0 .. kInputClasses - 1).
std::string InputClassName(std::size_t k);

/// The signature as one line, without op and pair: "[<slot> <word>; ...][sat on|off; ]input
/// <class>; expected <class> <flags>; got <class> <flags>; word <difference>; flags
/// <difference>", or "[<slot> <word>; ...][sat on|off; ]got unsupported" for an unsupported
/// answer, e.g. "sat off; input +normal; expected +inf OF|NX; got +largest OF|NX; word 1 code
/// nearer zero; flags same", or "flags -OF +NV" for a flag difference (fpatr: "pre_quant_mode
/// 26; relu_mode 0; sat on; input ..."). The Sat part is there for an op with controls only
/// (Signature::sat). A signature of a policy that compares no flag (--compare word) shows none:
/// "sat off; input +normal; expected +inf; got +largest; word 1 code nearer zero"; a partial
/// --flags mask shows the compared flags. `shrink --signature` takes this text.
std::string SignatureText(const generator::OpDef& op, const Signature& s);

/// Checks a --signature text for `op`: throws generator::InputError naming the first part that
/// is not what SignatureText writes (a field out of order, an unknown class, flag or difference
/// name, a named slot the op does not have, a Sat part missing for an op with controls or given
/// for one without, flags on one result and not the other). Accepts both forms, with flags and
/// without (--compare word). Returns the text with runs of spaces folded.
std::string CheckSignatureText(const generator::OpDef& op, const std::string& text);

/// The Sat a signature text (as SignatureText or CheckSignatureText give it) fixes: true for
/// its "sat on" part, false for "sat off", nullopt when it has none (an op without controls).
std::optional<bool> SignatureSat(std::string_view text);

}  // namespace ptovec::tools
