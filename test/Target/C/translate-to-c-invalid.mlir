// RUN: weft-translate --emit-c %s --split-input-file --verify-diagnostics

// What weft's C printer cannot print is an error at the op, not a crash,
// and nothing is written.

emitc.func @not_emitc() {
  // expected-error @+1 {{'arith.constant' op cannot be printed as C}}
  %0 = arith.constant 0 : i32
  emitc.return
}

// -----

// expected-error @+1 {{'func.func' op cannot be printed as C}}
func.func @not_emitc_either() {
  return
}

// -----

emitc.func @half(%x: f16) {
  // expected-error @-1 {{cannot print type 'f16' as C}}
  emitc.return
}

// -----

emitc.func @infinity(%p: !emitc.ptr<f64>) {
  %c0 = "emitc.constant"() <{value = 0 : i64}> : () -> i64
  // expected-error @+1 {{cannot print 0x7FF0000000000000 : f64 as a C literal (no header is assumed)}}
  %inf = "emitc.constant"() <{value = 0x7FF0000000000000 : f64}> : () -> f64
  %s = emitc.subscript %p[%c0] : (!emitc.ptr<f64>, i64) -> f64
  emitc.assign %inf : f64 to %s : f64
  emitc.return
}

// -----

// A variably modified parameter's extent must be an earlier parameter.
// expected-error @+1 {{'emitc.func' op the extent of argument 0 must be an earlier argument}}
emitc.func @late_extent(%A: !emitc.opaque<"double (*)[*]"> {weft.dim_args = array<i64: -1, 1>}, %n: i64) {
  emitc.return
}

// -----

// expected-error @+1 {{'emitc.func' op has more than one block, which weft's C printer does not print}}
emitc.func @branches(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb1
^bb1:
  emitc.return
}
