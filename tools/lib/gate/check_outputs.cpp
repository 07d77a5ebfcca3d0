// The output files of check and run: the --mismatches file, and the rules for --results,
// --junit, --report-json and --mismatches paths (never an input, never another output, folder
// writable).
#include "ptovec/tools/check_outputs.hpp"

#include <unistd.h>

#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "report/report_text.hpp"

namespace ptovec::tools {

namespace {

using text::TypeName;

using generator::InputError;
using generator::VectorSource;

}  // namespace

nlohmann::ordered_json AnswerJson(const DeviceAnswer& got, oracle::TileDataType dst) {
  if (!got.supported) return "unsupported";
  return {{"out", generator::HexWord(got.result.word, dst)},
          {"flags", generator::HexStatus(got.result.status)}};
}

std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::Match:
      return "match";
    case Verdict::Waived:
      return "waived";
    case Verdict::Unsupported:
      return "unsupported";
    case Verdict::Mismatch:
      break;
  }
  return "mismatch";
}

std::string MismatchJsonLine(const Mismatch& m) {
  const Case& c = m.c;
  nlohmann::ordered_json j;
  j["file"] = m.file;
  j["record"] = m.index;
  j["op"] = c.op->name;
  j["src"] = TypeName(c.pair.src);
  j["dst"] = TypeName(c.pair.dst);
  j["rmode"] = oracle::RoundingModeName(c.control.rounding_mode);
  j["sat"] = c.control.saturating;
  nlohmann::ordered_json in = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    in.push_back(generator::HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair)));
  }
  j["in"] = in;
  j["class"] = generator::VectorClassName(m.vector_class);
  j["expected"] = {{"out", generator::HexWord(m.expected.word, c.pair.dst)},
                   {"flags", generator::HexStatus(m.expected.status)}};
  j["got"] = AnswerJson(m.got, c.pair.dst);
  j["kind"] = MismatchKindName(m.kind);
  j["verdict"] = VerdictName(m.verdict);
  if (m.verdict == Verdict::Waived) {
    j["rule"] = m.rule_name;
  } else {
    j["signature"] = SignatureText(*c.op, m.signature);
  }
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

MismatchesFile::MismatchesFile(const MismatchesOutput& output) : unsupported_(output.unsupported) {
  if (!output.path.empty()) file_.emplace(output.path);
}

MismatchSink MismatchesFile::Sink() {
  if (!file_) return {};
  return {[this](const Mismatch& m) {
            buffer_ += MismatchJsonLine(m);
            buffer_ += '\n';
            if (buffer_.size() > (1 << 20)) Flush();
          },
          unsupported_};
}

void MismatchesFile::Commit() {
  if (!file_) return;
  Flush();
  file_->Commit();
}

void MismatchesFile::Flush() {
  file_->Write(buffer_);
  buffer_.clear();
}

std::vector<std::filesystem::path> VectorInputFiles(const generator::VectorSelection& vectors) {
  std::vector<std::filesystem::path> files;
  for (const VectorSource& source : generator::SelectVectorFiles(vectors)) {
    files.push_back(source.path);
  }
  for (const std::filesystem::path& path : vectors.paths) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) files.push_back(path / "manifest.json");
  }
  return files;
}

namespace {

// True when a and b name the same file: equivalent() when both exist, else the same absolute
// normalized path.
bool SamePath(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code error;
  if (std::filesystem::equivalent(a, b, error) && !error) return true;
  const auto normal = [](const std::filesystem::path& p) {
    std::error_code e;
    std::filesystem::path n = std::filesystem::weakly_canonical(std::filesystem::absolute(p, e), e);
    return (e ? std::filesystem::absolute(p, e) : n).lexically_normal();
  };
  return normal(a) == normal(b);
}

}  // namespace

void RefuseOverwritingInputs(const std::vector<OutputFile>& outputs,
                             const std::vector<std::filesystem::path>& inputs) {
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    const auto& [option, path] = outputs[o];
    for (const std::filesystem::path& input : inputs) {
      if (SamePath(path, input)) {
        throw InputError(option + " " + path.string() + " is an input file (" + input.string() +
                         "); give an output path that is not a vector, manifest or results file "
                         "read by this command");
      }
    }
    for (std::size_t p = 0; p < o; ++p) {
      if (SamePath(path, outputs[p].second)) {
        throw InputError(option + " " + path.string() + " is also the " + outputs[p].first +
                         " file; give the two outputs different paths");
      }
    }
  }
}

void CheckOutputFolder(const OutputFile& output) {
  const auto& [option, path] = output;
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError(option + " " + path.string() + " is a folder (expected a file path)");
  }
  std::filesystem::path folder = path.parent_path();
  if (folder.empty()) folder = ".";
  if (!std::filesystem::is_directory(folder, error)) {
    throw InputError(option + " " + path.string() + ": its folder " + folder.string() +
                     " does not exist (create it first)");
  }
  if (::access(folder.c_str(), W_OK) != 0) {
    throw InputError(option + " " + path.string() + ": its folder " + folder.string() +
                     " is not writable");
  }
}

}  // namespace ptovec::tools
