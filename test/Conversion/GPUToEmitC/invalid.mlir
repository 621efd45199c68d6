// RUN: weft-opt %s --convert-gpu-to-emitc -split-input-file -verify-diagnostics

// Copies are between a host array and its device buffer.
func.func @host_to_host(%a: memref<8xf64>, %b: memref<8xf64>) {
  %x = memref.subview %a[0] [8] [1] : memref<8xf64> to memref<8xf64, strided<[1]>>
  %y = memref.subview %b[0] [8] [1] : memref<8xf64> to memref<8xf64, strided<[1]>>
  // expected-error @below {{must copy one box between a host array and its device buffer}}
  gpu.memcpy %x, %y : memref<8xf64, strided<[1]>>, memref<8xf64, strided<[1]>>
  return
}

// -----

func.func @not_a_box(%a: memref<8xf64>) {
  %d = gpu.alloc () : memref<8xf64>
  // expected-error @below {{copies something other than boxes of arrays}}
  gpu.memcpy %d, %a : memref<8xf64>, memref<8xf64>
  return
}

// -----

module attributes {gpu.container_module} {
  func.func @shared_memory(%n: index) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : i32
    // expected-error @below {{must be a synchronous launch without dynamic shared memory or clusters}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c0 args(%n : index)
    return
  }
  gpu.module @k {
    gpu.func @k(%n: index) kernel {
      gpu.return
    }
  }
}

// -----

// Only `down` shuffles (gpu-reduce-blocks') are lowered, and CUDA's have no
// `valid` flag.
module attributes {gpu.container_module} {
  func.func @shuffle(%x: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : f32)
    return
  }
  gpu.module @k {
    gpu.func @k(%x: f32) kernel {
      %o = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      // expected-error @below {{cannot be lowered to CUDA C++: only `down` shuffles whose valid flag is unused}}
      %r, %ok = gpu.shuffle xor %x, %o, %w : f32
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @shuffle_valid(%x: f32, %p: memref<i1>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : f32, %p : memref<i1>)
    return
  }
  gpu.module @k {
    gpu.func @k(%x: f32, %p: memref<i1>) kernel {
      %o = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      // expected-error @below {{cannot be lowered to CUDA C++: only `down` shuffles whose valid flag is unused}}
      %r, %ok = gpu.shuffle down %x, %o, %w : f32
      memref.store %ok, %p[] : memref<i1>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @attributions() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @k {
    // expected-error @below {{has private memory attributions, which cannot be lowered to CUDA C++ yet}}
    gpu.func @k() private(%own : memref<4xf32, #gpu.address_space<private>>) kernel {
      gpu.return
    }
  }
}

// -----

func.func @rank4(%a: memref<2x2x2x2xf64>) {
  %d = gpu.alloc () : memref<2x2x2x2xf64>
  %h = memref.subview %a[0, 0, 0, 0] [2, 2, 2, 2] [1, 1, 1, 1] : memref<2x2x2x2xf64> to memref<2x2x2x2xf64, strided<[8, 4, 2, 1]>>
  %b = memref.subview %d[0, 0, 0, 0] [2, 2, 2, 2] [1, 1, 1, 1] : memref<2x2x2x2xf64> to memref<2x2x2x2xf64, strided<[8, 4, 2, 1]>>
  // expected-error @below {{copies a box of rank 4 (at most 3)}}
  gpu.memcpy %b, %h : memref<2x2x2x2xf64, strided<[8, 4, 2, 1]>>, memref<2x2x2x2xf64, strided<[8, 4, 2, 1]>>
  return
}

// -----

// Only a block's uniform `or` of an i1 (gpu-stage-tiles' vote) is lowered:
// __syncthreads_or.
module attributes {gpu.container_module} {
  func.func @sum(%x: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : i32)
    return
  }
  gpu.module @k {
    gpu.func @k(%x: i32) kernel {
      // expected-error @below {{cannot be lowered to CUDA C++: only a uniform `or` of an i1}}
      %r = gpu.all_reduce add %x uniform {} : (i32) -> (i32)
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @not_uniform(%x: i1) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : i1)
    return
  }
  gpu.module @k {
    gpu.func @k(%x: i1) kernel {
      // expected-error @below {{cannot be lowered to CUDA C++: only a uniform `or` of an i1}}
      %r = gpu.all_reduce or %x {} : (i1) -> (i1)
      gpu.return
    }
  }
}
