// The C API's editions (include/ptovec/ptovec.h, the "_edition" calls): edition codes and names,
// each edition's ops and types, edition 2026-09's answers on cases derived by hand from its ASL
// (the cases of tests/cli/test_edition.py, whose comments cite the lines), its refusals with
// `ptovec eval --edition 2026-09`'s lines, and the calls without "_edition" as edition 0.58.3's.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ptovec/ptovec.h"

// Named, so that the unity build of the asan preset keeps these helpers apart from capi_test.cpp's.
namespace capi_edition_test {
namespace {

constexpr int k0583 = PTOVEC_EDITION_0_58_3;
constexpr int k2609 = PTOVEC_EDITION_2026_09;

int Code(const char* name) {
  const int code = ptovec_type_code_edition(k2609, name);
  EXPECT_GE(code, 0) << name;
  return code;
}

// One case of edition 2026-09 through ptovec_evaluate_edition; fails the test on an error.
ptovec_result Eval(const char* src, const char* dst, int rmode, std::uint64_t word) {
  ptovec_result r{0xdead, 0xff};
  const ptovec_error e =
      ptovec_evaluate_edition(k2609, "tcvt", Code(src), Code(dst), rmode, 0, &word, 1, &r);
  EXPECT_EQ(e, PTOVEC_OK) << ptovec_last_error();
  return r;
}

std::string LastError() { return ptovec_last_error(); }

// `ptovec eval`'s error line for `args`, without its "ptovec: error: " (PTOVEC: the program).
std::string EvalError(const std::string& args) {
  const char* program = std::getenv("PTOVEC");
  const std::string command =
      std::string(program != nullptr ? program : "ptovec") + " eval " + args + " 2>&1";
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer;
  std::size_t got;
  while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    out.append(buffer.data(), got);
  }
  pclose(pipe);
  const std::string lead = "ptovec: error: ";
  if (out.rfind(lead, 0) == 0) out.erase(0, lead.size());
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

TEST(CApiEditions, CodesAndNames) {
  EXPECT_EQ(ptovec_edition_code("0.58.3"), k0583);
  EXPECT_EQ(ptovec_edition_code("2026-09"), k2609);
  EXPECT_STREQ(ptovec_edition_name(0), "0.58.3");
  EXPECT_STREQ(ptovec_edition_name(1), "2026-09");
  EXPECT_EQ(ptovec_edition_name(2), nullptr);
  EXPECT_EQ(ptovec_edition_name(-1), nullptr);
  EXPECT_EQ(ptovec_edition_code("2026-10"), -1);
  EXPECT_EQ(LastError(), "unknown edition '2026-10' (accepted: 0.58.3, 2026-09)");
  EXPECT_EQ(ptovec_edition_code(nullptr), -1);
  EXPECT_EQ(LastError(), "name is NULL (expected an edition name)");
}

TEST(CApiEditions, EachEditionsOpsAndTypes) {
  // 2026-09: tcvt by value, tquant and tdequant retired (ADR-TILE-0013), the rest as 0.58.3.
  const std::vector<std::string> ops2609 = {"tcvt", "encode", "shift", "qparam", "affine", "fpatr"};
  ASSERT_EQ(ptovec_op_count_edition(k2609), ops2609.size());
  for (std::size_t k = 0; k < ops2609.size(); ++k) {
    EXPECT_EQ(ptovec_op_name_edition(k2609, k), ops2609[k]);
  }
  EXPECT_EQ(ptovec_op_name_edition(k2609, ops2609.size()), nullptr);
  EXPECT_EQ(ptovec_op_count_edition(k0583), 8u);
  EXPECT_EQ(ptovec_op_count(), 8u);
  EXPECT_STREQ(ptovec_op_name_edition(k0583, 4), "tquant");
  EXPECT_EQ(ptovec_op_count_edition(7), 0u);
  EXPECT_EQ(ptovec_op_name_edition(7, 0), nullptr);
  EXPECT_EQ(ptovec_op_input_count_edition(k2609, "tcvt"), 1);
  EXPECT_EQ(ptovec_op_input_count_edition(k2609, "tquant"), -1);
  EXPECT_EQ(LastError(), EvalError("--edition 2026-09 --op tquant --src fp32 --dst s8 0 0 0"));
  EXPECT_NE(LastError().find("ADR-TILE-0013"), std::string::npos) << LastError();
  EXPECT_EQ(ptovec_op_input_count_edition(7, "tcvt"), -1);
  EXPECT_EQ(LastError(), "unknown edition code 7 (accepted: 0 0.58.3, 1 2026-09)");

  // The five rows of 2026-09 (`ptovec list --types --edition 2026-09`): codes and widths.
  struct Row {
    const char* name;
    int code;
    unsigned width;
  };
  for (const Row& row : {Row{"fp64", 0, 64}, Row{"e6m2", 33, 8}, Row{"rcpe6m2", 34, 8},
                         Row{"e2m1x2", 11, 4}, Row{"e1m2x2", 12, 4}}) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(ptovec_type_code_edition(k2609, row.name), row.code);
    EXPECT_STREQ(ptovec_type_name_edition(k2609, row.code), row.name);
    EXPECT_EQ(ptovec_type_width_edition(k2609, row.code), row.width);
    // Not types of 0.58.3, which the calls without "_edition" answer.
    EXPECT_EQ(ptovec_type_code(row.name), -1);
    EXPECT_EQ(ptovec_type_name(row.code), nullptr);
    EXPECT_EQ(ptovec_type_width(row.code), 0u);
  }
  EXPECT_EQ(ptovec_type_code_edition(k2609, "FP16"), 4);
  EXPECT_EQ(ptovec_type_code_edition(9, "fp16"), -1);
  EXPECT_EQ(ptovec_type_width_edition(9, 4), 0u);
}

TEST(CApiEditions, HandDerivedAnswersOf2026_09) {
  const auto expect = [](ptovec_result r, std::uint64_t word, unsigned status) {
    EXPECT_EQ(r.word, word);
    EXPECT_EQ(r.status, status);
  };
  // FP32 +Inf -> FP16 is +Inf with no flag; -0 keeps its sign (ReferenceCommonConvert).
  expect(Eval("fp32", "fp16", PTOVEC_RNE, 0x7f800000), 0x7c00, 0);
  expect(Eval("fp32", "fp16", PTOVEC_RNE, 0x80000000), 0x8000, 0);
  // NaN -> S32: 0 with NV (TileConvertIntegerValue's invalid case).
  expect(Eval("fp32", "s32", PTOVEC_RTZ, 0x7fc00000), 0, PTOVEC_STATUS_NV);
  // E8M0 -> FP32: 2^-127 (code 0x00) is FP32's subnormal 0x00400000; 0x80 is 2; 0xff NaN.
  expect(Eval("e8m0", "fp32", PTOVEC_RNE, 0x00), 0x00400000, 0);
  expect(Eval("e8m0", "fp32", PTOVEC_RNE, 0x80), 0x40000000, 0);
  expect(Eval("e8m0", "fp32", PTOVEC_RNE, 0xff), 0x7fc00000, 0);
  // FP16 1.125 is halfway between E6M2's 1.0 (0xc0) and 1.25 (0xc1): RNE the even code, RNA up.
  expect(Eval("fp16", "e6m2", PTOVEC_RNE, 0x3c80), 0xc0, PTOVEC_STATUS_NX);
  expect(Eval("fp16", "e6m2", PTOVEC_RNA, 0x3c80), 0xc1, PTOVEC_STATUS_NX);
  // FP64 1 + 2^-52 -> FP32 under RTP: up to 1 + 2^-23 (0x3f800001), inexact.
  expect(Eval("fp64", "fp32", PTOVEC_RTP, 0x3ff0000000000001), 0x3f800001, PTOVEC_STATUS_NX);
  expect(Eval("fp64", "fp32", PTOVEC_RTZ, 0x3ff0000000000001), 0x3f800000, PTOVEC_STATUS_NX);
  // The same case in 0.58.3 copies the raw word: the calls without "_edition" answer 0.58.3.
  const std::uint64_t inf = 0x7f800000;
  ptovec_result a{}, b{};
  ASSERT_EQ(ptovec_evaluate("tcvt", 1, 4, PTOVEC_RNE, 0, &inf, 1, &a), PTOVEC_OK);
  ASSERT_EQ(ptovec_evaluate_edition(k0583, "tcvt", 1, 4, PTOVEC_RNE, 0, &inf, 1, &b), PTOVEC_OK);
  EXPECT_EQ(a.word, b.word);
  EXPECT_EQ(a.status, b.status);
  EXPECT_NE(a.word, 0x7c00u);
}

TEST(CApiEditions, RefusalsAreEvalsLines) {
  ptovec_result r{0xdead, 0xff};
  const std::uint64_t zero = 0;
  const int fp16 = Code("fp16"), e6m2 = Code("e6m2"), fp19 = Code("fp19");
  // A mode HardwareTCVTRoundingModeSupported refuses: E6M2 pairs take RNE and RNA only.
  EXPECT_EQ(ptovec_evaluate_edition(k2609, "tcvt", e6m2, fp16, PTOVEC_RTZ, 0, &zero, 1, &r),
            PTOVEC_ERROR_ILLEGAL_CONTROL);
  EXPECT_EQ(LastError(),
            EvalError("--edition 2026-09 --op tcvt --src e6m2 --dst fp16 --rmode RTZ 0x00"));
  EXPECT_NE(LastError().find("HardwareTCVTRoundingModeSupported"), std::string::npos);
  // A pair the edition refuses, with its rule.
  EXPECT_EQ(ptovec_evaluate_edition(k2609, "tcvt", fp16, fp19, PTOVEC_RNE, 0, &zero, 1, &r),
            PTOVEC_ERROR_ILLEGAL_PAIR);
  EXPECT_EQ(LastError(), EvalError("--edition 2026-09 --op tcvt --src fp16 --dst fp19 0x0"));
  EXPECT_EQ(ptovec_evaluate_edition(k2609, "tquant", 1, 19, PTOVEC_RNE, 0, &zero, 1, &r),
            PTOVEC_ERROR_UNKNOWN_OP);
  EXPECT_EQ(ptovec_evaluate_edition(2, "tcvt", fp16, e6m2, PTOVEC_RNE, 0, &zero, 1, &r),
            PTOVEC_ERROR_UNKNOWN_EDITION);
  EXPECT_EQ(LastError(), "unknown edition code 2 (accepted: 0 0.58.3, 1 2026-09)");
  // A type of 2026-09 in 0.58.3.
  EXPECT_EQ(ptovec_evaluate_edition(k0583, "tcvt", fp16, e6m2, PTOVEC_RNE, 0, &zero, 1, &r),
            PTOVEC_ERROR_UNKNOWN_TYPE);
  EXPECT_EQ(LastError().rfind("unknown type code 33 for dst (accepted: 1 fp32, 4 fp16, ", 0), 0u)
      << LastError();
  EXPECT_EQ(r.word, 0xdeadu);  // untouched by every failed call
  std::size_t failed = 9;
  EXPECT_EQ(ptovec_evaluate_batch_edition(k2609, "tcvt", e6m2, fp16, PTOVEC_RTZ, 0, &zero, 1, 1, &r,
                                          &failed),
            PTOVEC_ERROR_ILLEGAL_CONTROL);
  EXPECT_EQ(failed, 0u);
}

TEST(CApiEditions, BatchEqualsSingleCallsOverEveryE6M2CodeAndMode) {
  const int e6m2 = Code("e6m2"), fp16 = Code("fp16");
  std::vector<std::uint64_t> in(256);
  for (std::uint64_t k = 0; k < in.size(); ++k) in[k] = k;
  for (const int mode : {PTOVEC_RNE, PTOVEC_RNA}) {
    for (const int sat : {0, 1}) {
      std::vector<ptovec_result> batch(in.size());
      ASSERT_EQ(ptovec_evaluate_batch_edition(k2609, "tcvt", e6m2, fp16, mode, sat, in.data(), 1,
                                              in.size(), batch.data(), nullptr),
                PTOVEC_OK)
          << ptovec_last_error();
      for (std::size_t k = 0; k < in.size(); ++k) {
        ptovec_result one{};
        ASSERT_EQ(ptovec_evaluate_edition(k2609, "tcvt", e6m2, fp16, mode, sat, &in[k], 1, &one),
                  PTOVEC_OK);
        EXPECT_EQ(batch[k].word, one.word) << k;
        EXPECT_EQ(batch[k].status, one.status) << k;
      }
    }
  }
  // E6M2 0xc0 is 1.0 (FP16 0x3c00), 0xfe 49152 (0x7a00), 0xff NaN: exact, no flag.
  const std::array<std::uint64_t, 3> codes = {0xc0, 0xfe, 0xff};
  std::array<ptovec_result, 3> out{};
  ASSERT_EQ(ptovec_evaluate_batch_edition(k2609, "tcvt", e6m2, fp16, PTOVEC_RNE, 0, codes.data(), 1,
                                          3, out.data(), nullptr),
            PTOVEC_OK);
  EXPECT_EQ(out[0].word, 0x3c00u);
  EXPECT_EQ(out[1].word, 0x7a00u);
  EXPECT_EQ(out[0].status | out[1].status, 0u);
}

TEST(CApiEditions, CompareTakesTheEditionsTypes) {
  int match = -1;
  // FP64 (code 0) compares 64-bit words.
  EXPECT_EQ(
      ptovec_compare_edition(k2609, 0, 0x1f, 0x3ff0000000000000, 0, 0x3ff0000000000000, 0, &match),
      PTOVEC_OK);
  EXPECT_EQ(match, 1);
  EXPECT_EQ(
      ptovec_compare_edition(k2609, 0, 0x1f, 0x3ff0000000000000, 0, 0x3ff0000000000001, 0, &match),
      PTOVEC_OK);
  EXPECT_EQ(match, 0);
  EXPECT_EQ(ptovec_compare(0, 0x1f, 0, 0, 0, 0, &match), PTOVEC_ERROR_UNKNOWN_TYPE);
  EXPECT_EQ(ptovec_compare_edition(5, 4, 0x1f, 0, 0, 0, 0, &match), PTOVEC_ERROR_UNKNOWN_EDITION);
}

}  // namespace
}  // namespace capi_edition_test
