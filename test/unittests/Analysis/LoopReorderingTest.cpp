//===- LoopReorderingTest.cpp - Distribution and interchange queries ------===//
//
// The questions gpu-expose-bands asks ISL before it reorders loops, on
// small functions whose answers are known: a distribution over parts that
// reach into an inner loop (bicg's fused loop, and one where the second
// statement feeds the first back), and interchanges that keep only some
// statements of the inner loop.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/LoopReordering.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using weft::DistributionQuery;
using weft::InterchangeQuery;

namespace {

/// `for i { q[i] = 0; for j { s[j] += r[i] * A[i][j]; q[i] += A[i][j] *
/// p[j] } }`, or with `feedback` `for j { s[i] += A[i][j]; p[j] *= s[i] }`:
/// the second statement reads the sum the first makes.
std::string fusedLoops(bool feedback) {
  std::string second = feedback ? R"(
      %d0 = affine.load %p[%j] : memref<?xf64>
      %c0 = affine.load %s[%i] : memref<?xf64>
      %d1 = arith.mulf %d0, %c0 : f64
      affine.store %d1, %p[%j] : memref<?xf64>)"
                                : R"(
      %q0 = affine.load %q[%i] : memref<?xf64>
      %a1 = affine.load %a[%i, %j] : memref<?x?xf64>
      %pj = affine.load %p[%j] : memref<?xf64>
      %qp = arith.mulf %a1, %pj : f64
      %q1 = arith.addf %q0, %qp : f64
      affine.store %q1, %q[%i] : memref<?xf64>)";
  std::string first = feedback ? R"(
      %s0 = affine.load %s[%i] : memref<?xf64>
      %a0 = affine.load %a[%i, %j] : memref<?x?xf64>
      %s1 = arith.addf %s0, %a0 : f64
      affine.store %s1, %s[%i] : memref<?xf64>)"
                               : R"(
      %s0 = affine.load %s[%j] : memref<?xf64>
      %ri = affine.load %r[%i] : memref<?xf64>
      %a0 = affine.load %a[%i, %j] : memref<?x?xf64>
      %sp = arith.mulf %ri, %a0 : f64
      %s1 = arith.addf %s0, %sp : f64
      affine.store %s1, %s[%j] : memref<?xf64>)";
  return R"(
func.func @f(%a: memref<?x?xf64>, %s: memref<?xf64>, %q: memref<?xf64>,
             %p: memref<?xf64>, %r: memref<?xf64>, %m: index, %n: index,
             %zero: f64) {
  affine.for %i = 0 to %n {
    affine.store %zero, %q[%i] : memref<?xf64>
    affine.for %j = 0 to %m {)" +
         first + second + R"(
    }
  }
  return
})";
}

class LoopReorderingTest : public ::testing::Test {
protected:
  LoopReorderingTest() {
    context.loadDialect<affine::AffineDialect, arith::ArithDialect,
                        func::FuncDialect, memref::MemRefDialect>();
  }

  /// Parses `text`, finds its outer loop `i` and inner loop `j`, and the
  /// ops of j's body up to and after its first store (the two statements).
  void parse(const std::string &text) {
    module = parseSourceString<ModuleOp>(text, &context);
    ASSERT_TRUE(module);
    func = *module->getOps<func::FuncOp>().begin();
    func.walk([&](affine::AffineForOp loop) {
      (loop->getParentOfType<affine::AffineForOp>() ? j : i) = loop;
    });
    ASSERT_TRUE(i && j);
    bool second = false;
    for (Operation &op : j.getBody()->without_terminator()) {
      (second ? secondOps : firstOps).push_back(&op);
      second |= isa<affine::AffineStoreOp>(op);
    }
    // i's body with j replaced by its ops: [q[i] = 0, first..., second...].
    parts.push_back(&i.getBody()->front());
    parts.append(firstOps);
    parts.append(secondOps);
  }

  /// Answers the queries on the parsed function.
  void answer(MutableArrayRef<DistributionQuery> distributions,
              MutableArrayRef<InterchangeQuery> interchanges) {
    weft::PolyhedralRegion region(func);
    ASSERT_TRUE(succeeded(weft::analyzeLoopReorderings(
        region, distributions, interchanges, /*maxOperations=*/0)));
  }

  /// The answer for the cut between the last op of the statement `k` (0:
  /// q[i] = 0, 1: the first in j, 2: the second) and the next one.
  bool cutAfter(const DistributionQuery &q, unsigned k) {
    unsigned last = k == 0   ? 0
                    : k == 1 ? firstOps.size()
                             : firstOps.size() + secondOps.size();
    return q.legalCuts[last];
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  affine::AffineForOp i, j;
  SmallVector<Operation *> firstOps, secondOps, parts;
};

TEST_F(LoopReorderingTest, BicgSplitsIntoParallelAndSummingParts) {
  parse(fusedLoops(/*feedback=*/false));
  DistributionQuery distribution{i, parts, {}};
  DistributionQuery whole{i, {}, {}};
  InterchangeQuery all{i, j, {}};
  InterchangeQuery first{i, j, firstOps};
  InterchangeQuery second{i, j, secondOps};
  SmallVector<DistributionQuery> distributions{distribution, whole};
  SmallVector<InterchangeQuery> interchanges{all, first, second};
  answer(distributions, interchanges);

  ASSERT_EQ(distributions[0].legalCuts.size(), parts.size() - 1);
  EXPECT_TRUE(cutAfter(distributions[0], 0));
  EXPECT_TRUE(cutAfter(distributions[0], 1));
  // Without parts: the ops of i's body, the store and j.
  EXPECT_EQ(distributions[1].legalCuts, SmallVector<bool>{true});
  // j carries q[i]'s sum: all of it moved outward would carry it too.
  EXPECT_TRUE(interchanges[0].legal);
  EXPECT_FALSE(interchanges[0].innerParallel);
  // s[j]'s update alone: j is parallel and may move out of i.
  EXPECT_TRUE(interchanges[1].legal);
  EXPECT_TRUE(interchanges[1].innerParallel);
  // q[i]'s sum alone still carries along j.
  EXPECT_FALSE(interchanges[2].innerParallel);
}

TEST_F(LoopReorderingTest, FeedbackForbidsTheCutInsideTheInnerLoop) {
  parse(fusedLoops(/*feedback=*/true));
  SmallVector<DistributionQuery> distributions{{i, parts, {}}};
  SmallVector<InterchangeQuery> interchanges{{i, j, secondOps}};
  answer(distributions, interchanges);

  // The second statement reads s[i] before the first writes it again in
  // the next iteration of j: from the second back to the first.
  EXPECT_TRUE(cutAfter(distributions[0], 0));
  EXPECT_FALSE(cutAfter(distributions[0], 1));
  // p[j]'s update alone is parallel along j.
  EXPECT_TRUE(interchanges[0].innerParallel);
}

} // namespace
