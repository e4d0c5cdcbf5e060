//===- OptimizerLowering.cpp - Plan calls of the optimizer kernels --------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every optimizer op becomes one call of its kernel (Kernels.h) that updates
// the parameter and its state in place. The parameter and the state are
// resolved through OptimizerOpInterface, in the order the op lists them:
// the parameter, its element-wise state, its rank-0 state.
//
//===----------------------------------------------------------------------===//

#include "PlanLowering.h"

#include "openks/Runtime/Kernels.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::loader;

LogicalResult PlanLowering::lowerOptimizer(train::OptimizerOpInterface op) {
  SmallVector<FlatSymbolRefAttr> names = {op.getParamAttr()};
  llvm::append_range(names, op.getElementwiseState());
  llvm::append_range(names, op.getScalarState());
  SmallVector<ParamOut> state;
  for (FlatSymbolRefAttr name : names) {
    FailureOr<ParamOut> parameter = update(op, name);
    if (failed(parameter))
      return failure();
    state.push_back(*parameter);
  }
  GradIn grad = gradient(op.getGrad());
  In lr = in(op.getLr());
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](train::SgdOp) {
        return call(op, kernels::sgd, state[0], grad, lr);
      })
      .Case([&](train::MomentumOp o) {
        return call(op, kernels::momentum, state[0], state[1], grad, lr,
                    o.getMu().convertToDouble(), o.getNesterov());
      })
      .Case([&](train::AdamOp o) {
        return call(op, kernels::adam, state[0], state[1], state[2], state[3],
                    state[4], grad, lr, o.getBeta1().convertToDouble(),
                    o.getBeta2().convertToDouble(),
                    o.getEpsilon().convertToDouble());
      })
      .Case([&](train::AdagradOp o) {
        return call(op, kernels::adagrad, state[0], state[1], grad, lr,
                    o.getEpsilon().convertToDouble());
      })
      .Case([&](train::RmspropOp o) {
        double decay = o.getDecay().convertToDouble();
        double epsilon = o.getEpsilon().convertToDouble();
        double momentum = o.getMomentum().convertToDouble();
        if (o.getMeanGrad())
          return call(op, kernels::centeredRmsprop, state[0], state[1],
                      state[2], state[3], grad, lr, decay, epsilon, momentum);
        return call(op, kernels::rmsprop, state[0], state[1], state[2], grad,
                    lr, decay, epsilon, momentum);
      })
      .Case([&](train::DecayedAdagradOp o) {
        return call(op, kernels::decayedAdagrad, state[0], state[1], grad, lr,
                    o.getDecay().convertToDouble(),
                    o.getEpsilon().convertToDouble());
      })
      .Case([&](train::FtrlOp o) {
        return call(op, kernels::ftrl, state[0], state[1], state[2], grad, lr,
                    o.getL1().convertToDouble(), o.getL2().convertToDouble(),
                    o.getLrPower().convertToDouble());
      })
      .Case([&](train::AdamaxOp o) {
        return call(op, kernels::adamax, state[0], state[1], state[2], state[3],
                    grad, lr, o.getBeta1().convertToDouble(),
                    o.getBeta2().convertToDouble(),
                    o.getEpsilon().convertToDouble());
      })
      .Default([&](Operation *other) {
        return other->emitOpError(
            "cannot be run: the runtime has no kernel for it");
      });
}
