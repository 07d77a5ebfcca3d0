#include "ptovec/generator/coverage.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

#include "coverage_walk.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::generator {

namespace {

// The report's input class names (VectorClass::input), from VectorClassName.
std::string InputClassName(unsigned input) {
  const std::string full = VectorClassName(input * kOutcomes);
  return "input " + full.substr(0, full.find(' '));
}

std::string OutcomeName(unsigned outcome) {
  const std::string full = VectorClassName(outcome);
  return "status " + full.substr(full.find(' ') + 1);
}

constexpr unsigned kOutcomeBit = kInputClasses;  // bits 14..18

}  // namespace

std::vector<CoverageClass> CoverageClasses(const OpDef& op, TypePair pair) {
  std::vector<CoverageClass> out;
  const bool floating = oracle::Format(op.slots.front().TypeFor(pair)).IsFloating();
  for (unsigned k = floating ? 0 : 11; k < (floating ? 11U : 14U); ++k) {
    out.push_back(
        {InputClassName(k), "the report's input class of slot 0", k, kGenericSides, false});
  }
  for (unsigned k = 0; k < kOutcomes; ++k) {
    out.push_back({OutcomeName(k), "the report's outcome: the first of NV, OF, UF, NX, none",
                   kOutcomeBit + k, kGenericSides, false});
  }
  if (op.outcome_classes) {
    const OutcomeClassTable own = op.outcome_classes(pair);
    for (std::size_t k = 0; k < own.classes.size() && k < kMaxOpClasses; ++k) {
      out.push_back({own.classes[k].name, own.classes[k].description,
                     kOpClassBit + static_cast<unsigned>(k), kGenericSides, false,
                     own.classes[k].twin_side});
    }
    for (const ClassThreshold& t : own.thresholds) {
      const auto it = std::find_if(out.begin(), out.end(), [&](const CoverageClass& c) {
        return c.bit >= kOpClassBit && c.name == t.class_name;
      });
      if (it == out.end() || !own.side) {
        throw std::logic_error(PairKey(op, pair) + ": threshold of class '" + t.class_name +
                               "', which its table " +
                               (it == out.end() ? "does not have" : "gives no side function"));
      }
      it->sides = t.sides;
      it->own_threshold = true;
    }
  }
  return out;
}

PairClassifier::PairClassifier(const OpDef& op, TypePair pair)
    : op_(&op), pair_(pair), classes_(CoverageClasses(op, pair)) {
  if (op.outcome_classes) own_ = op.outcome_classes(pair);
  for (const CoverageClass& c : classes_) {
    if (c.own_threshold) own_thresholds_.set(c.bit);
  }
  sign_bit_ = oracle::Format(op.slots.front().TypeFor(pair)).SignBit();
}

void PairClassifier::Sides(const Inputs& in, std::span<const NumericExecutionControl> controls,
                           const Encoded* expected, ClassMask* out) const {
  // The generic side: the sign bit of slot 0's word, for every class.
  const ClassMask generic = (in[0] & sign_bit_) != 0 ? ~ClassMask{0} : ClassMask{0};
  if (own_thresholds_.none()) {
    std::fill(out, out + controls.size(), generic);
    return;
  }
  own_.side(in, controls, expected, out);
  for (std::size_t c = 0; c < controls.size(); ++c) {
    out[c] = ((out[c] << kOpClassBit) & own_thresholds_) | (generic & ~own_thresholds_);
  }
}

void PairClassifier::Classify(const Inputs& in, std::span<const NumericExecutionControl> controls,
                              const Encoded* expected, ClassMask* out) const {
  if (own_.classify) {
    own_.classify(in, controls, expected, out);
    for (std::size_t c = 0; c < controls.size(); ++c) out[c] <<= kOpClassBit;
  } else {
    std::fill(out, out + controls.size(), ClassMask{0});
  }
  const ClassMask input = ClassBit(InputClassOf(*op_, pair_, in));
  for (std::size_t c = 0; c < controls.size(); ++c) {
    out[c] |= input | ClassBit(kOutcomeBit + OutcomeOf(expected[c].status));
  }
}

std::string PairKey(const OpDef& op, TypePair pair) {
  return op.name + " " + std::string(oracle::Format(pair.src).name) + " " +
         std::string(oracle::Format(pair.dst).name);
}

namespace {

// Coverage counts a vector only as what ptovec's oracle says it is: each input run must be in
// the op's domain, each control legal for it (OpDef::check_control), and each expected result
// the one the op's bulk path (proven equal to the literal seed) gives. Throws InputError naming
// the first record that is not, with the `ptovec eval` command that shows the oracle's answer.
void CheckRecords(const VectorFileInfo& info, const Inputs& in,
                  std::span<const NumericExecutionControl> controls,
                  std::span<const Encoded> expected, std::uint64_t first_record,
                  std::vector<Encoded>& oracle_out) {
  const OpDef& op = *info.op;
  const std::string where = info.path.string() + ": vector " + std::to_string(first_record + 1);
  const std::string advice =
      "; coverage counts only vectors whose inputs, controls and expected results are the "
      "oracle's (regenerate the file with ptovec generate)";
  if (const auto bad = op.check_domain(info.pair, in)) {
    throw InputError(where + " has inputs outside the " + op.name + " domain (" + *bad + ")" +
                     advice);
  }
  if (op.check_control) {
    for (std::size_t c = 0; c < controls.size(); ++c) {
      if (const auto bad = op.check_control(info.pair, in, controls[c])) {
        throw InputError(info.path.string() + ": vector " + std::to_string(first_record + c + 1) +
                         " has a control its inputs do "
                         "not allow (" +
                         *bad + ")" + advice);
      }
    }
  }
  oracle_out.resize(controls.size());
  EvaluateBatch(op, info.pair, &in, 1, controls, oracle_out.data());
  for (std::size_t c = 0; c < controls.size(); ++c) {
    if (oracle_out[c] == expected[c]) continue;
    const TileDataType dst = info.pair.dst;
    const Case k{&op, info.pair, controls[c], in};
    throw InputError(info.path.string() + ": vector " + std::to_string(first_record + c + 1) +
                     " expects " + HexWord(expected[c].word, dst) + " status " +
                     HexStatus(expected[c].status) + " but the oracle gives " +
                     HexWord(oracle_out[c].word, dst) + " status " +
                     HexStatus(oracle_out[c].status) + " (" + EvalCommand(k) + ")" + advice);
  }
}

}  // namespace

namespace {

// FNV-1a over every record's words.
class Fingerprint {
 public:
  void Mix(std::uint64_t word) {
    for (int b = 0; b < 64; b += 8) {
      value_ ^= (word >> b) & 0xFF;
      value_ *= 0x100000001b3ULL;
    }
  }
  void MixRecord(const VectorRecord& r, std::size_t slots) {
    for (std::size_t k = 0; k < slots; ++k) Mix(r.c.in[k]);
    Mix(ControlSlot(r.c.control));
    Mix(r.expected.word);
    Mix(r.expected.status);
  }
  std::uint64_t value() const { return value_; }

 private:
  std::uint64_t value_ = 0xcbf29ce484222325ULL;
};

// Counts the records of one file into its pair's coverage. Records come input by input with
// every control of the input in a row: each run of equal inputs is classified at once (the op's
// classifier computes the input's own facts once). A twin's records are only read (compared
// with its binary, already checked, by fingerprint).
class RunCounter {
 public:
  RunCounter(const VectorFileInfo& info, const PairClassifier& classifier, PairCoverage& cov,
             bool twin)
      : info_(info), classifier_(classifier), cov_(cov), twin_(twin) {}

  void Add(const VectorRecord& r) {
    if (!controls_.empty() && (r.c.in != current_ || controls_.size() >= kControlSlots)) Flush();
    current_ = r.c.in;
    controls_.push_back(r.c.control);
    expected_.push_back(r.expected);
  }

  void Flush() {
    if (controls_.empty()) return;
    if (!twin_) {
      CheckRecords(info_, current_, controls_, expected_, first_record_, oracle_out_);
      first_record_ += controls_.size();
      masks_.resize(controls_.size());
      classifier_.Classify(current_, controls_, expected_.data(), masks_.data());
      for (std::size_t c = 0; c < controls_.size(); ++c) {
        const std::size_t slot = ControlSlot(controls_[c]);
        ++cov_.vectors[slot];
        ForEachClassBit(masks_[c], [&](unsigned k) { ++cov_.counts[slot][k]; });
      }
    }
    controls_.clear();
    expected_.clear();
  }

 private:
  const VectorFileInfo& info_;
  const PairClassifier& classifier_;
  PairCoverage& cov_;
  bool twin_;
  std::vector<NumericExecutionControl> controls_;
  std::vector<Encoded> expected_;
  std::vector<Encoded> oracle_out_;
  std::vector<ClassMask> masks_;
  Inputs current_{};
  std::uint64_t first_record_ = 0;  // the record number of controls_[0]
};

// The records of one file: how many, and their fingerprint (when asked).
struct FileRecords {
  std::uint64_t count = 0;
  std::uint64_t fingerprint = 0;
};

// Reads one file, counting its records into `cov` (its pair's coverage).
FileRecords CountFile(const VectorSource& source, bool fingerprinted, VectorReader& reader,
                      PairCoverage& cov) {
  const VectorFileInfo& info = reader.info();
  const PairClassifier classifier(*info.op, cov.pair);
  RunCounter runs(info, classifier, cov, source.twin);
  Fingerprint fingerprint;
  std::uint64_t read_records = 0;
  std::vector<VectorRecord> records;
  while (reader.Read(records, 65536) > 0) {
    for (const VectorRecord& r : records) {
      ++read_records;
      if (fingerprinted) fingerprint.MixRecord(r, info.op->slots.size());
      runs.Add(r);
    }
  }
  runs.Flush();
  return {read_records, fingerprint.value()};
}

}  // namespace

std::vector<PairCoverage> CountCoverage(const VectorSelection& selection) {
  std::vector<PairCoverage> result;
  std::map<std::string, std::size_t> index;
  // A file stored in both formats is counted and checked against the oracle once, from its
  // binary form; the JSON twin is read too (selection.twins) and must hold the same records: the
  // fingerprints of the records of the last counted file and of its twin are compared.
  VectorSelection with_twins = selection;
  with_twins.twins = true;
  FileRecords counted;
  std::string counted_path;
  oracle::Edition edition = oracle::kDefaultEdition;
  std::string first_path;  // the first file read, of `edition`
  const std::vector<VectorSource> sources = SelectVectorFiles(with_twins);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const VectorSource& source = sources[i];
    // Only a file with a twin, and the twin, need a fingerprint (kept off the common path).
    const bool fingerprinted = source.twin || (i + 1 < sources.size() && sources[i + 1].twin);
    const auto reader = OpenVectorSource(source);
    const VectorFileInfo& info = reader->info();
    // One edition at a time: the classes, the default suite and the witnesses are its own.
    if (first_path.empty()) {
      edition = info.edition;
      first_path = source.path.string();
    } else if (info.edition != edition) {
      throw InputError(
          "coverage reads the vectors of one edition at a time: " + first_path + " is of edition " +
          std::string(oracle::EditionName(edition)) + ", " + source.path.string() + " of edition " +
          std::string(oracle::EditionName(info.edition)) + " (select one with --edition)");
    }
    // The file groups of a split pair (OpDef::file_groups) count into their whole pair's table.
    const TypePair pair = info.pair.Whole();
    auto [it, added] = index.emplace(PairKey(*info.op, pair), result.size());
    if (added) result.push_back({info.op, pair, {}, {}});
    const FileRecords file = CountFile(source, fingerprinted, *reader, result[it->second]);
    CheckSourceDigest(source, *reader);
    if (!source.twin) {
      counted = file;
      counted_path = source.path.string();
    } else if (file.fingerprint != counted.fingerprint || file.count != counted.count) {
      throw InputError(source.path.string() + " holds other records than " + counted_path + " (" +
                       std::to_string(file.count) + " and " + std::to_string(counted.count) +
                       " records); the two formats of one file must hold the same vectors "
                       "(regenerate them with ptovec generate --format both)");
    }
  }
  return result;
}

std::vector<ScopePair> DefaultSuiteScope(oracle::Edition edition) {
  std::vector<ScopePair> scope;
  for (const Job& job : DefaultSuite(edition)) {
    // A split pair may be listed once per file group: one entry for the whole pair.
    const TypePair whole = job.pair.Whole();
    auto it = std::find_if(scope.begin(), scope.end(),
                           [&](const ScopePair& p) { return p.op == job.op && p.pair == whole; });
    if (it == scope.end()) it = scope.insert(scope.end(), ScopePair{job.op, whole, 0});
    for (TypePair file_pair : FilePairs(*job.op, job.pair)) {
      for (NumericExecutionControl c : ControlsFor(*job.op, file_pair)) {
        it->slots = static_cast<std::uint16_t>(it->slots | 1U << ControlSlot(c));
      }
    }
  }
  return scope;
}

namespace {
#include "coverage_witnesses.inc"  // kWitnesses
namespace edition_2026_09 {
#include "coverage_witnesses_2026_09.inc"  // kWitnesses of edition 2026-09
}  // namespace edition_2026_09
}  // namespace

std::span<const Witness> Witnesses(oracle::Edition edition) {
  if (edition == oracle::Edition::V2026_09) return edition_2026_09::kWitnesses;
  return kWitnesses;
}

std::array<ClassMask, kControlSlots> ReachableClasses(const OpDef& op, TypePair pair) {
  std::array<ClassMask, kControlSlots> reach{};
  const std::vector<CoverageClass> classes = CoverageClasses(op, pair);
  const std::string_view src = oracle::Format(pair.src).name;
  const std::string_view dst = oracle::Format(pair.dst).name;
  for (const Witness& w : Witnesses(op.edition)) {
    if (w.op != op.name || w.src != src || w.dst != dst) continue;
    for (const CoverageClass& c : classes) {
      if (c.name != w.class_name) continue;
      for (std::size_t s = 0; s < kControlSlots; ++s) {
        if ((w.controls >> s) & 1U) reach[s].set(c.bit);
      }
    }
  }
  return reach;
}

std::string FindWitnesses(const SamplingOptions& sampling, unsigned threads,
                          oracle::Edition edition) {
  const std::vector<Job> jobs = DefaultSuite(edition);
  std::vector<std::string> text(jobs.size());
  coverage_walk::ParallelFor(jobs.size(), threads, [&](std::size_t j) {
    const Job& job = jobs[j];
    const std::vector<CoverageClass> classes = CoverageClasses(*job.op, job.pair);
    std::array<std::uint16_t, kClassBits> seen{};  // per bit: control slots already witnessed
    std::ostringstream out;
    coverage_walk::WalkDomain(
        job, sampling, false,
        [&](std::uint64_t, const Inputs& in, const std::vector<NumericExecutionControl>& controls,
            const ClassMask* masks, const ClassMask*) {
          for (const CoverageClass& c : classes) {
            std::uint16_t hit = 0;
            for (std::size_t k = 0; k < controls.size(); ++k) {
              if (masks[k].test(c.bit))
                hit = static_cast<std::uint16_t>(hit | 1U << ControlSlot(controls[k]));
            }
            if ((hit & ~seen[c.bit]) == 0) continue;
            seen[c.bit] = static_cast<std::uint16_t>(seen[c.bit] | hit);
            std::string words;
            for (std::size_t s = 0; s < kMaxSlots; ++s) {
              words += (s == 0 ? "" : ", ") + HexShortest(in[s]);
            }
            std::string mask;
            AppendHexWord(mask, hit, 4);
            out << "    {\"" << job.op->name << "\", \"" << oracle::Format(job.pair.src).name
                << "\", \"" << oracle::Format(job.pair.dst).name << "\", \"" << c.name << "\", "
                << mask << ", {" << words << "}},\n";
          }
        });
    text[j] = out.str();
  });
  // 0.58.3's header is the one its table has always had; another edition's names it.
  const std::string name(oracle::EditionName(edition));
  std::string all =
      edition == oracle::kDefaultEdition
          ? std::string(
                "// The witness table of `ptovec coverage` (generator/src/suite/coverage.cpp): "
                "for every pair of the\n"
                "// default suite and each of its classes, inputs that hit it and the controls "
                "under which\n"
                "// they do (bit 2 * mode + Sat). Written by `ptovec coverage --find-witnesses`; "
                "do not edit.\n")
          : "// The witness table of `ptovec coverage` (generator/src/suite/coverage.cpp) of "
            "edition " +
                name +
                ":\n"
                "// for every pair of its default suite and each of its classes, inputs that "
                "hit it and the\n"
                "// controls under which they do (bit 2 * mode + Sat). Written by `ptovec "
                "coverage\n"
                "// --find-witnesses F --edition " +
                name + "`; do not edit.\n";
  all +=
      "// Checked by tests/generator/coverage_test.cpp, which re-evaluates every row.\n"
      "// clang-format off\n"
      "const std::vector<Witness> kWitnesses = {\n";
  for (const std::string& t : text) all += t;
  all += "};\n// clang-format on\n";
  return all;
}

}  // namespace ptovec::generator
