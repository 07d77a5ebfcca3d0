// The type codes include/ptovec_dut.h gives devices (PTOVEC_DUT_TYPE_*) against the
// format table (oracle/src/formats.cpp), which ptovec fills src_code and dst_code from.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ptovec/oracle/formats.hpp"
#include "ptovec_dut.h"

namespace dut_header_test {
namespace {

using ptovec::oracle::AllFormats;
using ptovec::oracle::ParseTileDataType;

TEST(DutHeader, TypeCodesAreTheFormatTables) {
  const std::pair<int, const char*> constants[] = {
      {PTOVEC_DUT_TYPE_FP32, "fp32"}, {PTOVEC_DUT_TYPE_FP16, "fp16"},
      {PTOVEC_DUT_TYPE_BF16, "bf16"}, {PTOVEC_DUT_TYPE_HIF8, "hif8"},
      {PTOVEC_DUT_TYPE_E4M3, "e4m3"}, {PTOVEC_DUT_TYPE_E8M0, "e8m0"},
      {PTOVEC_DUT_TYPE_S64, "s64"},   {PTOVEC_DUT_TYPE_S32, "s32"},
      {PTOVEC_DUT_TYPE_S16, "s16"},   {PTOVEC_DUT_TYPE_S8, "s8"},
      {PTOVEC_DUT_TYPE_S4X2, "s4x2"}, {PTOVEC_DUT_TYPE_U64, "u64"},
      {PTOVEC_DUT_TYPE_U32, "u32"},   {PTOVEC_DUT_TYPE_U16, "u16"},
      {PTOVEC_DUT_TYPE_U8, "u8"},     {PTOVEC_DUT_TYPE_U4X2, "u4x2"},
      {PTOVEC_DUT_TYPE_FP19, "fp19"},
  };
  std::set<std::string> named;
  for (const auto& [code, name] : constants) {
    const auto type = ParseTileDataType(name);
    ASSERT_TRUE(type.has_value()) << name << " is not in the format table";
    EXPECT_EQ(code, static_cast<int>(*type)) << name;
    named.insert(name);
  }
  // One constant per row: every type of the table has its code in the header.
  EXPECT_EQ(named.size(), std::size(constants));
  EXPECT_EQ(named.size(), AllFormats().size());
}

}  // namespace
}  // namespace dut_header_test
