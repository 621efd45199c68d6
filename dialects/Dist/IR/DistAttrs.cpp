//===- DistAttrs.cpp - Dist dialect attributes ------------------*- C++ -*-===//
//
// Part of the weft project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the enums and attributes of the dist dialect: their
// custom assembly pieces, verifiers and helpers.
//
//===----------------------------------------------------------------------===//

#include "dialects/Dist/IR/DistOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace weft::dist;

//===----------------------------------------------------------------------===//
// Custom assembly pieces
//===----------------------------------------------------------------------===//

/// grid-shape ::= `[` (integer | `?`) (`,` (integer | `?`))* `]`
static ParseResult parseGridShape(AsmParser &parser,
                                  SmallVector<int64_t> &shape) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        if (succeeded(parser.parseOptionalQuestion())) {
          shape.push_back(ShapedType::kDynamic);
          return success();
        }
        int64_t extent;
        if (parser.parseInteger(extent))
          return failure();
        shape.push_back(extent);
        return success();
      });
}

static void printGridShape(AsmPrinter &printer, ArrayRef<int64_t> shape) {
  printer << '[';
  llvm::interleaveComma(shape, printer, [&](int64_t extent) {
    if (ShapedType::isDynamic(extent))
      printer << '?';
    else
      printer << extent;
  });
  printer << ']';
}

/// dim-dist-body ::= kind (`(` integer `)`)? (`on` integer)?
static ParseResult parseDimDistBody(AsmParser &parser, DistKind &kind,
                                    std::optional<int64_t> &blockSize,
                                    std::optional<int64_t> &gridAxis) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<DistKind> parsed = symbolizeDistKind(keyword);
  if (!parsed)
    return parser.emitError(loc)
           << "expected 'block', 'cyclic', 'block_cyclic' or 'replicated', "
              "got '"
           << keyword << "'";
  kind = *parsed;
  if (succeeded(parser.parseOptionalLParen())) {
    int64_t value;
    if (parser.parseInteger(value) || parser.parseRParen())
      return failure();
    blockSize = value;
  }
  if (succeeded(parser.parseOptionalKeyword("on"))) {
    int64_t value;
    if (parser.parseInteger(value))
      return failure();
    gridAxis = value;
  }
  return success();
}

static void printDimDistBody(AsmPrinter &printer, DistKind kind,
                             std::optional<int64_t> blockSize,
                             std::optional<int64_t> gridAxis) {
  printer << stringifyDistKind(kind);
  if (blockSize)
    printer << '(' << *blockSize << ')';
  if (gridAxis)
    printer << " on " << *gridAxis;
}

/// dim-dist-list ::= `[` (dim-dist-body (`,` dim-dist-body)*)? `]`
static ParseResult parseDimDistList(AsmParser &parser,
                                    SmallVector<DimDistAttr> &dims) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        SMLoc loc = parser.getCurrentLocation();
        DistKind kind;
        std::optional<int64_t> blockSize, gridAxis;
        if (parseDimDistBody(parser, kind, blockSize, gridAxis))
          return failure();
        DimDistAttr dim = DimDistAttr::getChecked(
            [&] { return parser.emitError(loc); }, parser.getContext(), kind,
            blockSize, gridAxis);
        if (!dim)
          return failure();
        dims.push_back(dim);
        return success();
      });
}

static void printDimDistList(AsmPrinter &printer, ArrayRef<DimDistAttr> dims) {
  printer << '[';
  llvm::interleaveComma(dims, printer, [&](DimDistAttr dim) {
    printDimDistBody(printer, dim.getKind(), dim.getBlockSize(),
                     dim.getGridAxis());
  });
  printer << ']';
}

/// grid-ref ::= grid-shape, building a #dist.grid.
static ParseResult parseGridRef(AsmParser &parser, GridAttr &grid) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  if (parseGridShape(parser, shape))
    return failure();
  grid = GridAttr::getChecked([&] { return parser.emitError(loc); },
                              parser.getContext(), shape);
  return success(static_cast<bool>(grid));
}

static void printGridRef(AsmPrinter &printer, GridAttr grid) {
  printGridShape(printer, grid.getShape());
}

//===----------------------------------------------------------------------===//
// Generated definitions
//===----------------------------------------------------------------------===//

#include "dialects/Dist/IR/DistEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Dist/IR/DistAttrs.cpp.inc"

void DistDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Dist/IR/DistAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// GridAttr
//===----------------------------------------------------------------------===//

LogicalResult GridAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape) {
  if (shape.empty())
    return emitError() << "a process grid needs at least one axis";
  for (auto [axis, extent] : llvm::enumerate(shape)) {
    if (ShapedType::isDynamic(extent) || extent > 0)
      continue;
    return emitError() << "grid extent along axis " << axis
                       << " must be positive or '?', got " << extent;
  }
  return success();
}

bool GridAttr::hasStaticShape() const {
  return llvm::none_of(getShape(), ShapedType::isDynamic);
}

std::optional<int64_t> GridAttr::getNumProcesses() const {
  if (!hasStaticShape())
    return std::nullopt;
  int64_t product = 1;
  for (int64_t extent : getShape())
    if (llvm::MulOverflow(product, extent, product))
      return std::nullopt;
  return product;
}

//===----------------------------------------------------------------------===//
// DimDistAttr
//===----------------------------------------------------------------------===//

LogicalResult DimDistAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  DistKind kind,
                                  std::optional<int64_t> blockSize,
                                  std::optional<int64_t> gridAxis) {
  if (kind == DistKind::BlockCyclic && !blockSize)
    return emitError() << "'block_cyclic' needs a block size, e.g. "
                          "'block_cyclic(32) on 0'";
  if (kind != DistKind::BlockCyclic && blockSize)
    return emitError() << "only 'block_cyclic' takes a block size, not '"
                       << stringifyDistKind(kind) << "'";
  if (blockSize && *blockSize <= 0)
    return emitError() << "block size must be positive, got " << *blockSize;
  if (kind == DistKind::Replicated && gridAxis)
    return emitError() << "a replicated dimension is not distributed over a "
                          "grid axis";
  if (kind != DistKind::Replicated && !gridAxis)
    return emitError() << "'" << stringifyDistKind(kind)
                       << "' needs the grid axis it is distributed over "
                          "('on <axis>')";
  if (gridAxis && *gridAxis < 0)
    return emitError() << "grid axis must be non-negative, got " << *gridAxis;
  return success();
}

DimDistAttr DimDistAttr::getReplicated(MLIRContext *context) {
  return get(context, DistKind::Replicated, std::nullopt, std::nullopt);
}

DimDistAttr DimDistAttr::getBlockCyclic(MLIRContext *context, int64_t blockSize,
                                        int64_t gridAxis) {
  return get(context, DistKind::BlockCyclic, blockSize, gridAxis);
}

//===----------------------------------------------------------------------===//
// LayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<DimDistAttr> dims, GridAttr grid) {
  if (!grid)
    return emitError() << "a layout needs a process grid";
  SmallVector<std::optional<unsigned>> user(grid.getRank());
  for (auto [dim, dist] : llvm::enumerate(dims)) {
    if (!dist)
      return emitError() << "missing distribution for dimension " << dim;
    std::optional<int64_t> axis = dist.getGridAxis();
    if (!axis)
      continue;
    if (*axis >= static_cast<int64_t>(grid.getRank()))
      return emitError() << "dimension " << dim
                         << " is distributed over grid axis " << *axis
                         << ", but the grid has " << grid.getRank() << " axes";
    std::optional<unsigned> &other = user[*axis];
    if (other)
      return emitError() << "dimensions " << *other << " and " << dim
                         << " are both distributed over grid axis " << *axis;
    other = dim;
  }
  return success();
}

std::optional<unsigned> LayoutAttr::getDimOfGridAxis(unsigned axis) const {
  for (auto [dim, dist] : llvm::enumerate(getDims()))
    if (dist.getGridAxis() == static_cast<int64_t>(axis))
      return dim;
  return std::nullopt;
}

LogicalResult LayoutAttr::verifyMemRefType(
    MemRefType type, function_ref<InFlightDiagnostic()> emitError) const {
  if (type.getRank() != static_cast<int64_t>(getRank()))
    return emitError() << "memref of rank " << type.getRank()
                       << " does not match layout of rank " << getRank();
  if (auto space = llvm::dyn_cast_or_null<LayoutAttr>(type.getMemorySpace()))
    if (space != *this)
      return emitError() << "memref memory space " << space
                         << " differs from layout " << *this;
  return success();
}
