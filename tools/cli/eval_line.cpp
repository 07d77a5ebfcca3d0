// One line of `ptovec eval --batch` (eval_line.hpp).
#include "eval_line.hpp"

#include <exception>
#include <nlohmann/json.hpp>
#include <optional>

#include "edition_option.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"

namespace ptovec::cli {

using namespace ptovec::generator;

void AddEvalOptions(CLI::App& app, EvalArgs& a) {
  AddEditionOption(app, a.edition);
  app.add_option("--op", a.op,
                 "op name (" + OpNamesList() +
                     "; of edition 2026-09: " + OpNamesList(oracle::Edition::V2026_09) + ")");
  app.add_option("--src", a.src, "source type (e.g. fp16)");
  app.add_option("--dst", a.dst, "destination type (e.g. e8m0)");
  app.add_option("--rmode", a.rmode,
                 "rounding mode: RNE RTM RTP RTZ RNA RTO RHB, or all (one line per mode; "
                 "default RNE)");
  app.add_flag("--sat", a.sat,
               "saturate (Sat = 1); --sat both: one line for Sat off, then Sat on (with --rmode "
               "all: every mode, each with both)");
  app.add_option("inputs", a.inputs,
                 "input words in slot order: hex with 0x (0x3c00), or a decimal value (449, "
                 "-0.75, 1e-3, -0, inf) rounded to the nearest code of the slot's type (RNE; "
                 "a note on stderr says when that is not the value exactly)");
}

EvalCases CasesFromArgs(EvalArgs a) {
  const oracle::Edition edition = RequireEdition(a.edition);
  if (a.op.empty()) throw InputError("--op is required (accepted: " + OpNamesList(edition) + ")");
  if (a.src.empty()) throw InputError("--src is required (`ptovec list` shows the pairs)");
  if (a.dst.empty()) throw InputError("--dst is required (`ptovec list` shows the pairs)");
  // --sat takes no value of its own, so `--sat both` (or on, off) leaves the word among the
  // inputs, where no input can be such a word.
  std::vector<bool> sats = {a.sat};
  for (auto it = a.inputs.begin(); it != a.inputs.end(); ++it) {
    if (*it != "both" && *it != "on" && *it != "off") continue;
    if (!a.sat) {
      throw InputError("'" + *it + "' is a Sat value, not an input word: write --sat " + *it);
    }
    sats = *it == "both" ? std::vector<bool>{false, true} : std::vector<bool>{*it == "on"};
    a.inputs.erase(it);
    break;
  }
  if (a.inputs.empty()) {
    throw InputError("no input words given (hex words such as 0x3c00, or decimal values)");
  }
  const OpDef& op = RequireOp(a.op, edition);
  const std::size_t slots = op.slots.size();
  if (a.inputs.size() % slots != 0) {
    // MakeCase names the slots and the count in its message.
    MakeCase(a.op, a.src, a.dst, a.rmode, a.sat, a.inputs, edition);
  }
  // --rmode all: each input under every mode, in mode order (the op must have controls).
  std::vector<std::string> modes = {a.rmode};
  if (a.rmode == "all") {
    if (!op.uses_controls) {
      throw InputError(a.op +
                       " has no rounding mode (its vectors are RNE, Sat off): --rmode all "
                       "does not apply");
    }
    modes.clear();
    for (const auto m : oracle::kAllRoundingModes) modes.emplace_back(oracle::RoundingModeName(m));
  }
  EvalCases out;
  for (std::size_t i = 0; i < a.inputs.size(); i += slots) {
    const std::vector<std::string> group(a.inputs.begin() + static_cast<std::ptrdiff_t>(i),
                                         a.inputs.begin() + static_cast<std::ptrdiff_t>(i + slots));
    // An op whose legal controls depend on the inputs (fpatr): --rmode all and --sat both give
    // the legal ones only (a control named alone is refused by MakeCase with its reason).
    const std::size_t before = out.cases.size();
    const bool expanded = modes.size() > 1 || sats.size() > 1;
    std::optional<std::string> refused;
    for (const std::string& mode : modes) {
      for (const bool sat : sats) {
        if (expanded && op.check_control) {
          Case probe = MakeCase(a.op, a.src, a.dst, "RNE", false, group, edition);
          probe.control = {RequireRoundingMode(mode), sat};
          if (auto problem = op.check_control(probe.pair, probe.in, probe.control)) {
            if (!refused) refused = *problem;
            continue;
          }
        }
        out.cases.push_back(MakeCase(a.op, a.src, a.dst, mode, sat, group, edition));
      }
    }
    if (out.cases.size() == before) throw InputError(refused.value_or("no control selected"));
    const Case& c = out.cases.back();
    for (std::size_t k = 0; k < slots; ++k) {
      const TileDataType type = c.op->slots[k].TypeFor(c.pair);
      const auto d = ParseDecimalInput(group[k], type, c.op->slots[k].name);
      if (d && !d->exact) {
        out.notes.push_back(group[k] + " is not exactly a value of " +
                            std::string(oracle::Format(type).name) +
                            "; it is taken as the nearest (RNE) " + HexWord(d->code, type) + " = " +
                            ValueText(type, d->code));
      }
    }
  }
  return out;
}

bool EvalBatchLine(std::string line, std::uint64_t number, std::ostream& out, std::ostream& err,
                   bool& failed, const std::string& edition) {
  // Blank lines and # comments are skipped; a reproduce line of a report ("ptovec eval --op
  // ...", with any path before ptovec) is taken as its arguments.
  const std::size_t first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos || line[first] == '#') return false;
  if (const std::size_t at = line.find("ptovec eval ");
      at != std::string::npos && line.find_first_of(" \t", first) >= at) {
    line.erase(0, at + std::string("ptovec eval ").size());
  }
  try {
    EvalArgs args;
    args.edition = edition;  // the line's own --edition, when it has one, replaces it
    CLI::App parser{"eval line"};
    AddEvalOptions(parser, args);
    try {
      parser.parse(line, false);
    } catch (const CLI::CallForHelp&) {
      throw InputError("--help is not a case (expected the arguments of `ptovec eval`)");
    } catch (const CLI::CallForAllHelp&) {
      throw InputError("--help-all is not a case (expected the arguments of `ptovec eval`)");
    } catch (const CLI::ParseError& e) {
      throw InputError(e.what());
    }
    const EvalCases parsed = CasesFromArgs(args);
    for (const Case& c : parsed.cases) {
      out << EvalLineJson(c, EvaluateCase(c)).dump() << "\n";
    }
    for (const std::string& note : parsed.notes) {
      err << "ptovec: note: line " << number << ": " << note << "\n";
    }
  } catch (const std::exception& e) {
    failed = true;
    nlohmann::ordered_json error;
    error["line"] = number;
    error["error"] = e.what();
    out << error.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  }
  return true;
}

}  // namespace ptovec::cli
