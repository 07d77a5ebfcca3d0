// Behaviour models (behaviour.hpp): the catalogue of deviations, the built-in models, and the
// decisions both forms share. Each decision reads the profile's answer and exact facts about the
// value (computed by the literal or the fast form) and changes the answer as the deviation's
// defining clause says.
#include "ptovec/oracle/behaviour.hpp"

#include <array>
#include <string>

namespace ptovec::oracle {

namespace {

using T = TileDataType;
using M = NumericRoundingMode;

constexpr std::array<DeviationInfo, kDeviationCount> kDeviations = {{
    {Deviation::IEEEOverflow, "ieee-overflow",
     "overflow rounds by direction: RTZ, RTO and the direction toward zero give the largest "
     "finite, the others Inf",
     "IEEE 754-2019 7.4"},
    {Deviation::NoSaturation, "no-saturation",
     "Sat plays no part: every control computes as Sat off", "IEEE 754-2019 5.4.2, 5.8"},
    {Deviation::SignedZero, "signed-zero",
     "a zero result keeps the value's sign: -0 gives -0, E4M3 gives 0x80 for a negative value "
     "rounding to zero",
     "IEEE 754-2019 6.3"},
    {Deviation::TininessAfterRounding, "tininess-after-rounding",
     "UF only when the value rounded with unbounded exponent range is below the smallest normal",
     "IEEE 754-2019 7.5"},
    {Deviation::InvalidInteger, "invalid-integer",
     "a float to integer conversion out of range, or of NaN or Inf, raises NV alone with the "
     "model's word",
     "IEEE 754-2019 5.8, 7.2"},
    {Deviation::E4M3InfNaN, "e4m3-inf-nan",
     "E4M3 with exponent field 15 for Inf (0x78) and NaN: largest finite 240 (0x77)",
     "IEEE P3109; OCP OFP8 E5M2's layout"},
}};

constexpr DeviationSet kIEEECore =
    DeviationBit(Deviation::IEEEOverflow) | DeviationBit(Deviation::NoSaturation) |
    DeviationBit(Deviation::SignedZero) | DeviationBit(Deviation::InvalidInteger);
constexpr DeviationSet kAfter = DeviationBit(Deviation::TininessAfterRounding);

constexpr std::array<NamedModel, 4> kModels = {{
    {"ieee754",
     "an IEEE 754-2019 conversion unit detecting tininess after rounding; the words IEEE leaves "
     "open (invalid integer results, NaN payloads) are not compared",
     {kIEEECore | kAfter, InvalidIntegerWord::Open, NaNWord::Open}},
    {"riscv",
     "a RISC-V F/D/Zfh unit (fcvt): IEEE 754, tininess after rounding, out-of-range integers "
     "clamped with NaN to the maximum, the canonical NaN 0x7fc00000",
     {kIEEECore | kAfter, InvalidIntegerWord::Clamp, NaNWord::PositiveQuiet}},
    {"x86",
     "an x86 SSE/AVX unit (cvtss2si, vcvtps2ph): IEEE 754, tininess after rounding, the integer "
     "indefinite for invalid integers, the QNaN indefinite 0xffc00000",
     {kIEEECore | kAfter, InvalidIntegerWord::Indefinite, NaNWord::NegativeQuiet}},
    {"arm",
     "an Arm VFP/Neon unit (FPToFixed, default NaN): IEEE 754, tininess before rounding, "
     "out-of-range integers clamped with NaN to 0, the default NaN 0x7fc00000",
     {kIEEECore, InvalidIntegerWord::ClampNaNZero, NaNWord::PositiveQuiet}},
}};

// The code an overflow gives as "Inf" in `type`: its +/-Inf, or E4M3's NaN 0x7F (either sign)
// when it has no Inf; under E4M3InfNaN, E4M3's 0x78/0xF8.
Word InfinityWord(T type, bool negative, const Behaviour& b) {
  const FormatInfo& f = Format(type);
  const Word sign = negative ? f.SignBit() : 0;
  if (type == T::E4M3) return b.Has(Deviation::E4M3InfNaN) ? (sign | 0x78) : f.nan_code;
  return sign | f.infinity_code;
}

Word LargestWord(T type, bool negative, const Behaviour& b) {
  const FormatInfo& f = Format(type);
  const Word largest =
      type == T::E4M3 && b.Has(Deviation::E4M3InfNaN) ? 0x77 : f.largest_finite_code;
  return (negative ? f.SignBit() : 0) | largest;
}

// IEEE 754 7.4: whether an overflow of a value of this sign gives the largest finite (else Inf).
bool OverflowGivesLargest(M mode, bool negative) {
  switch (mode) {
    case M::RTZ:
    case M::RTO:  // round to odd: Inf is even, the largest finite odd
      return true;
    case M::RTP:
      return negative;
    case M::RTM:
      return !negative;
    default:  // RNE, RNA, RHB: to nearest, so Inf
      return false;
  }
}

bool TininessApplies(T type) {
  return type == T::FP32 || type == T::FP16 || type == T::BF16 || type == T::E4M3;
}

Word IntegerBound(T type, bool maximum) {
  const Word w = maximum ? TileIntegerMaximum(type) : TileIntegerMinimum(type);
  return LowBits(w, Format(type).width);
}

// The word of an invalid conversion of a value of this sign (nan: the source was a NaN).
Word InvalidIntegerResult(T type, bool negative, bool nan, InvalidIntegerWord convention) {
  switch (convention) {
    case InvalidIntegerWord::Clamp:
      return IntegerBound(type, nan || !negative);
    case InvalidIntegerWord::ClampNaNZero:
      return nan ? 0 : IntegerBound(type, !negative);
    case InvalidIntegerWord::Indefinite:
      return IntegerBound(type, !TileDataTypeIsSigned(type));
    case InvalidIntegerWord::Open:
      break;
  }
  return 0;
}

}  // namespace

std::span<const DeviationInfo> AllDeviations() { return kDeviations; }

std::optional<Deviation> ParseDeviation(std::string_view name) {
  for (const DeviationInfo& d : kDeviations) {
    if (d.name == name) return d.deviation;
  }
  return std::nullopt;
}

std::string DeviationNamesList() {
  std::string out;
  for (const DeviationInfo& d : kDeviations) out += (out.empty() ? "" : ", ") + std::string(d.name);
  return out;
}

std::span<const NamedModel> BuiltinModels() { return kModels; }

const NamedModel* FindBuiltinModel(std::string_view name) {
  for (const NamedModel& m : kModels) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::string_view InvalidIntegerWordName(InvalidIntegerWord w) {
  constexpr std::array<std::string_view, 4> kNames = {"open", "clamp", "indefinite",
                                                      "clamp-nan-zero"};
  return kNames[static_cast<std::size_t>(w)];
}

std::optional<InvalidIntegerWord> ParseInvalidIntegerWord(std::string_view name) {
  for (const auto w : {InvalidIntegerWord::Open, InvalidIntegerWord::Clamp,
                       InvalidIntegerWord::Indefinite, InvalidIntegerWord::ClampNaNZero}) {
    if (InvalidIntegerWordName(w) == name) return w;
  }
  return std::nullopt;
}

std::string_view NaNWordName(NaNWord w) {
  constexpr std::array<std::string_view, 3> kNames = {"open", "positive-quiet", "negative-quiet"};
  return kNames[static_cast<std::size_t>(w)];
}

std::optional<NaNWord> ParseNaNWord(std::string_view name) {
  for (const auto w : {NaNWord::Open, NaNWord::PositiveQuiet, NaNWord::NegativeQuiet}) {
    if (NaNWordName(w) == name) return w;
  }
  return std::nullopt;
}

NumericExecutionControl ModelControl(NumericExecutionControl control, const Behaviour& behaviour) {
  if (behaviour.Has(Deviation::NoSaturation)) control.saturating = false;
  return control;
}

ModelSource ModelSourceOf(TileDataType type, Word code, const Behaviour& behaviour) {
  const FormatInfo& f = Format(type);
  if (!f.IsFloating()) {
    return {ModelSourceKind::Finite,
            TileDataTypeIsSigned(type) && (NormalizeTileInteger(code, type) >> 63) != 0};
  }
  const bool negative = f.SignBit() != 0 && (code & f.SignBit()) != 0;
  if (type == T::E4M3 && behaviour.Has(Deviation::E4M3InfNaN) && (code & 0x78) == 0x78) {
    return {(code & 0x7) == 0 ? ModelSourceKind::Infinity : ModelSourceKind::NaN, negative};
  }
  return {ModelSourceKind::Finite, negative};
}

ModelAnswer ApplyFloatingDeviations(const Encoded& profile, const Encoded& base,
                                    const FloatingFacts& facts, TileDataType destination_type,
                                    NumericExecutionControl control, const Behaviour& behaviour) {
  ModelAnswer a{base, 0, false};
  if (base != profile) a.applied |= DeviationBit(Deviation::E4M3InfNaN);
  const bool overflow = (base.status & kStatusOF) != 0;
  Encoded& r = a.result;
  // No saturation: the Sat result of an overflow (the only place Sat is read) becomes Inf.
  if (behaviour.Has(Deviation::NoSaturation) && control.saturating && overflow) {
    r.word = InfinityWord(destination_type, facts.negative, behaviour);
    control.saturating = false;
    a.applied |= DeviationBit(Deviation::NoSaturation);
  }
  if (behaviour.Has(Deviation::IEEEOverflow) && overflow && !control.saturating &&
      OverflowGivesLargest(control.rounding_mode, facts.negative)) {
    r.word = LargestWord(destination_type, facts.negative, behaviour);
    a.applied |= DeviationBit(Deviation::IEEEOverflow);
  }
  const FormatInfo& f = Format(destination_type);
  if (behaviour.Has(Deviation::SignedZero) && facts.negative && f.negative_zero &&
      (r.word & ~f.SignBit()) == 0 && r.word != f.SignBit()) {
    r.word = f.SignBit();
    a.applied |= DeviationBit(Deviation::SignedZero);
  }
  if (behaviour.Has(Deviation::TininessAfterRounding) && TininessApplies(destination_type) &&
      (r.status & kStatusUF) != 0 && !facts.tiny_after_rounding) {
    r.status = static_cast<Status>(r.status & ~kStatusUF);
    a.applied |= DeviationBit(Deviation::TininessAfterRounding);
  }
  if (r == profile) a.applied = 0;  // steps that undid each other (no-saturation, then RTZ)
  return a;
}

ModelAnswer ApplyIntegerDeviations(const Encoded& profile, const Encoded& base, bool negative,
                                   bool from_floating, TileDataType destination_type,
                                   const Behaviour& behaviour) {
  ModelAnswer a{base, 0, false};
  if (base != profile) a.applied |= DeviationBit(Deviation::NoSaturation);
  if (behaviour.Has(Deviation::InvalidInteger) && from_floating && (base.status & kStatusOF) != 0) {
    a.result = {InvalidIntegerResult(destination_type, negative, false, behaviour.invalid_integer),
                kStatusNV};
    a.word_open = behaviour.invalid_integer == InvalidIntegerWord::Open;
    a.applied |= DeviationBit(Deviation::InvalidInteger);
  }
  if (a.result == profile && !a.word_open) a.applied = 0;
  return a;
}

ModelAnswer ApplyQuantizeDeviations(const Encoded& profile, const Encoded& base,
                                    const QuantizeFacts& facts, TileDataType destination_type,
                                    const Behaviour& behaviour) {
  ModelAnswer a{base, 0, false};
  if (base != profile) a.applied |= DeviationBit(Deviation::NoSaturation);
  const bool invalid = facts.kind != ModelSourceKind::Finite || facts.out_of_range;
  if (behaviour.Has(Deviation::InvalidInteger) && invalid) {
    a.result = {InvalidIntegerResult(destination_type, facts.negative,
                                     facts.kind == ModelSourceKind::NaN, behaviour.invalid_integer),
                kStatusNV};
    a.word_open = behaviour.invalid_integer == InvalidIntegerWord::Open;
    a.applied |= DeviationBit(Deviation::InvalidInteger);
  }
  if (a.result == profile && !a.word_open) a.applied = 0;
  return a;
}

ModelAnswer ModelSpecialEncoding(const ModelSource& source, TileDataType destination_type,
                                 const Behaviour& behaviour) {
  ModelAnswer a;
  a.applied = DeviationBit(Deviation::E4M3InfNaN);
  const FormatInfo& f = Format(destination_type);
  const bool nan = source.kind == ModelSourceKind::NaN;
  if (!f.IsFloating()) {
    if (behaviour.Has(Deviation::InvalidInteger)) {
      a.result = {
          InvalidIntegerResult(destination_type, source.negative, nan, behaviour.invalid_integer),
          kStatusNV};
      a.word_open = behaviour.invalid_integer == InvalidIntegerWord::Open;
      a.applied |= DeviationBit(Deviation::InvalidInteger);
    } else {  // the profile's own rule for specials into an integer (TQUANT, spec-notes 5.6)
      a.result = nan ? Encoded{0, kStatusNV}
                     : Encoded{IntegerBound(destination_type, !source.negative), kStatusOFNX};
    }
    return a;
  }
  if (!nan) {
    a.result = {InfinityWord(destination_type, source.negative, behaviour), 0};
    return a;
  }
  // A quiet NaN: the infinity code with the fraction's top bit (binary formats), the format's
  // own NaN otherwise; negative for x86's indefinite.
  const bool negative_nan = behaviour.nan == NaNWord::NegativeQuiet;
  Word word = f.nan_code;
  if (f.kind == FormatKind::Binary) {
    word = f.infinity_code | (Word{1} << (f.fraction_bits - 1));
  }
  if (negative_nan && f.kind != FormatKind::HiF8) word |= f.SignBit();
  a.result = {word, 0};
  a.word_open = behaviour.nan == NaNWord::Open;
  return a;
}

}  // namespace ptovec::oracle
