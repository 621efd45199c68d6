// RUN: weft-opt %s --convert-dist-to-emitc | FileCheck %s

// A message is one runtime call: the table of its element set (a
// `static const` array defined once at the function's entry, after a
// comment line giving the set, shared by the messages that carry the same
// set), the array, its element size, the peer and the tag, then one array
// (weft_rt_values, a compound literal of int64_t) of the linear index of
// its first element, the array's extents after the first and the set's
// parameters.
// CHECK-LABEL: func.func @exchange
// CHECK-SAME: (%[[A:[^:]*]]: memref<?x?xf32> {{.*}}, %[[N0:[^:]*]]: index, %[[N1:[^:]*]]: index, %[[PEER:[^:]*]]: index, %[[LO:[^:]*]]: index, %[[HI:[^:]*]]: index)
// CHECK-DAG: %[[N1C:.*]] = builtin.unrealized_conversion_cast %[[N1]] : index to i64
// CHECK-DAG: %[[PEERC:.*]] = builtin.unrealized_conversion_cast %[[PEER]] : index to i64
// CHECK-DAG: %[[LOC:.*]] = builtin.unrealized_conversion_cast %[[LO]] : index to i64
// CHECK-DAG: %[[HIC:.*]] = builtin.unrealized_conversion_cast %[[HI]] : index to i64
// CHECK-DAG: %[[AC:.*]] = builtin.unrealized_conversion_cast %[[A]] : memref<?x?xf32> to !emitc.ptr<f32>
// CHECK-DAG: emitc.verbatim "// message elements: [lo, hi] -> { A[i, j] : i = hi - 1 and 0 <= j < 8 and hi > lo }"
// CHECK-DAG: %[[SEND:.*]] = "emitc.variable"() <{value = #emitc.opaque<"{2, 2, 1, {{.*}}}">}> : () -> !emitc.array<{{[0-9]+}}x!emitc.opaque<"static const int64_t">>
// CHECK-DAG: %[[RECV:.*]] = "emitc.variable"() <{value = #emitc.opaque<"{2, 2, 1, {{.*}}}">}> : () -> !emitc.array<{{[0-9]+}}x!emitc.opaque<"static const int64_t">>
// CHECK-DAG: %[[SIZE:.*]] = "emitc.constant"() <{value = 4 : i64}>
// CHECK-DAG: %[[ZERO:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK-DAG: %[[TAG:.*]] = "emitc.constant"() <{value = 1 : i64}>
// CHECK: %[[V:.*]] = emitc.call_opaque "weft_rt_values"(%[[ZERO]], %[[N1C]], %[[LOC]], %[[HIC]]) : (i64, i64, i64, i64) -> !emitc.ptr<!emitc.opaque<"const int64_t">>
// CHECK: emitc.call_opaque "weft_rt_isend_elements"(%[[SEND]], %[[AC]], %[[SIZE]], %[[PEERC]], %[[TAG]], %[[V]])
// CHECK: %[[V2:.*]] = emitc.call_opaque "weft_rt_values"(%[[ZERO]], %[[N1C]], %[[LOC]], %[[HIC]])
// CHECK: emitc.call_opaque "weft_rt_irecv_elements"(%[[RECV]], %[[AC]], %[[SIZE]], %[[PEERC]], %[[TAG]], %[[V2]])
// CHECK: emitc.call_opaque "weft_rt_isend_elements"(%[[SEND]],
// CHECK: emitc.call_opaque "weft_rt_wait_all"() : () -> ()
// CHECK-NOT: emitc.variable
// CHECK: return
func.func @exchange(%a: memref<?x?xf32> {weft.dim_args = array<i64: 1, 2>},
                    %n0: index, %n1: index, %peer: index, %lo: index,
                    %hi: index) {
  dist.isend %a elements "[lo, hi] -> { A[i, j] : i = hi - 1 and 0 <= j < 8 and hi > lo }" (%lo, %hi) to %peer tag 1 : memref<?x?xf32>
  dist.irecv %a elements "[lo, hi] -> { A[i, j] : i = lo - 1 and 0 <= j < 8 and hi > lo }" (%lo, %hi) from %peer tag 1 : memref<?x?xf32>
  dist.isend %a elements "[lo, hi] -> { A[i, j] : i = hi - 1 and 0 <= j < 8 and hi > lo }" (%lo, %hi) to %peer tag 1 : memref<?x?xf32>
  dist.wait_all
  return
}

// Rank-local storage: the linear index of its first element from `origin`
// and the static extent (row-major: o0 * 16 + o1).
// CHECK-LABEL: func.func @local_storage
// CHECK-SAME: (%[[A:[^:]*]]: memref<?x16xf64>, %[[O0:[^:]*]]: index, %[[O1:[^:]*]]: index, %[[P:[^:]*]]: index)
// CHECK-DAG: %[[O0C:.*]] = builtin.unrealized_conversion_cast %[[O0]] : index to i64
// CHECK-DAG: %[[O1C:.*]] = builtin.unrealized_conversion_cast %[[O1]] : index to i64
// CHECK-DAG: %[[E:.*]] = "emitc.constant"() <{value = 16 : i64}>
// CHECK: %[[M:.*]] = emitc.mul %[[O0C]], %[[E]] : (i64, i64) -> i64
// CHECK: %[[FIRST:.*]] = emitc.add %[[M]], %[[O1C]] : (i64, i64) -> i64
// CHECK: %[[V:.*]] = emitc.call_opaque "weft_rt_values"(%[[FIRST]], %[[E]], %[[O0C]])
// CHECK: emitc.call_opaque "weft_rt_irecv_elements"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[V]])
func.func @local_storage(%a: memref<?x16xf64>, %o0: index, %o1: index,
                         %p: index) {
  dist.irecv %a elements "[r] -> { A[r, j] : 0 <= j < 16 }" (%o0) origin [%o0, %o1] from %p tag 0 : memref<?x16xf64>
  return
}

// An index element travels as 8 bytes, an i8 and a C bool as 1.
// CHECK-LABEL: func.func @sizes
// CHECK-DAG: %[[S8:.*]] = "emitc.constant"() <{value = 8 : i64}>
// CHECK-DAG: %[[S1:.*]] = "emitc.constant"() <{value = 1 : i64}>
// CHECK: emitc.call_opaque "weft_rt_isend_elements"(%{{.*}}, %{{.*}}, %[[S8]],
// CHECK: emitc.call_opaque "weft_rt_isend_elements"(%{{.*}}, %{{.*}}, %[[S1]],
// CHECK: emitc.call_opaque "weft_rt_isend_elements"(%{{.*}}, %{{.*}}, %[[S1]],
func.func @sizes(%a: memref<4xindex>, %b: memref<4xi8>, %c: memref<4xi1>,
                 %peer: index) {
  dist.isend %a elements "{ A[i] : 0 <= i < 4 }" () to %peer tag 0 : memref<4xindex>
  dist.isend %b elements "{ B[i] : 0 <= i < 4 }" () to %peer tag 1 : memref<4xi8>
  dist.isend %c elements "{ C[i] : 0 <= i < 4 }" () to %peer tag 2 : memref<4xi1>
  return
}
