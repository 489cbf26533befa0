// Every verifier message of If, Loop, Scan and Yield.
// RUN: prec-opt %s -split-input-file -verify-diagnostics

func.func @if_yield_count(%c: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{else_branch yields 0 values for 1 results}}
  %r = ascend.If %c {name = "/If"} : (tensor<i1>) -> tensor<4xf32> {
    ascend.Yield %x : tensor<4xf32>
  } else {
    ascend.Yield
  }
  return
}

// -----

func.func @if_yield_dtype(%c: tensor<i1>, %x: tensor<4xf16>) {
  // expected-error @+1 {{then_branch value #0 is 'tensor<4xf16>', which does not fit 'tensor<4xf32>'}}
  %r = ascend.If %c {name = "/If"} : (tensor<i1>) -> tensor<4xf32> {
    ascend.Yield %x : tensor<4xf16>
  } else {
    ascend.Yield %x : tensor<4xf16>
  }
  return
}

// -----

func.func @if_cond_elements(%c: tensor<2xi1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{expects a condition with one element, got 'tensor<2xi1>'}}
  %r = ascend.If %c {name = "/If"} : (tensor<2xi1>) -> tensor<4xf32> {
    ascend.Yield %x : tensor<4xf32>
  } else {
    ascend.Yield %x : tensor<4xf32>
  }
  return
}

// -----

func.func @loop_arguments(%x: tensor<4xf32>, %t: tensor<i1>) {
  // expected-error @+1 {{expects a body taking the iteration number, the condition and 1 loop-carried values; it takes 2 arguments}}
  %v = ascend.Loop initial(%x : tensor<4xf32>) {name = "/Loop"} -> tensor<4xf32> {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    ascend.Yield %t, %x : tensor<i1>, tensor<4xf32>
  }
  return
}

// -----

func.func @loop_iteration_type(%x: tensor<4xf32>, %t: tensor<i1>) {
  // expected-error @+1 {{expects the body's first arguments to be tensor<i64> (the iteration number) and tensor<i1> (the condition)}}
  %v = ascend.Loop initial(%x : tensor<4xf32>) {name = "/Loop"} -> tensor<4xf32> {
  ^bb0(%i: tensor<i32>, %c: tensor<i1>, %v0: tensor<4xf32>):
    ascend.Yield %t, %v0 : tensor<i1>, tensor<4xf32>
  }
  return
}

// -----

func.func @loop_condition_first(%x: tensor<4xf32>) {
  // expected-error @+1 {{expects the body to yield the condition (tensor<i1>) and 1 loop-carried values first}}
  %v = ascend.Loop initial(%x : tensor<4xf32>) {name = "/Loop"} -> tensor<4xf32> {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v0: tensor<4xf32>):
    ascend.Yield %v0 : tensor<4xf32>
  }
  return
}

// -----

func.func @loop_results(%x: tensor<4xf32>, %t: tensor<i1>) {
  // expected-error @+1 {{has 1 results; the body yields 2 values after the condition}}
  %v = ascend.Loop initial(%x : tensor<4xf32>) {name = "/Loop"} -> tensor<4xf32> {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v0: tensor<4xf32>):
    ascend.Yield %t, %v0, %v0 : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

func.func @loop_scan_rank(%x: tensor<4xf32>, %t: tensor<i1>) {
  // expected-error @+1 {{scan output #1 is 'tensor<4xf32>': expected rank 2 (its slices 'tensor<4xf32>' stacked)}}
  %v, %s = ascend.Loop initial(%x : tensor<4xf32>) {name = "/Loop"} -> tensor<4xf32>, tensor<4xf32> {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v0: tensor<4xf32>):
    ascend.Yield %t, %v0, %v0 : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

func.func @scan_axes(%s0: tensor<4xf32>, %xs: tensor<3x4xf32>) {
  // expected-error @+1 {{expects 1 entries in scan_input_axes, got 2}}
  %s, %ys = ascend.Scan initial(%s0 : tensor<4xf32>) inputs(%xs : tensor<3x4xf32>)
      {name = "/Scan", scan_input_axes = array<i64: 0, 1>} -> tensor<4xf32>, tensor<3x4xf32> {
  ^bb0(%s1: tensor<4xf32>, %x: tensor<4xf32>):
    ascend.Yield %s1, %x : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

func.func @scan_body_arguments(%s0: tensor<4xf32>, %xs: tensor<3x4xf32>) {
  // expected-error @+1 {{expects a body taking 1 state values and 1 scan slices; it takes 1 arguments}}
  %s, %ys = ascend.Scan initial(%s0 : tensor<4xf32>) inputs(%xs : tensor<3x4xf32>)
      {name = "/Scan"} -> tensor<4xf32>, tensor<3x4xf32> {
  ^bb0(%s1: tensor<4xf32>):
    ascend.Yield %s1, %s1 : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

func.func @yield_outside() {
  // expected-error @+1 {{expects parent op to be one of 'ascend.If, ascend.Loop, ascend.Scan'}}
  ascend.Yield
}
