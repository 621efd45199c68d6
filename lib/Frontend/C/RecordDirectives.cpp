//===- RecordDirectives.cpp - Attach #pragma weft directives ----*- C++ -*-===//
//
// This file implements recordDirectives(): the checks that need the region
// (names must be arrays or loops of the region, ranks must match, grid axes
// must exist, an array gets one treatment) and the translation of each
// directive into attributes of the imported function. The partitioner reads
// them from there.
//
//===----------------------------------------------------------------------===//
#include "dialects/Weft/IR/WeftDialect.h"
#include "weft/Frontend/C/CImporter.h"
#include "weft/Frontend/C/Diagnostics.h"

#include "dialects/Dist/IR/DistOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Builders.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringMap.h"

using namespace weft;
namespace dist = weft::dist;

namespace {
class DirectiveRecorder {
public:
  DirectiveRecorder(clang::ASTContext &ctx, const ScopRegion &region,
                    ImportedRegion &imported)
      : ctx(ctx), region(region), imported(imported),
        b(imported.func.getContext()) {}

  bool run();

private:
  bool error(clang::SourceLocation loc, const llvm::Twine &message);
  void note(clang::SourceLocation loc, const llvm::Twine &message);

  bool recordGrid(const PragmaEvent &ev);
  bool recordArray(const PragmaEvent &ev);
  bool recordLoops(const PragmaEvent &ev);
  bool recordParallel(const PragmaEvent &ev);
  bool recordPlacement(const PragmaEvent &ev);
  void recordNoAlias(const PragmaEvent &ev);

  /// The memref argument named `name`, or -1 after reporting an error.
  int arrayArg(const PragmaEvent &ev, llvm::StringRef name);
  /// Claims `name` for `ev`; reports a conflict with an earlier directive.
  bool claim(const PragmaEvent &ev, llvm::StringRef name);
  /// The first loop after `ev`, or null after reporting an error.
  const ImportedLoop *nextLoop(const PragmaEvent &ev);
  /// Grid axes for `dims`, filling in the next free axis where none is given.
  bool assignAxes(const PragmaEvent &ev,
                  llvm::ArrayRef<DimDistribution> dims,
                  llvm::SmallVectorImpl<dist::DimDistAttr> &out,
                  int64_t &gridRank);
  dist::GridAttr gridFor(int64_t rank);

  clang::ASTContext &ctx;
  const ScopRegion &region;
  ImportedRegion &imported;
  mlir::OpBuilder b;
  std::optional<std::vector<int64_t>> grid; // from `grid(...)`
  llvm::StringMap<clang::SourceLocation> claimed;
  bool failed = false;
};
} // end anonymous namespace

bool DirectiveRecorder::error(clang::SourceLocation loc,
                              const llvm::Twine &message) {
  reportError(ctx.getDiagnostics(), loc, message);
  failed = true;
  return false;
}

void DirectiveRecorder::note(clang::SourceLocation loc,
                             const llvm::Twine &message) {
  reportNote(ctx.getDiagnostics(), loc, message);
}

int DirectiveRecorder::arrayArg(const PragmaEvent &ev, llvm::StringRef name) {
  for (auto &[arrayName, index] : imported.arrayArgs)
    if (arrayName == name)
      return index;
  error(ev.loc, "'" + name + "' is not an array used in this scop region");
  return -1;
}

bool DirectiveRecorder::claim(const PragmaEvent &ev, llvm::StringRef name) {
  auto [it, inserted] = claimed.try_emplace(name, ev.loc);
  if (inserted)
    return true;
  error(ev.loc, "conflicting directives for '" + name + "'");
  note(it->second, "previous directive for '" + name + "' here");
  return false;
}

const ImportedLoop *DirectiveRecorder::nextLoop(const PragmaEvent &ev) {
  const clang::SourceManager &sm = ctx.getSourceManager();
  for (const ImportedLoop &loop : imported.loops)
    if (sm.isBeforeInTranslationUnit(ev.loc, sm.getExpansionLoc(loop.loc)))
      return &loop;
  error(ev.loc, "'#pragma weft " + getDirectiveName(ev.directive.kind) +
                    "' must be followed by a loop in its scop region");
  return nullptr;
}

dist::GridAttr DirectiveRecorder::gridFor(int64_t rank) {
  llvm::SmallVector<int64_t> shape;
  if (grid && !grid->empty()) {
    for (int64_t extent : *grid)
      shape.push_back(extent > 0 ? extent : mlir::ShapedType::kDynamic);
  } else {
    shape.assign(std::max<int64_t>(rank, 1), mlir::ShapedType::kDynamic);
  }
  return dist::GridAttr::get(b.getContext(), shape);
}

bool DirectiveRecorder::assignAxes(
    const PragmaEvent &ev, llvm::ArrayRef<DimDistribution> dims,
    llvm::SmallVectorImpl<dist::DimDistAttr> &out, int64_t &gridRank) {
  int64_t limit = grid && !grid->empty() ? (int64_t)grid->size() : 3;
  llvm::SmallVector<bool, 3> used(3, false);
  for (const DimDistribution &d : dims)
    if (d.isDistributed() && d.gridDim >= 0 && d.gridDim < 3)
      used[d.gridDim] = true;
  gridRank = 0;
  mlir::MLIRContext *mctx = b.getContext();
  for (const DimDistribution &d : dims) {
    if (!d.isDistributed()) {
      out.push_back(dist::DimDistAttr::getReplicated(mctx));
      continue;
    }
    int64_t axis = d.gridDim;
    if (axis < 0) {
      axis = 0;
      while (axis < 3 && used[axis])
        ++axis;
      if (axis < 3)
        used[axis] = true;
    }
    if (axis >= limit)
      return error(ev.loc, "'" + d.str() + "' needs grid axis " +
                               llvm::Twine(axis) + " but the grid has " +
                               llvm::Twine(limit) + " dimension" +
                               (limit == 1 ? "" : "s"));
    gridRank = std::max(gridRank, axis + 1);
    switch (d.kind) {
    case DimDistribution::Kind::Block:
      out.push_back(dist::DimDistAttr::get(mctx, dist::DistKind::Block, axis));
      break;
    case DimDistribution::Kind::Cyclic:
      out.push_back(dist::DimDistAttr::get(mctx, dist::DistKind::Cyclic, axis));
      break;
    default:
      out.push_back(dist::DimDistAttr::getBlockCyclic(mctx, d.blockSize, axis));
      break;
    }
  }
  return true;
}

bool DirectiveRecorder::recordGrid(const PragmaEvent &ev) {
  if (grid) {
    error(ev.loc, "the process grid is given twice in this scop region");
    note(claimed.lookup("#grid"), "previous grid directive here");
    return false;
  }
  grid = ev.directive.gridShape;
  claimed["#grid"] = ev.loc;
  if (!grid->empty())
    imported.func->setAttr(dist::DistDialect::getGridAttrName(),
                           gridFor(grid->size()));
  return true;
}

bool DirectiveRecorder::recordArray(const PragmaEvent &ev) {
  const Directive &d = ev.directive;
  for (const std::string &name : d.names) {
    int index = arrayArg(ev, name);
    if (index < 0 || !claim(ev, name))
      continue;
    auto type = llvm::cast<mlir::MemRefType>(
        imported.func.getArgumentTypes()[index]);
    mlir::MLIRContext *mctx = b.getContext();
    if (d.kind == DirectiveKind::Local) {
      imported.func.setArgAttr(index, weft::WeftDialect::getLocalAttrName(),
                               b.getUnitAttr());
      continue;
    }
    llvm::SmallVector<dist::DimDistAttr> dims;
    int64_t gridRank = 1;
    if (d.kind == DirectiveKind::Replicate) {
      dims.assign(type.getRank(), dist::DimDistAttr::getReplicated(mctx));
    } else {
      if ((int64_t)d.dims.size() != type.getRank()) {
        error(ev.loc, "'" + name + "' has " +
                                 llvm::Twine(type.getRank()) +
                                 " dimension" +
                                 (type.getRank() == 1 ? "" : "s") +
                                 " but the directive describes " +
                                 llvm::Twine(d.dims.size()));
        continue;
      }
      if (!assignAxes(ev, d.dims, dims, gridRank))
        continue;
    }
    imported.func.setArgAttr(
        index, dist::DistDialect::getLayoutAttrName(),
        dist::LayoutAttr::get(mctx, dims, gridFor(gridRank)));
  }
  return !failed;
}

bool DirectiveRecorder::recordLoops(const PragmaEvent &ev) {
  const ImportedLoop *root = nextLoop(ev);
  if (!root)
    return false;
  // The perfectly nested band rooted at that loop, outermost first.
  llvm::SmallVector<const ImportedLoop *> band{root};
  while (true) {
    mlir::Region &body = band.back()->op->getRegion(0);
    mlir::Operation *only = nullptr;
    unsigned count = 0;
    for (mlir::Operation &op : body.front().without_terminator())
      if (!llvm::isa<mlir::affine::AffineApplyOp>(op)) {
        only = &op;
        ++count;
      }
    const ImportedLoop *inner = nullptr;
    if (count == 1)
      for (const ImportedLoop &loop : imported.loops)
        if (loop.op == only)
          inner = &loop;
    if (!inner)
      break;
    band.push_back(inner);
  }
  const Directive &d = ev.directive;
  llvm::SmallVector<DimDistribution> perLoop(band.size());
  for (DimDistribution &p : perLoop)
    p.kind = DimDistribution::Kind::Replicated;
  for (auto [name, dim] : llvm::zip(d.names, d.dims)) {
    auto it = llvm::find_if(
        band, [&](const ImportedLoop *l) { return l->iterator == name; });
    if (it == band.end()) {
      // A loop of that name right inside the band's last loop: the body
      // holds other code too (such as the final value of an iterator that
      // code after the region reads).
      bool imperfect = llvm::any_of(imported.loops, [&](const ImportedLoop &l) {
        return l.iterator == name && l.op->getParentOp() == band.back()->op;
      });
      return error(ev.loc,
                   "loop '" + name +
                       "' is not in the perfectly nested loops that follow "
                       "this directive" +
                       (imperfect
                            ? " (the body of loop '" + band.back()->iterator +
                                  "' holds more than it; code after "
                                  "the region that reads an iterator "
                                  "before assigning it makes the nest "
                                  "keep its final value)"
                            : std::string()));
    }
    perLoop[it - band.begin()] = dim;
  }
  llvm::SmallVector<dist::DimDistAttr> dims;
  int64_t gridRank = 1;
  if (!assignAxes(ev, perLoop, dims, gridRank))
    return false;
  root->op->setAttr(
      dist::DistDialect::getLayoutAttrName(),
      dist::LayoutAttr::get(b.getContext(), dims, gridFor(gridRank)));
  return true;
}

bool DirectiveRecorder::recordParallel(const PragmaEvent &ev) {
  const ImportedLoop *loop = nextLoop(ev);
  if (!loop)
    return false;
  loop->op->setAttr(weft::WeftDialect::getParallelAttrName(), b.getUnitAttr());
  return true;
}

/// Whether only blanks, comments and other pragma lines stand between `from`
/// and `to` in one file.
static bool onlyBlanksBetween(const clang::SourceManager &sm,
                              clang::SourceLocation from,
                              clang::SourceLocation to) {
  if (sm.getFileID(from) != sm.getFileID(to) ||
      sm.getFileOffset(to) < sm.getFileOffset(from))
    return false;
  llvm::StringRef text(sm.getCharacterData(from),
                       sm.getFileOffset(to) - sm.getFileOffset(from));
  while (true) {
    text = text.ltrim();
    if (text.empty())
      return true;
    if (text.starts_with("//") || text.starts_with("#")) {
      // A comment to the end of the line, or another pragma line.
      size_t eol = text.find('\n');
      while (eol != llvm::StringRef::npos && text[0] == '#' && eol > 0 &&
             text[eol - 1] == '\\')
        eol = text.find('\n', eol + 1);
      text = eol == llvm::StringRef::npos ? "" : text.drop_front(eol);
    } else if (text.starts_with("/*")) {
      size_t end = text.find("*/");
      if (end == llvm::StringRef::npos)
        return false;
      text = text.drop_front(end + 2);
    } else {
      return false;
    }
  }
}

/// weft.gpu.place = "device" or "host" on the loop right after the
/// directive (the CUDA targets read it; the others ignore it).
bool DirectiveRecorder::recordPlacement(const PragmaEvent &ev) {
  llvm::StringRef name = getDirectiveName(ev.directive.kind);
  const clang::SourceManager &sm = ctx.getSourceManager();
  const ImportedLoop *loop = nextLoop(ev);
  if (!loop)
    return false;
  if (!onlyBlanksBetween(sm, ev.endLoc, sm.getExpansionLoc(loop->loc)))
    return error(ev.loc, "'#pragma weft " + name +
                             "' must be followed directly by a for loop");
  if (auto earlier = loop->op->getAttrOfType<mlir::StringAttr>(
          weft::WeftDialect::getGpuPlaceAttrName()))
    return error(ev.loc, "'#pragma weft " + name +
                             "' on a loop that has a '#pragma weft " +
                             earlier.getValue() + "' already");
  loop->op->setAttr(weft::WeftDialect::getGpuPlaceAttrName(),
                    b.getStringAttr(name));
  return true;
}

/// weft.noalias on each array the directive names (every array without a
/// list): the user asserts that it shares no element with another array of
/// the region, so dist-alias-check checks no pair that involves it.
void DirectiveRecorder::recordNoAlias(const PragmaEvent &ev) {
  if (ev.directive.names.empty()) {
    for (auto &[name, index] : imported.arrayArgs)
      imported.func.setArgAttr(index, weft::WeftDialect::getNoAliasAttrName(),
                               b.getUnitAttr());
    return;
  }
  for (const std::string &name : ev.directive.names) {
    int index = arrayArg(ev, name);
    if (index >= 0)
      imported.func.setArgAttr(index, weft::WeftDialect::getNoAliasAttrName(),
                               b.getUnitAttr());
  }
}

bool DirectiveRecorder::run() {
  // The grid comes first: array and loop layouts refer to its axes. Each
  // directive is checked even after an error, to report them all at once.
  for (const PragmaEvent &ev : region.directives)
    if (ev.directive.kind == DirectiveKind::Grid)
      recordGrid(ev);
  for (const PragmaEvent &ev : region.directives) {
    switch (ev.directive.kind) {
    case DirectiveKind::Distribute:
      if (ev.directive.target == Directive::Target::Array)
        recordArray(ev);
      else
        recordLoops(ev);
      break;
    case DirectiveKind::Replicate:
    case DirectiveKind::Local:
      recordArray(ev);
      break;
    case DirectiveKind::Parallel:
      recordParallel(ev);
      break;
    case DirectiveKind::Device:
    case DirectiveKind::Host:
      recordPlacement(ev);
      break;
    case DirectiveKind::NoDist:
      imported.func->setAttr(weft::WeftDialect::getNoDistAttrName(),
                             b.getUnitAttr());
      break;
    case DirectiveKind::NoAlias:
      recordNoAlias(ev);
      break;
    default:
      break;
    }
  }
  return !failed;
}

bool weft::recordDirectives(clang::ASTContext &ctx, const ScopRegion &region,
                            ImportedRegion &imported) {
  return DirectiveRecorder(ctx, region, imported).run();
}
