// Behaviour models: the profile's semantics with named deviations, each an exact change inside the
// oracle's computation of an encoding (not a pattern over its outputs). A device built to IEEE
// 754, RISC-V, x86 or Arm conventions differs from the profile (spec-notes section 5) in these
// places and nowhere else; `--known-differences MODEL` waives a mismatch only where the device's
// answer equals the model's answer exactly (docs/semantics.md, "Behaviour models").
//
// Two forms, as everywhere in the oracle: the literal form on exact reals (Model*: the seed
// function of the profile, then each deviation as its defining text states it, in Real
// arithmetic) and the fast form on Dyadic values (FastModel*: the proven Fast* paths, then the
// same deviations in integer arithmetic). tests/oracle/behaviour_test.cpp proves them equal over
// every 8- and 16-bit source x destination x rounding mode x Sat x deviation. Both forms share
// the decisions (ApplyFloatingDeviations, ApplyIntegerDeviations): what differs is only how the
// exact facts those read (sign, zero, tininess after rounding) are computed.
//
// Sources: IEEE 754-2019 clauses 5.8 (float to integer), 6.3 (the sign of zero), 7.2 (invalid),
// 7.4 (overflow), 7.5 (underflow, tininess after rounding); the RISC-V unprivileged ISA, F
// extension, fcvt result table; Intel SDM vol. 1 4.8.3.5 (integer indefinite); Arm ARM
// FPToFixed (saturation, NaN to 0); OCP OFP8 and IEEE P3109 for the E4M3 with an Inf/NaN
// exponent. Integers and exact rationals only: no float or double.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ptovec/oracle/dyadic.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace ptovec::oracle {

/// One named change to the profile's semantics (docs/semantics.md, "Behaviour models", one row
/// each). The enumerator value is the bit of a DeviationSet.
enum class Deviation : std::uint8_t {
  /// IEEE 754 7.4: an overflow (the profile's OF result) rounds by direction: RNE, RNA and RHB
  /// to Inf; RTZ and RTO to the largest finite; RTP to +Inf or -largest; RTM to +largest or
  /// -Inf. OF|NX as in the profile. E4M3 (no Inf) keeps the profile's 0x7F for "Inf".
  IEEEOverflow,
  /// No saturating conversion: Sat plays no part (every control computes as Sat off).
  NoSaturation,
  /// IEEE 754 6.3: a zero result keeps the sign of the value: -0 encodes as -0, and a negative
  /// value rounding to zero in E4M3 gives 0x80 (HiF8 has no -0: unchanged).
  SignedZero,
  /// IEEE 754 7.5, tininess after rounding: UF only when the value rounded to the destination's
  /// precision with an unbounded exponent range lies below the smallest normal (FP32, FP16,
  /// BF16, E4M3; HiF8's tapered precision has no such rounding: unchanged).
  TininessAfterRounding,
  /// IEEE 754 5.8 and 7.2: a float to integer conversion out of the destination's range (or of
  /// NaN or Inf) raises NV alone; its word follows Behaviour::invalid_integer.
  InvalidInteger,
  /// E4M3 with exponent field 15 for Inf and NaN (as IEEE P3109 and OCP E5M2 do): largest
  /// finite 240 (0x77), +/-Inf 0x78/0xF8, NaN 0x79-0x7F; as a source, codes 0x78-0x7F are Inf
  /// and NaN instead of 256..448.
  E4M3InfNaN,
};
inline constexpr std::size_t kDeviationCount = 6;

/// A set of deviations: bit k is Deviation k.
using DeviationSet = std::uint8_t;
constexpr DeviationSet DeviationBit(Deviation d) {
  return static_cast<DeviationSet>(1U << static_cast<unsigned>(d));
}

/// The word of an invalid float to integer conversion (Deviation::InvalidInteger).
enum class InvalidIntegerWord : std::uint8_t {
  Open,          ///< IEEE 754: the implementation's choice (the model compares flags only)
  Clamp,         ///< RISC-V fcvt: out of range clamps to the nearer bound; NaN gives the maximum
  Indefinite,    ///< x86: the integer indefinite: signed minimum (0x80..0), unsigned maximum (1..1)
  ClampNaNZero,  ///< Arm FPToFixed: out of range clamps to the nearer bound; NaN gives 0
};

/// The NaN a model's conversion returns for a NaN source.
enum class NaNWord : std::uint8_t {
  Open,           ///< IEEE 754: any quiet NaN (the model compares flags only)
  PositiveQuiet,  ///< RISC-V and Arm's default NaN: +quiet, fraction MSB only (0x7fc00000)
  NegativeQuiet,  ///< x86's QNaN indefinite: -quiet, fraction MSB only (0xffc00000)
};

/// A behaviour model: the profile with `deviations` and their parameters.
struct Behaviour {
  DeviationSet deviations = 0;
  InvalidIntegerWord invalid_integer = InvalidIntegerWord::Open;
  NaNWord nan = NaNWord::Open;
  bool Has(Deviation d) const { return (deviations & DeviationBit(d)) != 0; }
  friend bool operator==(const Behaviour&, const Behaviour&) = default;
};

/// One deviation of the catalogue: its name as rule files and reports write it.
struct DeviationInfo {
  Deviation deviation;
  std::string_view name;     ///< "ieee-overflow", "no-saturation", ...
  std::string_view summary;  ///< one line, in the field's terms
  std::string_view source;   ///< the clause it follows ("IEEE 754-2019 7.4")
};
/// Every deviation, in enumerator order.
std::span<const DeviationInfo> AllDeviations();
/// The deviation named `name`, or nullopt.
std::optional<Deviation> ParseDeviation(std::string_view name);
/// "ieee-overflow, no-saturation, ..." for error lines.
std::string DeviationNamesList();

/// A built-in model: a name and a composition of deviations.
struct NamedModel {
  std::string_view name;         ///< "ieee754", "riscv", "x86", "arm"
  std::string_view description;  ///< one line: which unit it describes
  Behaviour behaviour;
};
/// The built-in models, in a fixed order: ieee754, riscv, x86, arm.
std::span<const NamedModel> BuiltinModels();
/// The built-in model named `name`, or nullptr.
const NamedModel* FindBuiltinModel(std::string_view name);
/// "open", "clamp", "indefinite", "clamp-nan-zero"; and the parser (nullopt when unknown).
std::string_view InvalidIntegerWordName(InvalidIntegerWord w);
std::optional<InvalidIntegerWord> ParseInvalidIntegerWord(std::string_view name);
/// "open", "positive-quiet", "negative-quiet"; and the parser.
std::string_view NaNWordName(NaNWord w);
std::optional<NaNWord> ParseNaNWord(std::string_view name);

/// A model's answer: the result (word in the destination's element-width encoding, status) and
/// which deviations made it differ from the profile's answer (0: the profile's answer).
struct ModelAnswer {
  Encoded result;
  DeviationSet applied = 0;
  /// The model leaves the word to the implementation (InvalidIntegerWord::Open, NaNWord::Open):
  /// only the status is the model's.
  bool word_open = false;
  friend bool operator==(const ModelAnswer&, const ModelAnswer&) = default;
};

/// What a model makes of a source code (encode's sources): a finite value, or, under
/// Deviation::E4M3InfNaN, an E4M3 code 0x78-0x7F / 0xF8-0xFF that is Inf or NaN.
enum class ModelSourceKind : std::uint8_t { Finite, Infinity, NaN };
struct ModelSource {
  ModelSourceKind kind = ModelSourceKind::Finite;
  bool negative = false;  ///< the source's sign bit (a -0 source: true)
};
/// How `behaviour` reads `code` of floating type `type` (integer types: always Finite, negative
/// when the integer is).
ModelSource ModelSourceOf(TileDataType type, Word code, const Behaviour& behaviour);

/// The exact facts the deviations read about a value v to encode into a floating type, computed
/// by each form in its own arithmetic.
struct FloatingFacts {
  bool negative = false;  ///< v < 0, or v = 0 from a negative zero (the sign IEEE 754 6.3 gives)
  bool zero = false;      ///< v = 0
  /// |v| rounded under the mode to the destination's precision, exponent unbounded, is below
  /// the smallest normal (IEEE 754 7.5 "after rounding"); read only when the profile raised UF.
  bool tiny_after_rounding = false;
};

/// The deviations' decisions for a floating destination, shared by both forms: `profile` is the
/// profile's answer (ReferenceMatrixFloatingEncoding, element-width word) under `control`;
/// `base` is the same but for an E4M3 destination under E4M3InfNaN, where it is
/// ModelE4M3InfNaNEncoding's. In order: E4M3InfNaN (base), NoSaturation (an overflow's Sat
/// result becomes the non-Sat one), IEEEOverflow, SignedZero, TininessAfterRounding. `applied`
/// names the steps that changed the answer (0 when the result is the profile's).
ModelAnswer ApplyFloatingDeviations(const Encoded& profile, const Encoded& base,
                                    const FloatingFacts& facts, TileDataType destination_type,
                                    NumericExecutionControl control, const Behaviour& behaviour);

/// The deviations' decisions for an integer destination of a value of sign `negative`: `profile`
/// is ReferenceMatrixIntegerEncoding's answer (element-width word) under `control`, `base` the
/// same under ModelControl (they differ only where NoSaturation turns a clamp into a wrap); OF
/// is the spec's own range check. `from_floating`: the value comes from a floating source
/// (InvalidInteger applies only to float to integer conversions).
ModelAnswer ApplyIntegerDeviations(const Encoded& profile, const Encoded& base, bool negative,
                                   bool from_floating, TileDataType destination_type,
                                   const Behaviour& behaviour);

/// What TQUANT's deviations read about its source and exact result: the source's kind and sign
/// and whether round(value * scale + zero_point) lies outside the destination's range.
struct QuantizeFacts {
  ModelSourceKind kind = ModelSourceKind::Finite;
  bool negative = false;      ///< the source's sign (Inf, NaN) or the rounded result's (finite)
  bool out_of_range = false;  ///< finite only
};

/// TQUANT's deviations, shared by both forms: `profile` is TileProfileQuantize's answer
/// (element-width word) under `control`, `base` under ModelControl. NoSaturation: Sat clamps
/// no more (the wrap). InvalidInteger: NaN, Inf and an out-of-range result raise NV alone with
/// the model's word, instead of the profile's 0 with NV, clamp with OF|NX, and silent clamp or
/// wrap (spec-notes 5.6).
ModelAnswer ApplyQuantizeDeviations(const Encoded& profile, const Encoded& base,
                                    const QuantizeFacts& facts, TileDataType destination_type,
                                    const Behaviour& behaviour);

/// The model's TQUANT, literal form: TileProfileQuantize (seed 003 lines 105-149), its exact
/// result's range computed in Real arithmetic, then ApplyQuantizeDeviations. Same throws.
ModelAnswer ModelTileProfileQuantize(Word value, Word scale, Word zero_point,
                                     TileDataType source_type, TileDataType destination_type,
                                     NumericExecutionControl control, const Behaviour& behaviour);

/// == ModelTileProfileQuantize, on FastTileProfileQuantize and the exact Dyadic product.
ModelAnswer FastModelTileProfileQuantize(Word value, Word scale, Word zero_point,
                                         TileDataType source_type, TileDataType destination_type,
                                         NumericExecutionControl control,
                                         const Behaviour& behaviour);

/// The model's answer for an Inf or NaN source (ModelSourceOf), the same in both forms: into a
/// floating type Inf stays Inf (E4M3 without Inf: its NaN 0x7F) and NaN becomes the model's NaN,
/// no status; into an integer type NV and the InvalidInteger word.
ModelAnswer ModelSpecialEncoding(const ModelSource& source, TileDataType destination_type,
                                 const Behaviour& behaviour);

/// The control a model computes under: Sat cleared under NoSaturation.
NumericExecutionControl ModelControl(NumericExecutionControl control, const Behaviour& behaviour);

// ---- literal forms (exact reals) --------------------------------------------------------------

/// E4M3 with Inf and NaN codes (Deviation::E4M3InfNaN), literal: seed 000's search
/// (ReferenceFP8Encoding, lines 343-452) over the codes whose exponent field is below 15; a
/// magnitude above 240 overflows before rounding with OF|NX to Sat ? +/-0x77 : +/-Inf
/// (0x78/0xF8). Word bits 7:0.
Encoded ModelE4M3InfNaNEncoding(const Real& value, NumericExecutionControl control);

/// The model's encoding of the exact real `value` into floating type `destination_type` (FP32,
/// FP16, BF16, E4M3, HiF8), literal form: ReferenceMatrixFloatingEncoding (or
/// ModelE4M3InfNaNEncoding), then ApplyFloatingDeviations with facts computed in Real
/// arithmetic. `negative_zero`: the sign IEEE 754 gives a zero value (a -0 source). Word in the
/// destination's element width.
ModelAnswer ModelMatrixFloatingEncoding(const Real& value, bool negative_zero,
                                        TileDataType destination_type,
                                        NumericExecutionControl control,
                                        const Behaviour& behaviour);

/// The model's encoding of `value` into integer type `destination_type`, literal form:
/// ReferenceMatrixIntegerEncoding under ModelControl, then ApplyIntegerDeviations.
ModelAnswer ModelMatrixIntegerEncoding(const Real& value, bool from_floating,
                                       TileDataType destination_type,
                                       NumericExecutionControl control, const Behaviour& behaviour);

// ---- fast forms (Dyadic values, integers only) -------------------------------------------------

/// == ModelE4M3InfNaNEncoding(ToReal(value), control): |value| > 240 overflows, otherwise
/// FastFP8Encoding(value, E4M3, control) (every candidate up to 240 is in both code sets, and
/// no rounding of |value| <= 240 leaves them).
Encoded FastModelE4M3InfNaNEncoding(const Dyadic& value, NumericExecutionControl control);

/// == ModelMatrixFloatingEncoding(ToReal(value), negative_zero, T, control, behaviour).
ModelAnswer FastModelMatrixFloatingEncoding(const Dyadic& value, bool negative_zero,
                                            TileDataType destination_type,
                                            NumericExecutionControl control,
                                            const Behaviour& behaviour);

/// == ModelMatrixIntegerEncoding(ToReal(value), from_floating, T, control, behaviour).
ModelAnswer FastModelMatrixIntegerEncoding(const Dyadic& value, bool from_floating,
                                           TileDataType destination_type,
                                           NumericExecutionControl control,
                                           const Behaviour& behaviour);

}  // namespace ptovec::oracle
