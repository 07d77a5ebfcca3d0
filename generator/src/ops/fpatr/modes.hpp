// The B.FPATR PreQuantMode table as op `fpatr` reads it (ops/fpatr/): the input slots, the legal
// modes of each (accumulator, destination) pair and their file groups, the controls each mode
// allows, whether it reads a quant parameter and how its word is packed, and the kind of its
// last step. Shared by the op's evaluation (fpatr.cpp), strategies and outcome classes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ptovec/generator/ops.hpp"

namespace ptovec::generator::fpatr {

/// The input slots: value, pre_quant_mode, relu_mode, quant_param, relu_param.
inline constexpr std::size_t kValue = 0;
inline constexpr std::size_t kMode = 1;
inline constexpr std::size_t kRelu = 2;
inline constexpr std::size_t kQuant = 3;
inline constexpr std::size_t kReluParam = 4;

/// The FP19 word (bits 18:0) of 1.0.
inline constexpr Word kFp19One = 0x1FC00;

/// Every legal PreQuantMode, in code order (computed once: check_domain asks on every case).
const std::vector<unsigned>& LegalModes();
/// The destination of `mode` with accumulator `src` (mode 0: src itself).
TileDataType DestinationOf(unsigned mode, TileDataType src);
/// The modes of one whole (src, dst) pair, in code order.
std::vector<unsigned> WholeModesOf(TypePair pair);
/// The controls BundleFPATRDATRFieldsLegal allows for PreQuantMode `m`, in ControlsFor order.
std::vector<NumericExecutionControl> ModeControls(unsigned m);
/// The file groups of a whole pair: its modes split by their legal controls (ModeControls), in
/// the order of each group's first mode; one group when all modes share their controls.
std::vector<std::vector<unsigned>> ModeGroups(TypePair pair);
/// The modes of one pair, in code order: the whole pair's (group 0) or those of its file group.
std::vector<unsigned> ModesOf(TypePair pair);
/// The file groups of a pair whose modes do not share their controls: "pqm" and the modes
/// ("pqm12-13", "pqm19-20"); none when they do.
std::vector<std::string> FpatrFileGroups(TypePair pair);
/// Every (accumulator, destination) pair of the table: accumulators FP32, S32, U32, each with
/// its destinations in mode order.
std::vector<TypePair> FpatrPairs();
/// Whether `mode` reads the quant parameter word (a scalar or vector scale, or a shift).
bool ReadsQuantParameter(unsigned mode);
/// The quant parameter word of `mode` with FP19 scale `fp19`, offset `offset` (its width's low
/// bits from bit 37) or shift code `code` (bits 35:32); 0 for a mode that reads none.
Word QuantWord(unsigned mode, Word fp19, std::int64_t offset, unsigned code);

/// The pre_quant_mode and relu_mode of an input tuple.
inline unsigned ModeOf(const Inputs& in) { return static_cast<unsigned>(in[kMode]); }
inline unsigned ReluOf(const Inputs& in) { return static_cast<unsigned>(in[kRelu]); }

/// What the last step of PreQuantMode `m` is (MatrixPostQuantBaseWithFlags lines 180-252): the
/// S32 -> S16 shift, the S5/S9/S17 affine step, or an encoding of value x multiplier into an
/// integer or floating destination.
enum class LastStep { Shift, Affine, IntegerEncode, FloatingEncode };
LastStep LastStepOf(unsigned m, TileDataType dst);

}  // namespace ptovec::generator::fpatr
