//===- DistAttrsTest.cpp - Unit tests of the dist attributes' C++ API -----===//
//
// The partitioner builds and queries dist attributes directly; these tests
// pin the helpers it relies on, including the verifiers' answers through
// getChecked.
//
//===----------------------------------------------------------------------===//
#include "dialects/Dist/IR/DistOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace weft::dist;

namespace {
class DistAttrsTest : public ::testing::Test {
protected:
  DistAttrsTest() { context.getOrLoadDialect<DistDialect>(); }

  /// Runs `make` with diagnostics captured; returns how many errors it
  /// reported.
  template <typename Fn>
  unsigned countErrors(Fn make) {
    unsigned errors = 0;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
      errors += d.getSeverity() == DiagnosticSeverity::Error;
      return success();
    });
    make();
    return errors;
  }

  MLIRContext context;
};
} // end anonymous namespace

TEST_F(DistAttrsTest, GridProcessCount) {
  auto grid = GridAttr::get(&context, {4, 2});
  EXPECT_EQ(grid.getRank(), 2u);
  EXPECT_TRUE(grid.hasStaticShape());
  EXPECT_EQ(grid.getNumProcesses(), 8);

  auto dynamic = GridAttr::get(&context, {ShapedType::kDynamic, 3});
  EXPECT_FALSE(dynamic.hasStaticShape());
  EXPECT_TRUE(dynamic.isDynamicAxis(0));
  EXPECT_FALSE(dynamic.isDynamicAxis(1));
  EXPECT_EQ(dynamic.getNumProcesses(), std::nullopt);
}

TEST_F(DistAttrsTest, GridVerifier) {
  auto loc = UnknownLoc::get(&context);
  auto emit = [&] { return emitError(loc); };
  EXPECT_EQ(countErrors([&] { (void)GridAttr::getChecked(emit, &context, {}); }),
            1u);
  EXPECT_EQ(
      countErrors([&] { (void)GridAttr::getChecked(emit, &context, {4, 0}); }),
      1u);
  EXPECT_EQ(countErrors([&] {
              (void)GridAttr::getChecked(emit, &context,
                                         {2, ShapedType::kDynamic});
            }),
            0u);
}

TEST_F(DistAttrsTest, DimDistributions) {
  auto block = DimDistAttr::get(&context, DistKind::Block, 1);
  EXPECT_TRUE(block.isDistributed());
  EXPECT_EQ(block.getGridAxis(), 1);
  EXPECT_EQ(block.getBlockSize(), std::nullopt);

  auto replicated = DimDistAttr::getReplicated(&context);
  EXPECT_FALSE(replicated.isDistributed());
  EXPECT_EQ(replicated.getGridAxis(), std::nullopt);

  auto bc = DimDistAttr::getBlockCyclic(&context, 8, 0);
  EXPECT_EQ(bc.getKind(), DistKind::BlockCyclic);
  EXPECT_EQ(bc.getBlockSize(), 8);

  auto loc = UnknownLoc::get(&context);
  auto emit = [&] { return emitError(loc); };
  // A block-cyclic distribution needs a positive block size.
  EXPECT_EQ(countErrors([&] {
              (void)DimDistAttr::getChecked(emit, &context,
                                            DistKind::BlockCyclic,
                                            std::optional<int64_t>(0),
                                            std::optional<int64_t>(0));
            }),
            1u);
  // Replicated dimensions name no grid axis.
  EXPECT_EQ(countErrors([&] {
              (void)DimDistAttr::getChecked(
                  emit, &context, DistKind::Replicated,
                  std::optional<int64_t>(), std::optional<int64_t>(0));
            }),
            1u);
}

TEST_F(DistAttrsTest, LayoutAxes) {
  auto grid = GridAttr::get(&context, {2, ShapedType::kDynamic});
  auto layout = LayoutAttr::get(
      &context,
      {DimDistAttr::getReplicated(&context),
       DimDistAttr::get(&context, DistKind::Cyclic, 0),
       DimDistAttr::get(&context, DistKind::Block, 1)},
      grid);
  EXPECT_EQ(layout.getRank(), 3u);
  EXPECT_EQ(layout.getDimOfGridAxis(0), 1u);
  EXPECT_EQ(layout.getDimOfGridAxis(1), 2u);

  auto loc = UnknownLoc::get(&context);
  auto emit = [&] { return emitError(loc); };
  // Two dimensions on one grid axis, and an axis the grid does not have.
  EXPECT_EQ(countErrors([&] {
              (void)LayoutAttr::getChecked(
                  emit, &context,
                  {DimDistAttr::get(&context, DistKind::Block, 0),
                   DimDistAttr::get(&context, DistKind::Block, 0)},
                  grid);
            }),
            1u);
  EXPECT_EQ(countErrors([&] {
              (void)LayoutAttr::getChecked(
                  emit, &context,
                  {DimDistAttr::get(&context, DistKind::Block, 2)}, grid);
            }),
            1u);
}

TEST_F(DistAttrsTest, LayoutMatchesMemRef) {
  auto layout = LayoutAttr::get(
      &context,
      {DimDistAttr::get(&context, DistKind::Block, 0),
       DimDistAttr::getReplicated(&context)},
      GridAttr::get(&context, {ShapedType::kDynamic}));
  auto f64 = Float64Type::get(&context);
  auto loc = UnknownLoc::get(&context);
  auto emit = [&] { return emitError(loc); };
  EXPECT_EQ(countErrors([&] {
              (void)layout.verifyMemRefType(MemRefType::get({10, 20}, f64),
                                            emit);
            }),
            0u);
  EXPECT_EQ(countErrors([&] {
              (void)layout.verifyMemRefType(MemRefType::get({10}, f64), emit);
            }),
            1u);
}
