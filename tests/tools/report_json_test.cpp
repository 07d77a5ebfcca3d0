// The JSON report (check_report.hpp: ReportJson, ReportSchema; `--report-json`): the causes,
// symptom groups, tallies and rules of a report built in process, with their values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "gate_test_support.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/check_report.hpp"
#include "ptovec/tools/exhaustive.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/schemas.hpp"

namespace ptovec::tools {
namespace {

using generator::Case;
using nlohmann::ordered_json;
using oracle::NumericRoundingMode;
using oracle::TileDataType;
using testing::TestDevice;

// tcvt fp16 -> e8m0 through a device that raises no NV for a negative normal input (430,080
// vectors) and answers 0x80 for 1.0 under RTZ and RTM (four vectors): the two-faults device.
CheckReport TwoFaultsReport() {
  TestDevice device([](const Case& c, DeviceAnswer& a) {
    const oracle::Word w = c.in[0];
    const oracle::Word exponent = (w >> 10) & 0x1f;
    if ((w & 0x8000) != 0 && exponent != 0 && exponent != 0x1f) {
      a.result.status = static_cast<Status>(a.result.status & ~oracle::kStatusNV);
    }
    if (w == 0x3c00 && (c.control.rounding_mode == NumericRoundingMode::RTZ ||
                        c.control.rounding_mode == NumericRoundingMode::RTM)) {
      a.result.word = 0x80;
    }
  });
  ExhaustiveOptions options;
  options.op = generator::FindOp("tcvt");
  options.pair = {TileDataType::FP16, TileDataType::E8M0};
  options.threads = 1;
  return RunExhaustive(device, options);
}

TEST(ReportJson, TwoFaultsGiveOneExplainedAndTwoUnexplainedCauses) {
  const CheckReport r = TwoFaultsReport();
  const ordered_json j = ReportJson(r);
  EXPECT_EQ(j["format"], "ptovec-report");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["device"], "test-oracle");
  EXPECT_EQ(j["passed"], false);
  EXPECT_EQ(j["compare"], "word+flags");
  EXPECT_EQ(j["known_differences"], ordered_json::array());
  const ordered_json& totals = j["totals"];
  EXPECT_EQ(totals["vectors"], 917504U);
  EXPECT_EQ(totals["matched"], 487420U);
  EXPECT_EQ(totals["mismatched"], 430084U);
  EXPECT_EQ(totals["word"], 4U);
  EXPECT_EQ(totals["flags"], 430080U);
  EXPECT_EQ(totals["both"], 0U);

  // The causes in the text report's order: the explained one, then the two coarse signatures.
  const ordered_json& causes = j["causes"];
  ASSERT_EQ(causes.size(), 3U) << causes.dump(1);
  EXPECT_EQ(causes[0]["explanation"], "NV never raised");
  EXPECT_EQ(causes[0]["text"], "NV never raised");
  EXPECT_EQ(causes[0]["vectors"], 430080U);
  EXPECT_EQ(causes[0]["symptom_groups"],
            ordered_json::parse(R"([{"group":3,"vectors":215040},{"group":4,"vectors":215040}])"));
  EXPECT_EQ(causes[0]["explained_as_well_by"],
            ordered_json::array({"no status flags (every status 0)"}));
  const ordered_json& nv = causes[0]["first"];
  EXPECT_EQ(nv["eval_line"]["in"], ordered_json::parse(R"(["0x8400"])"));
  EXPECT_EQ(nv["eval_line"]["rmode"], "RNE");
  EXPECT_EQ(nv["eval_line"]["flags"], "0x01");
  EXPECT_EQ(nv["eval_line"]["flag_names"], "NV");
  EXPECT_EQ(nv["got"], ordered_json::parse(R"({"out":"0xff","flags":"0x00"})"));
  EXPECT_EQ(nv["kind"], "wrong flags");
  EXPECT_EQ(causes[0]["eval"], "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RNE 0x8400");

  EXPECT_TRUE(causes[1]["explanation"].is_null());
  EXPECT_EQ(causes[1]["text"],
            "tcvt fp16 -> e8m0, sat off: word 1 code farther from zero; flags same");
  EXPECT_EQ(causes[1]["vectors"], 2U);
  EXPECT_EQ(causes[1]["symptom_groups"], ordered_json::parse(R"([{"group":1,"vectors":2}])"));
  EXPECT_EQ(causes[1]["explained_as_well_by"], ordered_json::array());
  EXPECT_EQ(causes[1]["first"]["eval_line"]["out"], "0x7f");
  EXPECT_EQ(causes[1]["first"]["eval_line"]["out_value"], "1");
  EXPECT_EQ(causes[1]["first"]["got"]["out"], "0x80");
  EXPECT_EQ(causes[1]["first"]["kind"], "wrong word");
  EXPECT_EQ(causes[1]["eval"], "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTM 0x3c00");
  EXPECT_TRUE(causes[2]["explanation"].is_null());
  EXPECT_EQ(causes[2]["text"],
            "tcvt fp16 -> e8m0, sat on: word 1 code farther from zero; flags same");
  EXPECT_EQ(causes[2]["symptom_groups"], ordered_json::parse(R"([{"group":2,"vectors":2}])"));
  EXPECT_EQ(causes[2]["eval"],
            "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTM --sat 0x3c00");

  // Every symptom group, numbered as the text report's "group #N".
  const ordered_json& groups = j["symptom_groups"];
  ASSERT_EQ(groups.size(), 4U);
  EXPECT_EQ(groups[0]["group"], 1);
  EXPECT_EQ(groups[0]["signature"],
            "sat off; input +normal; expected +normal -; got +normal -; word 1 code farther from "
            "zero; flags same");
  EXPECT_EQ(groups[0]["vectors"], 2U);
  EXPECT_EQ(groups[0]["controls"], ordered_json::parse(R"([{"rmode":"RTM","sat":false},
                                                           {"rmode":"RTZ","sat":false}])"));
  EXPECT_EQ(groups[3]["group"], 4);
  EXPECT_EQ(groups[3]["signature"],
            "sat on; input -normal; expected nan NV; got nan -; word same; flags -NV");
  EXPECT_EQ(groups[3]["vectors"], 215040U);
  EXPECT_EQ(groups[3]["controls"].size(), 7U);
  EXPECT_EQ(groups[3]["eval"],
            "ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RNE --sat 0x8400");
  EXPECT_EQ(groups[3]["skipped"], false);

  // One row per mode and Sat: RTZ off has its word failure and 30,720 NV failures.
  const ordered_json& rows = j["per_control"];
  ASSERT_EQ(rows.size(), 14U);
  EXPECT_EQ(rows[6]["rmode"], "RTZ");
  EXPECT_EQ(rows[6]["sat"], false);
  EXPECT_EQ(rows[6]["vectors"], 65536U);
  EXPECT_EQ(rows[6]["word"], 1U);
  EXPECT_EQ(rows[6]["flags"], 30720U);
  EXPECT_EQ(j["known_difference_rules"], ordered_json::array());
  EXPECT_TRUE(j["incomplete"].is_null());
  EXPECT_EQ(j["device_failures"], ordered_json::array());
}

// Known differences: the rules with their status; an op without controls has null mode and Sat;
// a skipped unsupported group; a passing report has no causes.
TEST(ReportJson, RulesControlsAndSkippedGroups) {
  Judge judge;
  judge.known = LoadKnownDifferences({"ieee754"});
  judge.allow_unsupported = true;
  CheckAccumulator acc(5, {}, judge);
  const generator::OpDef& encode = *generator::FindOp("encode");
  acc.BeginFile("encode_fp32_fp16.bin", encode, {TileDataType::FP32, TileDataType::FP16}, 2);
  Case c;
  c.op = &encode;
  c.pair = {TileDataType::FP32, TileDataType::FP16};
  c.in = {0x80000000U, 0, 0, 0, 0};  // -0 (the profile: +0), answered -0: ieee754/signed-zero
  DeviceAnswer got{true, generator::EvaluateCase(c)};
  got.result.word = 0x8000;
  acc.Add(0, c, generator::EvaluateCase(c), got);
  c.in[0] = 0x3f800000U;  // 1.0, unsupported
  acc.Add(1, c, generator::EvaluateCase(c), DeviceAnswer{false, {}});
  const generator::OpDef& qparam = *generator::FindOp("qparam");
  Case q;
  q.op = &qparam;
  q.pair = {TileDataType::FP32, TileDataType::U64};
  q.in = {0x3f800000U, 0, 0, 0, 0};
  acc.BeginFile("qparam_fp32_u64.bin", qparam, q.pair, 1);
  acc.Add(0, q, generator::EvaluateCase(q), DeviceAnswer{true, generator::EvaluateCase(q)});
  const CheckReport report = acc.Finish();
  const ordered_json j = ReportJson(report);
  EXPECT_EQ(j["passed"], true);
  EXPECT_EQ(j["known_differences"], ordered_json::parse(R"(["ieee754"])"));
  EXPECT_EQ(j["allow_unsupported"], true);
  EXPECT_EQ(j["totals"]["waived"], 1U);
  EXPECT_EQ(j["totals"]["unsupported"], 1U);
  EXPECT_EQ(j["causes"], ordered_json::array());
  ASSERT_EQ(j["symptom_groups"].size(), 1U);
  EXPECT_EQ(j["symptom_groups"][0]["skipped"], true);
  EXPECT_EQ(j["symptom_groups"][0]["signature"], "sat off; got unsupported");
  EXPECT_EQ(j["symptom_groups"][0]["first"]["got"], "unsupported");
  EXPECT_EQ(j["symptom_groups"][0]["first"]["verdict"], "unsupported");
  const ordered_json& rows = j["per_control"];
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0]["rmode"], "RNE");
  EXPECT_EQ(rows[0]["waived"], 1U);
  EXPECT_EQ(rows[0]["unsupported"], 1U);
  EXPECT_EQ(rows[1]["op"], "qparam");
  EXPECT_TRUE(rows[1]["rmode"].is_null());
  EXPECT_TRUE(rows[1]["sat"].is_null());
  // Per pair: encode's two vectors (one waived, one unsupported), qparam's one matched; the
  // unsupported vector in one line of its pair, under RNE, Sat off.
  EXPECT_EQ(j["pairs"], ordered_json::parse(R"([
      {"op":"encode","src":"fp32","dst":"fp16","vectors":2,"matched":0,"waived":1,"failed":0,
       "unsupported":1},
      {"op":"qparam","src":"fp32","dst":"u64","vectors":1,"matched":1,"waived":0,"failed":0,
       "unsupported":0}])"));
  EXPECT_EQ(j["unsupported"], ordered_json::parse(R"([
      {"op":"encode","src":"fp32","dst":"fp16","vectors":1,"pair_vectors":2,
       "controls":[{"rmode":"RNE","sat":false,"vectors":1}],"controls_text":"RNE, Sat off",
       "symptom_groups":1}])"));
  EXPECT_EQ(j["per_class"], ordered_json::parse(R"([
      {"file":"encode_fp32_fp16.bin","op":"encode","src":"fp32","dst":"fp16",
       "class":"+normal exact","vectors":1,"mismatched":0,"unsupported":1}])"));
  EXPECT_TRUE(j["environment"]["vectors"].is_null());
  EXPECT_TRUE(j["environment"]["manifest_sha256"].is_null());
  EXPECT_EQ(j["environment"]["spec_edition"], "0.58.3");
  EXPECT_EQ(j["environment"]["known_differences"], ordered_json::parse(R"(["ieee754"])"));
  std::ostringstream text;
  PrintReport(text, report, 5);
  EXPECT_NE(text.str().find("\nunsupported: 1 vector in 1 pair, skipped (--allow-unsupported) "
                            "(their symptom groups are in --report-json):\n"
                            "  encode fp32 -> fp16: 1 of 2 vectors under RNE, Sat off "
                            "(1 symptom group)\n"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("\n  total                           3           1           1"
                            "           0           1\n"),
            std::string::npos)
      << text.str();
  bool signed_zero = false;
  for (const ordered_json& rule : j["known_difference_rules"]) {
    if (rule["name"] != "ieee754/signed-zero") continue;
    signed_zero = true;
    EXPECT_EQ(rule["status"], "waived");
    EXPECT_EQ(rule["model"], true);
    EXPECT_EQ(rule["waived"], 1U);
    EXPECT_EQ(rule["differs"], 1U);
    EXPECT_TRUE(rule["scope"].is_null());
    EXPECT_EQ(rule["first"]["verdict"], "waived");
    EXPECT_EQ(rule["first"]["eval_line"]["in"], ordered_json::parse(R"(["0x80000000"])"));
  }
  EXPECT_TRUE(signed_zero) << j["known_difference_rules"].dump(1);
}

// `ptovec schema report` is the report's schema, with the eval line's definitions and the
// explanation names of the diagnosis.
TEST(ReportJson, SchemaIsRegistered) {
  const auto schema = SchemaByName("report");
  ASSERT_TRUE(schema);
  EXPECT_EQ(SchemaFileName("report"), "report.schema.json");
  EXPECT_EQ((*schema)["properties"]["format"]["const"], "ptovec-report");
  EXPECT_TRUE((*schema)["$defs"].contains("result"));
  const ordered_json& names = (*schema)["$defs"]["cause"]["properties"]["explanation"]["enum"];
  EXPECT_NE(std::find(names.begin(), names.end(), "NV never raised"), names.end());
  EXPECT_TRUE(names.back().is_null());
}

}  // namespace
}  // namespace ptovec::tools
