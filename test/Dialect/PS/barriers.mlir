// Round-trip tests of ps.send_barrier and ps.fetch_barrier.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// CHECK-LABEL: train.step @barriers
// CHECK: ps.send_barrier ["127.0.0.1:6170", "127.0.0.1:6171"]
// CHECK: ps.fetch_barrier ["127.0.0.1:6170"]
train.program @p {
  train.step @barriers() {
    ps.send_barrier ["127.0.0.1:6170", "127.0.0.1:6171"]
    ps.fetch_barrier ["127.0.0.1:6170"]
    train.yield
  }
}
