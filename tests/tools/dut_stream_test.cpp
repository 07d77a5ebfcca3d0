// The streaming harness (include/ptovec_dut_stream.hpp) over a C++ stand-in for a
// pipelined unit with the ports of examples/rtl/ptovec_tcvt_e8m0_pipe.sv (valid/ready both sides, a
// tag, a status port in RISC-V order), with faults planted on purpose; and the flag-order helpers
// of ptovec_dut.h.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ptovec_dut.h"
#include "ptovec_dut_stream.hpp"

namespace dut_stream_test {
namespace {

using ptovec_dut::ParseStreamArg;
using ptovec_dut::StreamConfig;
using ptovec_dut::StreamHarness;

// A pipeline of `stages` registers after a combinational function of the input (stages 0: the
// function alone), evaluated as a verilated model is: eval() after each port change, the
// registers move on a rising clk. The result of value v is word v ^ 0x5A and RISC-V-order status
// bits v & 0x1F.
struct FakeUnit {
  // kTakesWhenFull: the input register loads whenever in_valid, also where in_ready is low (the
  // trace of issue 42: a case taken while the pipeline is full and out_ready low). kStaleReady:
  // the in_ready port shows the last clock's value (a wrapper reading it before setting
  // out_ready) while the unit acts on the true one.
  enum class Fault { kNone, kWrongTag, kDrop, kStall, kTakesWhenFull, kStaleReady };
  // Inputs.
  bool clk = false, rst_n = true, in_valid = false, out_ready = true;
  std::uint32_t in_tag = 0, in_value = 0;
  // Outputs.
  bool in_ready = true, out_valid = false;
  std::uint32_t out_tag = 0, out_word = 0, out_fflags = 0;
  // The design and its planted fault: at the case with this sequence number.
  unsigned stages = 3;
  Fault fault = Fault::kNone;
  std::uint32_t fault_tag = 5;

  struct Payload {
    std::uint32_t tag, word, fflags;
  };
  std::vector<bool> valid_q;
  std::vector<Payload> data_q;
  bool previous_clk = false;
  bool stalled = false;
  std::uint64_t taken = 0;

  FakeUnit() { Resize(); }
  void Resize() {
    valid_q.assign(stages, false);
    data_q.assign(stages, Payload{});
  }
  Payload Convert() const { return {in_tag, (in_value ^ 0x5Au) & 0xFFu, in_value & 0x1Fu}; }
  std::vector<bool> Ready() const {
    std::vector<bool> ready(stages + 1);
    ready[stages] = out_ready && !stalled;
    for (unsigned k = stages; k-- > 0;) ready[k] = !valid_q[k] || ready[k + 1];
    return ready;
  }
  void eval() {
    if (valid_q.size() != stages) Resize();
    if (clk && !previous_clk && stages > 0) {
      const std::vector<bool> ready = Ready();
      if (!rst_n) {
        valid_q.assign(stages, false);
      } else {
        for (unsigned k = stages - 1; k >= 1; --k) {
          if (ready[k]) {
            valid_q[k] = valid_q[k - 1];
            data_q[k] = data_q[k - 1];
          }
        }
        if (ready[0] || (fault == Fault::kTakesWhenFull && in_valid)) {
          Payload p = Convert();
          bool load = in_valid;
          if (in_valid) {
            if (fault == Fault::kWrongTag && in_tag == fault_tag) p.tag ^= 1;
            if (fault == Fault::kDrop && in_tag == fault_tag) load = false;
            if (fault == Fault::kStall && in_tag == fault_tag) stalled = true;
            ++taken;
          }
          valid_q[0] = load;
          data_q[0] = p;
        }
      }
    }
    previous_clk = clk;
    if (stages == 0) {  // a combinational unit: the result leaves in the clock its case enters
      const Payload p = Convert();
      in_ready = out_ready;
      out_valid = in_valid;
      out_tag = p.tag;
      out_word = p.word;
      out_fflags = p.fflags;
      return;
    }
    if (fault != Fault::kStaleReady || clk) in_ready = Ready()[0];
    out_valid = valid_q[stages - 1] && !stalled;
    out_tag = data_q[stages - 1].tag;
    out_word = data_q[stages - 1].word;
    out_fflags = data_q[stages - 1].fflags;
  }
};

// The ports of FakeUnit for the harness; a case with value 0xDEAD is one the unit lacks.
template <bool kValidReady>
struct FakePorts {
  using Model = FakeUnit;
  static constexpr bool kHasInReady = kValidReady;
  static constexpr bool kHasOutValid = kValidReady;
  static constexpr bool kHasOutReady = kValidReady;
  static constexpr bool kHasTag = kValidReady;
  static inline unsigned stages = 3;
  static inline FakeUnit::Fault fault = FakeUnit::Fault::kNone;
  static std::unique_ptr<Model> Make() {
    auto m = std::make_unique<FakeUnit>();
    m->stages = stages;
    m->fault = fault;
    m->Resize();
    return m;
  }
  static bool Supported(const ptovec_dut_case& c) { return c.inputs[0] != 0xDEAD; }
  static void Clock(Model& m, bool high) { m.clk = high; }
  static void Reset(Model& m, bool active) { m.rst_n = !active; }
  static void Offer(Model& m, const ptovec_dut_case* c, std::uint32_t tag) {
    m.in_valid = c != nullptr;
    if (c == nullptr) return;
    m.in_tag = tag;
    m.in_value = static_cast<std::uint32_t>(c->inputs[0]);
  }
  static bool InReady(Model& m) { return m.in_ready; }
  static void SetOutReady(Model& m, bool ready) { m.out_ready = ready; }
  static bool OutValid(Model& m) { return m.out_valid; }
  static std::uint32_t OutTag(Model& m) { return m.out_tag; }
  static int Result(Model& m, ptovec_dut_result& r) {
    r.word = m.out_word;
    r.flags = static_cast<std::uint8_t>(m.out_fflags);
    return PTOVEC_DUT_OK;
  }
};
using Streamed = FakePorts<true>;
using FixedLatency = FakePorts<false>;

// n cases of values 0, 1, 2, ... (value 0xDEAD where `unsupported` says).
std::vector<ptovec_dut_case> Cases(std::uint64_t n, std::uint64_t unsupported_every = 0) {
  std::vector<ptovec_dut_case> cases(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    cases[i] = ptovec_dut_case{};
    cases[i].op = "tcvt";
    cases[i].n_inputs = 1;
    cases[i].inputs[0] = unsupported_every != 0 && i % unsupported_every == 3 ? 0xDEAD : i & 0xFFF;
  }
  return cases;
}

StreamConfig RiscvConfig() {
  StreamConfig config;
  config.flag_order = PTOVEC_DUT_FLAG_ORDER_RISCV;
  return config;
}

// Every result is the stand-in's function of its own case, in RISC-V order mapped to ptovec's.
void ExpectResults(const std::vector<ptovec_dut_case>& cases,
                   const std::vector<ptovec_dut_result>& results,
                   const std::vector<std::uint8_t>& status) {
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::uint64_t v = cases[i].inputs[0];
    if (v == 0xDEAD) {
      ASSERT_EQ(status[i], PTOVEC_DUT_UNSUPPORTED) << i;
      continue;
    }
    ASSERT_EQ(status[i], PTOVEC_DUT_OK) << i;
    ASSERT_EQ(results[i].word, (v ^ 0x5A) & 0xFF) << i;
    ASSERT_EQ(results[i].flags, ptovec_dut_flags_to_spec(v & 0x1F, PTOVEC_DUT_FLAG_ORDER_RISCV))
        << i;
  }
}

TEST(DutStream, KeepsThePipelineFullOneCasePerClock) {
  Streamed::stages = 3;
  Streamed::fault = FakeUnit::Fault::kNone;
  StreamHarness<Streamed> harness(RiscvConfig());
  const std::uint64_t reset = harness.cycles();
  EXPECT_EQ(reset, 2u);  // reset_cycles
  const auto cases = Cases(10000);
  std::vector<ptovec_dut_result> results(cases.size());
  std::vector<std::uint8_t> status(cases.size(), 0xEE);
  ASSERT_EQ(harness.EvaluateBatch(cases.data(), results.data(), status.data(), cases.size()),
            PTOVEC_DUT_OK);
  ExpectResults(cases, results, status);
  // 10,000 clocks to send them and 3 more to drain the 3 stages.
  EXPECT_EQ(harness.cycles() - reset, 10000u + 3u);
  EXPECT_EQ(harness.sent(), 10000u);
  EXPECT_EQ(harness.results(), 10000u);
  EXPECT_GE(static_cast<double>(harness.sent()) / static_cast<double>(harness.cycles() - reset),
            0.99);
}

TEST(DutStream, HonoursRandomBackPressureWithTheSameResults) {
  Streamed::stages = 3;
  Streamed::fault = FakeUnit::Fault::kNone;
  StreamConfig config = RiscvConfig();
  config.out_ready_percent = 60;
  config.seed = 7;
  StreamHarness<Streamed> harness(config);
  const auto cases = Cases(5000, 97);
  std::vector<ptovec_dut_result> results(cases.size());
  std::vector<std::uint8_t> status(cases.size(), 0xEE);
  const std::uint64_t start = harness.cycles();
  ASSERT_EQ(harness.EvaluateBatch(cases.data(), results.data(), status.data(), cases.size()),
            PTOVEC_DUT_OK);
  ExpectResults(cases, results, status);
  const std::uint64_t unsupported = (5000 + 93) / 97;  // i % 97 == 3
  EXPECT_EQ(harness.sent(), 5000u - unsupported);
  // About one result per 0.6 clocks: back-pressure reached the input side.
  const double per_clock =
      static_cast<double>(harness.sent()) / static_cast<double>(harness.cycles() - start);
  EXPECT_GT(per_clock, 0.5);
  EXPECT_LT(per_clock, 0.7);
  // The same seed gives the same clocks.
  StreamHarness<Streamed> again(config);
  std::vector<ptovec_dut_result> results2(cases.size());
  std::vector<std::uint8_t> status2(cases.size());
  ASSERT_EQ(again.EvaluateBatch(cases.data(), results2.data(), status2.data(), cases.size()),
            PTOVEC_DUT_OK);
  EXPECT_EQ(again.cycles(), harness.cycles());
}

TEST(DutStream, BatchesFollowOneAnotherOnOneModel) {
  Streamed::stages = 2;
  Streamed::fault = FakeUnit::Fault::kNone;
  StreamHarness<Streamed> harness(RiscvConfig());
  const auto cases = Cases(300);  // 300 > 256 tags: the tag wraps within and across batches
  for (int batch = 0; batch < 3; ++batch) {
    std::vector<ptovec_dut_result> results(cases.size());
    std::vector<std::uint8_t> status(cases.size(), 0xEE);
    ASSERT_EQ(harness.EvaluateBatch(cases.data(), results.data(), status.data(), cases.size()),
              PTOVEC_DUT_OK);
    ExpectResults(cases, results, status);
  }
  EXPECT_EQ(harness.sent(), 900u);
}

// 20 cases through the 3-stage unit with `fault` on case 5: the batch fails; the harness's error
// and each case's status.
std::pair<std::string, std::vector<std::uint8_t>> FaultyBatch(FakeUnit::Fault fault) {
  Streamed::stages = 3;
  Streamed::fault = fault;
  StreamHarness<Streamed> harness(RiscvConfig());
  const auto cases = Cases(20);
  std::vector<ptovec_dut_result> results(cases.size());
  std::vector<std::uint8_t> status(cases.size(), 0xEE);
  EXPECT_EQ(harness.EvaluateBatch(cases.data(), results.data(), status.data(), cases.size()),
            PTOVEC_DUT_ERROR);
  return {harness.last_error(), status};
}

TEST(DutStream, AWrongTagIsADeviceErrorAndResets) {
  // Case 5 comes back tagged 4, the tag of the case answered just before.
  const auto [error, status] = FaultyBatch(FakeUnit::Fault::kWrongTag);
  EXPECT_EQ(error,
            "clock 10: result tag 0x4 where tag 0x5 (taken at clock 7) is due: that tag's case "
            "was answered at clock 9, so the unit took it twice: it acted on a clock where "
            "in_ready read low before the rising edge (the handshake rule of "
            "ptovec_dut_stream.hpp, docs/rtl.md)");
  for (int i = 0; i < 5; ++i) EXPECT_EQ(status[i], PTOVEC_DUT_OK) << i;
  for (int i = 5; i < 20; ++i) EXPECT_EQ(status[i], PTOVEC_DUT_ERROR) << i;
}

TEST(DutStream, ALostResultIsSeenAtTheNextTag) {
  // Case 5 vanishes: case 6's result arrives where 5's is due.
  const auto [error, status] = FaultyBatch(FakeUnit::Fault::kDrop);
  EXPECT_EQ(error,
            "clock 11: result tag 0x6 where tag 0x5 (taken at clock 7) is due: the unit lost the "
            "1 case(s) taken before it, or answers out of order; a unit that takes cases only "
            "where in_valid && in_ready read high before the rising edge keeps every one (the "
            "handshake rule of ptovec_dut_stream.hpp, docs/rtl.md)");
  for (int i = 5; i < 20; ++i) EXPECT_EQ(status[i], PTOVEC_DUT_ERROR) << i;
}

TEST(DutStream, AStalledUnitTimesOut) {
  Streamed::stages = 3;
  Streamed::fault = FakeUnit::Fault::kStall;  // from case 5 on, nothing leaves
  StreamConfig config = RiscvConfig();
  config.timeout_cycles = 50;
  StreamHarness<Streamed> harness(config);
  const auto cases = Cases(20);
  std::vector<ptovec_dut_result> results(cases.size());
  std::vector<std::uint8_t> status(cases.size(), 0xEE);
  EXPECT_EQ(harness.EvaluateBatch(cases.data(), results.data(), status.data(), cases.size()),
            PTOVEC_DUT_ERROR);
  // Cases 0..2 left before the stall; 3 stages and the input register hold 3..5.
  EXPECT_EQ(harness.last_error(), "50 clocks without a case in or out (3 in flight)");
  EXPECT_EQ(status[2], PTOVEC_DUT_OK);
  for (int i = 3; i < 20; ++i) EXPECT_EQ(status[i], PTOVEC_DUT_ERROR) << i;
}

// 2000 cases through the 3-stage unit with `fault`, out_ready on 70% of clocks (seed 3): the
// harness's error.
std::string BackPressuredError(FakeUnit::Fault fault) {
  Streamed::stages = 3;
  Streamed::fault = fault;
  StreamConfig config = RiscvConfig();
  config.out_ready_percent = 70;
  config.seed = 3;
  StreamHarness<Streamed> harness(config);
  const auto cases = Cases(2000);
  std::vector<ptovec_dut_result> results(cases.size());
  std::vector<std::uint8_t> status(cases.size(), 0xEE);
  EXPECT_EQ(harness.EvaluateBatch(cases.data(), results.data(), status.data(), cases.size()),
            PTOVEC_DUT_ERROR);
  return harness.last_error();
}

TEST(DutStream, AUnitTakingCasesWhileFullIsNamedAsLosingThem) {
  // The input register loads on a stalled clock: the case it held is lost, and the error says
  // so, with the clock and the handshake rule (not a case of the batch that did not cause it).
  EXPECT_EQ(BackPressuredError(FakeUnit::Fault::kTakesWhenFull),
            "clock 15: result tag 0x7 where tag 0x6 (taken at clock 8) is due: the unit lost the "
            "1 case(s) taken before it, or answers out of order; a unit that takes cases only "
            "where in_valid && in_ready read high before the rising edge keeps every one (the "
            "handshake rule of ptovec_dut_stream.hpp, docs/rtl.md)");
}

TEST(DutStream, AStaleInReadyIsNamedAsACaseTakenTwice) {
  // in_ready read low where the unit takes the case: the harness offers it again and the unit
  // answers it twice.
  EXPECT_EQ(BackPressuredError(FakeUnit::Fault::kStaleReady),
            "clock 10: result tag 0x3 where tag 0x4 (taken at clock 7) is due: that tag's case "
            "was answered at clock 8, so the unit took it twice: it acted on a clock where "
            "in_ready read low before the rising edge (the handshake rule of "
            "ptovec_dut_stream.hpp, docs/rtl.md)");
}

TEST(DutStream, AResultInTheClockItsCaseEntersIsTaken) {
  // A combinational unit with valid/ready (in_ready = out_ready, out_valid = in_valid): each
  // result leaves in the clock its case enters, under back-pressure too.
  Streamed::stages = 0;
  Streamed::fault = FakeUnit::Fault::kNone;
  StreamConfig config = RiscvConfig();
  config.out_ready_percent = 70;
  StreamHarness<Streamed> harness(config);
  const std::uint64_t start = harness.cycles();
  const auto cases = Cases(1000, 50);
  std::vector<ptovec_dut_result> results(cases.size());
  std::vector<std::uint8_t> status(cases.size(), 0xEE);
  ASSERT_EQ(harness.EvaluateBatch(cases.data(), results.data(), status.data(), cases.size()),
            PTOVEC_DUT_OK)
      << harness.last_error();
  ExpectResults(cases, results, status);
  EXPECT_EQ(harness.sent(), 980u);  // 1000 less the 20 unsupported (i % 50 == 3)
  EXPECT_EQ(harness.results(), 980u);
  // One clock per case where out_ready was high (seed 1), none to drain: 980 cases in 1441.
  EXPECT_EQ(harness.cycles() - start, 1441u);
}

TEST(DutStream, FixedLatencyWithoutHandshakes) {
  for (const unsigned stages : {0u, 1u, 4u}) {
    SCOPED_TRACE(stages);
    FixedLatency::stages = stages;
    FixedLatency::fault = FakeUnit::Fault::kNone;
    StreamConfig config = RiscvConfig();
    config.latency = stages;
    StreamHarness<FixedLatency> harness(config);
    const std::uint64_t start = harness.cycles();
    const auto cases = Cases(1000, 50);
    std::vector<ptovec_dut_result> results(cases.size());
    std::vector<std::uint8_t> status(cases.size(), 0xEE);
    ASSERT_EQ(harness.EvaluateBatch(cases.data(), results.data(), status.data(), cases.size()),
              PTOVEC_DUT_OK);
    ExpectResults(cases, results, status);
    EXPECT_EQ(harness.cycles() - start, harness.sent() + stages);
  }
}

TEST(DutStream, DutArgSetsTheConfigAndRefusesBadItems) {
  StreamConfig config;
  EXPECT_EQ(
      ParseStreamArg("out_ready_percent=70,seed=0x10,flag_order=riscv,timeout_cycles=99", config),
      "");
  EXPECT_EQ(config.out_ready_percent, 70u);
  EXPECT_EQ(config.seed, 16u);
  EXPECT_EQ(config.flag_order, PTOVEC_DUT_FLAG_ORDER_RISCV);
  EXPECT_EQ(config.timeout_cycles, 99u);
  // Order names are case-insensitive, as in the C API (ptovec_dut_flag_order_code).
  EXPECT_EQ(ParseStreamArg("flag_order=MXCSR", config), "");
  EXPECT_EQ(config.flag_order, PTOVEC_DUT_FLAG_ORDER_MXCSR);
  EXPECT_EQ(ParseStreamArg("flag_order=TestFloat", config), "");
  EXPECT_EQ(config.flag_order, PTOVEC_DUT_FLAG_ORDER_RISCV);
  EXPECT_EQ(ParseStreamArg("", config), "");
  EXPECT_EQ(ParseStreamArg(nullptr, config), "");
  const std::string accepted =
      "': accepted out_ready_percent=1..100, seed=N, timeout_cycles=1..2^30, "
      "max_in_flight=0..2^30, flag_order=spec|riscv|ieee|softfloat|testfloat|mxcsr, "
      "comma-separated";
  EXPECT_EQ(ParseStreamArg("out_ready_percent=0", config),
            "bad --dut-arg item 'out_ready_percent=0" + accepted);
  EXPECT_EQ(ParseStreamArg("seed=-1", config), "bad --dut-arg item 'seed=-1" + accepted);
  EXPECT_EQ(ParseStreamArg("flag_order=msb", config),
            "bad --dut-arg item 'flag_order=msb" + accepted);
  EXPECT_EQ(ParseStreamArg("speed=3", config), "bad --dut-arg item 'speed=3" + accepted);
}

TEST(DutFlagOrder, RiscvIsTheReverseOfTheSpecsOrder) {
  // RISC-V fflags: bit 0 NX, 1 UF, 2 OF, 3 DZ, 4 NV.
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x01, PTOVEC_DUT_FLAG_ORDER_RISCV), PTOVEC_DUT_FLAG_NX);
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x02, PTOVEC_DUT_FLAG_ORDER_RISCV), PTOVEC_DUT_FLAG_UF);
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x04, PTOVEC_DUT_FLAG_ORDER_RISCV), PTOVEC_DUT_FLAG_OF);
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x08, PTOVEC_DUT_FLAG_ORDER_RISCV), PTOVEC_DUT_FLAG_DZ);
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x10, PTOVEC_DUT_FLAG_ORDER_RISCV), PTOVEC_DUT_FLAG_NV);
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x05, PTOVEC_DUT_FLAG_ORDER_IEEE), 0x14);   // OF|NX
  EXPECT_EQ(ptovec_dut_flags_to_spec(0xE1, PTOVEC_DUT_FLAG_ORDER_RISCV), 0x10);  // high bits off
  EXPECT_EQ(ptovec_dut_flags_to_spec(0xFF, PTOVEC_DUT_FLAG_ORDER_SPEC), 0x1F);
  for (unsigned f = 0; f < 32; ++f) {
    SCOPED_TRACE(f);
    const auto u8 = static_cast<std::uint8_t>(f);
    EXPECT_EQ(ptovec_dut_flags_to_spec(f, PTOVEC_DUT_FLAG_ORDER_SPEC), f);
    EXPECT_EQ(ptovec_dut_flags_from_spec(u8, PTOVEC_DUT_FLAG_ORDER_SPEC), f);
    for (const int order : {PTOVEC_DUT_FLAG_ORDER_RISCV, PTOVEC_DUT_FLAG_ORDER_MXCSR}) {
      EXPECT_EQ(ptovec_dut_flags_to_spec(ptovec_dut_flags_from_spec(u8, order), order), f);
    }
  }
}

TEST(DutFlagOrder, MxcsrDropsTheDenormalFlag) {
  // MXCSR bits 5:0: PE UE OE ZE DE IE.
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x01, PTOVEC_DUT_FLAG_ORDER_MXCSR), PTOVEC_DUT_FLAG_NV);
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x02, PTOVEC_DUT_FLAG_ORDER_MXCSR), 0);  // DE
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x04, PTOVEC_DUT_FLAG_ORDER_MXCSR), PTOVEC_DUT_FLAG_DZ);
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x08, PTOVEC_DUT_FLAG_ORDER_MXCSR), PTOVEC_DUT_FLAG_OF);
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x10, PTOVEC_DUT_FLAG_ORDER_MXCSR), PTOVEC_DUT_FLAG_UF);
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x20, PTOVEC_DUT_FLAG_ORDER_MXCSR), PTOVEC_DUT_FLAG_NX);
  EXPECT_EQ(ptovec_dut_flags_from_spec(0x1F, PTOVEC_DUT_FLAG_ORDER_MXCSR), 0x3Du);
  EXPECT_EQ(ptovec_dut_flags_to_spec(0x1F, 7), 0xFF);  // no such order
  EXPECT_EQ(ptovec_dut_flags_from_spec(0x1F, -1), 0xFFFFFFFFu);
}

}  // namespace
}  // namespace dut_stream_test
