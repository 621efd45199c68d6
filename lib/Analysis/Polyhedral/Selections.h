//===- Selections.h - ISL selections of distributed instances ---*- C++ -*-===//
//
// Private to WeftPolyhedral: the ISL text of the statement instances a rank
// writes (sources, in the sender's blocks) and reads (sinks, in the
// receiver's block), with the parameter names of Communication.h.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_ANALYSIS_POLYHEDRAL_SELECTIONS_H
#define WEFT_LIB_ANALYSIS_POLYHEDRAL_SELECTIONS_H

#include "ModelBuilder.h"

#include "weft/Analysis/Polyhedral/Communication.h"

#include <isl/cpp.h>
#include <isl/ctx.h>

#include <optional>

namespace weft::detail {

/// What a block parameter (Communication.h's names) stands for.
struct BlockParam {
  bool sender; // s... (else r...)
  bool lo;     // ...lo (else ...hi)
  unsigned gridDims;
  unsigned axis;
  /// The group's number; none for the cost estimate's receiver (rlo, rhi).
  std::optional<unsigned> group;
};

/// The names of the bounds of a block of a group over `gridDims` grid axes:
/// lo and hi of each axis. `who` is "s" (sender) or "r" (receiver);
/// `suffix` the group's number, or empty.
inline SmallVector<std::string, 4>
blockParamNames(StringRef who, StringRef suffix, unsigned gridDims) {
  std::string w = who.str(), g = suffix.str();
  if (gridDims == 1)
    return {w + "lo" + g, w + "hi" + g};
  return {w + "rlo" + g, w + "rhi" + g, w + "clo" + g, w + "chi" + g};
}

/// Parses a name made by blockParamNames.
inline std::optional<BlockParam> parseBlockParam(StringRef name) {
  struct Prefix {
    StringRef text;
    bool lo;
    unsigned gridDims, axis;
  };
  static const Prefix prefixes[] = {{"rlo", true, 2, 0}, {"rhi", false, 2, 0},
                                    {"clo", true, 2, 1}, {"chi", false, 2, 1},
                                    {"lo", true, 1, 0},  {"hi", false, 1, 0}};
  if (name.empty() || (name[0] != 's' && name[0] != 'r'))
    return std::nullopt;
  StringRef rest = name.drop_front();
  for (const Prefix &p : prefixes) {
    if (!rest.starts_with(p.text))
      continue;
    StringRef number = rest.drop_front(p.text.size());
    BlockParam param{name[0] == 's', p.lo, p.gridDims, p.axis, std::nullopt};
    unsigned group = 0;
    if (!number.empty()) {
      if (number.getAsInteger(10, group))
        return std::nullopt;
      param.group = group;
    }
    return param;
  }
  return std::nullopt;
}

/// Builds the ISL selections of source and sink instances.
class Selections {
public:
  Selections(const ModelBuilder &model, ArrayRef<weft::DistUnit> units,
             ArrayRef<int> unitOf)
      : model(model), units(units), unitOf(unitOf),
        rangeOf(blockGroups(units)) {}

  /// Distributed units of one block group have the same blocks, so their
  /// block parameters are shared (named after the group's first unit).
  unsigned rangeOfUnit(unsigned u) const { return rangeOf[u]; }

  /// Writes of distributed units (of unit `only` if given), restricted to
  /// the sender's blocks.
  std::string sources(int only = -1) const {
    std::string params, body;
    for (auto [u, unit] : llvm::enumerate(units))
      if (unit.distributed && rangeOf[u] == u)
        params += (params.empty() ? "" : ", ") + blockParams("s", u);
    for (auto [i, st] : llvm::enumerate(model.getStatements())) {
      const weft::DistUnit &unit = units[unitOf[i]];
      if (!unit.distributed || !isa<affine::AffineStoreOp>(st.access) ||
          (only >= 0 && unitOf[i] != only) || isCombined(unit, st.access))
        continue;
      body += (body.empty() ? "" : "; ") + statementTuple(i, st.loops.size()) +
              " : " + inBlock("s", unitOf[i]);
    }
    return "[" + params + "] -> { " + body + " }";
  }

  /// Reads of unit `t` in its current execution, restricted to the
  /// receiver's block (rlo, rhi, or rrlo ... rchi over a 2-D grid) if
  /// `distributed`.
  std::string sinks(unsigned t, bool distributed) const {
    const weft::DistUnit &unit = units[t];
    unsigned k = unit.enclosing.size();
    std::string params = distributed ? blockParams("r", t, false) : "";
    for (unsigned d = 0; d < k; ++d)
      params += (params.empty() ? "e" : ", e") + std::to_string(d);
    std::string body;
    for (auto [i, st] : llvm::enumerate(model.getStatements())) {
      if ((unsigned)unitOf[i] != t || !isa<affine::AffineLoadOp>(st.access))
        continue;
      std::string cond;
      for (unsigned d = 0; d < k; ++d)
        cond += (d ? " and i" : "i") + std::to_string(d) + " = e" +
                std::to_string(d);
      if (distributed)
        cond += (cond.empty() ? "" : " and ") + inBlock("r", t, false);
      body += (body.empty() ? "" : "; ") + statementTuple(i, st.loops.size()) +
              (cond.empty() ? "" : " : " + cond);
    }
    return "[" + params + "] -> { " + body + " }";
  }

  /// Writes of distributed unit `u` in its current execution (its
  /// sequential loops at e0, e1, ...), in the sender's block.
  std::string sourcesInExecution(unsigned u) const {
    unsigned k = units[u].enclosing.size();
    std::string params = blockParams("s", u);
    std::string cond;
    for (unsigned d = 0; d < k; ++d) {
      params += ", e" + std::to_string(d);
      cond += "i" + std::to_string(d) + " = e" + std::to_string(d) + " and ";
    }
    std::string body;
    for (auto [i, st] : llvm::enumerate(model.getStatements())) {
      if ((unsigned)unitOf[i] != u || !isa<affine::AffineStoreOp>(st.access) ||
          isCombined(units[u], st.access))
        continue;
      body += (body.empty() ? "" : "; ") + statementTuple(i, st.loops.size()) +
              " : " + cond + inBlock("s", u);
    }
    return "[" + params + "] -> { " + body + " }";
  }

  /// The combined reduction updates of distributed unit `u` in its current
  /// execution: their stores (`loads` false) or their accumulator loads,
  /// in the rank's block of u's group (rlo<g>, rhi<g>; `loads` true).
  std::string reductionAccesses(unsigned u, bool loads) const {
    unsigned k = units[u].enclosing.size();
    std::string params, cond;
    for (unsigned d = 0; d < k; ++d) {
      params += (d ? ", e" : "e") + std::to_string(d);
      cond +=
          (d ? " and i" : "i") + std::to_string(d) + " = e" + std::to_string(d);
    }
    if (loads) {
      params += std::string(k ? ", " : "") + blockParams("r", u);
      cond += std::string(k ? " and " : "") + inBlock("r", u);
    }
    std::string body;
    for (const auto &r : model.reductions) {
      if (!isCombined(units[u], model.accessOf(r.store)))
        continue;
      unsigned i = loads ? r.load : r.store;
      body += (body.empty() ? "" : "; ") +
              statementTuple(i, model.getStatements()[i].loops.size()) +
              (cond.empty() ? "" : " : " + cond);
    }
    return "[" + params + "] -> { " + body + " }";
  }
  /// Every read a receiving rank makes: in a distributed unit, in its block
  /// of the unit's group (rlo<g>, rhi<g>); in a replicated unit, all of
  /// them; and END[], on rank 0 (rq = 0) unless `liveOutEverywhere`.
  std::string allSinks(bool liveOutEverywhere) const {
    std::string params = "rq", body;
    for (auto [u, unit] : llvm::enumerate(units))
      if (unit.distributed && rangeOf[u] == u)
        params += ", " + blockParams("r", u);
    for (auto [i, st] : llvm::enumerate(model.getStatements())) {
      if (!isa<affine::AffineLoadOp>(st.access))
        continue;
      const weft::DistUnit &unit = units[unitOf[i]];
      std::string tuple = statementTuple(i, st.loops.size());
      if (unit.distributed)
        tuple += " : " + inBlock("r", unitOf[i]);
      body += (body.empty() ? "" : "; ") + tuple;
    }
    body += (body.empty() ? "" : "; ") +
            std::string(liveOutEverywhere ? "END[]" : "END[] : rq = 0");
    return "[" + params + "] -> { " + body + " }";
  }

  /// Every access the calling rank makes: in a distributed unit, in its
  /// block of the unit's group (rlo<g>, rhi<g>), except combined reduction
  /// updates, whose results every rank receives; in a replicated unit, all.
  std::string allAccesses() const {
    std::string params, body;
    for (auto [u, unit] : llvm::enumerate(units))
      if (unit.distributed && rangeOf[u] == u)
        params += (params.empty() ? "" : ", ") + blockParams("r", u);
    for (auto [i, st] : llvm::enumerate(model.getStatements())) {
      const weft::DistUnit &unit = units[unitOf[i]];
      std::string tuple = statementTuple(i, st.loops.size());
      if (unit.distributed && !isCombinedAccess(unit, i))
        tuple += " : " + inBlock("r", unitOf[i]);
      body += (body.empty() ? "" : "; ") + tuple;
    }
    return "[" + params + "] -> { " + body + " }";
  }

  /// After distributed unit `u`: the receiver's block of u's group is not
  /// the sender's.
  std::string senderIsNotReceiver(unsigned u) const {
    return differentBlocks(u, /*numberedReceiver=*/true);
  }

  /// For a distributed receiving unit `t`: the sender's block of the same
  /// range is another rank's, so it does not meet the receiver's (rlo, rhi).
  std::string disjointBlocks(unsigned t) const {
    return differentBlocks(t, /*numberedReceiver=*/false);
  }

private:
  /// The block parameters of `who` ("s" or "r") in `u`'s group, numbered
  /// after the group or not.
  std::string blockParams(StringRef who, unsigned u,
                          bool numbered = true) const {
    return llvm::join(names(who, u, numbered), ", ");
  }
  SmallVector<std::string, 4> names(StringRef who, unsigned u,
                                    bool numbered) const {
    return blockParamNames(who, numbered ? std::to_string(rangeOf[u]) : "",
                           units[u].gridDims);
  }
  /// The instances of a statement of distributed unit `u` in `who`'s block
  /// of u's group: its loop (and the one inside it over a 2-D grid) in the
  /// block's range.
  std::string inBlock(StringRef who, unsigned u, bool numbered = true) const {
    SmallVector<std::string, 4> bounds = names(who, u, numbered);
    unsigned k = units[u].enclosing.size();
    std::string cond;
    for (unsigned axis = 0; axis < units[u].gridDims; ++axis) {
      std::string iv = "i" + std::to_string(k + axis);
      cond += (axis ? " and " : "") + iv + " >= " + bounds[2 * axis] + " and " +
              iv + " < " + bounds[2 * axis + 1];
    }
    return cond;
  }
  /// The sender's block of u's group differs from the receiver's on some
  /// axis.
  std::string differentBlocks(unsigned u, bool numberedReceiver) const {
    SmallVector<std::string, 4> s = names("s", u, true);
    SmallVector<std::string, 4> r = names("r", u, numberedReceiver);
    std::string cond;
    for (unsigned axis = 0; axis < units[u].gridDims; ++axis) {
      const std::string &slo = s[2 * axis], &shi = s[2 * axis + 1];
      const std::string &rlo = r[2 * axis], &rhi = r[2 * axis + 1];
      cond += (axis ? " or " : "") + shi + " <= " + rlo + " or " + rhi +
              " <= " + slo;
    }
    return "[" + llvm::join(r, ", ") + ", " + llvm::join(s, ", ") +
           "] -> { : " + cond + " }";
  }
  static bool isCombined(const weft::DistUnit &unit, Operation *access) {
    return unit.distributed &&
           llvm::any_of(unit.reductions, [&](const weft::UnitReduction &r) {
             return r.store == access;
           });
  }
  /// Statement `i` is the store or the load of a combined reduction update.
  bool isCombinedAccess(const weft::DistUnit &unit, unsigned i) const {
    return llvm::any_of(model.reductions, [&](const auto &r) {
      return (r.store == i || r.load == i) &&
             isCombined(unit, model.accessOf(r.store));
    });
  }
  const ModelBuilder &model;
  ArrayRef<weft::DistUnit> units;
  ArrayRef<int> unitOf;
  SmallVector<unsigned> rangeOf;
};

} // namespace weft::detail

#endif // WEFT_LIB_ANALYSIS_POLYHEDRAL_SELECTIONS_H
