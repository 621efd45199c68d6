//===- TranslateToC.cpp - Print EmitC as C that people read ---------------===//
//
// The printer of TranslateToC.h. It is read-only: every decision that
// changes the IR (which values become expressions, which loads are read
// where) is made before, by prepare-c-emission; the printer chooses
// spellings only: names, parentheses, literals, declarators. Text is built
// into a buffer and written only once the whole op printed.
//
//===----------------------------------------------------------------------===//
#include "weft/Target/C/TranslateToC.h"
#include "dialects/Weft/IR/WeftDialect.h"
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <charconv>

using namespace mlir;
using weft::CPrintOptions;

namespace {

/// Precedence of C's operators: higher binds tighter.
enum Prec : int {
  kCond = 3,
  kLOr = 4,
  kLAnd = 5,
  kBOr = 6,
  kBXor = 7,
  kBAnd = 8,
  kEq = 9,
  kRel = 10,
  kShift = 11,
  kAdd = 12,
  kMul = 13,
  kUnary = 15,
  kPostfix = 16,
  kPrimary = 17,
};

/// A printed expression: its text, the precedence of its outermost
/// operator and, for a binary operator, its spelling.
struct Expr {
  std::string text;
  int prec = kPrimary;
  StringRef op;
  bool intLiteral = false;
};

/// C's keywords and the names of <stdint.h>, <stdbool.h> and <stddef.h>,
/// plus C++'s keywords, since CUDA sources are C++.
constexpr StringLiteral kKeywords[] = {"auto",
                                       "break",
                                       "case",
                                       "char",
                                       "const",
                                       "continue",
                                       "default",
                                       "do",
                                       "double",
                                       "else",
                                       "enum",
                                       "extern",
                                       "float",
                                       "for",
                                       "goto",
                                       "if",
                                       "inline",
                                       "int",
                                       "long",
                                       "register",
                                       "restrict",
                                       "return",
                                       "short",
                                       "signed",
                                       "sizeof",
                                       "static",
                                       "struct",
                                       "switch",
                                       "typedef",
                                       "union",
                                       "unsigned",
                                       "void",
                                       "volatile",
                                       "while",
                                       "_Bool",
                                       "_Complex",
                                       "_Imaginary",
                                       "_Alignas",
                                       "_Alignof",
                                       "_Atomic",
                                       "_Generic",
                                       "_Noreturn",
                                       "_Static_assert",
                                       "_Thread_local",
                                       "bool",
                                       "true",
                                       "false",
                                       "NULL",
                                       "int8_t",
                                       "int16_t",
                                       "int32_t",
                                       "int64_t",
                                       "uint8_t",
                                       "uint16_t",
                                       "uint32_t",
                                       "uint64_t",
                                       "size_t",
                                       "ssize_t",
                                       "ptrdiff_t",
                                       "intptr_t",
                                       "uintptr_t",
                                       "class",
                                       "new",
                                       "delete",
                                       "this",
                                       "template",
                                       "typename",
                                       "namespace",
                                       "operator",
                                       "private",
                                       "public",
                                       "protected",
                                       "virtual",
                                       "friend",
                                       "using",
                                       "try",
                                       "catch",
                                       "throw",
                                       "nullptr",
                                       "explicit",
                                       "mutable",
                                       "constexpr",
                                       "decltype",
                                       "noexcept",
                                       "static_cast",
                                       "dynamic_cast",
                                       "reinterpret_cast",
                                       "const_cast",
                                       "typeid",
                                       "asm",
                                       "main"};

/// The identifiers in C text (an opaque literal, a verbatim line), except
/// members (`x` in `threadIdx.x`).
static void addIdentifiers(StringRef text, llvm::StringSet<> &out) {
  size_t i = 0;
  while (i < text.size()) {
    if (!llvm::isAlpha(text[i]) && text[i] != '_') {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && (llvm::isAlnum(text[i]) || text[i] == '_'))
      ++i;
    StringRef before = text.take_front(start).rtrim();
    if (!before.ends_with(".") && !before.ends_with("->"))
      out.insert(text.slice(start, i));
  }
}

/// A C identifier made of `hint` (or "tmp").
static std::string identifier(StringRef hint) {
  std::string s;
  for (char c : hint)
    s += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (s.empty() || llvm::isDigit(s[0]))
    s = "tmp" + (s.empty() ? "" : "_" + s);
  return s;
}

class CPrinter {
public:
  CPrinter(raw_ostream &out, const CPrintOptions &options)
      : os(out), options(options) {}

  /// Reserves the names that declarations in `root` must not take.
  void reserveNames(Operation *root);
  LogicalResult printTop(Operation *op);

private:
  // Names.
  bool taken(StringRef name) const;
  StringRef declare(Value v, StringRef hint);
  std::string hintFor(Value v);
  void pushScope() { scopes.emplace_back(); }
  void popScope() { scopes.pop_back(); }

  // Types and declarators.
  FailureOr<std::string> declarator(Location loc, Type t, StringRef inner,
                                    ArrayRef<std::string> extents = {});
  FailureOr<std::string> typeName(Location loc, Type t) {
    return declarator(loc, t, "");
  }

  // Expressions.
  bool printedAtUse(Value v) const;
  FailureOr<Expr> valueExpr(Value v);
  FailureOr<Expr> opExpr(Operation *op);
  FailureOr<Expr> binary(Operation *op, StringRef spelling, int prec);
  Value withoutImplicitCast(Value v, Value other);
  FailureOr<Expr> unary(Operation *op, Value operand, StringRef spelling);
  FailureOr<std::string> attribute(Location loc, Attribute attr);
  FailureOr<std::string> callArguments(Operation *op, ArrayAttr args);
  FailureOr<Expr> literal(Location loc, Attribute value, Type t);

  // Statements.
  LogicalResult printFunction(emitc::FuncOp func, bool declarationOnly);
  FailureOr<std::string> prototype(emitc::FuncOp func);
  LogicalResult printBlock(Block &block, bool functionBody = false);
  LogicalResult printOp(Operation *op, Operation *&skip);
  LogicalResult printVariable(emitc::VariableOp var, Operation *next,
                              Operation *&skip);
  LogicalResult printAssign(emitc::AssignOp assign);
  LogicalResult printFor(emitc::ForOp loop);
  LogicalResult printIf(emitc::IfOp ifOp);
  LogicalResult printValueStatement(Operation *op);
  LogicalResult printGlobal(emitc::GlobalOp global);

  raw_indented_ostream os;
  const CPrintOptions &options;
  llvm::StringSet<> reserved;
  SmallVector<llvm::StringSet<>> scopes;
  DenseMap<Value, std::string> names;
};

} // end anonymous namespace

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

void CPrinter::reserveNames(Operation *root) {
  for (StringLiteral k : kKeywords)
    reserved.insert(k);
  if (options.reservedNames)
    for (auto &entry : *options.reservedNames)
      reserved.insert(entry.getKey());
  root->walk([&](Operation *op) {
    if (auto sym =
            op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      reserved.insert(sym.getValue());
    TypeSwitch<Operation *>(op)
        .Case<emitc::CallOpaqueOp>([&](auto call) {
          reserved.insert(call.getCallee());
          if (ArrayAttr args = call.getArgsAttr())
            for (Attribute a : args)
              if (auto opaque = dyn_cast<emitc::OpaqueAttr>(a))
                addIdentifiers(opaque.getValue(), reserved);
        })
        .Case<emitc::CallOp>(
            [&](auto call) { reserved.insert(call.getCallee()); })
        .Case<emitc::LiteralOp>(
            [&](auto lit) { addIdentifiers(lit.getValue(), reserved); })
        .Case<emitc::ConstantOp, emitc::VariableOp>([&](auto c) {
          if (auto opaque = dyn_cast<emitc::OpaqueAttr>(c.getValue()))
            addIdentifiers(opaque.getValue(), reserved);
        })
        .Case<emitc::VerbatimOp>([&](auto text) {
          // Code in a comment names nothing.
          if (!text.getValue().ltrim().starts_with("//"))
            addIdentifiers(text.getValue(), reserved);
        });
    for (Type t : op->getResultTypes())
      if (auto opaque = dyn_cast<emitc::OpaqueType>(t))
        addIdentifiers(opaque.getValue(), reserved);
  });
}

bool CPrinter::taken(StringRef name) const {
  return reserved.contains(name) ||
         llvm::any_of(scopes, [&](const llvm::StringSet<> &scope) {
           return scope.contains(name);
         });
}

StringRef CPrinter::declare(Value v, StringRef hint) {
  std::string base = identifier(hint), name = base;
  for (unsigned k = 1; taken(name); ++k)
    name = base + "_" + std::to_string(k);
  scopes.back().insert(name);
  return names[v] = name;
}

/// The source name, else a name that says where the value comes from.
std::string CPrinter::hintFor(Value v) {
  if (StringRef name = weft::sourceName(v); !name.empty())
    return name.str();
  Operation *def = v.getDefiningOp();
  if (auto expr = dyn_cast_or_null<emitc::ExpressionOp>(def))
    if (Operation *root = expr.getRootOp()) {
      if (StringRef name = weft::sourceName(root->getLoc()); !name.empty())
        return name.str();
      def = root;
    }
  if (auto call = dyn_cast_or_null<emitc::CallOpaqueOp>(def)) {
    StringRef callee = call.getCallee();
    // A C++ function's own name, without its namespaces.
    if (size_t colons = callee.rfind("::"); colons != StringRef::npos)
      callee = callee.drop_front(colons + 2);
    callee.consume_front("weft_rt_");
    // Not a reserved identifier (`__shfl_down_sync`'s result).
    callee = callee.ltrim('_');
    return callee.empty() ? "tmp" : callee.str();
  }
  if (isa<BlockArgument>(v))
    return isa<emitc::FuncOp>(v.getParentRegion()->getParentOp()) ? "arg"
                                                                  : "it";
  return "tmp";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// Puts `inner` (a name, maybe with `*`s) into the opaque C type `text`:
/// inside an abstract declarator's `(*...)`, else after the type; each
/// `[*]` takes the next of `extents`.
static std::string opaqueDeclarator(StringRef text, StringRef inner,
                                    ArrayRef<std::string> extents) {
  std::string result;
  size_t paren = text.find("(*");
  if (paren != StringRef::npos && !inner.empty()) {
    size_t close = text.find(')', paren);
    if (close == StringRef::npos)
      close = text.size();
    StringRef head = text.take_front(close);
    result = head.str();
    if (llvm::isAlnum(head.back()) || head.back() == '_')
      result += ' ';
    result += inner.str() + text.drop_front(close).str();
  } else if (inner.empty() || text.ends_with("*")) {
    result = (text + inner).str();
  } else {
    result = (text + " " + inner).str();
  }
  size_t next = 0;
  for (const std::string &extent : extents) {
    size_t at = result.find("[*]", next);
    if (at == std::string::npos)
      break;
    result.replace(at, 3, "[" + extent + "]");
    next = at + extent.size() + 2;
  }
  return result;
}

FailureOr<std::string> CPrinter::declarator(Location loc, Type t,
                                            StringRef inner,
                                            ArrayRef<std::string> extents) {
  auto withInner = [&](StringRef base) {
    return inner.empty() ? base.str() : (base + " " + inner).str();
  };
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.getWidth() == 1)
      return withInner("bool");
    if (!llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth()))
      return emitError(loc, "cannot print type ") << t << " as C";
    return withInner((i.isUnsigned() ? "uint" : "int") +
                     std::to_string(i.getWidth()) + "_t");
  }
  if (t.isF32())
    return withInner("float");
  if (t.isF64())
    return withInner("double");
  if (isa<IndexType, emitc::SizeTType>(t))
    return withInner("size_t");
  if (isa<emitc::SignedSizeTType>(t))
    return withInner("ssize_t");
  if (isa<emitc::PtrDiffTType>(t))
    return withInner("ptrdiff_t");
  if (auto opaque = dyn_cast<emitc::OpaqueType>(t))
    return opaqueDeclarator(opaque.getValue(), inner, extents);
  if (auto ptr = dyn_cast<emitc::PointerType>(t)) {
    if (isa<emitc::ArrayType>(ptr.getPointee()))
      return declarator(loc, ptr.getPointee(), ("(*" + inner + ")").str());
    return declarator(loc, ptr.getPointee(), ("*" + inner).str());
  }
  if (auto array = dyn_cast<emitc::ArrayType>(t)) {
    std::string dims = inner.str();
    for (int64_t d : array.getShape())
      dims += "[" + std::to_string(d) + "]";
    return declarator(loc, array.getElementType(), dims);
  }
  return emitError(loc, "cannot print type ") << t << " as C";
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Whether `v` is printed where it is used rather than declared.
bool CPrinter::printedAtUse(Value v) const {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<emitc::ExpressionOp>(def->getParentOp()))
    return true;
  if (auto expr = dyn_cast<emitc::ExpressionOp>(def))
    return v.hasOneUse() && !expr.getDoNotInline();
  return isa<emitc::ConstantOp, emitc::LiteralOp, emitc::SubscriptOp,
             emitc::GetGlobalOp, emitc::MemberOp, emitc::MemberOfPtrOp>(def);
}

/// The shortest decimal spelling of `v` that reads back as `v`.
template <typename T>
static std::string shortestFloat(T v) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), v);
  (void)ec;
  std::string text(buffer, end);
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  return text;
}

FailureOr<Expr> CPrinter::literal(Location loc, Attribute value, Type t) {
  Expr e;
  if (auto opaque = dyn_cast<emitc::OpaqueAttr>(value)) {
    e.text = opaque.getValue().str();
    return e;
  }
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    auto type = dyn_cast<IntegerType>(i.getType());
    if (type && type.getWidth() == 1) {
      e.text = i.getValue().isZero() ? "false" : "true";
      return e;
    }
    bool isUnsigned = type && type.isUnsigned();
    e.text = isUnsigned ? llvm::toString(i.getValue(), 10, false) + "u"
                        : llvm::toString(i.getValue(), 10, true);
    e.intLiteral = true;
    if (e.text[0] == '-')
      e.prec = kUnary;
    return e;
  }
  if (auto f = dyn_cast<FloatAttr>(value)) {
    APFloat v = f.getValue();
    if (!v.isFinite())
      return emitError(loc, "cannot print ")
             << value << " as a C literal (no header is assumed)";
    e.text = f.getType().isF32() ? shortestFloat(v.convertToFloat()) + "f"
                                 : shortestFloat(v.convertToDouble());
    if (e.text[0] == '-')
      e.prec = kUnary;
    return e;
  }
  return emitError(loc, "cannot print ") << value << " as a C literal";
}

FailureOr<std::string> CPrinter::attribute(Location loc, Attribute attr) {
  if (auto type = dyn_cast<TypeAttr>(attr))
    return typeName(loc, type.getValue());
  if (auto sym = dyn_cast<SymbolRefAttr>(attr))
    return sym.getLeafReference().str();
  if (auto str = dyn_cast<StringAttr>(attr)) {
    std::string text = "\"";
    llvm::raw_string_ostream s(text);
    s.write_escaped(str.getValue());
    return s.str() + "\"";
  }
  FailureOr<Expr> e = literal(loc, attr, Type());
  if (failed(e))
    return failure();
  return e->text;
}

FailureOr<std::string> CPrinter::callArguments(Operation *op, ArrayAttr args) {
  SmallVector<std::string> parts;
  if (!args) {
    for (Value v : op->getOperands()) {
      FailureOr<Expr> e = valueExpr(v);
      if (failed(e))
        return failure();
      parts.push_back(e->text);
    }
  } else {
    for (Attribute a : args) {
      auto index = dyn_cast<IntegerAttr>(a);
      if (index && index.getType().isIndex()) {
        int64_t n = index.getInt();
        if (n < 0 || n >= int64_t(op->getNumOperands()))
          return op->emitOpError("argument refers to operand ")
                 << n << ", which does not exist";
        FailureOr<Expr> e = valueExpr(op->getOperand(n));
        if (failed(e))
          return failure();
        parts.push_back(e->text);
        continue;
      }
      FailureOr<std::string> text = attribute(op->getLoc(), a);
      if (failed(text))
        return failure();
      parts.push_back(*text);
    }
  }
  return llvm::join(parts, ", ");
}

FailureOr<Expr> CPrinter::valueExpr(Value v) {
  auto it = names.find(v);
  if (it != names.end())
    return Expr{it->second};
  Operation *def = v.getDefiningOp();
  if (!def || !printedAtUse(v)) {
    Location loc = def ? def->getLoc() : cast<BlockArgument>(v).getLoc();
    return emitError(loc, "value used before it is declared (the printer "
                          "prints ops in order)");
  }
  if (auto expr = dyn_cast<emitc::ExpressionOp>(def)) {
    auto yield = cast<emitc::YieldOp>(expr.getBody()->getTerminator());
    if (yield.getNumOperands() != 1)
      return expr.emitOpError("must yield one value");
    return valueExpr(yield.getOperand(0));
  }
  return opExpr(def);
}

/// Parenthesised where C's precedence, or gcc's -Wparentheses, needs it.
static std::string operand(const Expr &e, int prec, StringRef op, bool right) {
  bool paren = e.prec < prec || (right && e.prec == prec);
  if (prec == kShift && e.prec == kAdd)
    paren = true;
  if ((prec == kBAnd || prec == kBXor || prec == kBOr) && e.prec < kUnary &&
      e.op != op)
    paren = true;
  if (prec == kLOr && e.prec == kLAnd)
    paren = true;
  if ((prec == kRel || prec == kEq) && (e.prec == kRel || e.prec == kEq))
    paren = true;
  return paren ? "(" + e.text + ")" : e.text;
}

/// Whether C's implicit conversion of a `from` value to `to` (in an
/// operator's usual arithmetic conversions, or an assignment) gives what a
/// cast gives: `to` holds every `from` value.
static bool widens(Type from, Type to) {
  auto fi = dyn_cast<IntegerType>(from), ti = dyn_cast<IntegerType>(to);
  if (fi && ti)
    return ti.getWidth() > fi.getWidth() && ti.getWidth() > 1;
  if (fi && isa<FloatType>(to))
    return true;
  return from.isF32() && to.isF64();
}

/// The value to print for `v`, an operand next to `other`: a widening
/// cast's operand where `other` is a name or subscript of the cast's type,
/// since C converts to that type anyway (`t < tsteps`, not
/// `t < (int64_t)tsteps`).
Value CPrinter::withoutImplicitCast(Value v, Value other) {
  if (!printedAtUse(v))
    return v;
  Operation *def = v.getDefiningOp();
  if (auto expr = dyn_cast<emitc::ExpressionOp>(def))
    def = expr.getRootOp();
  auto castOp = dyn_cast<emitc::CastOp>(def);
  if (!castOp || !widens(castOp.getSource().getType(), castOp.getType()) ||
      other.getType() != castOp.getType())
    return v;
  Operation *otherDef = other.getDefiningOp();
  bool named =
      names.count(other) ||
      isa_and_nonnull<emitc::SubscriptOp, emitc::VariableOp, emitc::GetGlobalOp,
                      emitc::MemberOp, emitc::MemberOfPtrOp>(otherDef);
  return named ? castOp.getSource() : v;
}

FailureOr<Expr> CPrinter::binary(Operation *op, StringRef spelling, int prec) {
  Value x = op->getOperand(0), y = op->getOperand(1);
  if (prec != kShift && prec != kLAnd && prec != kLOr) {
    Value nx = withoutImplicitCast(x, y), ny = withoutImplicitCast(y, x);
    x = nx;
    y = ny;
  }
  FailureOr<Expr> lhs = valueExpr(x);
  FailureOr<Expr> rhs = valueExpr(y);
  if (failed(lhs) || failed(rhs))
    return failure();
  // Two literals (or a literal shifted) compute in C's `int`, which the
  // op's type may not be.
  Type t = op->getResult(0).getType();
  if (lhs->intLiteral && (rhs->intLiteral || prec == kShift) &&
      t.getIntOrFloatBitWidth() > 32) {
    FailureOr<std::string> name = typeName(op->getLoc(), t);
    if (failed(name))
      return failure();
    lhs->text = "(" + *name + ")" + lhs->text;
    lhs->prec = kUnary;
    lhs->intLiteral = false;
  }
  Expr e;
  e.text = operand(*lhs, prec, spelling, false) + " " + spelling.str() + " " +
           operand(*rhs, prec, spelling, true);
  e.prec = prec;
  e.op = spelling;
  return e;
}

FailureOr<Expr> CPrinter::unary(Operation *op, Value value,
                                StringRef spelling) {
  FailureOr<Expr> inner = valueExpr(value);
  if (failed(inner))
    return failure();
  bool paren = inner->prec < kUnary ||
               (inner->prec == kUnary && !inner->text.empty() &&
                (inner->text[0] == '-' || inner->text[0] == '+' ||
                 inner->text[0] == '&' || inner->text[0] == '*'));
  Expr e;
  e.text = spelling.str() + (paren ? "(" + inner->text + ")" : inner->text);
  e.prec = kUnary;
  return e;
}

static StringRef comparison(emitc::CmpPredicate p) {
  switch (p) {
  case emitc::CmpPredicate::eq:
    return "==";
  case emitc::CmpPredicate::ne:
    return "!=";
  case emitc::CmpPredicate::lt:
    return "<";
  case emitc::CmpPredicate::le:
    return "<=";
  case emitc::CmpPredicate::gt:
    return ">";
  case emitc::CmpPredicate::ge:
    return ">=";
  case emitc::CmpPredicate::three_way:
    return "<=>";
  }
  return "?";
}

FailureOr<Expr> CPrinter::opExpr(Operation *op) {
  return TypeSwitch<Operation *, FailureOr<Expr>>(op)
      .Case<emitc::ConstantOp>([&](auto c) {
        return literal(c.getLoc(), c.getValue(), c.getType());
      })
      .Case<emitc::LiteralOp>(
          [&](auto lit) { return Expr{lit.getValue().str()}; })
      .Case<emitc::GetGlobalOp>(
          [&](auto get) { return Expr{get.getName().str()}; })
      .Case<emitc::AddOp>([&](auto) { return binary(op, "+", kAdd); })
      .Case<emitc::SubOp>([&](auto) { return binary(op, "-", kAdd); })
      .Case<emitc::MulOp>([&](auto) { return binary(op, "*", kMul); })
      .Case<emitc::DivOp>([&](auto) { return binary(op, "/", kMul); })
      .Case<emitc::RemOp>([&](auto) { return binary(op, "%", kMul); })
      .Case<emitc::BitwiseAndOp>([&](auto) { return binary(op, "&", kBAnd); })
      .Case<emitc::BitwiseOrOp>([&](auto) { return binary(op, "|", kBOr); })
      .Case<emitc::BitwiseXorOp>([&](auto) { return binary(op, "^", kBXor); })
      .Case<emitc::BitwiseLeftShiftOp>(
          [&](auto) { return binary(op, "<<", kShift); })
      .Case<emitc::BitwiseRightShiftOp>(
          [&](auto) { return binary(op, ">>", kShift); })
      .Case<emitc::LogicalAndOp>([&](auto) { return binary(op, "&&", kLAnd); })
      .Case<emitc::LogicalOrOp>([&](auto) { return binary(op, "||", kLOr); })
      .Case<emitc::CmpOp>([&](auto cmp) {
        StringRef s = comparison(cmp.getPredicate());
        bool eq = s == "==" || s == "!=";
        return binary(op, s, eq ? kEq : kRel);
      })
      .Case<emitc::UnaryMinusOp>(
          [&](auto) { return unary(op, op->getOperand(0), "-"); })
      .Case<emitc::UnaryPlusOp>(
          [&](auto) { return unary(op, op->getOperand(0), "+"); })
      .Case<emitc::BitwiseNotOp>(
          [&](auto) { return unary(op, op->getOperand(0), "~"); })
      .Case<emitc::LogicalNotOp>(
          [&](auto) { return unary(op, op->getOperand(0), "!"); })
      .Case<emitc::ApplyOp>([&](auto apply) {
        return unary(op, apply.getOperand(), apply.getApplicableOperator());
      })
      .Case<emitc::CastOp>([&](auto cast) -> FailureOr<Expr> {
        FailureOr<std::string> type = typeName(cast.getLoc(), cast.getType());
        if (failed(type))
          return failure();
        return unary(op, cast.getSource(), "(" + *type + ")");
      })
      .Case<emitc::ConditionalOp>([&](auto cond) -> FailureOr<Expr> {
        FailureOr<Expr> c = valueExpr(cond.getCondition());
        FailureOr<Expr> t = valueExpr(cond.getTrueValue());
        FailureOr<Expr> f = valueExpr(cond.getFalseValue());
        if (failed(c) || failed(t) || failed(f))
          return failure();
        auto part = [](const Expr &e) {
          return e.prec <= kCond ? "(" + e.text + ")" : e.text;
        };
        Expr e;
        e.text = part(*c) + " ? " + part(*t) + " : " + part(*f);
        e.prec = kCond;
        return e;
      })
      .Case<emitc::SubscriptOp>([&](auto sub) -> FailureOr<Expr> {
        FailureOr<Expr> base = valueExpr(sub.getValue());
        if (failed(base))
          return failure();
        Expr e;
        e.text = base->prec < kPostfix ? "(" + base->text + ")" : base->text;
        for (Value index : sub.getIndices()) {
          FailureOr<Expr> i = valueExpr(index);
          if (failed(i))
            return failure();
          e.text += "[" + i->text + "]";
        }
        e.prec = kPostfix;
        return e;
      })
      .Case<emitc::MemberOp, emitc::MemberOfPtrOp>(
          [&](auto member) -> FailureOr<Expr> {
            FailureOr<Expr> base = valueExpr(member.getOperand());
            if (failed(base))
              return failure();
            Expr e;
            e.text =
                (base->prec < kPostfix ? "(" + base->text + ")" : base->text) +
                (isa<emitc::MemberOp>(op) ? "." : "->") +
                member.getMember().str();
            e.prec = kPostfix;
            return e;
          })
      .Case<emitc::CallOpaqueOp>([&](auto call) -> FailureOr<Expr> {
        std::string text = call.getCallee().str();
        if (ArrayAttr templateArgs = call.getTemplateArgsAttr()) {
          SmallVector<std::string> parts;
          for (Attribute a : templateArgs) {
            FailureOr<std::string> t = attribute(call.getLoc(), a);
            if (failed(t))
              return failure();
            parts.push_back(*t);
          }
          text += "<" + llvm::join(parts, ", ") + ">";
        }
        FailureOr<std::string> args = callArguments(op, call.getArgsAttr());
        if (failed(args))
          return failure();
        return Expr{text + "(" + *args + ")", kPostfix};
      })
      .Case<emitc::CallOp>([&](auto call) -> FailureOr<Expr> {
        FailureOr<std::string> args = callArguments(op, ArrayAttr());
        if (failed(args))
          return failure();
        return Expr{call.getCallee().str() + "(" + *args + ")", kPostfix};
      })
      .Default([&](Operation *other) -> FailureOr<Expr> {
        return other->emitOpError("cannot be printed as a C expression");
      });
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult CPrinter::printBlock(Block &block, bool functionBody) {
  Operation *skip = nullptr;
  for (Operation &op : block) {
    if (&op == skip)
      continue;
    // A function that returns nothing needs no `return;` at its end.
    if (functionBody && &op == &block.back() && isa<emitc::ReturnOp>(op) &&
        op.getNumOperands() == 0)
      break;
    if (failed(printOp(&op, skip)))
      return failure();
  }
  return success();
}

/// Whether printing `v` reads `var` (through operands printed inline).
static bool reads(Value v, Value var) {
  if (v == var)
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || isa<emitc::VariableOp>(def))
    return false;
  if (auto expr = dyn_cast<emitc::ExpressionOp>(def)) {
    bool found = false;
    expr.walk([&](Operation *inner) {
      for (Value o : inner->getOperands())
        found |= reads(o, var);
    });
    return found;
  }
  return llvm::any_of(def->getOperands(),
                      [&](Value o) { return reads(o, var); });
}

LogicalResult CPrinter::printVariable(emitc::VariableOp var, Operation *next,
                                      Operation *&skip) {
  std::string hint = hintFor(var.getResult());
  Attribute init = var.getValue();
  auto opaque = dyn_cast<emitc::OpaqueAttr>(init);
  bool uninitialised = opaque && opaque.getValue().empty();
  // `double t; t = A[i];` reads better as `double t = A[i];`.
  std::string value;
  auto assign = dyn_cast_or_null<emitc::AssignOp>(next);
  if (uninitialised && assign && assign.getVar() == var.getResult() &&
      !reads(assign.getValue(), var.getResult()) &&
      !isa<emitc::ArrayType>(var.getType())) {
    FailureOr<Expr> e = valueExpr(assign.getValue());
    if (failed(e))
      return failure();
    value = e->text;
    skip = assign;
  } else if (!uninitialised) {
    FailureOr<Expr> e = literal(var.getLoc(), init, var.getType());
    if (failed(e))
      return failure();
    value = e->text;
  }
  StringRef name = declare(var.getResult(), hint);
  FailureOr<std::string> decl = declarator(var.getLoc(), var.getType(), name);
  if (failed(decl))
    return failure();
  os << *decl;
  if (!value.empty())
    os << " = " << value;
  os << ";\n";
  return success();
}

LogicalResult CPrinter::printAssign(emitc::AssignOp assign) {
  FailureOr<Expr> lhs = valueExpr(assign.getVar());
  if (failed(lhs))
    return failure();
  // `x = x + e` is printed `x += e`.
  Value value = assign.getValue();
  Operation *root = nullptr;
  if (printedAtUse(value)) {
    root = value.getDefiningOp();
    if (auto expr = dyn_cast<emitc::ExpressionOp>(root))
      root = expr.getRootOp();
  }
  if (root &&
      isa<emitc::AddOp, emitc::SubOp, emitc::MulOp, emitc::DivOp, emitc::RemOp,
          emitc::BitwiseAndOp, emitc::BitwiseOrOp, emitc::BitwiseXorOp,
          emitc::BitwiseLeftShiftOp, emitc::BitwiseRightShiftOp>(root)) {
    Operation *read = root->getOperand(0).getDefiningOp();
    if (read &&
        isa<emitc::SubscriptOp, emitc::VariableOp, emitc::GetGlobalOp>(read)) {
      FailureOr<Expr> first = valueExpr(root->getOperand(0));
      FailureOr<Expr> whole = opExpr(root);
      FailureOr<Expr> rest = valueExpr(root->getOperand(1));
      if (failed(first) || failed(whole) || failed(rest))
        return failure();
      if (first->text == lhs->text) {
        os << lhs->text << " " << whole->op << "= " << rest->text << ";\n";
        return success();
      }
    }
  }
  FailureOr<Expr> rhs = valueExpr(value);
  if (failed(rhs))
    return failure();
  os << lhs->text << " = " << rhs->text << ";\n";
  return success();
}

/// The integer a constant op defines, if `v` is one.
static std::optional<int64_t> constantInt(Value v) {
  auto c = v.getDefiningOp<emitc::ConstantOp>();
  auto i = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
  if (!i)
    return std::nullopt;
  return i.getValue().getSExtValue();
}

LogicalResult CPrinter::printFor(emitc::ForOp loop) {
  pushScope();
  auto popped = llvm::make_scope_exit([&] { popScope(); });
  Value iv = loop.getInductionVar();
  std::optional<int64_t> lo = constantInt(loop.getLowerBound());
  std::optional<int64_t> hi = constantInt(loop.getUpperBound());
  std::optional<int64_t> step = constantInt(loop.getStep());
  if (lo && hi && step && *step == 0 && *lo < *hi && iv.use_empty()) {
    // Runs until a `break` (a C `while` lowered to EmitC 19's only loop).
    os << "for (;;) {\n";
  } else {
    FailureOr<Expr> lb = valueExpr(loop.getLowerBound());
    FailureOr<Expr> st = valueExpr(loop.getStep());
    if (failed(lb) || failed(st))
      return failure();
    StringRef name = declare(iv, hintFor(iv));
    FailureOr<Expr> ub =
        valueExpr(withoutImplicitCast(loop.getUpperBound(), iv));
    if (failed(ub))
      return failure();
    // narrow-iterators proved `int` exact where the source declared it.
    FailureOr<std::string> decl =
        loop->hasAttr(weft::WeftDialect::getCIntAttrName())
            ? ("int " + name).str()
            : declarator(loop.getLoc(), iv.getType(), name);
    if (failed(decl))
      return failure();
    os << "for (" << *decl << " = " << lb->text << "; " << name << " < "
       << operand(*ub, kRel, "<", true) << "; ";
    if (step && *step == 1)
      os << name << "++";
    else
      os << name << " += " << st->text;
    os << ") {\n";
  }
  os.indent();
  pushScope();
  LogicalResult body = printBlock(*loop.getBody());
  popScope();
  os.unindent();
  os << "}\n";
  return body;
}

LogicalResult CPrinter::printIf(emitc::IfOp ifOp) {
  FailureOr<Expr> cond = valueExpr(ifOp.getCondition());
  if (failed(cond))
    return failure();
  os << "if (" << cond->text << ") {\n";
  auto branch = [&](Region &region) {
    os.indent();
    pushScope();
    LogicalResult result = printBlock(region.front());
    popScope();
    os.unindent();
    return result;
  };
  if (failed(branch(ifOp.getThenRegion())))
    return failure();
  Region &otherwise = ifOp.getElseRegion();
  if (!otherwise.empty() &&
      !llvm::hasSingleElement(otherwise.front().getOperations())) {
    os << "} else {\n";
    if (failed(branch(otherwise)))
      return failure();
  }
  os << "}\n";
  return success();
}

/// An op whose result, if used, is a declared variable: `T name = e;`, or
/// `e;` when nothing uses it.
LogicalResult CPrinter::printValueStatement(Operation *op) {
  if (op->getNumResults() > 1)
    return op->emitOpError("has more than one result, which C cannot hold");
  bool pure = !isa<emitc::CallOpaqueOp, emitc::CallOp>(op);
  if (auto expr = dyn_cast<emitc::ExpressionOp>(op))
    pure = !expr.hasSideEffects();
  if (op->getNumResults() == 0 || op->getResult(0).use_empty()) {
    if (pure)
      return success();
    FailureOr<Expr> e =
        isa<emitc::ExpressionOp>(op) ? valueExpr(op->getResult(0)) : opExpr(op);
    if (failed(e))
      return failure();
    os << e->text << ";\n";
    return success();
  }
  Value v = op->getResult(0);
  FailureOr<Expr> e = isa<emitc::ExpressionOp>(op)
                          ? opExpr(cast<emitc::ExpressionOp>(op).getRootOp())
                          : opExpr(op);
  if (failed(e))
    return failure();
  std::string hint = hintFor(v);
  StringRef name = declare(v, hint);
  FailureOr<std::string> decl = declarator(op->getLoc(), v.getType(), name);
  if (failed(decl))
    return failure();
  os << *decl << " = " << e->text << ";\n";
  return success();
}

LogicalResult CPrinter::printOp(Operation *op, Operation *&skip) {
  if ((op->getNumResults() == 1 && printedAtUse(op->getResult(0))) ||
      isa<emitc::ConstantOp, emitc::LiteralOp, emitc::SubscriptOp,
          emitc::GetGlobalOp, emitc::MemberOp, emitc::MemberOfPtrOp,
          emitc::YieldOp>(op))
    return success();
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case<emitc::VariableOp>([&](auto var) {
        // The next statement: ops printed at their uses print nothing.
        Operation *next = op->getNextNode();
        while (next && next->getNumResults() == 1 &&
               printedAtUse(next->getResult(0)))
          next = next->getNextNode();
        return printVariable(var, next, skip);
      })
      .Case<emitc::AssignOp>([&](auto assign) { return printAssign(assign); })
      .Case<emitc::ForOp>([&](auto loop) { return printFor(loop); })
      .Case<emitc::IfOp>([&](auto ifOp) { return printIf(ifOp); })
      .Case<emitc::VerbatimOp>([&](auto text) {
        os << text.getValue() << "\n";
        return success();
      })
      .Case<emitc::ReturnOp>([&](auto ret) -> LogicalResult {
        if (ret.getNumOperands() == 0) {
          os << "return;\n";
          return success();
        }
        FailureOr<Expr> e = valueExpr(ret.getOperand());
        if (failed(e))
          return failure();
        os << "return " << e->text << ";\n";
        return success();
      })
      .Case<emitc::ExpressionOp, emitc::CallOpaqueOp, emitc::CallOp,
            emitc::AddOp, emitc::SubOp, emitc::MulOp, emitc::DivOp,
            emitc::RemOp, emitc::BitwiseAndOp, emitc::BitwiseOrOp,
            emitc::BitwiseXorOp, emitc::BitwiseLeftShiftOp,
            emitc::BitwiseRightShiftOp, emitc::BitwiseNotOp,
            emitc::LogicalAndOp, emitc::LogicalOrOp, emitc::LogicalNotOp,
            emitc::UnaryMinusOp, emitc::UnaryPlusOp, emitc::CmpOp,
            emitc::ConditionalOp, emitc::CastOp, emitc::ApplyOp>(
          [&](auto) { return printValueStatement(op); })
      .Default([&](Operation *other) {
        return other->emitOpError("cannot be printed as C");
      });
}

FailureOr<std::string> CPrinter::prototype(emitc::FuncOp func) {
  FunctionType type = func.getFunctionType();
  if (type.getNumResults() > 1)
    return func.emitOpError("returns more than one value, which C cannot");
  std::string text;
  if (ArrayAttr specifiers = func.getSpecifiersAttr())
    for (Attribute s : specifiers)
      text += cast<StringAttr>(s).getValue().str() + " ";
  std::string head = func.getName().str() + "(";
  SmallVector<std::string> params;
  bool named = !func.getBody().empty();
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    std::string name;
    if (named)
      name = declare(func.getArgument(i), hintFor(func.getArgument(i))).str();
    // A variably modified parameter: its extents are earlier parameters.
    SmallVector<std::string> extents;
    if (auto dims =
            func.getArgAttrOfType<DenseI64ArrayAttr>(
                i, weft::WeftDialect::getDimArgsAttrName())) {
      for (int64_t d : dims.asArrayRef().drop_front()) {
        if (d < 0)
          continue;
        if (!named || d >= int64_t(i))
          return func.emitOpError("the extent of argument ")
                 << i << " must be an earlier argument";
        extents.push_back(names[func.getArgument(d)]);
      }
    }
    FailureOr<std::string> decl =
        declarator(func.getLoc(), type.getInput(i), name, extents);
    if (failed(decl))
      return failure();
    params.push_back(*decl);
  }
  head += params.empty() ? "void" : llvm::join(params, ", ");
  head += ")";
  if (type.getNumResults() == 0)
    return text + "void " + head;
  FailureOr<std::string> result =
      declarator(func.getLoc(), type.getResult(0), head);
  if (failed(result))
    return failure();
  return text + *result;
}

LogicalResult CPrinter::printFunction(emitc::FuncOp func,
                                      bool declarationOnly) {
  pushScope();
  auto popped = llvm::make_scope_exit([&] { popScope(); });
  FailureOr<std::string> head = prototype(func);
  if (failed(head))
    return failure();
  if (declarationOnly || func.getBody().empty()) {
    os << *head << ";\n";
    return success();
  }
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("has more than one block, which weft's C "
                            "printer does not print");
  os << *head << " {\n";
  os.indent();
  LogicalResult body = printBlock(func.getBody().front(), true);
  os.unindent();
  os << "}\n";
  return body;
}

LogicalResult CPrinter::printGlobal(emitc::GlobalOp global) {
  std::string text;
  if (global.getExternSpecifier())
    text += "extern ";
  if (global.getStaticSpecifier())
    text += "static ";
  if (global.getConstSpecifier())
    text += "const ";
  FailureOr<std::string> decl =
      declarator(global.getLoc(), global.getType(), global.getSymName());
  if (failed(decl))
    return failure();
  os << text << *decl;
  if (std::optional<Attribute> init = global.getInitialValue()) {
    FailureOr<Expr> e = literal(global.getLoc(), *init, global.getType());
    if (failed(e))
      return failure();
    os << " = " << e->text;
  }
  os << ";\n";
  return success();
}

LogicalResult CPrinter::printTop(Operation *op) {
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case<ModuleOp>([&](auto module) {
        for (Operation &inner : module.getBody()->getOperations())
          if (failed(printTop(&inner)))
            return failure();
        return success();
      })
      .Case<emitc::IncludeOp>([&](auto include) {
        if (include.getIsStandardInclude())
          os << "#include <" << include.getInclude() << ">\n";
        else
          os << "#include \"" << include.getInclude() << "\"\n";
        return success();
      })
      .Case<emitc::VerbatimOp>([&](auto text) {
        os << text.getValue() << "\n";
        return success();
      })
      .Case<emitc::GlobalOp>([&](auto global) { return printGlobal(global); })
      .Case<emitc::FuncOp>([&](auto func) {
        if (failed(printFunction(func, false)))
          return failure();
        os << "\n";
        return success();
      })
      .Case<emitc::DeclareFuncOp>([&](auto declare) -> LogicalResult {
        auto func = SymbolTable::lookupNearestSymbolFrom<emitc::FuncOp>(
            declare, declare.getSymNameAttr());
        if (!func)
          return declare.emitOpError("names no emitc.func");
        return printFunction(func, true);
      })
      .Default([&](Operation *other) {
        return other->emitOpError("cannot be printed as C");
      });
}

LogicalResult weft::translateToC(Operation *op, raw_ostream &os,
                                 const CPrintOptions &options) {
  std::string text;
  llvm::raw_string_ostream buffer(text);
  CPrinter printer(buffer, options);
  Operation *scope = op;
  while (scope->getParentOp() && !isa<ModuleOp>(scope))
    scope = scope->getParentOp();
  printer.reserveNames(scope);
  if (failed(printer.printTop(op)))
    return failure();
  os << buffer.str();
  return success();
}
