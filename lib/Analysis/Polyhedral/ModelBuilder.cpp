//===- ModelBuilder.cpp - Polyhedral model of a static control part -*- C++ -*-===//
#include "ModelBuilder.h"
#include "RepeatedReads.h"
#include "dialects/Weft/IR/WeftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace weft::detail;

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
    // An if's else branch comes after its then branch.
    if (auto ifOp = dyn_cast<affine::AffineIfOp>(a))
      entries.push_back(
          {false,
           (int64_t)(ifOp.hasElse() &&
                     ifOp.getElseRegion().isAncestor(op->getParentRegion())),
           0});
    if (auto ifOp = dyn_cast<scf::IfOp>(a))
      entries.push_back(
          {false,
           (int64_t)ifOp.getElseRegion().isAncestor(op->getParentRegion()), 0});
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
  bool conditional = false;
  // Loops and conditions around the access, outermost first.
  SmallVector<Operation *> chain;
  for (Operation *a = access->getParentOp(); a && a != func;
       a = a->getParentOp())
    chain.push_back(a);
  std::reverse(chain.begin(), chain.end());
  // ISL's work grows exponentially with the dimensions of a set, and not
  // all of it counts against the operations quota (200 nested loops ran
  // for minutes in the flow analysis, 32 for 71 s, 20 for 7.5 s): deeper
  // nests are not modelled, and the region runs as written on every rank.
  unsigned depth = llvm::count_if(
      chain, [](Operation *a) { return isa<affine::AffineForOp>(a); });
  if (depth > kMaxModelledLoopDepth)
    return access->emitRemark()
           << "not a static control part: the access is inside " << depth
           << " nested loops (at most " << kMaxModelledLoopDepth
           << " are modelled)";
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
      // The constraints as a map, so that the index arithmetic feeding
      // them (a downward loop's C iterator) composes into it.
      AffineMap constraintMap =
          AffineMap::get(set.getNumDims(), set.getNumSymbols(),
                         set.getConstraints(), set.getContext());
      SmallVector<Value> operands(ifOp.getOperands());
      affine::fullyComposeAffineMapAndOperands(&constraintMap, &operands);
      SmallVector<std::string> terms;
      for (unsigned c = 0; c < set.getNumConstraints(); ++c) {
        FailureOr<std::string> s =
            spell(ifOp, constraintMap.getResult(c), operands,
                  constraintMap.getNumDims(), ivs);
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
    // An `if` (or `?:`) on a condition of iterators and parameters (C's
    // comparisons, &&, || and !): its constraints, as for an affine.if.
    if (auto ifOp = dyn_cast<scf::IfOp>(a)) {
      bool inElse = ifOp.getElseRegion().isAncestor(access->getParentRegion());
      FailureOr<std::string> c =
          spellCondition(ifOp.getCondition(), inElse, ivs);
      if (succeeded(c)) {
        constraints.push_back(*c);
        continue;
      }
    }
    // A read in one branch of a value's `?:` (an scf.if yielding it) on data:
    // a may read, modelled as if it always happened, which only adds
    // dependences and messages. Restricted below to the array's elements.
    if (isa<scf::IfOp>(a) && isa<affine::AffineLoadOp>(access)) {
      conditional = true;
      continue;
    }
    // What C construct the op comes from, for the remark.
    StringRef what = isa<scf::IfOp>(a)
                         ? "a condition on data ('if', '?:', '&&' or '||')"
                     : isa<scf::WhileOp>(a) ? "a 'while' loop"
                                             : "an unsupported construct";
    return a->emitRemark("not a static control part: a ")
               << (isa<affine::AffineStoreOp>(access) ? "store" : "read")
               << " under " << what << " ('" << a->getName() << "')",
           failure();
  }
  // The access itself.
  SmallVector<Value> operands(mapOperands);
  affine::fullyComposeAffineMapAndOperands(&map, &operands);
  std::string subscripts;
  SmallVector<std::string> subscriptList;
  for (auto [k, r] : llvm::enumerate(map.getResults())) {
    FailureOr<std::string> s = spell(access, r, operands, map.getNumDims(), ivs);
    if (failed(s))
      return failure();
    subscripts += (k ? ", " : "") + *s;
    subscriptList.push_back(*s);
  }
  Value memref = isa<affine::AffineLoadOp>(access)
                     ? cast<affine::AffineLoadOp>(access).getMemRef()
                     : cast<affine::AffineStoreOp>(access).getMemRef();
  if (conditional) {
    // Only the instances whose element exists: a branch not taken may
    // name elements outside the array (`i > 0 ? A[i - 1] : 0`).
    auto type = cast<MemRefType>(memref.getType());
    if (!type.hasStaticShape())
      return access->emitRemark("not a static control part: a conditional "
                                "read of an array whose size is not known"),
             failure();
    for (auto [k, sub] : llvm::enumerate(subscriptList))
      constraints.push_back("0 <= " + sub + " < " +
                            std::to_string(type.getDimSize(k)));
  }
  st.schedule = scheduleOf(access);
  std::string dims;
  for (unsigned d = 0; d < st.loops.size(); ++d)
    dims += (d ? ", i" : "i") + std::to_string(d);
  std::string body;
  for (size_t c = 0; c < constraints.size(); ++c)
    body += (c ? " and " : "") + constraints[c];
  st.domain = "S" + std::to_string(statements.size()) + "[" + dims + "]" +
              (body.empty() ? "" : " : " + body);
  auto [arr, inserted] =
      arrays.insert({memref, "M" + std::to_string(arrays.size())});
  st.target = arr->second + "[" + subscripts + "]";
  statements.push_back(std::move(st));
  return success();
}

/// An argument marked `weft.local` ('#pragma weft local'): each rank keeps
/// its own copy, which is never communicated, so its accesses are left out
/// of the model: they order nothing across ranks.
static bool isRankLocal(Operation *access) {
  Value memref;
  if (auto load = dyn_cast<affine::AffineLoadOp>(access))
    memref = load.getMemRef();
  else if (auto store = dyn_cast<affine::AffineStoreOp>(access))
    memref = store.getMemRef();
  else if (auto load = dyn_cast<memref::LoadOp>(access))
    memref = load.getMemRef();
  else if (auto store = dyn_cast<memref::StoreOp>(access))
    memref = store.getMemRef();
  return memref &&
         isMarkedArgument(memref, weft::WeftDialect::getLocalAttrName());
}

bool weft::detail::isMarkedArgument(Value memref, StringRef name) {
  auto arg = dyn_cast<BlockArgument>(memref);
  auto func = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp())
                  : func::FuncOp();
  return func && func.getArgAttr(arg.getArgNumber(), name);
}

/// A load inside an scf.if (a branch of `?:`).
static bool isConditional(Operation *access) {
  for (Operation *a = access->getParentOp(); a; a = a->getParentOp()) {
    if (isa<scf::IfOp>(a))
      return true;
    if (isa<affine::AffineForOp, func::FuncOp>(a))
      return false;
  }
  return false;
}

LogicalResult ModelBuilder::build() {
  WalkResult result = func.walk([&](Operation *op) {
    if (isRankLocal(op))
      return WalkResult::advance();
    // A read in a branch of `?:` that repeats an earlier read of the same
    // element (`A[i] < m ? A[i] : m`, Floyd-Warshall's min) sees what that
    // read saw: it is left out of the model, which then needs no bounds
    // for it.
    if (auto load = dyn_cast<affine::AffineLoadOp>(op))
      if (isConditional(op) && repeatsEarlierRead(load))
        return WalkResult::advance();
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
      op->emitRemark("not a static control part: a subscript is not an "
                     "affine function of the loop iterators and parameters "
                     "('")
          << op->getName() << "')";
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

std::optional<unsigned> weft::detail::statementOfTuple(StringRef name) {
  unsigned index;
  if (!name.consume_front("S") || name.getAsInteger(10, index))
    return std::nullopt;
  return index;
}

Value ModelBuilder::arrayOf(StringRef tuple) const {
  for (auto &[value, name] : arrays)
    if (name == tuple)
      return value;
  return {};
}

std::string weft::detail::statementTuple(unsigned index, unsigned depth,
                                         StringRef var) {
  std::string dims;
  for (unsigned d = 0; d < depth; ++d)
    dims += (d ? ", " : "") + var.str() + std::to_string(d);
  return "S" + std::to_string(index) + "[" + dims + "]";
}

std::string ModelBuilder::accesses(bool writes) const {
  std::string s = params() + "{ ";
  bool first = true;
  for (auto [i, st] : llvm::enumerate(statements)) {
    if (isa<affine::AffineStoreOp>(st.access) != writes)
      continue;
    s += (first ? "" : "; ") + statementTuple(i, st.loops.size()) + " -> " + st.target;
    first = false;
  }
  return s + " }";
}
