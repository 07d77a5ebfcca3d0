// The oracle from C++ (ptovec::oracle): ReferenceFloatToE8M0 (seed 001 lines 103-152) on FP32
// 0.75 = 2^-0.41.. under RTZ (the exponent toward zero: 2^0, 0x7f) and RTM
// (2^-1, 0x7e), and ReferenceMatrixFloatingEncoding (seed 000 lines 454-472) of 1.5
// into FP16 (spec-notes section 6: 0x3E00). Prints "hex word, hex status" lines.
#include <cstdio>

#include "ptovec/oracle/e8m0_conversion.hpp"
#include "ptovec/oracle/matrix_quantization.hpp"

int main() {
  using namespace ptovec::oracle;
  const Encoded rtz =
      ReferenceFloatToE8M0(0x3F400000, TileDataType::FP32, {NumericRoundingMode::RTZ, false});
  const Encoded rtm =
      ReferenceFloatToE8M0(0x3F400000, TileDataType::FP32, {NumericRoundingMode::RTM, false});
  const Encoded fp16 = ReferenceMatrixFloatingEncoding(Real(3) / 2, TileDataType::FP16,
                                                       {NumericRoundingMode::RNE, false});
  std::printf("e8m0 RTZ 0.75: 0x%02llx 0x%02x\n", static_cast<unsigned long long>(rtz.word),
              static_cast<unsigned>(rtz.status));
  std::printf("e8m0 RTM 0.75: 0x%02llx 0x%02x\n", static_cast<unsigned long long>(rtm.word),
              static_cast<unsigned>(rtm.status));
  std::printf("fp16 RNE 1.5: 0x%04llx 0x%02x\n", static_cast<unsigned long long>(fp16.word),
              static_cast<unsigned>(fp16.status));
  return 0;
}
