// The per-op conditional blocks of the JSON Schemas (schema_blocks.hpp OpBlocks): per op its
// slots, binary fields, pairs and pair controls, then a block per src and per dst type.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/writers.hpp"
#include "schema_blocks.hpp"

namespace ptovec::generator::schema_blocks {

namespace {

// prefixItems of length `length` with `set(i)` at the positions it answers (others {}), added to
// `target` only when it constrains something.
template <typename Fn>
void AddPrefix(J& target, std::size_t length, Fn set) {
  J items = J::array();
  bool any = false;
  for (std::size_t i = 0; i < length; ++i) {
    J item = set(i);
    any = any || !item.is_null();
    items.push_back(item.is_null() ? J::object() : item);
  }
  if (any) target["prefixItems"] = items;
}

// For an op whose controls depend on the pair (OpDef::pair_controls): one block per pair, and
// per file group of a split pair (OpDef::file_groups), that holds "controls" to those
// ControlsFor(op, pair) gives and "group" to the pair's group names (absent for a pair kept in
// one file; a split pair's file without a group holds the controls of every mode of the pair).
void PairControlBlocks(const OpDef& op, J& blocks) {
  for (const TypePair& whole : op.legal_pairs) {
    const std::vector<std::string> groups = FileGroups(op, whole);
    const J pair_if = OpIf(op, {{"src", TypeName(whole.src)}, {"dst", TypeName(whole.dst)}});
    const auto controls = [&](TypePair pair) {
      J allowed = J::array();
      for (const J& c : ControlsJson(ControlsFor(op, pair))) allowed.push_back(c);
      return J{{"controls", {{"items", {{"enum", allowed}}}}}};
    };
    if (groups.empty() && !op.file_groups && ControlsFor(op, whole) == ControlsFor(op)) {
      continue;  // every control of the op, no group: the op's block says it all
    }
    if (groups.empty()) {
      blocks.push_back(Block(pair_if, {{"properties", controls(whole)},
                                       {"not", {{"required", J::array({"group"})}}}}));
      continue;
    }
    J whole_if = pair_if;
    whole_if["not"] = {{"required", J::array({"group"})}};
    blocks.push_back(Block(whole_if, {{"properties", controls(whole)}}));
    blocks.push_back(Block(pair_if, {{"properties", {{"group", {{"enum", Strings(groups)}}}}}}));
    for (const TypePair& pair : FilePairs(op, whole)) {
      J group_if = pair_if;
      group_if["properties"]["group"] = {{"const", FileGroupName(op, pair)}};
      group_if["required"].push_back("group");
      blocks.push_back(Block(group_if, {{"properties", controls(pair)}}));
    }
  }
}

// The conditional blocks of one document kind, for each op: one keyed by the op (header fields,
// slot names, fixed-type slots, the legal pairs), one per src type (the words of Source slots)
// and one per dst type (the record's shape and the words of Destination slots and "out"). The
// per-record constraints sit only in the src and dst blocks, so a validator walks the vectors of
// a file at most three times.
// The header's "slots" of the op: its slot names, and a fixed slot's type.
J OpSlots(const OpDef& op) {
  const std::size_t n = op.slots.size();
  J slots = {{"minItems", n}, {"maxItems", n}};
  AddPrefix(slots, n, [&](std::size_t i) {
    const Slot& s = op.slots[i];
    J item = {{"properties", {{"name", {{"const", s.name}}}}}};
    if (s.role == SlotRole::Fixed) {
      item["properties"]["type"] = {{"const", TypeName(s.fixed_type)}};
      item["properties"]["bits"] = {{"const", oracle::Format(s.fixed_type).width}};
    }
    return item;
  });
  return slots;
}

// The binary header's "fields" of the op: a field per slot, then rmode, sat, out and flags.
J OpFields(const OpDef& op) {
  const std::size_t n = op.slots.size();
  J fields = {{"minItems", n + 4}, {"maxItems", n + 4}};
  AddPrefix(fields, n + 4, [&](std::size_t i) {
    J item = J::object();
    if (i < n) {
      const Slot& s = op.slots[i];
      item["properties"]["name"] = {{"const", "in." + s.name}};
      if (s.role == SlotRole::Fixed) {
        item["properties"]["type"] = {{"const", TypeName(s.fixed_type)}};
        item["properties"]["bytes"] = {{"const", oracle::Format(s.fixed_type).StorageBytes()}};
        item["properties"]["bits"] = {{"const", oracle::Format(s.fixed_type).width}};
      }
      item["required"] = J::array({"type"});
    } else if (i == n + 2) {
      item["properties"]["name"] = {{"const", "out"}};
      item["required"] = J::array({"type"});
    } else {
      item["properties"]["name"] = {{"const", i == n ? "rmode" : i == n + 1 ? "sat" : "flags"}};
      item["properties"]["bytes"] = {{"const", 1}};
      item["properties"]["bits"] = {{"const", i == n ? 3 : i == n + 1 ? 1 : 5}};
      item["not"] = {{"required", J::array({"type"})}};
    }
    if (i == 0) item["properties"]["offset"] = {{"const", 0}};
    return item;
  });
  return fields;
}

// The block of the op itself: its description, header constants and pairs.
J OpBlock(const OpDef& op, Doc doc) {
  const bool has_header = doc != Doc::EvalResult;
  J props = J::object();
  if (has_header) {
    props["instruction"] = {{"const", op.instruction}};
    props["seed_function"] = {{"const", op.seed_function}};
    props["slots"] = OpSlots(op);
    if (!op.uses_controls) props["controls"] = {{"const", ControlsJson(ControlsFor(op))}};
  }
  if (doc == Doc::BinaryHeader) props["fields"] = OpFields(op);
  J then = J::object();
  then["description"] = op.name + ": " + op.summary;
  if (!props.empty()) then["properties"] = props;
  then["anyOf"] = PairAlternatives(op);
  if (has_header && !op.file_groups) then["not"] = {{"required", J::array({"group"})}};
  return Block(OpIf(op), then);
}

// One record of a JSON file or eval line: its words of `type` in the slots of `role`; the dst
// block also carries the record's shape.
J RecordProperties(const OpDef& op, bool is_src, SlotRole role, TileDataType type) {
  const std::size_t n = op.slots.size();
  J rp = J::object();
  J in = J::object();
  if (!is_src) {
    in["minItems"] = n;
    in["maxItems"] = n;
  }
  AddPrefix(in, n, [&](std::size_t i) {
    const Slot& s = op.slots[i];
    if (s.role == role) return J{{"pattern", HexPattern(type)}};
    if (!is_src && s.role == SlotRole::Fixed) return J{{"pattern", HexPattern(s.fixed_type)}};
    return J();
  });
  rp["in"] = in;
  if (!is_src) {
    if (!op.uses_controls) {
      rp["rmode"] = {{"const", "RNE"}};
      rp["sat"] = {{"const", false}};
    }
    rp["out"] = {{"pattern", HexPattern(type)}};
  }
  return rp;
}

// The properties of the block of the op's src (is_src) or dst type `type`.
J TypeBlockProperties(const OpDef& op, Doc doc, bool is_src, bool any_slot, TileDataType type) {
  const std::size_t n = op.slots.size();
  const SlotRole role = is_src ? SlotRole::Source : SlotRole::Destination;
  const std::string name = TypeName(type);
  const unsigned bytes = oracle::Format(type).StorageBytes();
  J p = J::object();
  if (doc != Doc::EvalResult && any_slot) {
    J slots = J::object();
    AddPrefix(slots, n, [&](std::size_t i) {
      return op.slots[i].role == role ? J{{"properties",
                                           {{"type", {{"const", name}}},
                                            {"bits", {{"const", oracle::Format(type).width}}}}}}
                                      : J();
    });
    p["slots"] = slots;
  }
  if (doc == Doc::BinaryHeader) {
    J fields = J::object();
    AddPrefix(fields, is_src ? n : n + 3, [&](std::size_t i) {
      const bool word = i < n ? op.slots[i].role == role : i == n + 2;
      return word ? J{{"properties",
                       {{"type", {{"const", name}}},
                        {"bytes", {{"const", bytes}}},
                        {"bits", {{"const", oracle::Format(type).width}}}}}}
                  : J();
    });
    p["fields"] = fields;
  } else {
    const J rp = RecordProperties(op, is_src, role, type);
    if (doc == Doc::Vectors) {
      p["vectors"] = {{"items", {{"properties", rp}}}};
    } else {
      for (auto it = rp.begin(); it != rp.end(); ++it) p[it.key()] = it.value();
    }
  }
  return p;
}

}  // namespace

J OpBlocks(Doc doc) {
  J blocks = J::array();
  for (const oracle::Edition edition : oracle::kAllEditions) {
    for (J& block : OpBlocks(doc, edition)) blocks.push_back(std::move(block));
  }
  return blocks;
}

J OpBlocks(Doc doc, oracle::Edition edition) {
  J blocks = J::array();
  for (const OpDef& op : AllOps(edition)) {
    blocks.push_back(OpBlock(op, doc));
    if (doc != Doc::EvalResult && op.pair_controls) PairControlBlocks(op, blocks);
    // ---- per src type and per dst type ----
    for (const bool is_src : {true, false}) {
      const SlotRole role = is_src ? SlotRole::Source : SlotRole::Destination;
      const bool any_slot = std::any_of(op.slots.begin(), op.slots.end(),
                                        [&](const Slot& s) { return s.role == role; });
      if (is_src && !any_slot) continue;  // (dst blocks always constrain "out")
      for (TileDataType type : is_src ? SrcTypes(op) : DstTypes(op)) {
        blocks.push_back(
            Block(OpIf(op, {{is_src ? "src" : "dst", TypeName(type)}}),
                  {{"properties", TypeBlockProperties(op, doc, is_src, any_slot, type)}}));
      }
    }
  }
  return blocks;
}

}  // namespace ptovec::generator::schema_blocks
