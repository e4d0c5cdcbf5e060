// Round-trip tests of the element-wise math, the norms, the cosine
// similarity and their grad ops.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --verify-roundtrip > /dev/null

// Tests that sub and div broadcast a bias like add, and their grad ops.
// CHECK-LABEL: train.step @sub_div
// CHECK: train.sub %{{.*}}, %{{.*}} : (tensor<?x16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
// CHECK: train.div %{{.*}}, %{{.*}} : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
// CHECK: train.sub_grad %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x16xf32>, tensor<16xf32>, tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<16xf32>)
// CHECK: train.div_grad %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>)
train.program @p {
  train.step @sub_div(%x: tensor<?x16xf32>, %b: tensor<16xf32>, %d: tensor<?x16xf32>) {
    %s = train.sub %x, %b : (tensor<?x16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
    %q = train.div %x, %s : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
    %dx, %db = train.sub_grad %x, %b, %d
        : (tensor<?x16xf32>, tensor<16xf32>, tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<16xf32>)
    %ex, %es = train.div_grad %x, %s, %d
        : (tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>)
    train.yield
  }
}

// -----

// Tests the unary ops and their grad ops: sqrt and exp take the forward
// result, the others the input.
// CHECK-LABEL: train.step @unary
// CHECK: %[[ABS:.*]] = train.abs %[[X:.*]] : tensor<?x8xf64>
// CHECK: train.square %[[X]] : tensor<?x8xf64>
// CHECK: %[[SQRT:.*]] = train.sqrt %[[ABS]] : tensor<?x8xf64>
// CHECK: %[[EXP:.*]] = train.exp %[[X]] : tensor<?x8xf64>
// CHECK: train.log %[[EXP]] : tensor<?x8xf64>
// CHECK: train.softsign %[[X]] : tensor<?x8xf64>
// CHECK: train.abs_grad %[[X]], %{{.*}} : tensor<?x8xf64>
// CHECK: train.square_grad %[[X]], %{{.*}} : tensor<?x8xf64>
// CHECK: train.sqrt_grad %[[SQRT]], %{{.*}} : tensor<?x8xf64>
// CHECK: train.exp_grad %[[EXP]], %{{.*}} : tensor<?x8xf64>
// CHECK: train.log_grad %[[EXP]], %{{.*}} : tensor<?x8xf64>
// CHECK: train.softsign_grad %[[X]], %{{.*}} : tensor<?x8xf64>
train.program @p {
  train.step @unary(%x: tensor<?x8xf64>, %d: tensor<?x8xf64>) {
    %a = train.abs %x : tensor<?x8xf64>
    %s = train.square %x : tensor<?x8xf64>
    %r = train.sqrt %a : tensor<?x8xf64>
    %e = train.exp %x : tensor<?x8xf64>
    %l = train.log %e : tensor<?x8xf64>
    %t = train.softsign %x : tensor<?x8xf64>
    %da = train.abs_grad %x, %d : tensor<?x8xf64>
    %ds = train.square_grad %x, %d : tensor<?x8xf64>
    %dr = train.sqrt_grad %r, %d : tensor<?x8xf64>
    %de = train.exp_grad %e, %d : tensor<?x8xf64>
    %dl = train.log_grad %e, %d : tensor<?x8xf64>
    %dt = train.softsign_grad %x, %d : tensor<?x8xf64>
    train.yield
  }
}

// -----

// Tests norms that drop or keep their axis, the default and an explicit
// epsilon, and the grad op.
// CHECK-LABEL: train.step @norms
// CHECK: %[[L2:.*]] = train.p_norm %{{.*}} p 2 axis 1 : (tensor<?x16xf32>) -> tensor<?xf32>
// CHECK: train.p_norm %{{.*}} p 1 axis 0 keep_dims {epsilon = 0.000000e+00 : f64} : (tensor<?x16xf32>) -> tensor<1x16xf32>
// CHECK: train.p_norm_grad %{{.*}}, %[[L2]], %{{.*}} p 2 axis 1 : (tensor<?x16xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x16xf32>
train.program @p {
  train.step @norms(%x: tensor<?x16xf32>, %d: tensor<?xf32>) {
    %n = train.p_norm %x p 2 axis 1 : (tensor<?x16xf32>) -> tensor<?xf32>
    %m = train.p_norm %x p 1 axis 0 keep_dims {epsilon = 0.0 : f64}
        : (tensor<?x16xf32>) -> tensor<1x16xf32>
    %dx = train.p_norm_grad %x, %n, %d p 2 axis 1
        : (tensor<?x16xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x16xf32>
    train.yield
  }
}

// -----

// Tests row-wise and broadcast cosines, a static row count taken from y,
// and the grad op.
// CHECK-LABEL: train.step @cosines
// CHECK: train.cos_sim %{{.*}}, %{{.*}} : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x1xf32>
// CHECK: train.cos_sim %{{.*}}, %{{.*}} : (tensor<?x16xf32>, tensor<1x16xf32>) -> tensor<?x1xf32>
// CHECK: train.cos_sim %{{.*}}, %{{.*}} : (tensor<?x16xf32>, tensor<4x16xf32>) -> tensor<4x1xf32>
// CHECK: train.cos_sim_grad %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x16xf32>, tensor<1x16xf32>, tensor<?x1xf32>) -> (tensor<?x16xf32>, tensor<1x16xf32>)
train.program @p {
  train.step @cosines(%x: tensor<?x16xf32>, %y: tensor<?x16xf32>, %one: tensor<1x16xf32>, %four: tensor<4x16xf32>, %d: tensor<?x1xf32>) {
    %a = train.cos_sim %x, %y : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x1xf32>
    %b = train.cos_sim %x, %one : (tensor<?x16xf32>, tensor<1x16xf32>) -> tensor<?x1xf32>
    %c = train.cos_sim %x, %four : (tensor<?x16xf32>, tensor<4x16xf32>) -> tensor<4x1xf32>
    %dx, %done = train.cos_sim_grad %x, %one, %d
        : (tensor<?x16xf32>, tensor<1x16xf32>, tensor<?x1xf32>) -> (tensor<?x16xf32>, tensor<1x16xf32>)
    train.yield
  }
}
