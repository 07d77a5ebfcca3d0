// The facts of include/ptovec/facts.h (issue 39: each written once) against every copy that
// must remain: the public constants of the C API and the device ABI (their stable values), the
// generated Python module python/ptovec/_facts.py, the flag-order table of docs/devices.md, the
// DPI-C localparams, the coverage heat map's modes, and the counts the README and docs quote (the
// mutant catalogue, the smoke suite).
#include "ptovec/facts.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "mutants.hpp"
#include "ptovec/generator/compare_policy.hpp"
#include "ptovec/oracle/rounding.hpp"
#include "ptovec/ptovec.h"
#include "ptovec_dut.h"

namespace facts_test {
namespace {

namespace fs = std::filesystem;

const fs::path kTop = PTOVEC_TEST_SOURCE_DIR;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// `files`, then the Markdown pages of each folder of `folders` (under the top of the tree).
std::vector<fs::path> Pages(std::vector<fs::path> files,
                            std::initializer_list<const char*> folders) {
  for (const char* folder : folders) {
    for (const auto& entry : fs::directory_iterator(kTop / folder)) {
      if (entry.path().extension() == ".md") files.push_back(entry.path());
    }
  }
  return files;
}

constexpr const char* kStatusNames[] = {PTOVEC_FACTS_STATUS_NAMES};
constexpr const char* kModeNames[] = {PTOVEC_FACTS_MODE_NAMES};
constexpr unsigned char kOrderBits[PTOVEC_FACTS_FLAG_ORDERS][PTOVEC_FACTS_STATUS_BITS] = {
    PTOVEC_FACTS_FLAG_ORDER_BITS};
struct OrderName {
  const char* name;
  int order;
};
#define FACTS_TEST_ORDER(text, value) {text, value},
constexpr OrderName kOrderNames[] = {PTOVEC_FACTS_FLAG_ORDER_NAMES(FACTS_TEST_ORDER)};
#undef FACTS_TEST_ORDER

// The values devices, files and the C API rely on: never to change.
TEST(FactsTest, PublicConstantsKeepTheirValues) {
  EXPECT_EQ(PTOVEC_DUT_FLAG_NV, 0x01U);
  EXPECT_EQ(PTOVEC_DUT_FLAG_DZ, 0x02U);
  EXPECT_EQ(PTOVEC_DUT_FLAG_OF, 0x04U);
  EXPECT_EQ(PTOVEC_DUT_FLAG_UF, 0x08U);
  EXPECT_EQ(PTOVEC_DUT_FLAG_NX, 0x10U);
  EXPECT_EQ(int{PTOVEC_STATUS_NV}, 0x01);
  EXPECT_EQ(int{PTOVEC_STATUS_DZ}, 0x02);
  EXPECT_EQ(int{PTOVEC_STATUS_OF}, 0x04);
  EXPECT_EQ(int{PTOVEC_STATUS_UF}, 0x08);
  EXPECT_EQ(int{PTOVEC_STATUS_NX}, 0x10);
  const int modes[] = {PTOVEC_RNE, PTOVEC_RTM, PTOVEC_RTP, PTOVEC_RTZ,
                       PTOVEC_RNA, PTOVEC_RTO, PTOVEC_RHB};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(modes[i], i);
  EXPECT_EQ(int{PTOVEC_FLAG_ORDER_SPEC}, 0);
  EXPECT_EQ(int{PTOVEC_FLAG_ORDER_RISCV}, 1);
  EXPECT_EQ(int{PTOVEC_FLAG_ORDER_IEEE}, 1);
  EXPECT_EQ(int{PTOVEC_FLAG_ORDER_MXCSR}, 2);
  EXPECT_EQ(int{PTOVEC_DUT_FLAG_ORDER_SPEC}, 0);
  EXPECT_EQ(int{PTOVEC_DUT_FLAG_ORDER_RISCV}, 1);
  EXPECT_EQ(int{PTOVEC_DUT_FLAG_ORDER_IEEE}, 1);
  EXPECT_EQ(int{PTOVEC_DUT_FLAG_ORDER_MXCSR}, 2);
  EXPECT_EQ(PTOVEC_FACTS_CONTROLS, 14);
  EXPECT_EQ(std::string(PTOVEC_FACTS_VECTOR_MAGIC, PTOVEC_FACTS_MAGIC_BYTES),
            std::string("PTOVEC\0B", 8));
  EXPECT_EQ(std::string(PTOVEC_FACTS_RESULTS_MAGIC, PTOVEC_FACTS_MAGIC_BYTES),
            std::string("PTOVEC\0R", 8));
}

// The oracle's modes and the generator's status names are the header's.
TEST(FactsTest, OracleAndGeneratorReadThem) {
  ASSERT_EQ(ptovec::oracle::kAllRoundingModes.size(), std::size(kModeNames));
  for (std::size_t i = 0; i < std::size(kModeNames); ++i) {
    EXPECT_EQ(ptovec::oracle::RoundingModeName(ptovec::oracle::kAllRoundingModes[i]),
              kModeNames[i]);
  }
  EXPECT_EQ(ptovec::oracle::RoundingModeNamesList(), "RNE, RTM, RTP, RTZ, RNA, RTO, RHB");
  for (std::size_t i = 0; i < std::size(kStatusNames); ++i) {
    EXPECT_EQ(ptovec::generator::kStatusBitNames.at(i), kStatusNames[i]);
  }
}

std::string PyTuple(const auto& names) {
  std::string out = "(";
  for (std::size_t i = 0; i < std::size(names); ++i) {
    out += (i ? ", \"" : "\"") + std::string(names[i]) + "\"";
  }
  return out + ")";
}

std::string PyBytes(std::string_view bytes) {
  std::string out = "b\"";
  for (const char c : bytes) {
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      out += c;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
      out += hex;
    }
  }
  return out + "\"";
}

// python/ptovec/_facts.py as the header gives it.
std::string RenderPythonFacts() {
  std::ostringstream py;
  py << R"("""ptovec's shared facts, generated from include/ptovec/facts.h: do not edit. The test
FactsTest.PythonModuleIsTheHeaders (tests/tools/facts_test.cpp) fails when this file differs from
the text it renders from the header, and writes that text to copy here."""

#: The names of status bits 0 .. 4, the specification's order (bit 0 NV .. bit 4 NX).
)";
  char all[8];
  std::snprintf(all, sizeof all, "0x%02X", PTOVEC_FACTS_STATUS_ALL);
  py << "FLAG_NAMES = " << PyTuple(kStatusNames) << "\n#: Every status bit.\nSTATUS_ALL = " << all
     << "\n#: The rounding modes by index (0 RNE .. 6 RHB), NumericRoundingMode's order.\n"
     << "RMODE_NAMES = " << PyTuple(kModeNames)
     << "\n#: The controls of an op that takes them: every mode with Sat off and on.\n"
     << "CONTROLS = " << PTOVEC_FACTS_CONTROLS
     << "\n#: The flag order names and the port bit each of NV DZ OF UF NX sits at in that "
        "order.\nFLAG_ORDERS = {\n";
  for (const OrderName& o : kOrderNames) {
    py << "    \"" << o.name << "\": (";
    for (int b = 0; b < PTOVEC_FACTS_STATUS_BITS; ++b) {
      py << (b ? ", " : "") << int{kOrderBits[o.order][b]};
    }
    py << "),\n";
  }
  py << "}\n#: The first 8 bytes of a binary vector file and of a binary results file.\n"
     << "VECTOR_MAGIC = " << PyBytes({PTOVEC_FACTS_VECTOR_MAGIC, PTOVEC_FACTS_MAGIC_BYTES})
     << "\nRESULTS_MAGIC = " << PyBytes({PTOVEC_FACTS_RESULTS_MAGIC, PTOVEC_FACTS_MAGIC_BYTES})
     << "\n#: The comparison policy's names: every status bit, none, and the prefix of a list of "
        "status bit\n#: names joined by POLICY_SEPARATOR.\n"
     << "POLICY_ALL = \"" PTOVEC_FACTS_POLICY_ALL "\"\nPOLICY_WORD = \"" PTOVEC_FACTS_POLICY_WORD
        "\"\nPOLICY_SOME = \"" PTOVEC_FACTS_POLICY_SOME
        "\"\nPOLICY_SEPARATOR = \"" PTOVEC_FACTS_POLICY_SEPARATOR "\"\n";
  return py.str();
}

TEST(FactsTest, PythonModuleIsTheHeaders) {
  const std::string expected = RenderPythonFacts();
  const fs::path committed = kTop / "python" / "ptovec" / "_facts.py";
  if (ReadText(committed) != expected) {
    const fs::path fresh = fs::path(testing::TempDir()) / "_facts.py";
    std::ofstream(fresh, std::ios::binary) << expected;
    ADD_FAILURE() << committed << " is not what include/ptovec/facts.h gives; regenerate it:\n  cp "
                  << fresh << " " << committed << "\n"
                  << expected;
  }
}

// A row of the page's flag-order table: its names and, per port bit 0..5, the flag's name or -.
TEST(FactsTest, DevicesPageTableIsTheFlagOrders) {
  const std::string page = ReadText(kTop / "docs" / "devices.md");
  const std::regex row(R"(\n\| (`[a-z]+`(?:, `[a-z]+`)*) \|((?: [^|]+ \|){6}))");
  std::set<std::string> named;
  int rows = 0;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), row); it != std::sregex_iterator();
       ++it, ++rows) {
    std::vector<std::string> names;
    const std::string cell = (*it)[1];
    const std::regex name("`([a-z]+)`");
    for (auto n = std::sregex_iterator(cell.begin(), cell.end(), name); n != std::sregex_iterator();
         ++n) {
      names.push_back((*n)[1]);
    }
    std::vector<std::string> bits;
    std::istringstream cells((*it)[2].str());
    for (std::string c; std::getline(cells, c, '|');) {
      std::istringstream words(c);
      std::string first;
      if (words >> first) bits.push_back(first);
    }
    ASSERT_EQ(bits.size(), 6U) << (*it)[0];
    for (const std::string& n : names) {
      SCOPED_TRACE("docs/devices.md, order " + n);
      named.insert(n);
      const int order = ptovec_dut_flag_order_code(n.c_str());
      ASSERT_GE(order, 0) << "not an order of ptovec/facts.h";
      std::vector<std::string> expected(6, "-");
      for (int f = 0; f < PTOVEC_FACTS_STATUS_BITS; ++f) {
        expected.at(kOrderBits[order][f]) = kStatusNames[f];
      }
      EXPECT_EQ(bits, expected);
    }
  }
  EXPECT_EQ(rows, PTOVEC_FACTS_FLAG_ORDERS);
  std::set<std::string> all;
  for (const OrderName& o : kOrderNames) all.insert(o.name);
  EXPECT_EQ(named, all) << "docs/devices.md's flag-order table names other orders than the header";
}

// SystemVerilog cannot include the header: its localparams are a copy.
TEST(FactsTest, DpiLocalparamsAreTheFlagOrders) {
  const std::string svh = ReadText(kTop / "capi" / "dpi" / "ptovec_dpi.svh");
  const std::regex param(R"(localparam int PTOVEC_FLAG_ORDER_([A-Z]+) = (\d+);)");
  std::set<std::pair<std::string, int>> found;
  for (auto it = std::sregex_iterator(svh.begin(), svh.end(), param); it != std::sregex_iterator();
       ++it) {
    found.emplace((*it)[1], std::stoi((*it)[2]));
  }
  const std::set<std::pair<std::string, int>> expected = {{"SPEC", PTOVEC_FACTS_FLAG_ORDER_SPEC},
                                                          {"RISCV", PTOVEC_FACTS_FLAG_ORDER_RISCV},
                                                          {"MXCSR", PTOVEC_FACTS_FLAG_ORDER_MXCSR}};
  EXPECT_EQ(found, expected);
}

// The heat map script runs without the package (installed in share/ptovec): its modes are a copy.
TEST(FactsTest, HeatMapModesAreTheModes) {
  const std::string script = ReadText(kTop / "tools" / "cli" / "coverage_heatmap.py");
  std::string list;
  for (std::size_t i = 0; i < std::size(kModeNames); ++i) {
    list += (i ? ", \"" : "\"") + std::string(kModeNames[i]) + "\"";
  }
  EXPECT_NE(script.find("\nMODES = [" + list + "]\n"), std::string::npos);
}

// Wherever a page lists the modes from RNE to RHB (all of them, or all but one: a list that
// drifted), they are the header's, in its order.
TEST(FactsTest, PagesListTheModesInOrder) {
  const std::vector<fs::path> pages =
      Pages({kTop / "README.md", kTop / "include" / "ptovec_dut.h",
             kTop / "include" / "ptovec" / "ptovec.h", kTop / "capi" / "dpi" / "ptovec_dpi.svh"},
            {"docs", "schemas"});
  const std::vector<std::string> modes(std::begin(kModeNames), std::end(kModeNames));
  const std::regex list(R"(\bRNE\b[^\n]{0,60}?\n?[^\n]{0,60}?\bRHB\b)");
  const std::regex mode(R"(\bR[A-Z]{2}\b)");
  int lists = 0;
  for (const fs::path& page : pages) {
    const std::string text = ReadText(page);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), list);
         it != std::sregex_iterator(); ++it) {
      const std::string found = (*it)[0];
      std::vector<std::string> names;
      for (auto m = std::sregex_iterator(found.begin(), found.end(), mode);
           m != std::sregex_iterator(); ++m) {
        names.push_back((*m)[0]);
      }
      // A list of some modes (RNE, RNA and RHB) is not the list of modes.
      if (std::set<std::string>(names.begin(), names.end()).size() < modes.size() - 1) continue;
      ++lists;
      EXPECT_EQ(names, modes) << page.filename() << ": \"" << found << "\"";
    }
  }
  EXPECT_GE(lists, 10);
}

std::string Plain(std::string number) {
  std::erase(number, ',');
  return number;
}

// Every count the README and docs give of the mutant catalogue is its size.
TEST(FactsTest, DocsCountTheMutantCatalogue) {
  const std::string catalogue = std::to_string(ptovec::mutants::AllMutants().size());
  // "76 mutant devices", "all 76 mutants", "76 of 76 mutants", "76 of 76 killed", "kills 76 of 76"
  const std::regex count(R"((\d+) mutants?\b|\d+ of (\d+) (?:killed|shrunk)|kills \d+ of (\d+))");
  int found = 0;
  for (const fs::path& page : Pages({kTop / "README.md"}, {"docs"})) {
    const std::string text = ReadText(page);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), count);
         it != std::sregex_iterator(); ++it, ++found) {
      const std::string n = (*it)[1].matched ? (*it)[1] : (*it)[2].matched ? (*it)[2] : (*it)[3];
      EXPECT_EQ(n, catalogue) << page.filename() << ": \"" << (*it)[0]
                              << "\" is not the catalogue's size (tests/mutants/mutants.cpp)";
    }
  }
  EXPECT_GE(found, 8);  // the pages that give the count (the others link to docs/mutants.md)
}

// The smoke suite's vectors, inputs and files wherever the docs give them.
TEST(FactsTest, DocsCountTheSmokeSuite) {
  const nlohmann::json manifest =
      nlohmann::json::parse(ReadText(kTop / "vectors" / "smoke" / "manifest.json"));
  std::uint64_t vectors = 0, inputs = 0, binary = 0, json = 0;
  for (const auto& f : manifest.at("files")) {
    if (f.at("format") == "bin") {
      vectors += f.at("count").get<std::uint64_t>();
      inputs += f.at("inputs").get<std::uint64_t>();
      ++binary;
    } else if (f.at("format") == "json") {
      ++json;
    }
  }
  // (page, phrase): groups named v (vectors), i (inputs), b (binary files), j (JSON files).
  struct Phrase {
    const char* page;
    const char* pattern;
    const char* groups;
  };
  const Phrase phrases[] = {
      {"docs/ci-gates.md", R"(--vectors vectors/smoke .*\n#   ptovec: (\d+) files, (\d+) vectors)",
       "bv"},
      {"docs/coverage.md",
       R"(([\d,]+) inputs, ([\d,]+) vectors in (\d+) binary and (\d+) JSON\s+files, selected)",
       "ivbj"},
      {"docs/coverage.md", R"(two changes brought it to ([\d,]+):)", "v"},
      {"docs/mutants.md", R"(`vectors/smoke`, ([\d,]+) vectors\))", "v"},
  };
  int checked = 0;
  for (const Phrase& p : phrases) {
    checked += static_cast<int>(std::string_view(p.groups).find('v') != std::string_view::npos);
    const std::string text = ReadText(kTop / p.page);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text, m, std::regex(p.pattern)))
        << p.page << " no longer says " << p.pattern << ": update the phrase here";
    for (std::size_t g = 0; p.groups[g] != '\0'; ++g) {
      const std::uint64_t want = p.groups[g] == 'v'   ? vectors
                                 : p.groups[g] == 'i' ? inputs
                                 : p.groups[g] == 'b' ? binary
                                                      : json;
      EXPECT_EQ(Plain(m[g + 1]), std::to_string(want))
          << p.page << ": \"" << m[0] << "\" against vectors/smoke/manifest.json";
    }
  }
  // No other copy of the count: every one the pages give is a phrase above (ci-gates.md's
  // output line gives it twice, "N vectors: N matched", checked by the docs-commands test too).
  const std::string plain = std::to_string(vectors);
  std::string grouped = plain;
  for (int at = static_cast<int>(grouped.size()) - 3; at > 0; at -= 3) grouped.insert(at, ",");
  int copies = 0;
  for (const fs::path& page : Pages({kTop / "README.md"}, {"docs"})) {
    const std::string text = ReadText(page);
    const std::regex number("(^|[^\\d,])(" + plain + "|" + grouped + ")(?![\\d,]\\d)");
    copies +=
        static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), number), {}));
  }
  EXPECT_EQ(copies, checked + 1) << "a page gives the smoke suite's " << grouped
                                 << " vectors where no phrase of this test checks it";
}

}  // namespace
}  // namespace facts_test
