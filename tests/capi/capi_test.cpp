// The C API (include/ptovec/ptovec.h, libptovec_c.so): known answers of spec-notes section 6,
// equality with `ptovec eval` on a sample of every legal pair of every op, batch equal to single
// calls, every error code with eval's message, lookups, and calls from several threads at once.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/ptovec.h"

namespace {

namespace generator = ptovec::generator;

int Code(const char* name) {
  const int code = ptovec_type_code(name);
  EXPECT_GE(code, 0) << name;
  return code;
}

// One case through ptovec_evaluate; fails the test on an error.
ptovec_result Eval(const char* op, const char* src, const char* dst, int rmode, int sat,
                   std::vector<std::uint64_t> in) {
  ptovec_result r{0xdead, 0xff};
  const ptovec_error e =
      ptovec_evaluate(op, Code(src), Code(dst), rmode, sat, in.data(), in.size(), &r);
  EXPECT_EQ(e, PTOVEC_OK) << ptovec_last_error();
  return r;
}

void ExpectResult(ptovec_result r, std::uint64_t word, unsigned status) {
  EXPECT_EQ(r.word, word);
  EXPECT_EQ(r.status, status);
}

constexpr std::uint64_t kFp19One = 0x1FC00;  // FP32ToFP19(1.0): 0x3F800000 >> 13

// ---- comparison: ptovec_compare_policy, ptovec_compare ----

TEST(CApiCompare, PoliciesGiveTheirMasks) {
  std::uint8_t mask = 0xee;
  EXPECT_EQ(ptovec_compare_policy("word+flags", &mask), PTOVEC_OK);
  EXPECT_EQ(mask, 0x1f);
  EXPECT_EQ(ptovec_compare_policy(nullptr, &mask), PTOVEC_OK);
  EXPECT_EQ(mask, 0x1f);
  EXPECT_EQ(ptovec_compare_policy("word", &mask), PTOVEC_OK);
  EXPECT_EQ(mask, 0x00);
  EXPECT_EQ(ptovec_compare_policy("word+flags:NV,OF", &mask), PTOVEC_OK);
  EXPECT_EQ(mask, 0x05);
  EXPECT_EQ(ptovec_compare_policy("word+flags:nx,uf", &mask), PTOVEC_OK);
  EXPECT_EQ(mask, 0x18);
  mask = 0xee;
  EXPECT_EQ(ptovec_compare_policy("word+flags:NV,XX", &mask), PTOVEC_ERROR_BAD_POLICY);
  EXPECT_EQ(mask, 0xee);
  EXPECT_EQ(std::string(ptovec_last_error()),
            "unknown comparison policy 'word+flags:NV,XX' (accepted: word+flags, word, or "
            "word+flags: followed by status bits NV, DZ, OF, UF, NX, comma-separated, e.g. "
            "word+flags:NV,OF)");
  EXPECT_EQ(ptovec_compare_policy("flags", &mask), PTOVEC_ERROR_BAD_POLICY);
  EXPECT_EQ(ptovec_compare_policy("word", nullptr), PTOVEC_ERROR_NULL_ARGUMENT);
}

TEST(CApiCompare, WordsAtTheirWidthAndTheMaskedFlags) {
  const int e8m0 = Code("e8m0"), s8 = Code("s8");
  int match = -1;
  // tcvt fp16 -1.0 -> e8m0 is 0xff NV: a device without flags answers 0xff, 0.
  EXPECT_EQ(ptovec_compare(e8m0, 0x1f, 0xff, PTOVEC_STATUS_NV, 0xff, 0, &match), PTOVEC_OK);
  EXPECT_EQ(match, 0);
  EXPECT_EQ(ptovec_compare(e8m0, 0x00, 0xff, PTOVEC_STATUS_NV, 0xff, 0, &match), PTOVEC_OK);
  EXPECT_EQ(match, 1);
  // NV only: a missing NX is ignored, a wrong word is not.
  EXPECT_EQ(ptovec_compare(e8m0, PTOVEC_STATUS_NV, 0x7f, PTOVEC_STATUS_NX, 0x7f, 0, &match),
            PTOVEC_OK);
  EXPECT_EQ(match, 1);
  EXPECT_EQ(ptovec_compare(e8m0, PTOVEC_STATUS_NV, 0x7f, PTOVEC_STATUS_NX, 0x80, 0, &match),
            PTOVEC_OK);
  EXPECT_EQ(match, 0);
  // Only the low 8 bits are an S8 word (a sign-extended -1 matches 0xff); bits 7:5 of a status
  // never match, whatever the mask.
  EXPECT_EQ(ptovec_compare(s8, 0x1f, 0xff, 0, 0xffffffffffffffffULL, 0, &match), PTOVEC_OK);
  EXPECT_EQ(match, 1);
  EXPECT_EQ(ptovec_compare(s8, 0x00, 0xff, 0, 0xff, 0x20, &match), PTOVEC_OK);
  EXPECT_EQ(match, 0);
  match = 7;
  EXPECT_EQ(ptovec_compare(3, 0x1f, 0, 0, 0, 0, &match), PTOVEC_ERROR_UNKNOWN_TYPE);
  EXPECT_EQ(match, 7);
  EXPECT_EQ(std::string(ptovec_last_error()).rfind("unknown type code 3 for dst (accepted: ", 0),
            0u);
  EXPECT_EQ(ptovec_compare(e8m0, 0x3f, 0, 0, 0, 0, &match), PTOVEC_ERROR_BAD_POLICY);
  EXPECT_EQ(std::string(ptovec_last_error()),
            "flags_mask 0x3f has bits 7:5 set (accepted: 0x00..0x1f, bit 0 NV .. bit 4 NX)");
  EXPECT_EQ(ptovec_compare(e8m0, 0x1f, 0, 0, 0, 0, nullptr), PTOVEC_ERROR_NULL_ARGUMENT);
}

// ---- known answers: spec-notes section 6 ----

TEST(CApiKnownAnswers, SpecNotesSection6) {
  // ReferenceMatrixIntegerEncoding(130.0, S8, RNE, no Sat) -> 0x82, 0x14 (low 8 bits only).
  ExpectResult(Eval("encode", "fp32", "s8", PTOVEC_RNE, 0, {0x43020000}), 0x82, 0x14);
  // ReferenceMatrixFloatingEncoding(1.5, FP16 / E4M3 / HiF8, RNE) -> 0x3E00 / 0x3C / 0x0C.
  ExpectResult(Eval("encode", "fp32", "fp16", PTOVEC_RNE, 0, {0x3FC00000}), 0x3E00, 0);
  ExpectResult(Eval("encode", "fp32", "e4m3", PTOVEC_RNE, 0, {0x3FC00000}), 0x3C, 0);
  ExpectResult(Eval("encode", "fp32", "hif8", PTOVEC_RNE, 0, {0x3FC00000}), 0x0C, 0);
  // ReferenceMatrixFloatingEncoding(-1.00390625, BF16, RHB) -> 0xBF80, 0x10.
  ExpectResult(Eval("encode", "fp32", "bf16", PTOVEC_RHB, 0, {0xBF808000}), 0xBF80, 0x10);
  // MatrixRoundAndSaturateSigned through affine (scale 1.0, offset 0): (15.5, 5, RNE) -> 15,
  // (-16.5, 5, RNA) -> -16, (255.75, 9, RNE) -> 255, (-256.75, 9, RNE) -> -256, all 0x14;
  // (65535.4, 17, RTZ) -> 65535, 0x10.
  ExpectResult(Eval("affine", "fp32", "s8", PTOVEC_RNE, 0, {0x41780000, kFp19One, 0, 5}), 0x0f,
               0x14);
  ExpectResult(Eval("affine", "fp32", "s8", PTOVEC_RNA, 0, {0xC1840000, kFp19One, 0, 5}), 0xf0,
               0x14);
  ExpectResult(Eval("affine", "fp32", "s16", PTOVEC_RNE, 0, {0x437FC000, kFp19One, 0, 9}), 0x00ff,
               0x14);
  ExpectResult(Eval("affine", "fp32", "s16", PTOVEC_RNE, 0, {0xC3806000, kFp19One, 0, 9}), 0xff00,
               0x14);
  ExpectResult(Eval("affine", "fp32", "s32", PTOVEC_RTZ, 0, {0x477FFF66, kFp19One, 0, 17}),
               0x0000ffff, 0x10);
  // (0.5, 9, RNE/RNA/RTP/RTM/RTZ) -> 0/1/1/0/0 and (-0.5, 9, ...) -> 0/-1/0/-1/0, NX.
  const int modes[5] = {PTOVEC_RNE, PTOVEC_RNA, PTOVEC_RTP, PTOVEC_RTM, PTOVEC_RTZ};
  const std::uint64_t positive[5] = {0x00, 0x01, 0x01, 0x00, 0x00};
  const std::uint64_t negative[5] = {0x00, 0xff, 0x00, 0xff, 0x00};
  for (int i = 0; i < 5; ++i) {
    ExpectResult(Eval("affine", "fp32", "s8", modes[i], 0, {0x3F000000, kFp19One, 0, 9}),
                 positive[i], 0x10);
    ExpectResult(Eval("affine", "fp32", "s8", modes[i], 0, {0xBF000000, kFp19One, 0, 9}),
                 negative[i], 0x10);
  }
  // MatrixShiftS32ToS16(0xFFFFFFDF, 1) -> 0xFFEF, 0x00 and (0x7FFFFFFF, 1) -> 0x7FFF, 0x14.
  ExpectResult(Eval("shift", "s32", "s16", PTOVEC_RNE, 0, {0xFFFFFFDF, 1}), 0xFFEF, 0);
  ExpectResult(Eval("shift", "s32", "s16", PTOVEC_RNE, 0, {0x7FFFFFFF, 1}), 0x7FFF, 0x14);
  // ReferenceFP32FiniteEncoding(1.0, RNE) -> 0x3F800000 (TDEQUANT of (1 - 0) * 1.0).
  ExpectResult(Eval("tdequant", "s8", "fp32", PTOVEC_RNE, 0, {0x01, 0x3F800000, 0x00}), 0x3F800000,
               0);
  // MatrixQuantOffset(MatrixQuantParameter(FP32ToFP19(1.0), 0x1FF, 9), 9) -> -1: 5.0 plus the
  // offset -1 is 4.
  ExpectResult(Eval("affine", "fp32", "s8", PTOVEC_RNE, 0, {0x40A00000, kFp19One, 0xFFFFFFFF, 9}),
               0x04, 0);
  // TCVT to E8M0 (seed 001): 1.5 rounds to 2^0 (0x7f) under RTZ and to 2^1 (0x80) under RTP;
  // a NaN gives the E8M0 NaN 0xff with NV.
  ExpectResult(Eval("tcvt", "fp16", "e8m0", PTOVEC_RTZ, 0, {0x3E00}), 0x7f, 0x10);
  ExpectResult(Eval("tcvt", "fp16", "e8m0", PTOVEC_RTP, 0, {0x3E00}), 0x80, 0x10);
  ExpectResult(Eval("tcvt", "fp16", "e8m0", PTOVEC_RNE, 0, {0x7E00}), 0xff, 0x01);
}

// ---- lookups ----

TEST(CApiLookups, VersionOpsTypesModes) {
  EXPECT_STREQ(ptovec_version(), PTOVEC_VERSION);
  const auto& ops = generator::AllOps();
  ASSERT_EQ(ptovec_op_count(), ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) {
    EXPECT_EQ(ptovec_op_name(i), ops[i].name);
    EXPECT_EQ(ptovec_op_input_count(ops[i].name.c_str()), static_cast<int>(ops[i].slots.size()));
  }
  EXPECT_EQ(ptovec_op_name(ops.size()), nullptr);
  EXPECT_EQ(ptovec_op_input_count("TQUANT"), 3);
  EXPECT_EQ(ptovec_op_input_count("nosuchop"), -1);
  EXPECT_NE(std::string(ptovec_last_error()).find("unknown op 'nosuchop'"), std::string::npos);
  // The codes of `ptovec list --types`.
  EXPECT_EQ(ptovec_type_code("fp32"), 1);
  EXPECT_EQ(ptovec_type_code("FP16"), 4);
  EXPECT_EQ(ptovec_type_code("bf16"), 5);
  EXPECT_EQ(ptovec_type_code("e8m0"), 13);
  EXPECT_EQ(ptovec_type_code("s8"), 19);
  EXPECT_EQ(ptovec_type_code("fp19"), 32);
  EXPECT_EQ(ptovec_type_code("fp64"), -1);  // not modelled
  EXPECT_EQ(ptovec_type_code("nosuchtype"), -1);
  EXPECT_EQ(ptovec_type_code(nullptr), -1);
  for (const ptovec::oracle::FormatInfo& f : ptovec::oracle::AllFormats()) {
    const int code = static_cast<int>(f.type);
    EXPECT_EQ(ptovec_type_code(std::string(f.name).c_str()), code);
    EXPECT_EQ(ptovec_type_name(code), f.name);
    EXPECT_EQ(ptovec_type_width(code), f.width);
  }
  EXPECT_EQ(ptovec_type_name(0), nullptr);
  EXPECT_EQ(ptovec_type_width(99), 0u);
  EXPECT_EQ(ptovec_type_width(ptovec_type_code("s4x2")), 4u);
  const char* names[7] = {"RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "rhb"};
  for (int m = 0; m < 7; ++m) EXPECT_EQ(ptovec_rounding_mode(names[m]), m);
  EXPECT_EQ(ptovec_rounding_mode("RHE"), -1);
  EXPECT_EQ(ptovec_rounding_mode(nullptr), -1);
}

// ---- errors: each code, with the message `ptovec eval` prints ----

ptovec_error Try(const char* op, int src, int dst, int rmode, int sat,
                 std::vector<std::uint64_t> in) {
  ptovec_result r{0x1234, 0x5};
  const ptovec_error e = ptovec_evaluate(op, src, dst, rmode, sat, in.data(), in.size(), &r);
  if (e != PTOVEC_OK) {
    EXPECT_EQ(r.word, 0x1234u) << "result written on error";
    EXPECT_EQ(r.status, 0x5u);
  }
  return e;
}

std::string LastError() { return ptovec_last_error(); }

TEST(CApiErrors, EveryCodeWithEvalsMessage) {
  const int fp32 = Code("fp32"), fp16 = Code("fp16"), e8m0 = Code("e8m0"), s8 = Code("s8");
  const int s32 = Code("s32"), s16 = Code("s16");
  EXPECT_EQ(Try("tcvt", fp16, e8m0, PTOVEC_RNE, 0, {0x3c00}), PTOVEC_OK);

  EXPECT_EQ(Try("frobnicate", fp16, e8m0, PTOVEC_RNE, 0, {0}), PTOVEC_ERROR_UNKNOWN_OP);
  EXPECT_EQ(LastError(), "unknown op 'frobnicate' (accepted: " + generator::OpNamesList() + ")");

  EXPECT_EQ(Try("tcvt", 3, e8m0, PTOVEC_RNE, 0, {0}), PTOVEC_ERROR_UNKNOWN_TYPE);
  EXPECT_EQ(LastError().rfind("unknown type code 3 for src (accepted: 1 fp32, 4 fp16, ", 0), 0u)
      << LastError();
  EXPECT_EQ(Try("tcvt", fp16, -1, PTOVEC_RNE, 0, {0}), PTOVEC_ERROR_UNKNOWN_TYPE);
  EXPECT_EQ(LastError().rfind("unknown type code -1 for dst (accepted: ", 0), 0u) << LastError();

  EXPECT_EQ(Try("tcvt", fp16, e8m0, 7, 0, {0}), PTOVEC_ERROR_UNKNOWN_MODE);
  EXPECT_EQ(LastError(),
            "unknown rounding mode 7 (accepted: 0 RNE, 1 RTM, 2 RTP, 3 RTZ, 4 RNA, 5 RTO, 6 RHB)");

  // The texts below are `ptovec eval`'s (tests/cli/test_eval.py checks eval's own).
  EXPECT_EQ(Try("shift", fp16, e8m0, PTOVEC_RNE, 0, {0, 1}), PTOVEC_ERROR_ILLEGAL_PAIR);
  EXPECT_EQ(LastError(),
            "shift does not accept fp16 -> e8m0 (no destination accepts --src fp16; `ptovec "
            "list` shows every pair)");
  EXPECT_EQ(Try("encode", fp32, e8m0, PTOVEC_RNE, 0, {0}), PTOVEC_ERROR_ILLEGAL_PAIR);
  EXPECT_NE(LastError().find("encode does not accept fp32 -> e8m0 (--dst accepted for fp32: "),
            std::string::npos)
      << LastError();

  EXPECT_EQ(Try("shift", s32, s16, PTOVEC_RTZ, 0, {0, 1}), PTOVEC_ERROR_NO_CONTROLS);
  EXPECT_EQ(LastError(),
            "shift has no rounding mode and no Sat (its vectors record RNE, Sat off): drop "
            "--rmode RTZ");
  EXPECT_EQ(Try("shift", s32, s16, PTOVEC_RNE, 1, {0, 1}), PTOVEC_ERROR_NO_CONTROLS);
  EXPECT_EQ(LastError(),
            "shift has no rounding mode and no Sat (its vectors record RNE, Sat off): drop --sat");

  EXPECT_EQ(Try("shift", s32, s16, PTOVEC_RNE, 0, {0}), PTOVEC_ERROR_INPUT_COUNT);
  EXPECT_EQ(LastError(), "shift takes 2 inputs (value, shift), got 1");

  EXPECT_EQ(Try("tcvt", fp16, e8m0, PTOVEC_RNE, 0, {0x10000}), PTOVEC_ERROR_INPUT_WIDTH);
  EXPECT_EQ(LastError().rfind("value word '0x10000' is too wide for fp16", 0), 0u) << LastError();
  EXPECT_EQ(Try("encode", fp32, s8, PTOVEC_RNE, 0, {0x100000000}), PTOVEC_ERROR_INPUT_WIDTH);

  EXPECT_EQ(Try("encode", fp32, fp16, PTOVEC_RNE, 0, {0x7FC00000}), PTOVEC_ERROR_DOMAIN);
  EXPECT_FALSE(LastError().empty());
  EXPECT_EQ(Try("shift", s32, s16, PTOVEC_RNE, 0, {5, 0}), PTOVEC_ERROR_DOMAIN);
  EXPECT_NE(LastError().find("shift"), std::string::npos) << LastError();

  ptovec_result r{};
  const std::uint64_t word = 0x3c00;
  EXPECT_EQ(ptovec_evaluate(nullptr, fp16, e8m0, 0, 0, &word, 1, &r), PTOVEC_ERROR_NULL_ARGUMENT);
  EXPECT_EQ(LastError(), "op is NULL (expected an op name)");
  EXPECT_EQ(ptovec_evaluate("tcvt", fp16, e8m0, 0, 0, nullptr, 1, &r), PTOVEC_ERROR_NULL_ARGUMENT);
  EXPECT_EQ(ptovec_evaluate("tcvt", fp16, e8m0, 0, 0, &word, 1, nullptr),
            PTOVEC_ERROR_NULL_ARGUMENT);
  EXPECT_EQ(LastError(), "result is NULL");
  // PTOVEC_ERROR_INTERNAL is reached only by bad_alloc or a bug; a batch too large to allocate
  // gets it (and a message) instead of an abort.
  std::vector<ptovec_result> one(1);
  std::size_t failed = 99;
  EXPECT_EQ(
      ptovec_evaluate_batch("tcvt", fp16, e8m0, 0, 0, &word, 1, SIZE_MAX / 4, one.data(), &failed),
      PTOVEC_ERROR_INTERNAL);
  EXPECT_FALSE(LastError().empty());
}

// The messages of ptovec eval, from the program itself (PTOVEC: the ptovec binary).
std::string Capture(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer;
  std::size_t got;
  while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    out.append(buffer.data(), got);
  pclose(pipe);
  return out;
}

const char* PtovecProgram() {
  const char* ptovec = std::getenv("PTOVEC");
  return ptovec != nullptr ? ptovec : "ptovec";
}

TEST(CApiErrors, MessagesAreEvalsErrorLines) {
  struct Bad {
    std::string args;
    const char* op;
    const char* src;
    const char* dst;
    int rmode, sat;
    std::vector<std::uint64_t> in;
  };
  const std::vector<Bad> bad = {
      {"--op nosuch --src fp16 --dst e8m0 0x0", "nosuch", "fp16", "e8m0", 0, 0, {0}},
      {"--op shift --src fp16 --dst e8m0 0x0 0x1", "shift", "fp16", "e8m0", 0, 0, {0, 1}},
      {"--op tquant --src fp32 --dst s8 --rmode RTZ --sat 0x0 0x0",
       "tquant",
       "fp32",
       "s8",
       3,
       1,
       {0, 0}},
      {"--op tcvt --src fp16 --dst e8m0 0x10000", "tcvt", "fp16", "e8m0", 0, 0, {0x10000}},
      {"--op encode --src fp32 --dst fp16 0x7fc00000",
       "encode",
       "fp32",
       "fp16",
       0,
       0,
       {0x7fc00000}},
      {"--op affine --src s32 --dst s8 0x1 0x1 0x0 0x0", "affine", "s32", "s8", 0, 0, {1, 1, 0, 0}},
  };
  for (const Bad& b : bad) {
    const std::string line =
        Capture(std::string(PtovecProgram()) + " eval " + b.args + " 2>&1 >/dev/null");
    ptovec_result r;
    const ptovec_error e = ptovec_evaluate(b.op, Code(b.src), Code(b.dst), b.rmode, b.sat,
                                           b.in.data(), b.in.size(), &r);
    EXPECT_NE(e, PTOVEC_OK) << b.args;
    EXPECT_EQ("ptovec: error: " + LastError() + "\n", line) << b.args;
  }
}

// ---- equality with `ptovec eval`: a sample of every legal pair of every op ----

std::string Hex(std::uint64_t word) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(word));
  return text;
}

TEST(CApiEqualsEval, SampleOfEveryPairOfEveryOp) {
  struct Expected {
    const generator::OpDef* op;
    generator::TypePair pair;
    int rmode, sat;
    std::vector<std::uint64_t> in;
  };
  std::vector<Expected> cases;
  std::string batch;
  const generator::SamplingOptions sampling{7, 64};
  for (const generator::OpDef& op : generator::AllOps()) {
    for (const generator::TypePair& pair : op.legal_pairs) {
      // The pair's own controls: fpatr's depend on its PreQuantModes (OpDef::pair_controls).
      const auto controls = generator::ControlsFor(op, pair);
      const generator::InputSet set = op.domain(pair, sampling);
      // 4 inputs spread over the domain, each under 2 controls spread over the 14.
      for (std::uint64_t k = 0; k < 4 && k < set.count; ++k) {
        const std::uint64_t index = (set.count - 1) * k / 3;
        const generator::Inputs in = set.at(index);
        for (std::size_t c = 0; c < 2 && c < controls.size(); ++c) {
          const auto control = controls[(index + 5 * c) % controls.size()];
          Expected e{&op,
                     pair,
                     static_cast<int>(control.rounding_mode),
                     control.saturating ? 1 : 0,
                     {in.begin(), in.begin() + op.slots.size()}};
          batch += "--op " + op.name + " --src " +
                   std::string(ptovec::oracle::Format(pair.src).name) + " --dst " +
                   std::string(ptovec::oracle::Format(pair.dst).name) + " --rmode " +
                   std::string(ptovec::oracle::RoundingModeName(control.rounding_mode)) +
                   (control.saturating ? " --sat" : "");
          for (std::uint64_t w : e.in) batch += " " + Hex(w);
          batch += "\n";
          cases.push_back(std::move(e));
        }
      }
    }
  }
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("ptovec_capi_eval_" + std::to_string(getpid()));
  {
    std::ofstream out(file);
    out << batch;
  }
  const std::string lines =
      Capture(std::string(PtovecProgram()) + " eval --batch " + file.string());
  std::filesystem::remove(file);
  std::size_t begin = 0;
  std::size_t checked = 0;
  for (const Expected& e : cases) {
    const std::size_t end = lines.find('\n', begin);
    ASSERT_NE(end, std::string::npos)
        << "ptovec eval printed " << checked << " lines of " << cases.size();
    const auto j = nlohmann::json::parse(lines.substr(begin, end - begin));
    begin = end + 1;
    ptovec_result r;
    ASSERT_EQ(
        ptovec_evaluate(e.op->name.c_str(), static_cast<int>(e.pair.src),
                        static_cast<int>(e.pair.dst), e.rmode, e.sat, e.in.data(), e.in.size(), &r),
        PTOVEC_OK)
        << ptovec_last_error();
    EXPECT_EQ(r.word, std::stoull(j["out"].get<std::string>(), nullptr, 16)) << j.dump();
    EXPECT_EQ(r.status, std::stoul(j["flags"].get<std::string>(), nullptr, 16)) << j.dump();
    ++checked;
  }
  EXPECT_GE(checked, 1000u);  // every op has pairs; tcvt alone has dozens
}

// ---- batch ----

TEST(CApiBatch, EqualsSingleCallsOverEveryFp16CodeAndControl) {
  const int fp16 = Code("fp16"), e8m0 = Code("e8m0");
  std::vector<std::uint64_t> in(1 << 16);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = i;
  std::vector<ptovec_result> out(in.size());
  for (int rmode = 0; rmode < 7; ++rmode) {
    for (int sat = 0; sat < 2; ++sat) {
      std::size_t failed = 99;
      ASSERT_EQ(ptovec_evaluate_batch("tcvt", fp16, e8m0, rmode, sat, in.data(), 1, in.size(),
                                      out.data(), &failed),
                PTOVEC_OK);
      for (std::size_t i = 0; i < in.size(); ++i) {
        ptovec_result one;
        ASSERT_EQ(ptovec_evaluate("tcvt", fp16, e8m0, rmode, sat, &in[i], 1, &one), PTOVEC_OK);
        ASSERT_EQ(out[i].word, one.word) << i;
        ASSERT_EQ(out[i].status, one.status) << i;
      }
    }
  }
}

TEST(CApiBatch, ReportsTheFirstBadCaseAndWritesNothing) {
  const int s32 = Code("s32"), s16 = Code("s16");
  const std::vector<std::uint64_t> in = {0x100, 1, 0x100, 2, 0x100, 0, 0x100, 99};
  std::vector<ptovec_result> out(4, ptovec_result{0x77, 0x3});
  std::size_t failed = 99;
  EXPECT_EQ(ptovec_evaluate_batch("shift", s32, s16, 0, 0, in.data(), 2, 4, out.data(), &failed),
            PTOVEC_ERROR_DOMAIN);
  EXPECT_EQ(failed, 2u);
  for (const ptovec_result& r : out) EXPECT_EQ(r.word, 0x77u);
  // The first two alone are fine: 0x100 >> 1 and >> 2.
  EXPECT_EQ(ptovec_evaluate_batch("shift", s32, s16, 0, 0, in.data(), 2, 2, out.data(), &failed),
            PTOVEC_OK);
  ExpectResult(out[0], 0x80, 0);
  ExpectResult(out[1], 0x40, 0);
  EXPECT_EQ(ptovec_evaluate_batch("shift", s32, s16, 0, 0, nullptr, 2, 0, nullptr, &failed),
            PTOVEC_OK);
  EXPECT_EQ(ptovec_evaluate_batch("shift", s32, s16, 0, 0, in.data(), 2, 2, nullptr, &failed),
            PTOVEC_ERROR_NULL_ARGUMENT);
  EXPECT_EQ(ptovec_evaluate_batch("shift", s32, s16, 0, 0, in.data(), 3, 2, out.data(), &failed),
            PTOVEC_ERROR_INPUT_COUNT);
  EXPECT_EQ(failed, 0u);
}

// ---- threads ----

TEST(CApiThreads, ConcurrentCallsGiveTheSameResultsAndTheirOwnMessages) {
  const int fp16 = Code("fp16"), e8m0 = Code("e8m0");
  std::vector<ptovec_result> expected(1 << 16);
  std::vector<std::uint64_t> in(1 << 16);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = i;
  ASSERT_EQ(ptovec_evaluate_batch("tcvt", fp16, e8m0, PTOVEC_RNA, 1, in.data(), 1, in.size(),
                                  expected.data(), nullptr),
            PTOVEC_OK);
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      const std::string op = "bad" + std::to_string(t);
      for (std::size_t i = static_cast<std::size_t>(t); i < in.size(); i += 4) {
        ptovec_result r;
        if (ptovec_evaluate("tcvt", fp16, e8m0, PTOVEC_RNA, 1, &in[i], 1, &r) != PTOVEC_OK ||
            r.word != expected[i].word || r.status != expected[i].status) {
          ++wrong[t];
        }
        if (i % 1024 == static_cast<std::size_t>(t)) {
          ptovec_evaluate(op.c_str(), fp16, e8m0, 0, 0, &in[i], 1, &r);
          if (std::string(ptovec_last_error()).find("'" + op + "'") == std::string::npos) {
            ++wrong[t];
          }
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(wrong[t], 0) << "thread " << t;
}

}  // namespace

namespace capi_flag_order_test {
namespace {

TEST(CApiFlagOrder, ConvertsRiscvAndMxcsrPortsAndNamesOrders) {
  uint8_t status = 0xEE;
  ASSERT_EQ(ptovec_flags_to_spec(0x01, PTOVEC_FLAG_ORDER_RISCV, &status), PTOVEC_OK);
  EXPECT_EQ(status, 0x10);  // RISC-V NX is ptovec's bit 4
  ASSERT_EQ(ptovec_flags_to_spec(0x18, PTOVEC_FLAG_ORDER_IEEE, &status), PTOVEC_OK);
  EXPECT_EQ(status, 0x03);  // NV|DZ
  ASSERT_EQ(ptovec_flags_to_spec(0x22, PTOVEC_FLAG_ORDER_MXCSR, &status), PTOVEC_OK);
  EXPECT_EQ(status, 0x10);  // PE (DE dropped)
  uint32_t bits = 0;
  ASSERT_EQ(ptovec_flags_from_spec(0x14, PTOVEC_FLAG_ORDER_RISCV, &bits), PTOVEC_OK);
  EXPECT_EQ(bits, 0x05u);
  ASSERT_EQ(ptovec_flags_from_spec(0x1F, PTOVEC_FLAG_ORDER_MXCSR, &bits), PTOVEC_OK);
  EXPECT_EQ(bits, 0x3Du);
  EXPECT_EQ(ptovec_flags_to_spec(1, 3, &status), PTOVEC_ERROR_UNKNOWN_FLAG_ORDER);
  EXPECT_STREQ(ptovec_last_error(),
               "unknown flag order 3: accepted 0 (spec), 1 (riscv, ieee), 2 (mxcsr)");
  EXPECT_EQ(ptovec_flags_to_spec(1, 0, nullptr), PTOVEC_ERROR_NULL_ARGUMENT);
  int order = -1;
  ASSERT_EQ(ptovec_flag_order_code("TestFloat", &order), PTOVEC_OK);
  EXPECT_EQ(order, PTOVEC_FLAG_ORDER_RISCV);
  ASSERT_EQ(ptovec_flag_order_code("mxcsr", &order), PTOVEC_OK);
  EXPECT_EQ(order, PTOVEC_FLAG_ORDER_MXCSR);
  EXPECT_EQ(ptovec_flag_order_code("lsb", &order), PTOVEC_ERROR_UNKNOWN_FLAG_ORDER);
  EXPECT_EQ(order, PTOVEC_FLAG_ORDER_MXCSR);  // untouched
  EXPECT_STREQ(ptovec_last_error(),
               "unknown flag order 'lsb': accepted spec, riscv, ieee, softfloat, testfloat, mxcsr");
}

}  // namespace
}  // namespace capi_flag_order_test
