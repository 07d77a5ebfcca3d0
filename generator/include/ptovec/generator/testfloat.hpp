// TestFloat-style text vectors (`generate --format testfloat`, schemas/binary-format.md section
// "TestFloat-style text"): one file per (op, pair, mode, Sat), one vector per line in the layout
// Berkeley TestFloat's testfloat_gen writes and testfloat_ver reads (TestFloat 3e,
// doc/testfloat_gen.html "Output Format" and doc/testfloat_ver.html "Input Format"): the input
// words, the result word and the exception flags, in upper-case hex, separated by single spaces.
// The files carry no header: the file name says what they hold.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ptovec/generator/ops.hpp"

namespace ptovec::generator {

/// The `format` name of a TestFloat-style file in manifests ("testfloat").
inline constexpr std::string_view kTestFloatFormat = "testfloat";
/// The extension of a TestFloat-style vector file.
inline constexpr std::string_view kTestFloatExtension = ".tf";

/// `status` (ptovec's 5 bits: NV 0x01, DZ 0x02, OF 0x04, UF 0x08, NX 0x10; oracle/numeric.hpp)
/// as TestFloat's flags byte (inexact 0x01, underflow 0x02, overflow 0x04, infinite/divide by
/// zero 0x08, invalid 0x10: testfloat_gen's genLoops.c, writeGenOutput_flags): the 5 bits in
/// reverse order. Bits 7:5 of `status` are dropped.
std::uint8_t TestFloatFlags(Status status);
/// The inverse: TestFloat's flags byte (bits 4:0; bits 7:5 dropped) as ptovec's status.
Status StatusFromTestFloatFlags(std::uint8_t flags);

/// What a TestFloat-style file holds: one op and pair under one control.
struct TestFloatKey {
  const OpDef* op = nullptr;
  TypePair pair{};
  NumericExecutionControl control{};
};

/// The file name of (op, pair, control): "<op>_<src>_<dst>_<RMODE>_sat<off|on>.tf", e.g.
/// "tcvt_fp16_e8m0_RTZ_satoff.tf" (an op without controls: "_RNE_satoff"). The one naming
/// function of the format; the stem before the mode is JobBaseName's.
std::string TestFloatFileName(const OpDef& op, TypePair pair, NumericExecutionControl control);

/// The inverse of TestFloatFileName for a bare file name: the op, pair and control, or nullopt
/// when `name` is not such a name, or names an unknown op or type, an illegal pair, or a
/// control the pair does not accept (ControlsFor(op, pair)).
std::optional<TestFloatKey> ParseTestFloatFileName(std::string_view name);

/// Bytes of one line as AppendTestFloatLine writes it for (op, pair), its '\n' included: each
/// input slot's hex digits (Format(type).HexDigits(): FP16 4, FP32 8, E8M0 2, S4X2 1, FP19 5),
/// the destination's, 2 for the flags, one space between tokens.
unsigned TestFloatLineBytes(const OpDef& op, TypePair pair);

/// Appends one line: the input words, the result word (each zero-padded to its type's hex
/// digits, upper case, as testfloat_gen writes them), TestFloatFlags(result.status) as 2 hex
/// digits, separated by single spaces, then '\n'.
void AppendTestFloatLine(std::string& out, const OpDef& op, TypePair pair, const Inputs& in,
                         Encoded result);

/// One parsed line: the inputs, the result word and ptovec's status (converted from the flags).
struct TestFloatLine {
  Inputs in{};
  Encoded result{};
};

/// Parses a line (without its '\n'; one trailing '\r' is accepted, as testfloat_ver accepts
/// it) of (op, pair): the op's slot count of input tokens, a result token and a flags token,
/// separated by single spaces. Each word token has exactly its type's hex digits (either case)
/// and a value within the type's width; the flags token has 2 hex digits, 00..1F. Throws
/// InputError naming the bad token (escaped) and what is accepted; the caller adds the file and
/// line.
TestFloatLine ParseTestFloatLine(std::string_view line, const OpDef& op, TypePair pair);

}  // namespace ptovec::generator
