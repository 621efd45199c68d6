//===- FlowDependences.cpp - Exact flow dependences with ISL ----*- C++ -*-===//
//
// Builds the polyhedral model of a static control part as ISL strings (one
// statement per affine.load / affine.store) and asks ISL for the exact flow
// dependences, plus the memory-based anti and output dependences that
// decide whether a loop is parallel. This file is compiled with exceptions: isl::exception is
// caught here and turned into a diagnostic.
//
// Spaces, in Polly's notation:
//   domain     { S_k[i0, ..., id-1] }          one statement per access
//   reads      { S_k[i] -> M_m[subscripts] }   loads
//   writes     { S_k[i] -> M_m[subscripts] }   stores
//   schedule   { S_k[i] -> [c0, i0, c1, i1, ..., cd, 0, ...] }
// where c_j is the position of the j-th enclosing op in its block, so that
// the lexicographic order of schedule vectors is the program order.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/FlowDependences.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/MapVector.h"

#include <isl/cpp.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/union_map.h>

using namespace mlir;

namespace {

/// One entry of a schedule vector: the position of an op in its block, or
/// the iterator of an enclosing loop.
struct ScheduleEntry {
  bool isIterator;
  int64_t position;   // for positions
  unsigned loopDepth; // for iterators
};

/// A statement: one access, with the loops around it and its schedule.
struct Statement {
  Operation *access;
  SmallVector<affine::AffineForOp> loops; // outermost first
  SmallVector<ScheduleEntry> schedule;
  std::string domain; // constraints over i0..i(d-1)
  std::string target; // the accessed element, M_m[subscripts]
};

class ModelBuilder {
public:
  explicit ModelBuilder(func::FuncOp func) : func(func) {}

  LogicalResult build();

  std::string params() const;
  std::string domains() const;
  std::string accesses(bool writes) const;
  std::string scheduleMap() const;
  /// `{ [s] -> [t] : loop carries the pair }` for one loop.
  std::string carriedBy(affine::AffineForOp loop) const;
  /// Every pair of instances of the load and the store of each reduction
  /// update `X[e] = X[e] op v` (the dependences a reduction may reorder).
  std::string reductionPairs() const;

  /// A reduction update: statement indices of its load and store.
  struct Reduction {
    unsigned load, store;
    StringRef kind;
  };
  SmallVector<Reduction> reductions;

  unsigned numStatements() const { return statements.size(); }
  Operation *accessOf(unsigned statement) const {
    return statements[statement].access;
  }
  SmallVector<affine::AffineForOp> loops;

private:
  LogicalResult addStatement(Operation *access, AffineMap map,
                             ValueRange operands);
  void findReductions();
  /// ISL spelling of `e`; its dims and symbols are `operands`.
  FailureOr<std::string> spell(Operation *at, AffineExpr e,
                               ArrayRef<Value> operands, unsigned numDims,
                               const DenseMap<Value, unsigned> &ivs);
  FailureOr<std::string> spellOperand(Operation *at, Value v,
                                      const DenseMap<Value, unsigned> &ivs);
  unsigned schedulePositionOf(Operation *op) const;
  SmallVector<ScheduleEntry> scheduleOf(Operation *op) const;

  func::FuncOp func;
  SmallVector<Statement> statements;
  llvm::MapVector<Value, std::string> symbols;
  llvm::MapVector<Value, std::string> arrays;
  unsigned scheduleLength = 1;
};

} // end anonymous namespace

unsigned ModelBuilder::schedulePositionOf(Operation *op) const {
  unsigned pos = 0;
  for (Operation &other : *op->getBlock()) {
    if (&other == op)
      return pos;
    ++pos;
  }
  return pos;
}

SmallVector<ScheduleEntry> ModelBuilder::scheduleOf(Operation *op) const {
  SmallVector<Operation *> chain;
  for (Operation *a = op; a && a != func; a = a->getParentOp())
    chain.push_back(a);
  std::reverse(chain.begin(), chain.end());
  SmallVector<ScheduleEntry> entries;
  unsigned depth = 0;
  for (Operation *a : chain) {
    entries.push_back({false, (int64_t)schedulePositionOf(a), 0});
    if (isa<affine::AffineForOp>(a) && a != op)
      entries.push_back({true, 0, depth++});
    // An affine.if's else branch comes after its then branch.
    if (auto ifOp = dyn_cast<affine::AffineIfOp>(a))
      entries.push_back(
          {false,
           (int64_t)(ifOp.hasElse() &&
                     ifOp.getElseRegion().isAncestor(op->getParentRegion())),
           0});
  }
  return entries;
}

FailureOr<std::string>
ModelBuilder::spellOperand(Operation *at, Value v,
                           const DenseMap<Value, unsigned> &ivs) {
  auto it = ivs.find(v);
  if (it != ivs.end())
    return "i" + std::to_string(it->second);
  if (!affine::isValidSymbol(v))
    return at->emitRemark("not a static control part: a subscript or bound "
                          "depends on a value that is neither a loop "
                          "iterator nor a parameter"),
           failure();
  auto [sym, inserted] =
      symbols.insert({v, "p" + std::to_string(symbols.size())});
  return sym->second;
}

FailureOr<std::string> ModelBuilder::spell(Operation *at, AffineExpr e,
                                           ArrayRef<Value> operands,
                                           unsigned numDims,
                                           const DenseMap<Value, unsigned> &ivs) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return std::to_string(c.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return spellOperand(at, operands[d.getPosition()], ivs);
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return spellOperand(at, operands[numDims + s.getPosition()], ivs);
  // ISL wants the multiplier, divisor and modulus as bare constants; in a
  // semi-affine-free AffineExpr they are the right operand (or, for a
  // product, either one).
  auto bin = cast<AffineBinaryOpExpr>(e);
  AffineExpr lhs = bin.getLHS(), rhs = bin.getRHS();
  if (e.getKind() == AffineExprKind::Mul && isa<AffineConstantExpr>(lhs))
    std::swap(lhs, rhs);
  FailureOr<std::string> l = spell(at, lhs, operands, numDims, ivs);
  if (failed(l))
    return failure();
  if (e.getKind() == AffineExprKind::Add) {
    FailureOr<std::string> r = spell(at, rhs, operands, numDims, ivs);
    if (failed(r))
      return failure();
    return "(" + *l + " + " + *r + ")";
  }
  auto c = dyn_cast<AffineConstantExpr>(rhs);
  if (!c)
    return at->emitRemark("not a static control part: a product of two "
                          "variables"),
           failure();
  std::string k = std::to_string(c.getValue());
  switch (e.getKind()) {
  case AffineExprKind::Mul:
    return "(" + k + " * " + *l + ")";
  case AffineExprKind::FloorDiv:
    return "floor(" + *l + " / " + k + ")";
  case AffineExprKind::CeilDiv:
    return "ceil(" + *l + " / " + k + ")";
  default:
    return "(" + *l + " mod " + k + ")";
  }
}

LogicalResult ModelBuilder::addStatement(Operation *access, AffineMap map,
                                         ValueRange mapOperands) {
  Statement st;
  st.access = access;
  DenseMap<Value, unsigned> ivs;
  SmallVector<std::string> constraints;
  // Loops and conditions around the access, outermost first.
  SmallVector<Operation *> chain;
  for (Operation *a = access->getParentOp(); a && a != func;
       a = a->getParentOp())
    chain.push_back(a);
  std::reverse(chain.begin(), chain.end());
  for (Operation *a : chain) {
    if (auto loop = dyn_cast<affine::AffineForOp>(a)) {
      unsigned depth = st.loops.size();
      std::string iv = "i" + std::to_string(depth);
      auto bound = [&](AffineMap m, ValueRange ops, bool lower) -> LogicalResult {
        SmallVector<Value> operands(ops);
        affine::fullyComposeAffineMapAndOperands(&m, &operands);
        for (AffineExpr r : m.getResults()) {
          FailureOr<std::string> s = spell(loop, r, operands, m.getNumDims(), ivs);
          if (failed(s))
            return failure();
          constraints.push_back(lower ? iv + " >= " + *s : iv + " < " + *s);
        }
        return success();
      };
      if (failed(bound(loop.getLowerBoundMap(), loop.getLowerBoundOperands(),
                       true)) ||
          failed(bound(loop.getUpperBoundMap(), loop.getUpperBoundOperands(),
                       false)))
        return failure();
      if (loop.getStepAsInt() != 1) {
        if (loop.getLowerBoundMap().getNumResults() != 1)
          return loop.emitRemark("not a static control part: a stepped loop "
                                 "with several lower bounds"),
                 failure();
        SmallVector<Value> operands(loop.getLowerBoundOperands());
        AffineMap m = loop.getLowerBoundMap();
        affine::fullyComposeAffineMapAndOperands(&m, &operands);
        FailureOr<std::string> lb =
            spell(loop, m.getResult(0), operands, m.getNumDims(), ivs);
        if (failed(lb))
          return failure();
        constraints.push_back("(" + iv + " - (" + *lb + ")) mod " +
                              std::to_string(loop.getStepAsInt()) + " = 0");

      }
      ivs[loop.getInductionVar()] = depth;
      st.loops.push_back(loop);
      continue;
    }
    if (auto ifOp = dyn_cast<affine::AffineIfOp>(a)) {
      IntegerSet set = ifOp.getIntegerSet();
      SmallVector<Value> operands(ifOp.getOperands());
      SmallVector<std::string> terms;
      for (unsigned c = 0; c < set.getNumConstraints(); ++c) {
        FailureOr<std::string> s = spell(ifOp, set.getConstraint(c), operands,
                                         set.getNumDims(), ivs);
        if (failed(s))
          return failure();
        terms.push_back(*s + (set.isEq(c) ? " = 0" : " >= 0"));
      }
      bool inElse = ifOp.hasElse() &&
                    ifOp.getElseRegion().isAncestor(access->getParentRegion());
      if (!inElse) {
        constraints.append(terms.begin(), terms.end());
        continue;
      }
      // Else branch: some constraint fails.
      std::string negation;
      for (unsigned c = 0; c < terms.size(); ++c) {
        std::string e = terms[c].substr(0, terms[c].rfind(set.isEq(c) ? " =" : " >="));
        negation += (c ? " or " : "") +
                    (set.isEq(c) ? "(" + e + " < 0 or " + e + " > 0)"
                                 : "(" + e + " < 0)");
      }
      constraints.push_back("(" + negation + ")");
      continue;
    }
    return a->emitRemark("not a static control part: '")
               << a->getName() << "' encloses a memory access",
           failure();
  }
  st.schedule = scheduleOf(access);
  scheduleLength = std::max<unsigned>(scheduleLength, st.schedule.size());
  std::string dims;
  for (unsigned d = 0; d < st.loops.size(); ++d)
    dims += (d ? ", i" : "i") + std::to_string(d);
  std::string body;
  for (size_t c = 0; c < constraints.size(); ++c)
    body += (c ? " and " : "") + constraints[c];
  st.domain = "S" + std::to_string(statements.size()) + "[" + dims + "]" +
              (body.empty() ? "" : " : " + body);
  // The access itself.
  SmallVector<Value> operands(mapOperands);
  affine::fullyComposeAffineMapAndOperands(&map, &operands);
  std::string subscripts;
  for (auto [k, r] : llvm::enumerate(map.getResults())) {
    FailureOr<std::string> s = spell(access, r, operands, map.getNumDims(), ivs);
    if (failed(s))
      return failure();
    subscripts += (k ? ", " : "") + *s;
  }
  Value memref = isa<affine::AffineLoadOp>(access)
                     ? cast<affine::AffineLoadOp>(access).getMemRef()
                     : cast<affine::AffineStoreOp>(access).getMemRef();
  auto [arr, inserted] =
      arrays.insert({memref, "M" + std::to_string(arrays.size())});
  st.target = arr->second + "[" + subscripts + "]";
  statements.push_back(std::move(st));
  return success();
}

LogicalResult ModelBuilder::build() {
  WalkResult result = func.walk([&](Operation *op) {
    if (auto load = dyn_cast<affine::AffineLoadOp>(op))
      return failed(addStatement(op, load.getAffineMap(), load.getMapOperands()))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    if (auto store = dyn_cast<affine::AffineStoreOp>(op))
      return failed(
                 addStatement(op, store.getAffineMap(), store.getMapOperands()))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    // Other ops with regions (an scf.if computing a value) are fine as long
    // as no access sits inside them; addStatement checks that.
    if (isa<memref::LoadOp, memref::StoreOp>(op)) {
      op->emitRemark("not a static control part: '")
          << op->getName() << "' is not affine";
      return WalkResult::interrupt();
    }
    if (auto loop = dyn_cast<affine::AffineForOp>(op))
      loops.push_back(loop);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  findReductions();
  return success();
}

std::string ModelBuilder::params() const {
  std::string p = "[";
  for (auto [i, entry] : llvm::enumerate(symbols))
    p += (i ? ", " : "") + entry.second;
  return p + "] -> ";
}

std::string ModelBuilder::domains() const {
  std::string s = params() + "{ ";
  for (auto [i, st] : llvm::enumerate(statements))
    s += (i ? "; " : "") + st.domain;
  return s + " }";
}

static std::string statementTuple(unsigned index, const Statement &st,
                                  StringRef var = "i") {
  std::string dims;
  for (unsigned d = 0; d < st.loops.size(); ++d)
    dims += (d ? ", " : "") + var.str() + std::to_string(d);
  return "S" + std::to_string(index) + "[" + dims + "]";
}

/// The associative operation that combines a value into an accumulator.
static StringRef reductionKind(Operation *op) {
  if (isa<arith::AddFOp, arith::AddIOp>(op))
    return "add";
  if (isa<arith::MulFOp, arith::MulIOp>(op))
    return "mul";
  if (isa<arith::MaxNumFOp, arith::MaximumFOp, arith::MaxSIOp>(op))
    return "max";
  if (isa<arith::MinNumFOp, arith::MinimumFOp, arith::MinSIOp>(op))
    return "min";
  return "";
}

void ModelBuilder::findReductions() {
  for (auto [si, store] : llvm::enumerate(statements)) {
    auto storeOp = dyn_cast<affine::AffineStoreOp>(store.access);
    if (!storeOp)
      continue;
    Operation *combine = storeOp.getValueToStore().getDefiningOp();
    if (!combine || combine->getNumOperands() != 2 ||
        reductionKind(combine).empty())
      continue;
    for (auto [li, load] : llvm::enumerate(statements)) {
      auto loadOp = dyn_cast<affine::AffineLoadOp>(load.access);
      // The accumulator: the same element, read in the same block before
      // the update, used once.
      if (!loadOp || loadOp.getMemRef() != storeOp.getMemRef() ||
          load.target != store.target ||
          loadOp->getBlock() != storeOp->getBlock() ||
          !loadOp->hasOneUse() ||
          !llvm::is_contained(combine->getOperands(), loadOp.getResult()))
        continue;
      reductions.push_back({(unsigned)li, (unsigned)si, reductionKind(combine)});
    }
  }
}

std::string ModelBuilder::reductionPairs() const {
  std::string s = params() + "{ ";
  bool first = true;
  for (const Reduction &r : reductions)
    for (unsigned from : {r.load, r.store})
      for (unsigned to : {r.load, r.store}) {
        s += (first ? "" : "; ") +
             statementTuple(from, statements[from], "a") + " -> " +
             statementTuple(to, statements[to], "b");
        first = false;
      }
  return s + " }";
}

std::string ModelBuilder::accesses(bool writes) const {
  std::string s = params() + "{ ";
  bool first = true;
  for (auto [i, st] : llvm::enumerate(statements)) {
    if (isa<affine::AffineStoreOp>(st.access) != writes)
      continue;
    s += (first ? "" : "; ") + statementTuple(i, st) + " -> " + st.target;
    first = false;
  }
  return s + " }";
}

std::string ModelBuilder::scheduleMap() const {
  std::string s = params() + "{ ";
  for (auto [i, st] : llvm::enumerate(statements)) {
    std::string vec;
    for (unsigned k = 0; k < scheduleLength; ++k) {
      std::string v = "0";
      if (k < st.schedule.size())
        v = st.schedule[k].isIterator
                ? "i" + std::to_string(st.schedule[k].loopDepth)
                : std::to_string(st.schedule[k].position);
      vec += (k ? ", " : "") + v;
    }
    s += (i ? "; " : "") + statementTuple(i, st) + " -> [" + vec + "]";
  }
  return s + " }";
}

std::string ModelBuilder::carriedBy(affine::AffineForOp loop) const {
  SmallVector<ScheduleEntry> prefix = scheduleOf(loop);
  std::string src, dst, cond;
  for (unsigned k = 0; k < scheduleLength; ++k) {
    src += (k ? ", s" : "s") + std::to_string(k);
    dst += (k ? ", t" : "t") + std::to_string(k);
  }
  auto add = [&](const std::string &c) { cond += (cond.empty() ? "" : " and ") + c; };
  for (unsigned k = 0; k < prefix.size(); ++k) {
    std::string s = "s" + std::to_string(k), t = "t" + std::to_string(k);
    if (prefix[k].isIterator) {
      add(s + " = " + t);
    } else {
      add(s + " = " + std::to_string(prefix[k].position));
      add(t + " = " + std::to_string(prefix[k].position));
    }
  }
  // The loop's own iterator follows its position: the source runs first.
  unsigned k = prefix.size();
  add("s" + std::to_string(k) + " < t" + std::to_string(k));
  return params() + "{ [" + src + "] -> [" + dst + "] : " + cond + " }";
}

FailureOr<weft::FlowDependenceInfo>
weft::computeFlowDependences(func::FuncOp func, unsigned long maxOperations) {
  ModelBuilder model(func);
  if (failed(model.build()))
    return failure();
  FlowDependenceInfo info;
  info.numStatements = model.numStatements();
  isl_ctx *raw = isl_ctx_alloc();
  isl_options_set_on_error(raw, ISL_ON_ERROR_CONTINUE);
  LogicalResult status = success();
  try {
    isl::ctx ctx(raw);
    isl::union_set domain(ctx, model.domains());
    isl::union_map reads =
        isl::union_map(ctx, model.accesses(false)).intersect_domain(domain);
    isl::union_map writes =
        isl::union_map(ctx, model.accesses(true)).intersect_domain(domain);
    isl::union_map schedule =
        isl::union_map(ctx, model.scheduleMap()).intersect_domain(domain);
    // The quota bounds the analysis, not the parsing of the model, whose
    // cost is linear in its size.
    isl_ctx_set_max_operations(raw, maxOperations);
    isl_ctx_reset_operations(raw);
    isl::union_flow flow = isl::union_access_info(reads)
                               .set_must_source(writes)
                               .set_schedule_map(schedule)
                               .compute_flow();
    isl::union_map deps = flow.must_dependence();
    char *text = isl_union_map_to_str(deps.get());
    info.dependences = text ? text : "";
    free(text);
    // Memory-based anti and output dependences: a later write of an element
    // read or written before.
    // A C call: the bindings do not check its result, so do it here.
    isl_union_map *lexLess =
        isl_union_map_lex_lt_union_map(schedule.copy(), schedule.copy());
    if (!lexLess)
      isl::exception::throw_last_error(ctx);
    isl::union_map before = isl::manage(lexLess);
    isl::union_map anti =
        reads.apply_range(writes.reverse()).intersect(before);
    isl::union_map output =
        writes.apply_range(writes.reverse()).intersect(before);
    isl::union_map flowInTime =
        deps.apply_domain(schedule).apply_range(schedule);
    isl::union_map allInTime = deps.unite(anti)
                                   .unite(output)
                                   .apply_domain(schedule)
                                   .apply_range(schedule);
    // Dependences between the accesses of one reduction update do not order
    // its iterations: the loop is a reduction if nothing else is carried.
    isl::union_map otherInTime =
        deps.unite(anti)
            .unite(output)
            .subtract(isl::union_map(ctx, model.reductionPairs()))
            .apply_domain(schedule)
            .apply_range(schedule);
    for (affine::AffineForOp loop : model.loops) {
      isl::union_map carried(ctx, model.carriedBy(loop));
      info.loopCarriesFlow[loop] = !flowInTime.intersect(carried).is_empty();
      info.loopIsParallel[loop] = allInTime.intersect(carried).is_empty();
      if (info.loopIsParallel[loop] ||
          !otherInTime.intersect(carried).is_empty())
        continue;
      for (const ModelBuilder::Reduction &r : model.reductions)
        if (loop->isAncestor(model.accessOf(r.store)) &&
            !llvm::is_contained(info.loopReductions[loop], r.kind))
          info.loopReductions[loop].push_back(r.kind.str());
    }
  } catch (const isl::exception_quota &) {
    func.emitError() << "polyhedral analysis exceeded its quota of "
                     << maxOperations << " ISL operations";
    status = failure();
  } catch (const isl::exception &e) {
    func.emitError() << "polyhedral analysis failed: " << e.what();
    status = failure();
  }
  isl_ctx_free(raw);
  if (failed(status))
    return failure();
  return info;
}
