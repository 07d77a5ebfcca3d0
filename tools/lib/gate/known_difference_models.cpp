// Behaviour models as known differences (known_differences.hpp): the built-in models, a file's
// "model" composition, one waiver entry per deviation, and when a model's answer explains a
// device's.
#include <string>
#include <vector>

#include "ptovec/generator/errors.hpp"
#include "ptovec/oracle/behaviour.hpp"
#include "ptovec/tools/known_differences.hpp"

namespace ptovec::tools {

namespace {

using generator::InputError;
using nlohmann::json;

[[noreturn]] void Refuse(const std::string& origin, const std::string& what) {
  throw InputError("known differences " + origin + ": \"model\": " + what);
}

std::string ModelNames() {
  std::string s = "profile";
  for (const oracle::NamedModel& m : oracle::BuiltinModels()) s += ", " + std::string(m.name);
  return s;
}

// "add" or "remove": a deviation name or an array of them, as a set.
oracle::DeviationSet Deviations(const json& value, const std::string& origin, const char* key) {
  std::vector<json> items;
  if (value.is_string()) {
    items.push_back(value);
  } else if (value.is_array()) {
    items.assign(value.begin(), value.end());
  } else {
    Refuse(origin, std::string("\"") + key + "\" must be a deviation name or an array of them");
  }
  oracle::DeviationSet out = 0;
  for (const json& item : items) {
    const std::string name = item.is_string() ? item.get<std::string>() : item.dump();
    const auto d = oracle::ParseDeviation(name);
    if (!item.is_string() || !d) {
      Refuse(origin, std::string("\"") + key + "\": '" + name +
                         "' is not a deviation (accepted: " + oracle::DeviationNamesList() + ")");
    }
    out |= oracle::DeviationBit(*d);
  }
  return out;
}

}  // namespace

std::vector<std::string> BuiltinKnownDifferenceSets() {
  std::vector<std::string> out;
  for (const oracle::NamedModel& m : oracle::BuiltinModels()) out.emplace_back(m.name);
  return out;
}

std::string BuiltinKnownDifferenceSetsList() {
  std::string s;
  for (const std::string& n : BuiltinKnownDifferenceSets()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

void KnownDifferences::AddModel(const std::string& set, const oracle::Behaviour& behaviour) {
  KnownModel m;
  m.name = set;
  m.behaviour = behaviour;
  m.rule.fill(kNoModel);
  for (const oracle::DeviationInfo& d : oracle::AllDeviations()) {
    if (!behaviour.Has(d.deviation)) continue;
    KnownDifferenceRule r;
    r.set = set;
    r.name = std::string(d.name);
    r.reason = std::string(d.summary);
    r.see = std::string(d.source);
    r.model = models.size();
    r.deviation = d.deviation;
    m.rule[static_cast<std::size_t>(d.deviation)] = rules.size();
    rules.push_back(std::move(r));
  }
  models.push_back(std::move(m));
  sets.push_back(set);
}

oracle::Behaviour ParseModel(const json& model, const std::string& origin) {
  const auto base_of = [&](const json& name) {
    const std::string n = name.is_string() ? name.get<std::string>() : name.dump();
    if (n == "profile") return oracle::Behaviour{};
    const oracle::NamedModel* m = name.is_string() ? oracle::FindBuiltinModel(n) : nullptr;
    if (m == nullptr)
      Refuse(origin, "base '" + n + "' is not a model (accepted: " + ModelNames() + ")");
    return m->behaviour;
  };
  if (model.is_string()) return base_of(model);
  if (!model.is_object() || !model.contains("base")) {
    Refuse(origin, "give a model name (" + ModelNames() +
                       ") or an object with \"base\" and any of add, remove, invalid-integer, nan");
  }
  oracle::Behaviour b = base_of(model["base"]);
  for (const auto& [key, value] : model.items()) {
    if (key == "base") continue;
    if (key == "add") {
      b.deviations |= Deviations(value, origin, "add");
    } else if (key == "remove") {
      b.deviations &= static_cast<oracle::DeviationSet>(~Deviations(value, origin, "remove"));
    } else if (key == "invalid-integer") {
      const auto w = value.is_string() ? oracle::ParseInvalidIntegerWord(value.get<std::string>())
                                       : std::nullopt;
      if (!w) {
        Refuse(origin, "\"invalid-integer\" " + value.dump() +
                           " is not a convention (accepted: open, clamp, indefinite, "
                           "clamp-nan-zero)");
      }
      b.invalid_integer = *w;
    } else if (key == "nan") {
      const auto w =
          value.is_string() ? oracle::ParseNaNWord(value.get<std::string>()) : std::nullopt;
      if (!w) {
        Refuse(origin, "\"nan\" " + value.dump() +
                           " is not a NaN choice (accepted: open, positive-quiet, negative-quiet)");
      }
      b.nan = *w;
    } else {
      Refuse(origin,
             "unknown key \"" + key + "\" (accepted: base, add, remove, invalid-integer, nan)");
    }
  }
  if (b.deviations == 0) Refuse(origin, "it has no deviation left: it would waive nothing");
  return b;
}

bool ModelExplains(const oracle::ModelAnswer& model, const DeviceAnswer& got,
                   const ComparePolicy& policy) {
  if (model.applied == 0 || !got.supported) return false;
  if (model.word_open) {
    if (!policy.full()) return false;  // only the word's class would be judged: nothing is
  } else if (got.result.word != model.result.word) {
    return false;
  }
  return policy.FlagsMatch(model.result.status, got.result.status);
}

}  // namespace ptovec::tools
