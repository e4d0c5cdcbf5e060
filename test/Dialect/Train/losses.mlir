// Round-trip tests of the losses and their grad ops.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// CHECK-LABEL: train.step @softmax_ce
// CHECK: train.softmax_cross_entropy %{{.*}}, %{{.*}} : (tensor<?x10xf32>, tensor<?xi64>) -> tensor<?xf32>
// CHECK: train.softmax_cross_entropy_grad %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x10xf32>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x10xf32>
train.program @p {
  train.step @softmax_ce(%logits: tensor<?x10xf32>, %y: tensor<?xi64>, %d: tensor<?xf32>) {
    %l = train.softmax_cross_entropy %logits, %y : (tensor<?x10xf32>, tensor<?xi64>) -> tensor<?xf32>
    %dl = train.softmax_cross_entropy_grad %logits, %y, %d
        : (tensor<?x10xf32>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x10xf32>
    train.yield
  }
}

// -----

// CHECK-LABEL: train.step @sigmoid_ce
// CHECK: train.sigmoid_cross_entropy %{{.*}}, %{{.*}} : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
// CHECK: train.sigmoid_cross_entropy_grad %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
train.program @p {
  train.step @sigmoid_ce(%logit: tensor<?x1xf32>, %click: tensor<?x1xf32>, %d: tensor<?x1xf32>) {
    %l = train.sigmoid_cross_entropy %logit, %click : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    %dl = train.sigmoid_cross_entropy_grad %logit, %click, %d
        : (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    train.yield
  }
}

// -----

// Tests the squared error and the margin ranking loss, and their grad ops.
// CHECK-LABEL: train.step @regression_and_ranking
// CHECK: train.square_error %{{.*}}, %{{.*}} : tensor<?x1xf32>
// CHECK: train.square_error_grad %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x1xf32>
// CHECK: train.margin_loss %{{.*}}, %{{.*}} margin 1.000000e+00 : tensor<?xf32>
// CHECK: train.margin_loss_grad %{{.*}}, %{{.*}}, %{{.*}} margin 1.000000e+00 : tensor<?xf32>
train.program @p {
  train.step @regression_and_ranking(%pred: tensor<?x1xf32>, %target: tensor<?x1xf32>, %de: tensor<?x1xf32>,
                                     %pos: tensor<?xf32>, %neg: tensor<?xf32>, %dl: tensor<?xf32>) {
    %e = train.square_error %pred, %target : tensor<?x1xf32>
    %dp, %dt = train.square_error_grad %pred, %target, %de : tensor<?x1xf32>
    %l = train.margin_loss %pos, %neg margin 1.0 : tensor<?xf32>
    %dpos, %dneg = train.margin_loss_grad %pos, %neg, %dl margin 1.0 : tensor<?xf32>
    train.yield
  }
}
