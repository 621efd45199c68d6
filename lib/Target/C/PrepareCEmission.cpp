//===- PrepareCEmission.cpp - Shape EmitC into readable C -----------------===//
//
// This is the place to change the IR for the C printer, which itself only
// chooses spellings (TranslateToC.h), in the manner of CIRCT's
// PrepareForEmission: here we decide which values become C expressions and
// where each is evaluated. The contract with the printer is
// `emitc.expression`: one with a single use and no `do_not_inline` is
// printed at that use. Constants, literals, subscripts and variables are
// always printed at their uses, so a subscript reads memory where its user
// is evaluated; that is what makes the order checks below necessary.
//
// Order of evaluation. Unprepared, every operator is its own statement,
// evaluated where it stands. Folding a value into its user moves its
// evaluation to the statement that finally prints it (its root). That
// changes nothing if the value reads no memory (its leaves are constants,
// arguments and induction variables, none of which the code assigns), or
// if no op between the value and its root writes memory. A loop's bounds
// are evaluated at every iteration, interleaved with the body, so they take
// only values that read no memory.
//
//===----------------------------------------------------------------------===//
#include "weft/Support/SourceNames.h"
#include "weft/Target/C/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace weft {
#define GEN_PASS_DEF_PREPARECEMISSION
#include "weft/Target/C/Passes.h.inc"
} // namespace weft

using namespace mlir;

//===----------------------------------------------------------------------===//
// What ops do
//===----------------------------------------------------------------------===//

/// The C library's math functions, which read and write no memory of the
/// program (convert-loops-to-emitc calls them for `math` ops).
static bool isMathFunction(StringRef callee) {
  static const llvm::StringSet<> names = [] {
    llvm::StringSet<> set;
    for (StringRef f :
         {"sqrt",  "cbrt",     "exp",  "exp2",  "expm1", "log",   "log2",
          "log10", "log1p",    "fabs", "sin",   "cos",   "tan",   "asin",
          "acos",  "atan",     "sinh", "cosh",  "tanh",  "asinh", "acosh",
          "atanh", "floor",    "ceil", "round", "trunc", "erf",   "pow",
          "atan2", "copysign", "fma",  "fmod",  "fmax",  "fmin"}) {
      set.insert(f);
      set.insert((f + "f").str());
    }
    set.insert("abs");
    set.insert("labs");
    return set;
  }();
  return names.contains(callee);
}

/// An op that computes a value from its operands and nothing else: a C
/// operator or a call of a math function.
static bool isPureOp(Operation *op) {
  if (!op->hasTrait<OpTrait::emitc::CExpression>() || op->getNumResults() != 1)
    return false;
  if (auto call = dyn_cast<emitc::CallOpaqueOp>(op))
    return isMathFunction(call.getCallee()) && !call.getArgs() &&
           !call.getTemplateArgs();
  if (isa<emitc::CallOp>(op))
    return false;
  if (auto apply = dyn_cast<emitc::ApplyOp>(op))
    return apply.getApplicableOperator() == "&";
  return true;
}

/// An op that may write memory the program reads.
static bool mayWrite(Operation *op) {
  if (isa<emitc::AssignOp, emitc::ForOp, emitc::IfOp, emitc::VerbatimOp,
          emitc::ReturnOp, emitc::CallOp>(op))
    return true;
  if (auto call = dyn_cast<emitc::CallOpaqueOp>(op))
    return !isPureOp(call);
  if (auto expr = dyn_cast<emitc::ExpressionOp>(op))
    return expr.hasSideEffects();
  return false;
}

/// The local variable (scalar or array) that a read or write of `v`
/// reaches, if nothing else can reach it: its address is never taken and it
/// is never passed to a call. Null: memory that pointers may reach.
static Value localStorage(Value v) {
  if (auto sub = v.getDefiningOp<emitc::SubscriptOp>())
    v = sub.getValue();
  auto var = v.getDefiningOp<emitc::VariableOp>();
  if (!var)
    return {};
  for (Operation *user : var->getUsers())
    if (isa<emitc::ApplyOp, emitc::CallOpaqueOp, emitc::CallOp>(user))
      return {};
  return var.getResult();
}

/// Whether `writer` (or an op nested in it) may write what reading
/// `location` reads (a local variable, or null for memory behind pointers).
static bool clobbers(Operation *writer, Value location) {
  bool hit = false;
  writer->walk([&](Operation *op) {
    if (auto assign = dyn_cast<emitc::AssignOp>(op)) {
      Value target = localStorage(assign.getVar());
      hit |= location ? target == location : !target;
    } else if (isa<emitc::VerbatimOp>(op) ||
               (isa<emitc::CallOpaqueOp, emitc::CallOp>(op) && mayWrite(op))) {
      hit |= !location || llvm::is_contained(op->getOperands(), location);
    }
  });
  return hit;
}

/// Whether reading `v` where it is printed reads memory: a subscript, a
/// variable, a dereference, or an operator over one.
static bool readsMemory(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false; // arguments and induction variables are never assigned
  if (isa<emitc::ConstantOp, emitc::LiteralOp>(def))
    return false;
  if (isa<emitc::SubscriptOp, emitc::VariableOp, emitc::GetGlobalOp,
          emitc::MemberOp, emitc::MemberOfPtrOp>(def))
    return true;
  if (auto expr = dyn_cast<emitc::ExpressionOp>(def)) {
    bool reads = false;
    expr.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (operand.getParentRegion() != &expr.getRegion())
          reads |= readsMemory(operand);
    });
    return reads || expr.hasSideEffects();
  }
  if (!isPureOp(def))
    return true;
  return llvm::any_of(def->getOperands(), readsMemory);
}

/// Operators in the pure tree of `v`, or 99 if it holds a division, a
/// remainder or a call (which are not recomputed at every use).
static unsigned cost(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || isa<emitc::ConstantOp, emitc::LiteralOp>(def))
    return 0;
  if (!isPureOp(def) ||
      isa<emitc::DivOp, emitc::RemOp, emitc::CallOpaqueOp>(def))
    return 99;
  unsigned total = 1;
  for (Value operand : def->getOperands())
    total += cost(operand);
  return std::min(total, 99u);
}

/// Recomputed at every use rather than held in a variable.
static bool isCheap(Value v) { return !readsMemory(v) && cost(v) <= 3; }

//===----------------------------------------------------------------------===//
// Integer arithmetic as written
//===----------------------------------------------------------------------===//

/// The value of an integer constant, if `v` is one.
static std::optional<APInt> constantInt(Value v) {
  auto c = v.getDefiningOp<emitc::ConstantOp>();
  auto i = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
  if (!i)
    return std::nullopt;
  return i.getValue();
}

/// A signed C integer type wider than `int`'s promotions matter: where
/// `a + -b` and `a - b` are the same whenever either is defined.
static bool isSignedInteger(Type t) {
  auto i = dyn_cast<IntegerType>(t);
  return i && !i.isUnsigned() && i.getWidth() >= 32;
}

static Value constantLike(OpBuilder &b, Location loc, Type t, APInt v) {
  return b.create<emitc::ConstantOp>(loc, t, b.getIntegerAttr(t, v));
}

/// `(T)c` as a constant of type T, if C's conversion of `c` is exact (an
/// integer converts modulo 2^N, as gcc and clang do; a floating-point
/// result must be the integer's value).
static bool foldConstantCast(emitc::CastOp castOp) {
  auto c = castOp.getSource().getDefiningOp<emitc::ConstantOp>();
  auto value = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
  auto from = c ? dyn_cast<IntegerType>(c.getType()) : IntegerType();
  if (!value || !from || from.getWidth() == 1)
    return false;
  APInt v = value.getValue();
  Type to = castOp.getType();
  Attribute result;
  if (auto i = dyn_cast<IntegerType>(to); i && i.getWidth() > 1) {
    result =
        IntegerAttr::get(to, from.isUnsigned() ? v.zextOrTrunc(i.getWidth())
                                               : v.sextOrTrunc(i.getWidth()));
  } else if (auto f = dyn_cast<FloatType>(to)) {
    APFloat x(f.getFloatSemantics());
    if (x.convertFromAPInt(v, !from.isUnsigned(),
                           APFloat::rmNearestTiesToEven) != APFloat::opOK)
      return false;
    result = FloatAttr::get(to, x);
  } else {
    return false;
  }
  OpBuilder b(castOp);
  castOp.getResult().replaceAllUsesWith(b.create<emitc::ConstantOp>(
      castOp.getLoc(), to, cast<TypedAttr>(result)));
  castOp.erase();
  return true;
}

/// Conditions with a known operand, as lower-affine's floor and ceiling
/// divisions by constants leave them (`(r < 0) != (2 < 0)`): a comparison
/// of two integer constants is that constant, `c != false`, `c == true`,
/// `true && c`, `false || c` and the like are `c`, and `k ? a : b` with a
/// known `k` is `a` or `b`. Nothing here has an effect to keep.
static bool simplifyCondition(Operation *op) {
  auto known = [](Value v) -> std::optional<bool> {
    std::optional<APInt> c = constantInt(v);
    if (!c || c->getBitWidth() != 1)
      return std::nullopt;
    return c->isOne();
  };
  auto replace = [&](Value v) {
    op->getResult(0).replaceAllUsesWith(v);
    op->erase();
    return true;
  };
  if (auto cond = dyn_cast<emitc::ConditionalOp>(op)) {
    if (std::optional<bool> k = known(cond.getCondition()))
      return replace(*k ? cond.getTrueValue() : cond.getFalseValue());
    return false;
  }
  if (auto cmp = dyn_cast<emitc::CmpOp>(op)) {
    std::optional<APInt> x = constantInt(cmp->getOperand(0));
    std::optional<APInt> y = constantInt(cmp->getOperand(1));
    auto type = dyn_cast<IntegerType>(cmp->getOperand(0).getType());
    if (x && y && type && !type.isUnsigned() && type.getWidth() > 1) {
      bool r;
      switch (cmp.getPredicate()) {
      case emitc::CmpPredicate::eq: r = x->eq(*y); break;
      case emitc::CmpPredicate::ne: r = x->ne(*y); break;
      case emitc::CmpPredicate::lt: r = x->slt(*y); break;
      case emitc::CmpPredicate::le: r = x->sle(*y); break;
      case emitc::CmpPredicate::gt: r = x->sgt(*y); break;
      case emitc::CmpPredicate::ge: r = x->sge(*y); break;
      default: return false;
      }
      OpBuilder b(op);
      return replace(b.create<emitc::ConstantOp>(op->getLoc(), b.getI1Type(),
                                                 b.getBoolAttr(r)));
    }
    // c != false, c == true: c itself.
    bool keeps = cmp.getPredicate() == emitc::CmpPredicate::ne ? false : true;
    if (cmp.getPredicate() == emitc::CmpPredicate::ne ||
        cmp.getPredicate() == emitc::CmpPredicate::eq) {
      if (known(cmp->getOperand(1)) == keeps)
        return replace(cmp->getOperand(0));
      if (known(cmp->getOperand(0)) == keeps)
        return replace(cmp->getOperand(1));
    }
    return false;
  }
  // x && true, x || false (and their bitwise forms on bool): x.
  bool isAnd = isa<emitc::LogicalAndOp, emitc::BitwiseAndOp>(op);
  bool isOr = isa<emitc::LogicalOrOp, emitc::BitwiseOrOp>(op);
  if ((isAnd || isOr) && op->getResult(0).getType().isInteger(1)) {
    for (auto [x, y] : {std::pair(op->getOperand(0), op->getOperand(1)),
                        std::pair(op->getOperand(1), op->getOperand(0))})
      if (known(y) == isAnd)
        return replace(x);
  }
  return false;
}

/// Rewrites `op` as C would spell it; returns whether it did.
static bool simplifyArithmetic(Operation *op) {
  if (auto cast = dyn_cast<emitc::CastOp>(op))
    return foldConstantCast(cast);
  if (simplifyCondition(op))
    return true;
  if (op->getNumResults() != 1 || !isSignedInteger(op->getResult(0).getType()))
    return false;
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type t = op->getResult(0).getType();
  auto replace = [&](Value v) {
    op->getResult(0).replaceAllUsesWith(v);
    op->erase();
    return true;
  };
  auto negated = [](Value v) -> Value {
    auto neg = v.getDefiningOp<emitc::UnaryMinusOp>();
    return neg ? neg.getOperand() : Value();
  };
  // (x + c1) + c2 is x + (c1 + c2), and likewise with `-`.
  if (isa<emitc::AddOp, emitc::SubOp>(op)) {
    Operation *inner = op->getOperand(0).getDefiningOp();
    std::optional<APInt> c2 = constantInt(op->getOperand(1));
    std::optional<APInt> c1 = inner && isa<emitc::AddOp, emitc::SubOp>(inner) &&
                                      inner->getResult(0).hasOneUse()
                                  ? constantInt(inner->getOperand(1))
                                  : std::nullopt;
    if (c1 && c2) {
      APInt sum = isa<emitc::AddOp>(inner) ? *c1 : -*c1;
      sum = isa<emitc::AddOp>(op) ? sum + *c2 : sum - *c2;
      Value x = inner->getOperand(0);
      return replace(sum.isZero()
                         ? x
                         : b.create<emitc::AddOp>(
                               loc, t, x, constantLike(b, loc, t, sum)));
    }
  }
  if (isa<emitc::AddOp>(op)) {
    Value x = op->getOperand(0), y = op->getOperand(1);
    if (std::optional<APInt> c = constantInt(y)) {
      if (c->isZero())
        return replace(x);
      if (c->isNegative() && !c->isMinSignedValue())
        return replace(
            b.create<emitc::SubOp>(loc, t, x, constantLike(b, loc, t, -*c)));
    }
    if (std::optional<APInt> c = constantInt(x); c && c->isZero())
      return replace(y);
    if (Value ny = negated(y))
      return replace(b.create<emitc::SubOp>(loc, t, x, ny));
    if (Value nx = negated(x))
      return replace(b.create<emitc::SubOp>(loc, t, y, nx));
    return false;
  }
  if (isa<emitc::SubOp>(op)) {
    if (std::optional<APInt> c = constantInt(op->getOperand(1));
        c && c->isZero())
      return replace(op->getOperand(0));
    if (std::optional<APInt> c = constantInt(op->getOperand(0));
        c && c->isZero())
      return replace(b.create<emitc::UnaryMinusOp>(loc, t, op->getOperand(1)));
    return false;
  }
  if (isa<emitc::MulOp>(op)) {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    for (auto [x, y] : {std::pair(lhs, rhs), std::pair(rhs, lhs)}) {
      std::optional<APInt> c = constantInt(y);
      if (c && c->isOne())
        return replace(x);
      if (c && c->isAllOnes())
        return replace(b.create<emitc::UnaryMinusOp>(loc, t, x));
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Dead ops
//===----------------------------------------------------------------------===//

/// Erases ops that write nothing and whose values nobody uses, and
/// variables that are only assigned.
static void eraseDeadOps(emitc::FuncOp func) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> dead;
    func.walk([&](Operation *op) {
      if (op->getNumResults() != 1 || op->getNumRegions() != 0)
        return;
      Value v = op->getResult(0);
      bool inert =
          isPureOp(op) ||
          isa<emitc::ConstantOp, emitc::LiteralOp, emitc::SubscriptOp,
              emitc::GetGlobalOp, emitc::MemberOp, emitc::MemberOfPtrOp>(op);
      if (inert && v.use_empty() &&
          !isa<emitc::ExpressionOp>(op->getParentOp()))
        dead.push_back(op);
      // A scalar variable only ever assigned: its assignments are dead too.
      if (auto var = dyn_cast<emitc::VariableOp>(op);
          var && !isa<emitc::ArrayType>(var.getType()) &&
          llvm::all_of(v.getUses(), [&](OpOperand &use) {
            auto assign = dyn_cast<emitc::AssignOp>(use.getOwner());
            return assign && assign.getVar() == v && assign.getValue() != v;
          })) {
        for (Operation *user : v.getUsers())
          dead.push_back(user);
        dead.push_back(op);
      }
    });
    for (Operation *op : dead)
      op->erase();
    changed = !dead.empty();
  }
}

//===----------------------------------------------------------------------===//
// Cheap values at each use
//===----------------------------------------------------------------------===//

/// Whether a value with several uses keeps a variable of its own: it has a
/// source name (a decreasing loop's iterator), unless it is only a cast.
static bool keepsItsName(Operation *def) {
  return !weft::sourceName(def->getLoc()).empty() && !isa<emitc::CastOp>(def);
}

/// Gives each use of a cheap pure value its own copy of the op, so that it
/// folds into the use; the copies' operands, used more often now, follow.
static void recomputeCheapValues(emitc::FuncOp func) {
  SmallVector<Operation *> worklist;
  func.walk<WalkOrder::PostOrder>(
      [&](Operation *op) { worklist.push_back(op); });
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!isPureOp(op) || op->getResult(0).hasOneUse() ||
        op->getResult(0).use_empty() || !isCheap(op->getResult(0)) ||
        keepsItsName(op))
      continue;
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : op->getResult(0).getUses())
      uses.push_back(&use);
    for (OpOperand *use : llvm::drop_begin(uses)) {
      OpBuilder b(use->getOwner());
      Operation *copy = b.clone(*op);
      use->set(copy->getResult(0));
    }
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
  }
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

namespace {

/// Decides, block by block, which values are evaluated where, then builds
/// the expressions.
class ExpressionFormer {
public:
  void run(emitc::FuncOp func);

private:
  void decide(Block &block);
  bool foldCopy(emitc::VariableOp var, emitc::AssignOp copy, Block &block);
  /// The op of `block` at which `v`'s use `user` is evaluated, or null if
  /// that is not in `block` or is a loop (whose bounds are read repeatedly).
  Operation *rootOfUse(Operation *user, Block &block);
  /// Whether an op strictly between `from` and `to` may write what `reads`
  /// read.
  bool writesBetween(Operation *from, Operation *to, ArrayRef<Value> reads);
  void build(Block &block);

  /// Ops that fold into their single user.
  llvm::SmallPtrSet<Operation *, 32> folded;
  /// Per op of the block being decided: the op at which it is evaluated.
  DenseMap<Operation *, Operation *> root;
  /// Single-use values that stay where they are.
  llvm::SmallPtrSet<Operation *, 8> pinned;
};

} // end anonymous namespace

bool ExpressionFormer::writesBetween(Operation *from, Operation *to,
                                     ArrayRef<Value> reads) {
  SmallVector<Value> locations;
  for (Value v : reads)
    locations.push_back(localStorage(v));
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    if (mayWrite(op) && llvm::any_of(locations, [&](Value location) {
          return clobbers(op, location);
        }))
      return true;
  return false;
}

Operation *ExpressionFormer::rootOfUse(Operation *user, Block &block) {
  if (user->getBlock() != &block)
    return nullptr;
  auto it = root.find(user);
  Operation *r = it == root.end() ? user : it->second;
  return r && !isa<emitc::ForOp>(r) ? r : nullptr;
}

/// `%t = variable; assign %src to %t` with `%src` a read of memory: the
/// uses of %t read %src instead, if nothing is written from the copy to
/// where they are evaluated.
bool ExpressionFormer::foldCopy(emitc::VariableOp var, emitc::AssignOp copy,
                                Block &block) {
  Value src = copy.getValue();
  Operation *srcDef = src.getDefiningOp();
  if (!srcDef || !isa<emitc::SubscriptOp, emitc::VariableOp>(srcDef) ||
      src == var.getResult() || isa<emitc::ArrayType>(src.getType()))
    return false;
  for (OpOperand &use : var.getResult().getUses()) {
    if (use.getOwner() == copy)
      continue;
    if (auto assign = dyn_cast<emitc::AssignOp>(use.getOwner());
        assign && assign.getVar() == var.getResult())
      return false; // assigned again
    Operation *r = rootOfUse(use.getOwner(), block);
    if (!r || r->isBeforeInBlock(copy) || writesBetween(copy, r, {src}))
      return false;
  }
  var.getResult().replaceAllUsesExcept(src, copy);
  copy->erase();
  var->erase();
  return true;
}

/// The operands through which `op` reads memory itself where it is
/// evaluated: subscripts, variables, dereferences (folded operands are
/// decided on their own; others are statements, whose values nothing
/// assigns).
static SmallVector<Value> directReads(Operation *op) {
  SmallVector<Value> reads;
  for (Value v : op->getOperands()) {
    Operation *def = v.getDefiningOp();
    auto apply = dyn_cast_or_null<emitc::ApplyOp>(def);
    if ((apply && apply.getApplicableOperator() == "*") ||
        isa_and_nonnull<emitc::SubscriptOp, emitc::VariableOp,
                        emitc::GetGlobalOp, emitc::MemberOp,
                        emitc::MemberOfPtrOp>(def))
      reads.push_back(v);
  }
  return reads;
}

void ExpressionFormer::decide(Block &block) {
  for (Operation &op : block)
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        decide(inner);
  root.clear();
  // Users come after what they use: walk backwards, so that each op's
  // users have their roots when the op is decided.
  for (Operation *op = block.empty() ? nullptr : &block.back(); op;) {
    Operation *prev = op->getPrevNode();
    if (auto copy = dyn_cast<emitc::AssignOp>(op)) {
      auto var = copy.getVar().getDefiningOp<emitc::VariableOp>();
      if (var && var->getBlock() == &block) {
        if (prev == var)
          prev = var->getPrevNode();
        if (foldCopy(var, copy, block)) {
          op = prev;
          continue;
        }
        prev = op->getPrevNode();
      }
    }
    root[op] = op;
    if (isa<emitc::SubscriptOp>(op)) {
      // Read (or written) where each user is evaluated: the last of them.
      Operation *last = nullptr;
      for (Operation *user : op->getUsers()) {
        Operation *r = rootOfUse(user, block);
        if (!r) {
          last = nullptr;
          break;
        }
        if (!last || last->isBeforeInBlock(r))
          last = r;
      }
      root[op] = last;
    } else if (isPureOp(op) && op->getResult(0).hasOneUse()) {
      Operation *user = *op->getUsers().begin();
      Value v = op->getResult(0);
      if (user->getBlock() != &block) {
        // Into a nested region: only what reads no memory, and inside a
        // loop only what is cheap to compute at every iteration.
        bool intoLoop = isa<emitc::ForOp>(block.findAncestorOpInBlock(*user));
        if (!readsMemory(v) && (isCheap(v) || !intoLoop))
          folded.insert(op);
        else
          pinned.insert(op);
      } else if (isa<emitc::ForOp>(user) && isa<emitc::ConditionalOp>(op) &&
                 !weft::sourceName(op->getLoc()).empty()) {
        // A max or min a pass named as a loop bound (dist-name-bounds'
        // `i_lo`) reads better as that variable than as a ternary in the
        // loop's header.
        pinned.insert(op);
      } else if (directReads(op).empty()) {
        folded.insert(op);
        root[op] = root.lookup(user); // null: evaluated in a loop's header
                                      // or a nested region
      } else if (Operation *r = rootOfUse(user, block);
                 r && !writesBetween(op, r, directReads(op))) {
        folded.insert(op);
        root[op] = r;
      } else {
        pinned.insert(op);
      }
    }
    op = prev;
  }
}

/// Wraps each tree of folded ops, and each op that other ops fold into, in
/// an `emitc.expression` at the tree's top.
void ExpressionFormer::build(Block &block) {
  for (Operation &op : block)
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        build(inner);
  SmallVector<Operation *> tops;
  for (Operation &op : block) {
    if (!isPureOp(&op) || isa<emitc::ExpressionOp>(op.getParentOp()))
      continue;
    bool isFolded = folded.contains(&op);
    Operation *user =
        op.getResult(0).hasOneUse() ? *op.getUsers().begin() : nullptr;
    // A pure user in this block heads or joins a tree that takes this op.
    bool insideUsersTree =
        isFolded && user && isPureOp(user) && user->getBlock() == &block;
    if (insideUsersTree)
      continue;
    bool hasFoldedOperand = llvm::any_of(op.getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && folded.contains(def) && def->getBlock() == &block;
    });
    if (isFolded || hasFoldedOperand)
      tops.push_back(&op);
  }
  for (Operation *top : tops) {
    // The tree: `top` and the folded ops of this block under it.
    SetVector<Operation *> tree;
    std::function<void(Operation *)> collect = [&](Operation *op) {
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp();
            def && def != top && folded.contains(def) &&
            def->getBlock() == &block && isPureOp(def) &&
            def->getResult(0).hasOneUse())
          collect(def);
      tree.insert(op);
    };
    collect(top);
    OpBuilder b(top);
    Value result = top->getResult(0);
    bool keep = !folded.contains(top) && result.hasOneUse();
    auto expr =
        b.create<emitc::ExpressionOp>(top->getLoc(), result.getType(), keep);
    Block *body = new Block();
    expr.getRegion().push_back(body);
    b.setInsertionPointToStart(body);
    IRMapping mapping;
    for (Operation *op : tree)
      b.clone(*op, mapping);
    b.create<emitc::YieldOp>(top->getLoc(), mapping.lookup(result));
    result.replaceAllUsesWith(expr.getResult());
    for (Operation *op : llvm::reverse(tree))
      op->erase();
  }
}

void ExpressionFormer::run(emitc::FuncOp func) {
  for (Block &block : func.getBody())
    decide(block);
  for (Block &block : func.getBody())
    build(block);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct PrepareCEmission : weft::impl::PrepareCEmissionBase<PrepareCEmission> {
  using Base::Base;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<emitc::FuncOp>()) {
      for (bool changed = true; changed;) {
        changed = false;
        SmallVector<Operation *> ops;
        func.walk([&](Operation *op) { ops.push_back(op); });
        for (Operation *op : ops)
          changed |= simplifyArithmetic(op);
      }
      eraseDeadOps(func);
      recomputeCheapValues(func);
      ExpressionFormer().run(func);
      eraseDeadOps(func);
    }
  }
};
} // end anonymous namespace
