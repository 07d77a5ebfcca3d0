// The tie builder shared by affine and fpatr (generator/src/ops/tie_products.hpp): FP19 words
// of m * 2^k and back, and the refusals (no significant bit, more than FP19's 11, exponent out
// of range).
#include "../../generator/src/ops/tie_products.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>

namespace tie_products_test {
namespace {

using ptovec::generator::Fp19OddScaled;
using ptovec::generator::Fp19Word;

TEST(TieProducts, Fp19WordOfKnownValues) {
  EXPECT_EQ(Fp19Word(1, 0), std::optional<std::uint64_t>(0x1FC00));             // 1.0
  EXPECT_EQ(Fp19Word(1024 + 512, -10), std::optional<std::uint64_t>(0x1FE00));  // 1.5
  EXPECT_EQ(Fp19Word(3, -1), std::optional<std::uint64_t>(0x1FE00));            // 1.5 again
  EXPECT_EQ(Fp19Word(2047, 0), std::optional<std::uint64_t>(0x227FF));  // field 137, fraction 0x3ff
  EXPECT_EQ(Fp19Word(1, -126), std::optional<std::uint64_t>(0x00400));  // smallest normal
}

TEST(TieProducts, Fp19WordRefusesWhatIsNoNormalFp19) {
  EXPECT_EQ(Fp19Word(0, 0), std::nullopt);     // no significant bit
  EXPECT_EQ(Fp19Word(4095, 0), std::nullopt);  // 12 bits: not exact in FP19
  EXPECT_EQ(Fp19Word(1, -127), std::nullopt);  // below the smallest normal
  EXPECT_EQ(Fp19Word(1, 128), std::nullopt);   // exponent field 255
}

TEST(TieProducts, Fp19OddScaledInvertsFp19Word) {
  const auto odd = Fp19OddScaled(0x1FE00);  // 1.5 = 3 * 2^-1
  EXPECT_FALSE(odd.negative);
  EXPECT_EQ(odd.odd, 3U);
  EXPECT_EQ(odd.exponent, -1);
  const auto one = Fp19OddScaled(0x1FC00);
  EXPECT_EQ(one.odd, 1U);
  EXPECT_EQ(one.exponent, 0);
}

}  // namespace
}  // namespace tie_products_test
