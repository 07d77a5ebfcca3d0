// Devices under test (tools/lib/*device*.cpp, tools/devices/): the oracle as a shared library and
// as a line-protocol program equals the registry's op.evaluate on sampled cases of every op; the
// Python example device equals it on `shift`; every DeviceError path names what went wrong; the
// F16C example disagrees with the profile only in the documented classes (docs/f16c.md).
//
// Built paths come from tests/devices/CMakeLists.txt as compile definitions.
#include "ptovec/tools/device.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "ptovec/generator/word_text.hpp"

#ifdef PTOVEC_F16C_DUT
#include <cpuid.h>
#endif

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/behaviour.hpp"
#include "ptovec_dut.h"

#if !defined(PTOVEC_ORACLE_DUT) || !defined(PTOVEC_ORACLE_DEVICE) || \
    !defined(PTOVEC_SHIFT_EXAMPLE) || !defined(PTOVEC_TEST_DUT_DIR)
#error "tests/devices/CMakeLists.txt passes the device paths (is add_subdirectory(devices) there?)"
#endif

namespace ptovec::tools {
namespace device_test {
namespace {

using generator::OpDef;
using generator::TypePair;
using oracle::Encoded;
using oracle::TileDataType;
using T = oracle::TileDataType;
using oracle::Word;

// Up to `per_pair` inputs of every legal pair of `op` (its default domain with that many samples,
// evenly strided through exhaustive ones), each under every control of the op.
std::vector<Case> SampleCases(const OpDef& op, std::uint64_t per_pair) {
  std::vector<Case> cases;
  // Enough samples that an op sampling a share of them (fpatr: a tenth) still has per_pair.
  const generator::SamplingOptions options{3, per_pair * 16};
  for (const TypePair& pair : op.legal_pairs) {
    const generator::InputSet set = op.domain(pair, options);
    const std::uint64_t n = std::min<std::uint64_t>(per_pair, set.count);
    const std::uint64_t stride =
        std::max<std::uint64_t>(1, set.count / std::max<std::uint64_t>(n, 1));
    for (std::uint64_t i = 0; i < n; ++i) {
      const generator::Inputs in = set.at(i * stride);
      for (const auto& control : generator::ControlsFor(op)) {
        // Only the controls legal for these inputs (fpatr's depend on the PreQuantMode).
        if (op.check_control && op.check_control(pair, in, control)) continue;
        cases.push_back(Case{&op, pair, control, in});
      }
    }
  }
  return cases;
}

// SampleCases(op, 8), built once for the tests that share it.
const std::vector<Case>& EveryOpCases(const OpDef& op) {
  static std::map<const OpDef*, std::vector<Case>> cache;
  auto it = cache.find(&op);
  if (it == cache.end()) it = cache.emplace(&op, SampleCases(op, 8)).first;
  return it->second;
}

Case MakeCase(const std::string& op, const std::string& src, const std::string& dst,
              const std::string& rmode, bool sat, const std::vector<std::string>& in) {
  return generator::MakeCase(op, src, dst, rmode, sat, in);
}

// Evaluates `cases` on the device and counts answers that differ from the registry.
std::size_t Mismatches(Device& device, const std::vector<Case>& cases) {
  std::vector<DeviceAnswer> answers(cases.size());
  device.Evaluate(cases, answers);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Encoded want = generator::EvaluateCase(cases[i]);
    if (!answers[i].supported || !(answers[i].result == want)) {
      if (++bad <= 3) {
        ADD_FAILURE() << device.Name() << " on " << generator::EvalCommand(cases[i]) << ": got "
                      << (answers[i].supported ? std::to_string(answers[i].result.word) + "/" +
                                                     std::to_string(answers[i].result.status)
                                               : std::string("unsupported"))
                      << ", want " << want.word << "/" << int{want.status};
      }
    }
  }
  return bad;
}

std::string TestDut(const std::string& fault) {
  return std::string(PTOVEC_TEST_DUT_DIR) + "/libptovec_test_dut_" + fault + ".so";
}

// The DeviceError message of `f`, or "" when it did not throw one.
template <typename F>
std::string ErrorOf(F&& f) {
  try {
    f();
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "";
}

// A protocol device written as a shell script: reads the hello, says hello, then runs `loop`
// for every case line with $i the index.
std::string ShellDevice(const std::string& hello, const std::string& loop) {
  return "/bin/sh -c 'read h; echo \"" + hello + "\"; while read i rest; do " + loop + "; done'";
}

const std::vector<Case>& TwoCases() {
  static const std::vector<Case> cases = {
      MakeCase("tcvt", "fp16", "e8m0", "RNE", false, {"0x3c00"}),
      MakeCase("tcvt", "fp16", "e8m0", "RTZ", true, {"0x3e00"})};
  return cases;
}

// ---------------------------------------------------------------------------------------------
// The oracle as devices.

TEST(OracleDevice, LibraryEqualsRegistryOnEveryOp) {
  auto device = OpenLibraryDevice(PTOVEC_ORACLE_DUT);
  EXPECT_EQ(device->Name(), "ptovec-oracle");
  for (const OpDef& op : generator::AllOps()) {
    const std::vector<Case>& cases = EveryOpCases(op);
    ASSERT_GE(cases.size(), op.legal_pairs.size() * 8) << op.name;
    EXPECT_EQ(Mismatches(*device, cases), 0u) << op.name;
  }
}

TEST(OracleDevice, ProgramEqualsRegistryOnEveryOp) {
  auto device = OpenCommandDevice(std::string("'") + PTOVEC_ORACLE_DEVICE + "'");
  EXPECT_EQ(device->Name(), "ptovec-oracle");
  std::size_t total = 0;
  for (const OpDef& op : generator::AllOps()) {
    const std::vector<Case>& cases = EveryOpCases(op);
    total += cases.size();
    EXPECT_EQ(Mismatches(*device, cases), 0u) << op.name;  // large batches: the writer thread
    // Small batches (written inline), one case at a time, as shrink sends them.
    for (std::size_t i = 0; i < cases.size(); i += cases.size() / 5 + 1) {
      EXPECT_EQ(Mismatches(*device, {cases[i]}), 0u) << op.name;
    }
  }
  EXPECT_GT(total, 10000u);
}

TEST(OracleDevice, ProgramNameFromQuotedArgument) {
  auto device =
      OpenCommandDevice(std::string("\"") + PTOVEC_ORACLE_DEVICE + "\" --name 'my oracle 2'");
  EXPECT_EQ(device->Name(), "my oracle 2");
  std::vector<DeviceAnswer> answers(2);
  device->Evaluate(TwoCases(), answers);
  EXPECT_TRUE(answers[0].supported);
  EXPECT_EQ(answers[0].result.word, 0x7Fu);  // 1.0 -> 2^0
  EXPECT_EQ(answers[0].result.status, 0x00);
  EXPECT_EQ(answers[1].result.word, 0x7Fu);  // 1.5 RTZ -> 2^0, inexact
  EXPECT_EQ(answers[1].result.status, 0x10);
}

TEST(OracleDevice, ProgramAnswersALargeBatchInOrder) {
  // tcvt fp16 -> e8m0: every even code x 14 controls (458,752 cases) in one Evaluate call, so the
  // protocol's pipelining (many lines in flight) is exercised; every answer must be the
  // registry's, in order. Throughput is bench/'s business, not a test's.
  const OpDef& op = *generator::FindOp("tcvt");
  std::vector<Case> cases;
  for (Word code = 0; code < 0x10000; code += 2) {
    for (const auto& control : generator::ControlsFor(op)) {
      cases.push_back(Case{&op, {T::FP16, T::E8M0}, control, {code, 0, 0, 0}});
    }
  }
  auto device = OpenCommandDevice(std::string("'") + PTOVEC_ORACLE_DEVICE + "'");
  std::vector<DeviceAnswer> answers(cases.size());
  device->Evaluate(cases, answers);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Encoded expected = generator::EvaluateCase(cases[i]);
    if (!answers[i].supported || answers[i].result.word != expected.word ||
        answers[i].result.status != expected.status) {
      ++wrong;
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(answers[0x3c00 / 2 * 14].result.word, 0x7Fu);
  EXPECT_EQ(answers.back().result.word, 0xFFu);  // 0xfffe is a NaN: 0xff with NV
  EXPECT_EQ(answers.back().result.status, 0x01);
}

TEST(OracleDevice, PythonShiftExampleEqualsRegistry) {
  auto device = OpenCommandDevice(std::string("/usr/bin/python3 '") + PTOVEC_SHIFT_EXAMPLE + "'");
  EXPECT_EQ(device->Name(), "python-shift-example");
  std::vector<Case> cases = SampleCases(*generator::FindOp("shift"), 500);
  ASSERT_EQ(cases.size(), 500u);
  EXPECT_EQ(Mismatches(*device, cases), 0u);
  std::vector<DeviceAnswer> answers(2);
  device->Evaluate(TwoCases(), answers);
  EXPECT_FALSE(answers[0].supported);  // it only knows shift
  EXPECT_FALSE(answers[1].supported);
}

// ---------------------------------------------------------------------------------------------
// Library loading and evaluation errors.

TEST(LibraryDeviceErrors, MissingFile) {
  EXPECT_EQ(ErrorOf([] { OpenLibraryDevice("/nonexistent/libdut.so"); }),
            "cannot load device /nonexistent/libdut.so: no such file");
}

TEST(LibraryDeviceErrors, NotASharedLibrary) {
  const std::string path = PTOVEC_SHIFT_EXAMPLE;
  const std::string message = ErrorOf([&] { OpenLibraryDevice(path); });
  EXPECT_EQ(message.rfind("cannot load device " + path + ": not a loadable shared library (", 0),
            0u)
      << message;
}

TEST(LibraryDeviceErrors, MissingEvaluateSymbol) {
  EXPECT_EQ(ErrorOf([] { OpenLibraryDevice(TestDut("missing_evaluate")); }),
            "device " + TestDut("missing_evaluate") +
                " does not export ptovec_dut_evaluate (required by ptovec_dut.h)");
}

TEST(LibraryDeviceErrors, AbiVersionMismatch) {
  EXPECT_EQ(ErrorOf([] { OpenLibraryDevice(TestDut("abi_mismatch")); }),
            "device " + TestDut("abi_mismatch") +
                " implements DUT ABI version 7, this ptovec speaks versions 1, 2 and 3 (rebuild it "
                "against ptovec_dut.h)");
}

TEST(LibraryDeviceErrors, InitRefusedAndAccepted) {
  EXPECT_EQ(ErrorOf([] { OpenLibraryDevice(TestDut("init_refuses"), "no"); }),
            "device " + TestDut("init_refuses") +
                " refused to start: ptovec_dut_init(\"no\") returned 3 (--dut-arg \"no\" not "
                "accepted; the device's documentation names the values it takes)");
  // Without --dut-arg the hint says so; only the demo device of docs/bring-up.md (a newcomer
  // saw its values named for another device) names its values, with or without an argument.
  EXPECT_EQ(ErrorOf([] { OpenLibraryDevice(TestDut("init_refuses"), ""); }),
            "device " + TestDut("init_refuses") +
                " refused to start: ptovec_dut_init(\"\") returned 3 (no --dut-arg given; the "
                "device's documentation names the values it takes)");
  const std::string demo = TestDut("policy");
  EXPECT_EQ(ErrorOf([&] { OpenLibraryDevice(demo, "bogus"); }),
            "device " + demo +
                " refused to start: ptovec_dut_init(\"bogus\") returned 1 (--dut-arg \"bogus\" "
                "not accepted; this demo device of docs/bring-up.md takes flagless, drop-nv, "
                "two-faults or rtz-rtm)");
  auto device = OpenLibraryDevice(TestDut("init_refuses"), "please");
  EXPECT_EQ(device->Name(), "broken");
  // It answers all-ones words: ptovec keeps the destination's width (E8M0: 8 bits).
  std::vector<DeviceAnswer> answers(2);
  device->Evaluate(TwoCases(), answers);
  EXPECT_EQ(answers[0].result.word, 0xFFu);
  EXPECT_EQ(answers[0].result.status, 0x00);
}

TEST(LibraryDeviceErrors, FlagsAboveBit4) {
  auto device = OpenLibraryDevice(TestDut("bad_flags"));
  std::vector<DeviceAnswer> answers(2);
  EXPECT_EQ(ErrorOf([&] { device->Evaluate(TwoCases(), answers); }),
            "device broken returned flags 0x20 with bits 7:5 set (only NV DZ OF UF NX, "
            "0x00..0x1f) on case: ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RNE 0x3c00");
}

TEST(LibraryDeviceErrors, UnknownReturnCode) {
  auto device = OpenLibraryDevice(TestDut("bad_return"));
  std::vector<DeviceAnswer> answers(2);
  EXPECT_EQ(ErrorOf([&] { device->Evaluate(TwoCases(), answers); }),
            "device broken returned 5 from ptovec_dut_evaluate (accepted: 0 OK, 1 UNSUPPORTED, "
            "2 ERROR) on case: ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RNE 0x3c00");
}

TEST(LibraryDeviceErrors, DeviceReportsError) {
  auto device = OpenLibraryDevice(TestDut("dut_error"));
  std::vector<DeviceAnswer> answers(2);
  EXPECT_EQ(ErrorOf([&] { device->Evaluate(TwoCases(), answers); }),
            "device broken failed (PTOVEC_DUT_ERROR) on case: ptovec eval --op tcvt --src fp16 "
            "--dst e8m0 --rmode RNE 0x3c00");
}

TEST(LibraryDeviceErrors, Version2WithoutBatchEntryPoint) {
  EXPECT_EQ(ErrorOf([] { OpenLibraryDevice(TestDut("v2_missing_batch")); }),
            "device " + TestDut("v2_missing_batch") +
                " does not export ptovec_dut_evaluate_batch (required by ptovec_dut.h)");
}

TEST(LibraryDeviceErrors, Version2BatchFaults) {
  std::vector<DeviceAnswer> answers(2);
  auto bad_status = OpenLibraryDevice(TestDut("batch_bad_status"));
  EXPECT_FALSE(bad_status->ThreadSafe());  // no ptovec_dut_properties
  EXPECT_EQ(ErrorOf([&] { bad_status->Evaluate(TwoCases(), answers); }),
            "device broken returned 9 as a case's status from ptovec_dut_evaluate_batch "
            "(accepted: 0 OK, 1 UNSUPPORTED, 2 ERROR) on case: ptovec eval --op tcvt --src fp16 "
            "--dst e8m0 --rmode RTZ --sat 0x3e00");
  auto unmarked = OpenLibraryDevice(TestDut("batch_error_unmarked"));
  EXPECT_EQ(ErrorOf([&] { unmarked->Evaluate(TwoCases(), answers); }),
            "device broken failed (PTOVEC_DUT_ERROR from ptovec_dut_evaluate_batch, no case "
            "marked) on 2 cases starting with: ptovec eval --op tcvt --src fp16 --dst e8m0 "
            "--rmode RNE 0x3c00");
  auto second = OpenLibraryDevice(TestDut("batch_second_fails"));
  EXPECT_EQ(ErrorOf([&] { second->Evaluate(TwoCases(), answers); }),
            "device broken failed (PTOVEC_DUT_ERROR) on case: ptovec eval --op tcvt --src fp16 "
            "--dst e8m0 --rmode RTZ --sat 0x3e00");
  EXPECT_FALSE(second->Clocks().has_value());  // no ptovec_dut_clock_counts
  // A batch failed as a whole, with the device's own account: quoted, no case of the batch named.
  auto explained = OpenLibraryDevice(TestDut("batch_explained"));
  EXPECT_EQ(ErrorOf([&] { explained->Evaluate(TwoCases(), answers); }),
            "device broken failed (PTOVEC_DUT_ERROR) on a batch of 2 cases: clock 9: result tag "
            "0x5 where tag 0x4 is due");
  ASSERT_TRUE(explained->Clocks().has_value());
  EXPECT_EQ(explained->Clocks()->cases, 40u);
  EXPECT_EQ(explained->Clocks()->clocks, 57u);
  // One case at a time the same device answers (all-ones words, kept to E8M0's 8 bits).
  std::vector<DeviceAnswer> one(1);
  second->Evaluate(std::span<const Case>(TwoCases()).first(1), one);
  EXPECT_TRUE(one[0].supported);
  EXPECT_EQ(one[0].result.word, 0xFFu);
}

TEST(OracleDevice, Version2IsThreadSafeAndAgreesFromManyThreads) {
  auto device = OpenLibraryDevice(PTOVEC_ORACLE_DUT);
  ASSERT_TRUE(device->ThreadSafe());
  const std::vector<Case>& cases = EveryOpCases(*generator::FindOp("encode"));
  std::vector<std::vector<DeviceAnswer>> answers(4, std::vector<DeviceAnswer>(cases.size()));
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < answers.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) device->Evaluate(cases, answers[t]);
    });
  }
  for (std::thread& t : threads) t.join();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Encoded want = generator::EvaluateCase(cases[i]);
    for (const auto& a : answers) {
      ASSERT_TRUE(a[i].supported);
      ASSERT_EQ(a[i].result, want) << generator::EvalCommand(cases[i]);
    }
  }
  // The F16C example is a version 1 device: accepted, never called from two threads.
#ifdef PTOVEC_F16C_DUT
  EXPECT_FALSE(OpenLibraryDevice(PTOVEC_F16C_DUT)->ThreadSafe());
#endif
}

TEST(OracleDevice, BatchEntryPointAnswersLikeTheSingleCaseOne) {
  // The oracle library's ptovec_dut_evaluate_batch evaluates a run of one input's controls
  // together; case by case it must answer as ptovec_dut_evaluate does, also where a run is broken
  // by a bad control, a bad input count, another op text at another address, an unknown op, an
  // illegal pair or an input outside the op's domain.
  void* handle = ::dlopen(PTOVEC_ORACLE_DUT, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << ::dlerror();
  using One = int (*)(const ptovec_dut_case*, ptovec_dut_result*);
  using Batch = int (*)(const ptovec_dut_case*, ptovec_dut_result*, uint8_t*, uint64_t);
  const auto one = reinterpret_cast<One>(::dlsym(handle, "ptovec_dut_evaluate"));
  const auto batch = reinterpret_cast<Batch>(::dlsym(handle, "ptovec_dut_evaluate_batch"));
  ASSERT_TRUE(one != nullptr && batch != nullptr);
  static const char kTcvt[] = "tcvt";
  static const char kTcvtElsewhere[] = "tcvt";  // equal text at another address
  static const char kEncode[] = "encode";
  const auto make = [](const char* op, T src, T dst, int rmode, int sat, uint64_t in) {
    ptovec_dut_case c{};
    c.op = op;
    c.src_code = static_cast<uint8_t>(src);
    c.dst_code = static_cast<uint8_t>(dst);
    c.rmode = static_cast<uint8_t>(rmode);
    c.sat = static_cast<uint8_t>(sat);
    c.n_inputs = 1;
    c.inputs[0] = in;
    return c;
  };
  std::vector<ptovec_dut_case> cases;
  for (int m = 0; m < 7; ++m) {
    for (int sat = 0; sat < 2; ++sat)
      cases.push_back(make(kTcvt, T::FP32, T::E8M0, m, sat, 0x3FC00000));
  }
  cases.push_back(make(kTcvt, T::FP32, T::E8M0, 7, 0, 0x3FC00000));  // rmode 7: ERROR
  cases.push_back(make(kTcvt, T::FP32, T::E8M0, 1, 0, 0x3FC00000));
  cases.push_back(make(kTcvt, T::FP32, T::E8M0, 1, 2, 0x3FC00000));  // sat 2: ERROR
  cases.push_back(make(kTcvtElsewhere, T::FP32, T::E8M0, 2, 0, 0x3FC00000));
  cases.push_back(make(kTcvtElsewhere, T::FP16, T::E8M0, 2, 0, 0x7BFF));
  cases.push_back(make(kTcvt, T::FP16, T::E8M0, 3, 1, 0x7BFF));
  ptovec_dut_case two = make(kTcvt, T::FP16, T::E8M0, 3, 1, 0x7BFF);
  two.n_inputs = 2;  // ERROR
  cases.push_back(two);
  cases.push_back(make(kTcvt, T::FP16, T::E8M0, 3, 1, 0x17BFF));      // too wide: ERROR
  cases.push_back(make("nosuchop", T::FP16, T::E8M0, 0, 0, 0x3C00));  // UNSUPPORTED
  cases.push_back(make(kEncode, T::FP16, T::E8M0, 0, 0, 0x3C00));     // illegal pair
  cases.push_back(make(kEncode, T::FP16, T::E4M3, 0, 0, 0x7E00));     // NaN: ERROR
  cases.push_back(make(kEncode, T::FP16, T::E4M3, 0, 0, 0x5F08));
  cases.push_back(make(kEncode, T::FP16, T::E4M3, 0, 1, 0x5F08));
  std::vector<ptovec_dut_result> got(cases.size(), {0xDEAD, 0xFF});
  std::vector<uint8_t> status(cases.size(), 0xFF);
  EXPECT_EQ(batch(cases.data(), got.data(), status.data(), cases.size()), PTOVEC_DUT_ERROR);
  std::map<int, int> by_status;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    ptovec_dut_result want{0, 0};
    const int want_status = one(&cases[i], &want);
    ASSERT_EQ(status[i], want_status) << "case " << i;
    ++by_status[want_status];
    if (want_status == PTOVEC_DUT_OK) {
      EXPECT_EQ(got[i].word, want.word) << "case " << i;
      EXPECT_EQ(got[i].flags, want.flags) << "case " << i;
    }
  }
  EXPECT_EQ(by_status,
            (std::map<int, int>{
                {PTOVEC_DUT_OK, 20}, {PTOVEC_DUT_UNSUPPORTED, 2}, {PTOVEC_DUT_ERROR, 5}}));
  // Known answers: FP32 1.5 into E8M0 is 0x80 under RNE, 0x7F under RTM; FP16 65504 (0x7BFF)
  // is 0x8E under RTZ; FP16 450 (0x5F08) into E4M3 overflows: 0x7F (NaN) without Sat, 0x7E
  // (448) with it, OF|NX either way.
  EXPECT_EQ(got[0].word, 0x80u);
  EXPECT_EQ(got[2].word, 0x7Fu);
  EXPECT_EQ(got[19].word, 0x8Eu);
  EXPECT_EQ(got[25].word, 0x7Fu);
  EXPECT_EQ(got[26].word, 0x7Eu);
  EXPECT_EQ(got[26].flags, 0x14u);
  EXPECT_EQ(batch(nullptr, nullptr, nullptr, 0), PTOVEC_DUT_OK);
  EXPECT_EQ(batch(nullptr, got.data(), status.data(), 1), PTOVEC_DUT_ERROR);
  ::dlclose(handle);
}

TEST(OracleDevice, ProductEvaluationEqualsCaseByCase) {
  // Device::EvaluateProduct (every input under every control, the exhaustive runs' call): the
  // library device fills its ABI cases directly, a program device goes through the default
  // (cases built, then Evaluate); both answer as Evaluate does for the same cases in that order.
  const OpDef& op = *generator::FindOp("encode");
  const TypePair pair{T::FP16, T::E4M3};
  std::vector<generator::Inputs> inputs;
  for (Word w = 0x5E00; w < 0x5F40; w += 3) inputs.push_back({w, 0, 0, 0});
  const std::vector<generator::NumericExecutionControl> controls = generator::ControlsFor(op);
  std::vector<Case> cases;
  for (const auto& in : inputs) {
    for (const auto& control : controls) {
      Case c;
      c.op = &op;
      c.pair = pair;
      c.in = in;
      c.control = control;
      cases.push_back(c);
    }
  }
  auto library = OpenLibraryDevice(PTOVEC_ORACLE_DUT);
  auto program = OpenCommandDevice(std::string("'") + PTOVEC_ORACLE_DEVICE + "'");
  for (Device* device : {library.get(), program.get()}) {
    std::vector<DeviceAnswer> product(cases.size());
    std::vector<DeviceAnswer> each(cases.size());
    device->EvaluateProduct(op, pair, inputs, controls, product);
    device->Evaluate(cases, each);
    std::size_t overflowed = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      ASSERT_TRUE(product[i].supported && each[i].supported);
      ASSERT_EQ(product[i].result, each[i].result) << generator::EvalCommand(cases[i]);
      ASSERT_EQ(product[i].result, generator::EvaluateCase(cases[i]));
      if (product[i].result.status == 0x14) ++overflowed;
    }
    EXPECT_GT(overflowed, 0u) << device->Name();  // 449 and up overflow E4M3 in every mode
    // Again after Evaluate (which reuses the library's buffers), with fewer inputs, and with
    // another control list: the same answers as case by case.
    std::vector<DeviceAnswer> again(cases.size() - controls.size());
    device->EvaluateProduct(op, pair, std::span(inputs).subspan(1), controls, again);
    for (std::size_t i = 0; i < again.size(); ++i) {
      ASSERT_EQ(again[i].result, each[i + controls.size()].result) << i;
    }
    const std::vector<generator::NumericExecutionControl> rtz_sat = {
        {oracle::NumericRoundingMode::RTZ, true}};
    std::vector<DeviceAnswer> one(inputs.size());
    device->EvaluateProduct(op, pair, inputs, rtz_sat, one);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      Case c = cases[i * controls.size()];
      c.control = rtz_sat[0];
      ASSERT_EQ(one[i].result, generator::EvaluateCase(c)) << generator::EvalCommand(c);
    }
    std::vector<DeviceAnswer> short_answers(cases.size() - 1);
    EXPECT_NE(ErrorOf([&] { device->EvaluateProduct(op, pair, inputs, controls, short_answers); }),
              "");
  }
  program->Close();
}

TEST(LibraryDeviceErrors, OracleRefusesOutOfDomainAndUnknownOps) {
  // The oracle device answers ERROR for inputs outside the seed's domain (shift by 0).
  auto device = OpenLibraryDevice(PTOVEC_ORACLE_DUT);
  Case c = MakeCase("shift", "s32", "s16", "RNE", false, {"0x00000010", "0x01"});
  c.in[1] = 0;
  std::vector<DeviceAnswer> answers(1);
  EXPECT_EQ(ErrorOf([&] {
              device->Evaluate({&c, 1}, answers);
            }),
            "device ptovec-oracle failed (PTOVEC_DUT_ERROR) on case: ptovec eval --op shift "
            "--src s32 --dst s16 --rmode RNE 0x00000010 0x00");
}

TEST(OracleDevice, RefusesControlsIllegalForTheInput) {
  // fpatr's legal controls depend on the PreQuantMode (BundleFPATRDATRFieldsLegal): the oracle
  // devices refuse an illegal one as `eval` does, the program with check_control's line; a batch
  // answers the legal controls of a run and refuses the others.
  Case c =
      MakeCase("fpatr", "fp32", "fp16", "RNE", false, {"0xbec497c8", "0x01", "0x00", "0x0", "0x0"});
  c.control = {oracle::NumericRoundingMode::RTZ, false};
  const std::string reproduce =
      "ptovec eval --op fpatr --src fp32 --dst fp16 --rmode RTZ 0xbec497c8 0x01 0x00 "
      "0x0000000000000000 0x0000000000000000";
  std::vector<DeviceAnswer> answers(1);
  auto library = OpenLibraryDevice(PTOVEC_ORACLE_DUT);
  EXPECT_EQ(ErrorOf([&] {
              library->Evaluate({&c, 1}, answers);
            }),
            "device ptovec-oracle failed (PTOVEC_DUT_ERROR) on case: " + reproduce);
  auto program = OpenCommandDevice(std::string("'") + PTOVEC_ORACLE_DEVICE + "'");
  EXPECT_EQ(ErrorOf([&] {
              program->Evaluate({&c, 1}, answers);
            })
                .rfind("device ptovec-oracle reported an error on case 0 (" + reproduce +
                           "): pre_quant_mode 1 has fixed rounding (RNE; "
                           "BundleFPATRDATRFieldsLegal: the B.DATR RMode must be the default): "
                           "--rmode RTZ is refused; accepted --rmode RNE with --sat off or on",
                       0),
            0u)
      << ErrorOf([&] {
           program->Evaluate({&c, 1}, answers);
         });

  // The batch entry point over one input's 14 controls: RNE with either Sat answered, 12 refused.
  void* handle = ::dlopen(PTOVEC_ORACLE_DUT, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << ::dlerror();
  using Batch = int (*)(const ptovec_dut_case*, ptovec_dut_result*, uint8_t*, uint64_t);
  const auto batch = reinterpret_cast<Batch>(::dlsym(handle, "ptovec_dut_evaluate_batch"));
  ASSERT_TRUE(batch != nullptr);
  static const char kFpatr[] = "fpatr";
  std::vector<ptovec_dut_case> cases;
  for (int m = 0; m < 7; ++m) {
    for (int sat = 0; sat < 2; ++sat) {
      ptovec_dut_case k{};
      k.op = kFpatr;
      k.src_code = static_cast<uint8_t>(T::FP32);
      k.dst_code = static_cast<uint8_t>(T::FP16);
      k.rmode = static_cast<uint8_t>(m);
      k.sat = static_cast<uint8_t>(sat);
      k.n_inputs = 5;
      k.inputs[0] = 0xBEC497C8;
      k.inputs[1] = 1;
      cases.push_back(k);
    }
  }
  std::vector<ptovec_dut_result> got(cases.size(), {0xDEAD, 0xFF});
  std::vector<uint8_t> status(cases.size(), 0xFF);
  EXPECT_EQ(batch(cases.data(), got.data(), status.data(), cases.size()), PTOVEC_DUT_ERROR);
  std::vector<uint8_t> want(cases.size(), PTOVEC_DUT_ERROR);
  want[0] = want[1] = PTOVEC_DUT_OK;
  EXPECT_EQ(status, want);
  // -0.3839... into FP16 under RNE: 0xb624, inexact (NX).
  const Encoded rne = generator::EvaluateCase(
      MakeCase("fpatr", "fp32", "fp16", "RNE", true, {"0xbec497c8", "0x01", "0x00", "0x0", "0x0"}));
  EXPECT_EQ(got[1].word, rne.word);
  EXPECT_EQ(got[1].flags, rne.status);
  ::dlclose(handle);
  program->Close();
}

// ---------------------------------------------------------------------------------------------
// Program devices: starting, hello, answers.

TEST(CommandDeviceErrors, CannotStart) {
  EXPECT_EQ(ErrorOf([] { OpenCommandDevice("no-such-ptovec-device --fast"); }),
            "cannot start 'no-such-ptovec-device --fast': no-such-ptovec-device: No such file or "
            "directory");
  EXPECT_EQ(ErrorOf([] { OpenCommandDevice("sim 'unterminated"); }),
            "cannot start 'sim 'unterminated': unterminated single quote");
  EXPECT_EQ(ErrorOf([] { OpenCommandDevice("  "); }),
            "cannot start device: the command line is empty");
}

TEST(CommandDeviceErrors, ExitsBeforeHello) {
  const std::string message =
      ErrorOf([] { OpenCommandDevice("/bin/sh -c 'echo no licence >&2; exit 4'"); });
  EXPECT_EQ(message,
            "device /bin/sh exited before its hello line; it exited with status 4; its stderr "
            "ends: no licence");
}

TEST(CommandDeviceErrors, BadHello) {
  EXPECT_EQ(ErrorOf([] { OpenCommandDevice("/bin/sh -c 'read h; echo hello there'"); }),
            "device /bin/sh answered the hello with 'hello there' (expected 'ptovec-dut 1 NAME', "
            "schemas/dut-protocol.md); it exited with status 0");
  EXPECT_EQ(ErrorOf([] { OpenCommandDevice("/bin/sh -c 'read h; echo ptovec-dut 2 future'"); }),
            "device /bin/sh speaks line protocol version 2, this ptovec speaks version 1; it "
            "exited with status 0");
}

TEST(CommandDeviceErrors, ExitsEarly) {
  auto device = OpenCommandDevice(ShellDevice(
      "ptovec-dut 1 quitter", "echo \"$i 0x7f 0x00\"; echo segfault in lane 3 >&2; exit 3"));
  std::vector<DeviceAnswer> answers(2);
  EXPECT_EQ(ErrorOf([&] { device->Evaluate(TwoCases(), answers); }),
            "device quitter exited before answering case 1: ptovec eval --op tcvt --src fp16 "
            "--dst e8m0 --rmode RTZ --sat 0x3e00 (1 of 2 answers of this batch received); it "
            "exited with status 3; its stderr ends: segfault in lane 3");
  EXPECT_EQ(ErrorOf([&] { device->Evaluate(TwoCases(), answers); }),
            "device quitter is unusable after an earlier error");
}

TEST(CommandDeviceErrors, ExitsEarlyDuringALargeBatchWithoutSigpipe) {
  // The device leaves while ptovec is still writing ~2 MB of cases: the writer gets EPIPE
  // (SIGPIPE is ignored), and the error names the early exit.
  auto device = OpenCommandDevice("/bin/sh -c 'read h; echo ptovec-dut 1 leaver; exit 0'");
  const std::vector<Case> cases(60000, TwoCases()[0]);
  std::vector<DeviceAnswer> answers(cases.size());
  EXPECT_EQ(ErrorOf([&] { device->Evaluate(cases, answers); }),
            "device leaver exited before answering case 0: ptovec eval --op tcvt --src fp16 "
            "--dst e8m0 --rmode RNE 0x3c00 (0 of 60000 answers of this batch received); it "
            "exited with status 0");
}

TEST(CommandDeviceErrors, WrongIndex) {
  auto device =
      OpenCommandDevice(ShellDevice("ptovec-dut 1 skipper", "echo \"$((i+1)) 0x7f 0x00\""));
  std::vector<DeviceAnswer> answers(2);
  const std::string message = ErrorOf([&] { device->Evaluate(TwoCases(), answers); });
  EXPECT_EQ(message.rfind("device skipper answered case 0 (ptovec eval --op tcvt --src fp16 "
                          "--dst e8m0 --rmode RNE 0x3c00) with '1 0x7f 0x00': wrong index 1 "
                          "(expected 0; answers come one per case, in order) (0 of 2 answers",
                          0),
            0u)
      << message;
}

TEST(CommandDeviceErrors, WrongIndexDuringALargeBatchStopsTheWriter) {
  // The device is alive and still reading when ptovec gives up: it is killed so the writer thread
  // (blocked on a full pipe) ends before its descriptor is closed.
  auto device =
      OpenCommandDevice(ShellDevice("ptovec-dut 1 skipper", "echo \"$((i+1)) 0x7f 0x00\""));
  const std::vector<Case> cases(60000, TwoCases()[0]);
  std::vector<DeviceAnswer> answers(cases.size());
  const std::string message = ErrorOf([&] { device->Evaluate(cases, answers); });
  EXPECT_EQ(message.rfind("device skipper answered case 0 (", 0), 0u) << message;
  EXPECT_NE(message.find("wrong index 1 (expected 0; answers come one per case, in order) (0 of "
                         "60000 answers of this batch received); killed it to stop writing; it "
                         "was killed by signal 9"),
            std::string::npos)
      << message;
}

// The error message of a device answering every case with `answer` (shell text, $i the index).
std::string AnswerError(const std::string& answer) {
  auto device = OpenCommandDevice(ShellDevice("ptovec-dut 1 sim", "echo \"" + answer + "\""));
  std::vector<DeviceAnswer> answers(2);
  return ErrorOf([&] { device->Evaluate(TwoCases(), answers); });
}

TEST(CommandDeviceErrors, MalformedAnswers) {
  const std::string prefix =
      "device sim answered case 0 (ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RNE "
      "0x3c00) with '";
  const auto expect = [&](const std::string& answer, const std::string& line,
                          const std::string& what) {
    const std::string message = AnswerError(answer);
    EXPECT_EQ(message.rfind(prefix + line + "': " + what + " (0 of 2 answers", 0), 0u) << message;
  };
  expect("$i 0x7g 0x00", "0 0x7g 0x00", "malformed word (expected 0x and 1 to 16 hex digits)");
  expect("$i 7f 0x00", "0 7f 0x00", "malformed word (expected 0x and 1 to 16 hex digits)");
  expect("$i 0x7f", "0 0x7f",
         "expected '<index> <out> <flags>', '<index> unsupported' or '<index> error TEXT'");
  expect("$i 0x7f 0x00 extra", "0 0x7f 0x00 extra", "malformed flags (expected 0x00..0x1f)");
  expect("$i 0x17f 0x00", "0 0x17f 0x00", "word too wide for e8m0 (8 bits)");
  expect("$i 0x7f 0x20", "0 0x7f 0x20", "flags beyond NV DZ OF UF NX (accepted 0x00..0x1f)");
  expect("x 0x7f 0x00", "x 0x7f 0x00", "expected '<index> <out> <flags>'");
  expect("$i unsupported now", "0 unsupported now", "nothing may follow 'unsupported'");
  const std::string message = AnswerError("$i error lane 3 timed out");
  EXPECT_EQ(message.rfind("device sim reported an error on case 0 (ptovec eval --op tcvt --src "
                          "fp16 --dst e8m0 --rmode RNE 0x3c00): lane 3 timed out (0 of 2",
                          0),
            0u)
      << message;
}

TEST(CommandDevice, UnsupportedAndPaddedAnswers) {
  auto device = OpenCommandDevice(
      ShellDevice("ptovec-dut 1",
                  "if [ $i = 0 ]; then echo \"$i unsupported\"; else echo \"$i 0x007F 0x10\"; fi"));
  EXPECT_EQ(device->Name(), "/bin/sh");  // no name in the hello: the program
  std::vector<DeviceAnswer> answers(2);
  device->Evaluate(TwoCases(), answers);
  EXPECT_FALSE(answers[0].supported);
  EXPECT_TRUE(answers[1].supported);
  EXPECT_EQ(answers[1].result.word, 0x7Fu);
  EXPECT_EQ(answers[1].result.status, 0x10);
  // The index keeps counting across batches.
  device->Evaluate(TwoCases(), answers);
  EXPECT_TRUE(answers[0].supported);
}

// ---------------------------------------------------------------------------------------------
// How a program device ends (Close), hangs, and what it may print.

// Opens `command`, evaluates TwoCases() (which must succeed) and returns Close()'s error.
std::string CloseError(const std::string& command, double grace = 10) {
  CommandDeviceOptions options;
  options.exit_grace = grace;
  auto device = OpenCommandDevice(command, options);
  std::vector<DeviceAnswer> answers(2);
  device->Evaluate(TwoCases(), answers);
  return ErrorOf([&] { device->Close(); });
}

TEST(CommandDeviceEnd, CleanExitPasses) {
  EXPECT_EQ(CloseError(ShellDevice("ptovec-dut 1 fine", "echo \"$i 0x7f 0x00\"")), "");
}

TEST(CommandDeviceEnd, NonZeroExitStatusIsAnError) {
  EXPECT_EQ(CloseError("/bin/sh -c 'read h; echo ptovec-dut 1 leaky; while read i rest; do "
                       "echo \"$i 0x7f 0x00\"; done; echo \"==1==ERROR: AddressSanitizer: "
                       "heap-use-after-free\" >&2; exit 1'"),
            "device leaky failed after its input ended (the last case was 1; a device must exit "
            "with status 0); it exited with status 1; its stderr ends: ==1==ERROR: "
            "AddressSanitizer: heap-use-after-free");
}

TEST(CommandDeviceEnd, DeathBySignalAfterTheLastAnswerIsAnError) {
  EXPECT_EQ(CloseError("/bin/sh -c 'read h; echo ptovec-dut 1 crasher; while read i rest; do "
                       "echo \"$i 0x7f 0x00\"; done; kill -SEGV $$'"),
            "device crasher failed after its input ended (the last case was 1; a device must "
            "exit with status 0); it was killed by signal 11");
}

TEST(CommandDeviceEnd, AnExtraAnswerLineIsAProtocolError) {
  EXPECT_EQ(CloseError("/bin/sh -c 'read h; echo ptovec-dut 1 chatty; while read i rest; do "
                       "echo \"$i 0x7f 0x00\"; done; echo \"2 0x7f 0x00\"'"),
            "device chatty wrote '2 0x7f 0x00' after its last answer (the last case was 1; "
            "nothing may follow the last answer); it exited with status 0");
}

TEST(CommandDeviceEnd, ADeviceThatNeverExitsIsKilledAfterTheGracePeriod) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(CloseError("/bin/sh -c 'read h; echo ptovec-dut 1 stayer; while read i rest; do "
                       "echo \"$i 0x7f 0x00\"; done; exec sleep 30'",
                       0.5),
            "device stayer did not exit within 0.5 s after its input ended (the last case was "
            "1); killed it; it was killed by signal 9");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(CommandDeviceErrors, AnswerTimeoutNamesTheCase) {
  CommandDeviceOptions options;
  options.answer_timeout = 0.3;
  auto device = OpenCommandDevice(
      "/bin/sh -c 'read h; echo ptovec-dut 1 hanger; read i rest; echo \"$i 0x7f 0x00\"; "
      "exec sleep 30'",
      options);
  std::vector<DeviceAnswer> answers(2);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(ErrorOf([&] { device->Evaluate(TwoCases(), answers); }),
            "device hanger gave no answer to case 1 (ptovec eval --op tcvt --src fp16 --dst e8m0 "
            "--rmode RTZ --sat 0x3e00) within 0.3 s (--dut-timeout; does the device flush stdout "
            "after its answers?) (1 of 2 answers of this "
            "batch received); killed it; it was killed by signal 9");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(CommandDeviceErrors, HelloTimeout) {
  CommandDeviceOptions options;
  options.answer_timeout = 0.2;
  EXPECT_EQ(ErrorOf([&] { OpenCommandDevice("/bin/sh -c 'exec sleep 30'", options); }),
            "device /bin/sh sent no hello line within 0.2 s (--dut-timeout; a device must flush "
            "stdout after each line it writes); killed it; it was "
            "killed by signal 9");
}

TEST(CommandDevice, DiesWithTheThreadThatStartedIt) {
  // PR_SET_PDEATHSIG: when the opener goes (here a thread standing in for a killed ptovec),
  // the device gets SIGKILL instead of running on as an orphan.
  const std::string pid_file = ::testing::TempDir() + "ptovec_pdeathsig_pid";
  std::remove(pid_file.c_str());
  std::thread opener([&] {
    auto device = OpenCommandDevice("/bin/sh -c 'echo $$ > " + pid_file +
                                    "; read h; echo ptovec-dut 1 orphan; exec sleep 30'");
    // Never closed: as if ptovec had been killed. Kept reachable (a static), so LeakSanitizer
    // (the asan preset) does not report this deliberate leak.
    [[maybe_unused]] static Device* abandoned = nullptr;
    abandoned = device.release();
  });
  opener.join();
  std::FILE* f = std::fopen(pid_file.c_str(), "r");
  ASSERT_NE(f, nullptr);
  int pid = 0;
  ASSERT_EQ(std::fscanf(f, "%d", &pid), 1);
  std::fclose(f);
  int status = 0;
  pid_t r = 0;
  for (int i = 0; i < 500 && r == 0; ++i) {
    r = ::waitpid(pid, &status, WNOHANG);
    if (r == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(r, pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

TEST(CommandDevice, NamesAndQuotedTextAreSanitized) {
  // Invalid UTF-8 and control characters in the hello name are escaped (generator::EscapeText).
  auto device =
      OpenCommandDevice("/bin/sh -c 'read h; printf \"ptovec-dut 1 hi\\377\\376\\033x\\n\"'");
  EXPECT_EQ(device->Name(), "hi\\xff\\xfe\\x1bx");
  EXPECT_EQ(SanitizeDeviceText("caf\xc3\xa9 \xe2\x82\xac \xed\xa0\x80 \xc0\xaf\x07"),
            "caf\xc3\xa9 \xe2\x82\xac \\xed\\xa0\\x80 \\xc0\\xaf\\x07");
  // Control characters in quoted device text are escaped: the error stays one line.
  auto noisy = OpenCommandDevice(
      ShellDevice("ptovec-dut 1 sim", "printf \"%s error lane\\007 3\\033[31m red\\n\" $i"));
  std::vector<DeviceAnswer> answers(2);
  const std::string message = ErrorOf([&] { noisy->Evaluate(TwoCases(), answers); });
  EXPECT_EQ(message.rfind("device sim reported an error on case 0 (ptovec eval --op tcvt --src "
                          "fp16 --dst e8m0 --rmode RNE 0x3c00): lane\\x07 3\\x1b[31m red (0 of 2",
                          0),
            0u)
      << message;
}

// ---------------------------------------------------------------------------------------------
// The F16C example device against the profile (docs/f16c.md).

#ifdef PTOVEC_F16C_DUT
enum class F16cClass {
  Unsupported,        // RNA, RTO, RHB: vcvtps2ph has no such mode
  OverflowDirected,   // rule 1/3: profile Inf in every mode; IEEE RTZ/RTM/RTP largest finite
  OverflowSat,        // rule 3: Sat gives the largest finite; IEEE has no Sat (Inf)
  UnderflowTininess,  // rule 2: tiny before rounding (profile UF|NX) vs after rounding (NX)
  NegativeZero,       // rule 0: -0 encodes as +0 in the profile
  OverflowFlagOnly,   // the word rounds to the largest finite (profile NX) and the device also
                      // raises OF: the example device's old compiler artefact (docs/f16c.md)
  Other,
};

F16cClass Classify(const Case& c, const DeviceAnswer& got, Encoded want) {
  if (!got.supported) return F16cClass::Unsupported;
  const Word sign = want.word & 0x8000;
  if (c.in[0] == 0x80000000u && want.word == 0 && got.result.word == 0x8000 &&
      got.result.status == want.status) {
    return F16cClass::NegativeZero;
  }
  if ((want.status & oracle::kStatusOF) != 0 && got.result.status == want.status) {
    if (!c.control.saturating && want.word == (sign | 0x7C00) &&
        got.result.word == (sign | 0x7BFF)) {
      return F16cClass::OverflowDirected;
    }
    if (c.control.saturating && want.word == (sign | 0x7BFF) &&
        got.result.word == (sign | 0x7C00)) {
      return F16cClass::OverflowSat;
    }
  }
  if (want.word == (sign | 0x7BFF) && want.status == oracle::kStatusNX &&
      got.result.word == want.word &&
      got.result.status == (oracle::kStatusOF | oracle::kStatusNX)) {
    return F16cClass::OverflowFlagOnly;
  }
  if ((want.status & oracle::kStatusUF) != 0 && got.result.word == want.word &&
      got.result.status == (want.status & ~oracle::kStatusUF)) {
    return F16cClass::UnderflowTininess;
  }
  return F16cClass::Other;
}

TEST(F16cDevice, DisagreesWithTheProfileOnlyInKnownClasses) {
  // CPUID leaf 1, ECX bit 29 (clang 14 knows no "f16c" for __builtin_cpu_supports).
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0 || (ecx & bit_F16C) == 0) {
    GTEST_SKIP() << "this CPU has no F16C";
  }
  auto device = OpenLibraryDevice(PTOVEC_F16C_DUT);
  EXPECT_EQ(device->Name(), "f16c-vcvtps2ph");
  const OpDef& encode = *generator::FindOp("encode");
  const TypePair pair{T::FP32, T::FP16};
  // The default domain's strategies (ties, overflow thresholds, subnormal edges, uniform) plus
  // the values the classes are about.
  std::vector<Case> cases;
  const generator::InputSet set = encode.domain(pair, {1, 20000});
  std::vector<Word> values;
  for (std::uint64_t i = 0; i < set.count; ++i) values.push_back(set.at(i)[0]);
  for (Word v : {0x80000000u, 0x00000000u, 0x47800000u, 0xC7800000u, 0x387FF000u, 0x387FE000u,
                 0x33000001u, 0xB87FFFFEu, 0x477FEFFFu}) {
    values.push_back(v);
  }
  for (Word v : values) {
    for (const auto& control : generator::ControlsFor(encode)) {
      cases.push_back(Case{&encode, pair, control, {v, 0, 0, 0}});
    }
  }
  std::vector<DeviceAnswer> answers(cases.size());
  device->Evaluate(cases, answers);
  std::map<F16cClass, std::size_t> counts;
  std::map<F16cClass, std::string> examples;
  std::size_t agree = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Encoded want = generator::EvaluateCase(cases[i]);
    if (answers[i].supported && answers[i].result == want) {
      ++agree;
      continue;
    }
    const F16cClass k = Classify(cases[i], answers[i], want);
    if (counts[k]++ == 0) {
      examples[k] = generator::EvalCommand(cases[i]) + " -> profile " +
                    generator::HexWord(want.word, T::FP16) + " " +
                    generator::HexStatus(want.status) + ", f16c " +
                    (answers[i].supported ? generator::HexWord(answers[i].result.word, T::FP16) +
                                                " " + generator::HexStatus(answers[i].result.status)
                                          : std::string("unsupported"));
    }
  }
  const char* names[] = {
      "unsupported",   "overflow-directed",  "overflow-sat", "underflow-tininess",
      "negative-zero", "overflow-flag-only", "other"};
  std::printf("f16c vs profile: %zu cases, %zu agree\n", cases.size(), agree);
  for (const auto& [k, n] : counts) {
    std::printf("  %-19s %7zu  e.g. %s\n", names[static_cast<int>(k)], n, examples[k].c_str());
  }
  EXPECT_EQ(counts[F16cClass::Other], 0u) << examples[F16cClass::Other];
  // RNA, RTO, RHB x Sat off/on: 6 of the 14 controls.
  EXPECT_EQ(counts[F16cClass::Unsupported], values.size() * 6);
  EXPECT_GT(counts[F16cClass::OverflowDirected], 0u);
  EXPECT_GT(counts[F16cClass::OverflowSat], 0u);
  EXPECT_EQ(counts[F16cClass::NegativeZero],  // -0 under RNE RTM RTP RTZ x Sat off/on
            8u * static_cast<std::size_t>(std::count(values.begin(), values.end(), 0x80000000u)));
  // x86 detects tininess after rounding in every mode (0x387FF000 and 0xB87FFFFE round to the
  // smallest normal); OF only on overflow, whatever the mode (docs/f16c.md).
  EXPECT_GT(counts[F16cClass::UnderflowTininess], 0u);
  EXPECT_EQ(counts[F16cClass::OverflowFlagOnly], 0u) << examples[F16cClass::OverflowFlagOnly];
  EXPECT_GT(agree, cases.size() / 2);
  // Every answered case is the x86 behaviour model's answer exactly (oracle/behaviour.hpp).
  const oracle::NamedModel* x86 = oracle::FindBuiltinModel("x86");
  ASSERT_NE(x86, nullptr);
  std::size_t differs = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (!answers[i].supported) continue;
    const oracle::ModelAnswer a =
        generator::EvaluateModel(encode, pair, cases[i].in, cases[i].control, x86->behaviour);
    ASSERT_FALSE(a.word_open);
    ASSERT_EQ(answers[i].result, a.result) << generator::EvalCommand(cases[i]);
    differs += a.applied != 0 ? 1 : 0;
  }
  EXPECT_EQ(differs, cases.size() - agree - counts[F16cClass::Unsupported]);
}
#endif

}  // namespace
}  // namespace device_test
}  // namespace ptovec::tools
