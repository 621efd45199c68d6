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

namespace weft::detail {

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
        params += (params.empty() ? "" : ", ") + lo("s", u) + ", " + hi("s", u);
    for (auto [i, st] : llvm::enumerate(model.getStatements())) {
      const weft::DistUnit &unit = units[unitOf[i]];
      if (!unit.distributed || !isa<affine::AffineStoreOp>(st.access) ||
          (only >= 0 && unitOf[i] != only) || isCombined(unit, st.access))
        continue;
      std::string iv = "i" + std::to_string(unit.enclosing.size());
      body += (body.empty() ? "" : "; ") + statementTuple(i, st.loops.size()) +
              " : " + iv + " >= " + lo("s", rangeOf[unitOf[i]]) + " and " + iv +
              " < " + hi("s", rangeOf[unitOf[i]]);
    }
    return "[" + params + "] -> { " + body + " }";
  }

  /// Reads of unit `t` in its current execution, restricted to the
  /// receiver's block if `distributed`.
  std::string sinks(unsigned t, bool distributed) const {
    const weft::DistUnit &unit = units[t];
    unsigned k = unit.enclosing.size();
    std::string params = distributed ? "rlo, rhi" : "";
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
      if (distributed) {
        std::string iv = "i" + std::to_string(k);
        cond +=
            (cond.empty() ? "" : " and ") + iv + " >= rlo and " + iv + " < rhi";
      }
      body += (body.empty() ? "" : "; ") + statementTuple(i, st.loops.size()) +
              (cond.empty() ? "" : " : " + cond);
    }
    return "[" + params + "] -> { " + body + " }";
  }

  /// Writes of distributed unit `u` in its current execution (its
  /// sequential loops at e0, e1, ...), in the sender's block.
  std::string sourcesInExecution(unsigned u) const {
    unsigned k = units[u].enclosing.size();
    std::string params = lo("s", rangeOf[u]) + ", " + hi("s", rangeOf[u]);
    std::string cond;
    for (unsigned d = 0; d < k; ++d) {
      params += ", e" + std::to_string(d);
      cond += "i" + std::to_string(d) + " = e" + std::to_string(d) + " and ";
    }
    std::string iv = "i" + std::to_string(k), body;
    for (auto [i, st] : llvm::enumerate(model.getStatements())) {
      if ((unsigned)unitOf[i] != u || !isa<affine::AffineStoreOp>(st.access) ||
          isCombined(units[u], st.access))
        continue;
      body += (body.empty() ? "" : "; ") +
              statementTuple(i, st.loops.size()) + " : " + cond + iv +
              " >= " + lo("s", rangeOf[u]) + " and " + iv + " < " +
              hi("s", rangeOf[u]);
    }
    return "[" + params + "] -> { " + body + " }";
  }

  /// The combined reduction updates of distributed unit `u` in its current
  /// execution: their stores (`loads` false) or their accumulator loads,
  /// in the rank's block of u's group (rlo<g>, rhi<g>; `loads` true).
  std::string reductionAccesses(unsigned u, bool loads) const {
    unsigned k = units[u].enclosing.size(), g = rangeOf[u];
    std::string params, cond;
    for (unsigned d = 0; d < k; ++d) {
      params += (d ? ", e" : "e") + std::to_string(d);
      cond +=
          (d ? " and i" : "i") + std::to_string(d) + " = e" + std::to_string(d);
    }
    if (loads) {
      std::string iv = "i" + std::to_string(k);
      params += std::string(k ? ", " : "") + lo("r", g) + ", " + hi("r", g);
      cond += std::string(k ? " and " : "") + iv + " >= " + lo("r", g) +
              " and " + iv + " < " + hi("r", g);
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
        params += ", " + lo("r", u) + ", " + hi("r", u);
    for (auto [i, st] : llvm::enumerate(model.getStatements())) {
      if (!isa<affine::AffineLoadOp>(st.access))
        continue;
      const weft::DistUnit &unit = units[unitOf[i]];
      std::string tuple = statementTuple(i, st.loops.size());
      if (unit.distributed) {
        std::string iv = "i" + std::to_string(unit.enclosing.size());
        unsigned g = rangeOf[unitOf[i]];
        tuple += " : " + iv + " >= " + lo("r", g) + " and " + iv + " < " +
                 hi("r", g);
      }
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
        params += (params.empty() ? "" : ", ") + lo("r", u) + ", " + hi("r", u);
    for (auto [i, st] : llvm::enumerate(model.getStatements())) {
      const weft::DistUnit &unit = units[unitOf[i]];
      std::string tuple = statementTuple(i, st.loops.size());
      if (unit.distributed && !isCombinedAccess(unit, i)) {
        std::string iv = "i" + std::to_string(unit.enclosing.size());
        unsigned g = rangeOf[unitOf[i]];
        tuple += " : " + iv + " >= " + lo("r", g) + " and " + iv + " < " +
                 hi("r", g);
      }
      body += (body.empty() ? "" : "; ") + tuple;
    }
    return "[" + params + "] -> { " + body + " }";
  }

  /// After distributed unit `u`: the receiver's block of u's group is not
  /// the sender's.
  std::string senderIsNotReceiver(unsigned u) const {
    unsigned g = rangeOf[u];
    std::string slo = lo("s", g), shi = hi("s", g);
    std::string rlo = lo("r", g), rhi = hi("r", g);
    return "[" + rlo + ", " + rhi + ", " + slo + ", " + shi + "] -> { : " +
           shi + " <= " + rlo + " or " + rhi + " <= " + slo + " }";
  }

  /// For a distributed receiving unit `t`: the sender's block of the same
  /// range is another rank's, so it does not meet the receiver's.
  std::string disjointBlocks(unsigned t) const {
    std::string slo = lo("s", rangeOf[t]), shi = hi("s", rangeOf[t]);
    return "[rlo, rhi, " + slo + ", " + shi + "] -> { : " + shi +
           " <= rlo or rhi <= " + slo + " }";
  }

private:
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
  static std::string lo(StringRef who, unsigned u) {
    return who.str() + "lo" + std::to_string(u);
  }
  static std::string hi(StringRef who, unsigned u) {
    return who.str() + "hi" + std::to_string(u);
  }
  const ModelBuilder &model;
  ArrayRef<weft::DistUnit> units;
  ArrayRef<int> unitOf;
  SmallVector<unsigned> rangeOf;
};

} // namespace weft::detail

#endif // WEFT_LIB_ANALYSIS_POLYHEDRAL_SELECTIONS_H
