//===- ModelBuilder.cpp - Polyhedral model of a static control part -*- C++ -*-===//
#include "ModelBuilder.h"

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

FailureOr<std::string>
ModelBuilder::spellInteger(Value v, const DenseMap<Value, unsigned> &ivs) {
  if (v.getType().isIndex()) {
    if (!ivs.count(v) && !affine::isValidSymbol(v))
      return failure();
    return spellOperand(func, v, ivs);
  }
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // A C integer parameter: the model's symbol is its index value.
    if (arg.getOwner() != &func.getBody().front())
      return failure();
    for (Operation *user : arg.getUsers())
      if (auto cast = dyn_cast<arith::IndexCastOp>(user))
        if (cast.getType().isIndex() &&
            cast->getBlock() == &func.getBody().front())
          return spellOperand(func, cast, ivs);
    return failure();
  }
  Operation *op = v.getDefiningOp();
  if (!op)
    return failure();
  if (auto c = dyn_cast<arith::ConstantIntOp>(op))
    return std::to_string(c.value());
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(op))
    return spellInteger(op->getOperand(0), ivs);
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return failure();
  FailureOr<std::string> l = spellInteger(op->getOperand(0), ivs);
  FailureOr<std::string> r = spellInteger(op->getOperand(1), ivs);
  if (failed(l) || failed(r))
    return failure();
  if (isa<arith::AddIOp>(op))
    return "(" + *l + " + " + *r + ")";
  if (isa<arith::SubIOp>(op))
    return "(" + *l + " - " + *r + ")";
  // ISL needs one factor to be a constant.
  if (!matchPattern(op->getOperand(0), m_Constant()) &&
      !matchPattern(op->getOperand(1), m_Constant()))
    return failure();
  return "(" + *l + " * " + *r + ")";
}

FailureOr<std::string>
ModelBuilder::spellCondition(Value v, bool negate,
                             const DenseMap<Value, unsigned> &ivs) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return failure();
  if (auto c = dyn_cast<arith::ConstantIntOp>(op))
    return std::string((c.value() != 0) != negate ? "0 = 0" : "1 = 0");
  // C's truth values: `x != 0` and `x == 0` of a condition turned into an
  // int (`(c ? a : b) != 0`, `(i < j) == 0`).
  if (isa<arith::ExtUIOp, arith::ExtSIOp>(op) &&
      op->getOperand(0).getType().isInteger(1))
    return spellCondition(op->getOperand(0), negate, ivs);
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    using P = arith::CmpIPredicate;
    P p = cmp.getPredicate();
    if ((p == P::ne || p == P::eq) && matchPattern(cmp.getRhs(), m_Zero())) {
      FailureOr<std::string> truth =
          spellCondition(cmp.getLhs(), negate == (p == P::ne), ivs);
      if (succeeded(truth))
        return truth;
    }
    if (negate)
      p = arith::invertPredicate(p);
    StringRef rel = p == P::eq    ? "="
                    : p == P::slt ? "<"
                    : p == P::sle ? "<="
                    : p == P::sgt ? ">"
                    : p == P::sge ? ">="
                                  : "";
    if (rel.empty() && p != P::ne)
      return failure(); // Unsigned comparisons wrap.
    FailureOr<std::string> l = spellInteger(cmp.getLhs(), ivs);
    FailureOr<std::string> r = spellInteger(cmp.getRhs(), ivs);
    if (failed(l) || failed(r))
      return failure();
    if (p == P::ne)
      return "(" + *l + " < " + *r + " or " + *l + " > " + *r + ")";
    return "(" + *l + " " + rel.str() + " " + *r + ")";
  }
  if (isa<arith::AndIOp, arith::OrIOp>(op)) {
    FailureOr<std::string> l = spellCondition(op->getOperand(0), negate, ivs);
    FailureOr<std::string> r = spellCondition(op->getOperand(1), negate, ivs);
    if (failed(l) || failed(r))
      return failure();
    // De Morgan: a negated 'and' is an 'or'.
    bool both = isa<arith::AndIOp>(op) != negate;
    return "(" + *l + (both ? " and " : " or ") + *r + ")";
  }
  if (auto x = dyn_cast<arith::XOrIOp>(op))
    if (matchPattern(x.getRhs(), m_One()))
      return spellCondition(x.getLhs(), !negate, ivs);
  // `c ? t : e` on conditions, as && and || are built.
  auto ifOp = dyn_cast<scf::IfOp>(op);
  if (!ifOp || ifOp.getNumResults() != 1 || ifOp.getElseRegion().empty())
    return failure();
  auto yielded = [](Region &r) {
    return cast<scf::YieldOp>(r.front().getTerminator()).getOperand(0);
  };
  FailureOr<std::string> c = spellCondition(ifOp.getCondition(), false, ivs);
  FailureOr<std::string> notC = spellCondition(ifOp.getCondition(), true, ivs);
  FailureOr<std::string> t =
      spellCondition(yielded(ifOp.getThenRegion()), negate, ivs);
  FailureOr<std::string> e =
      spellCondition(yielded(ifOp.getElseRegion()), negate, ivs);
  if (failed(c) || failed(notC) || failed(t) || failed(e))
    return failure();
  return "((" + *c + " and " + *t + ") or (" + *notC + " and " + *e + "))";
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
  scheduleLength = std::max<unsigned>(scheduleLength, st.schedule.size());
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
  auto arg = dyn_cast_or_null<BlockArgument>(memref);
  if (!arg)
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func && func.getArgAttr(arg.getArgNumber(), "weft.local");
}

/// Whether `op` may write memory.
static bool mayWrite(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return isa<affine::AffineStoreOp, memref::StoreOp, func::CallOp>(inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// A read in a branch of `?:` that an earlier read of the same element
/// repeats, with no write between (`A[i] < m ? A[i] : m`, Floyd-Warshall's
/// min): it sees what that read saw, so it is left out of the model, which
/// then needs no bounds for it.
static bool repeatsEarlierRead(affine::AffineLoadOp load) {
  for (Operation *at = load;; at = at->getParentOp()) {
    for (Operation *prev = at->getPrevNode(); prev;
         prev = prev->getPrevNode()) {
      auto same = dyn_cast<affine::AffineLoadOp>(prev);
      if (same && same.getMemRef() == load.getMemRef() &&
          same.getAffineMap() == load.getAffineMap() &&
          same.getMapOperands() == load.getMapOperands())
        return true;
      if (mayWrite(prev))
        return false;
    }
    // Then the ops before the `?:` around this one, in its block.
    if (!isa<scf::IfOp>(at->getParentOp()))
      return false;
  }
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

std::string weft::detail::statementTuple(unsigned index, unsigned depth,
                                         StringRef var) {
  std::string dims;
  for (unsigned d = 0; d < depth; ++d)
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

/// Whether `a` and `b` read the same element with the same operands.
static bool sameRead(affine::AffineLoadOp a, affine::AffineLoadOp b) {
  return a && b && a.getMemRef() == b.getMemRef() &&
         a.getAffineMap() == b.getAffineMap() &&
         a.getMapOperands() == b.getMapOperands();
}

/// Whether `y` is `v` or computes it again: the same pure operations on the
/// same values, and reads that repeat v's reads (C's `?:` evaluates the
/// chosen operand again in its branch).
static bool recomputes(Value y, Value v, unsigned depth = 0) {
  if (y == v)
    return true;
  Operation *a = y.getDefiningOp(), *b = v.getDefiningOp();
  if (!a || !b || depth > 8 || a->getName() != b->getName() ||
      a->getAttrDictionary() != b->getAttrDictionary() ||
      a->getNumOperands() != b->getNumOperands() || a->getNumRegions() ||
      a->getNumResults() != 1)
    return false;
  if (auto load = dyn_cast<affine::AffineLoadOp>(a))
    return sameRead(load, cast<affine::AffineLoadOp>(b)) &&
           repeatsEarlierRead(load);
  if (!isPure(a))
    return false;
  for (auto [x, w] : llvm::zip(a->getOperands(), b->getOperands()))
    if (!recomputes(x, w, depth + 1))
      return false;
  return true;
}

/// `x > acc ? x : acc` as C's `?:` gives it (an scf.if on a comparison of
/// x and acc whose branches compute one of them again): "max" or
/// "min", and the comparison's operand that `isAccumulator` accepts.
/// Unsigned comparisons are not reductions (their extremes differ).
static std::pair<StringRef, Value>
selectReduction(Value stored, function_ref<bool(Value)> isAccumulator) {
  auto ifOp = stored.getDefiningOp<scf::IfOp>();
  if (!ifOp || ifOp.getNumResults() != 1 || ifOp.getElseRegion().empty())
    return {};
  Value lhs, rhs;
  std::optional<bool> greater;
  if (auto c = ifOp.getCondition().getDefiningOp<arith::CmpFOp>()) {
    using P = arith::CmpFPredicate;
    P p = c.getPredicate();
    if (p == P::OGT || p == P::OGE)
      greater = true;
    else if (p == P::OLT || p == P::OLE)
      greater = false;
    lhs = c.getLhs(), rhs = c.getRhs();
  } else if (auto c = ifOp.getCondition().getDefiningOp<arith::CmpIOp>()) {
    using P = arith::CmpIPredicate;
    P p = c.getPredicate();
    if (p == P::sgt || p == P::sge)
      greater = true;
    else if (p == P::slt || p == P::sle)
      greater = false;
    lhs = c.getLhs(), rhs = c.getRhs();
  }
  if (!greater)
    return {};
  Value acc = isAccumulator(lhs) ? lhs : isAccumulator(rhs) ? rhs : Value();
  if (!acc)
    return {};
  auto yields = [&](Region &branch, Value v) {
    return recomputes(
        cast<scf::YieldOp>(branch.front().getTerminator()).getOperand(0), v);
  };
  bool keepsOrder =
      yields(ifOp.getThenRegion(), lhs) && yields(ifOp.getElseRegion(), rhs);
  bool swaps =
      yields(ifOp.getThenRegion(), rhs) && yields(ifOp.getElseRegion(), lhs);
  if (keepsOrder == swaps)
    return {};
  // lhs > rhs ? lhs : rhs is the max; with the branches swapped, the min.
  return {*greater == keepsOrder ? "max" : "min", acc};
}

void ModelBuilder::findReductions() {
  for (auto [si, store] : llvm::enumerate(statements)) {
    auto storeOp = dyn_cast<affine::AffineStoreOp>(store.access);
    if (!storeOp)
      continue;
    // The accumulator: the same element, read in the same block before the
    // update.
    auto readsAccumulator = [&](const Statement &load) {
      auto loadOp = dyn_cast<affine::AffineLoadOp>(load.access);
      return loadOp && loadOp.getMemRef() == storeOp.getMemRef() &&
             load.target == store.target &&
             loadOp->getBlock() == storeOp->getBlock();
    };
    auto [selectKind, selectAcc] =
        selectReduction(storeOp.getValueToStore(), [&](Value v) {
          auto load = v.getDefiningOp<affine::AffineLoadOp>();
          return load && llvm::any_of(statements, [&](const Statement &st) {
                   return st.access == load && readsAccumulator(st);
                 });
        });
    if (!selectKind.empty()) {
      // Used by the comparison and at most the yield of its own value.
      Operation *accLoad = selectAcc.getDefiningOp();
      bool usedOnlyThere = llvm::all_of(accLoad->getUsers(), [&](Operation *u) {
        return isa<arith::CmpFOp, arith::CmpIOp, scf::YieldOp>(u);
      });
      for (auto [li, load] : llvm::enumerate(statements))
        if (load.access == accLoad && usedOnlyThere)
          reductions.push_back({(unsigned)li, (unsigned)si, selectKind});
      continue;
    }
    Operation *combine = storeOp.getValueToStore().getDefiningOp();
    if (!combine || combine->getNumOperands() != 2 ||
        reductionKind(combine).empty())
      continue;
    for (auto [li, load] : llvm::enumerate(statements)) {
      // Used once, by the update.
      if (!readsAccumulator(load) || !load.access->hasOneUse() ||
          !llvm::is_contained(combine->getOperands(),
                              load.access->getResult(0)))
        continue;
      reductions.push_back({(unsigned)li, (unsigned)si, reductionKind(combine)});
    }
  }
}

std::string ModelBuilder::reductionPairs(const Reduction *only) const {
  std::string s = params() + "{ ";
  bool first = true;
  for (const Reduction &r : reductions)
    if (!only || (only->load == r.load && only->store == r.store))
      for (unsigned from : {r.load, r.store})
        for (unsigned to : {r.load, r.store}) {
          s += (first ? "" : "; ") +
               statementTuple(from, statements[from].loops.size(), "a") +
               " -> " + statementTuple(to, statements[to].loops.size(), "b");
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
    s += (first ? "" : "; ") + statementTuple(i, st.loops.size()) + " -> " + st.target;
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
    s += (i ? "; " : "") + statementTuple(i, st.loops.size()) + " -> [" + vec + "]";
  }
  return s + " }";
}
