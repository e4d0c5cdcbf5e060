//===- UpstreamOpLowering.cpp - Plan calls of upstream MLIR ops -----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A step may compute with upstream ops that openks-opt accepts and the
// passes keep (test/Transforms/foreign-compute.mlir): arith constants and
// element-wise float ops, math.exp/log/tanh/sqrt/absf, tensor.dim and
// tensor.empty, and the linalg named ops fill, matmul, transpose and a
// reduce whose body adds. They run on the kernels of the train ops; a
// scalar (an f32 or an index) is a rank-0 tensor, an index an i64.
//
// Anything else of theirs (a linalg.generic, a matmul with its own
// indexing maps, a reduce that does not add, an op on buffers, an element
// type the runtime has no tensors of) is refused here, naming the op at its
// location, before any step runs.
//
//===----------------------------------------------------------------------===//

#include "LoaderUtils.h"
#include "PlanLowering.h"

#include "openks/Runtime/Kernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::loader;

/// Returns whether the runtime holds values of `type`: ranked tensors and
/// scalars of f32, f64, i64 and index.
static bool isRunnableType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    type = tensor.getElementType();
  else if (isa<ShapedType>(type))
    return false;
  return type.isF32() || type.isF64() || type.isInteger(64) || type.isIndex();
}

/// Reports on `op` the first operand or result of a type the runtime has no
/// values of (a memref among them: ops on buffers end here).
static LogicalResult checkRunnableTypes(Operation *op) {
  auto check = [&](TypeRange types) -> LogicalResult {
    for (Type type : types)
      if (!isRunnableType(type))
        return op->emitOpError("cannot be run: the runtime has no values of ")
               << type;
    return success();
  };
  return failure(failed(check(op->getOperandTypes())) ||
                 failed(check(op->getResultTypes())));
}

/// Returns the tensor of an arith.constant's value, if the runtime has one.
static FailureOr<Tensor> getConstantTensor(arith::ConstantOp constant) {
  Attribute value = constant.getValue();
  Type type = constant.getType();
  FailureOr<DType> dtype = getDType(constant, type);
  if (failed(dtype))
    return failure();
  auto tensorType = dyn_cast<RankedTensorType>(type);
  Tensor tensor(*dtype, tensorType ? getShape(tensorType) : Shape{});
  auto store = [&](int64_t index, Attribute element) {
    if (auto number = dyn_cast<FloatAttr>(element)) {
      double x = number.getValueAsDouble();
      if (*dtype == DType::F32)
        tensor.data<float>()[index] = static_cast<float>(x);
      else
        tensor.data<double>()[index] = x;
    } else {
      tensor.data<int64_t>()[index] =
          cast<IntegerAttr>(element).getValue().getSExtValue();
    }
  };
  if (auto elements = dyn_cast<DenseElementsAttr>(value)) {
    int64_t index = 0;
    for (Attribute element : elements.getValues<Attribute>())
      store(index++, element);
    return tensor;
  }
  if (isa<FloatAttr, IntegerAttr>(value)) {
    store(0, value);
    return tensor;
  }
  return constant.emitOpError("cannot be run: the runtime has no constants "
                              "like ")
         << value;
}

/// Returns whether the body of `reduce` adds the input to the accumulator:
/// one arith.addf of its two arguments, yielded.
static bool isSumReduction(linalg::ReduceOp reduce) {
  Block &body = reduce.getCombiner().front();
  if (body.getNumArguments() != 2 || !llvm::hasNItems(body, 2))
    return false;
  auto add = dyn_cast<arith::AddFOp>(body.front());
  if (!add || add.getResult() != body.getTerminator()->getOperand(0))
    return false;
  Value in = body.getArgument(0), acc = body.getArgument(1);
  return (add.getLhs() == in && add.getRhs() == acc) ||
         (add.getLhs() == acc && add.getRhs() == in);
}

std::optional<LogicalResult> PlanLowering::lowerUpstreamOp(Operation *op) {
  Dialect *dialect = op->getDialect();
  if (!isa_and_nonnull<arith::ArithDialect, math::MathDialect,
                       tensor::TensorDialect, linalg::LinalgDialect>(dialect))
    return std::nullopt;
  if (failed(checkRunnableTypes(op)))
    return failure();
  auto unary = [&](auto kernel) {
    return call(op, kernel, in(op->getOperand(0)), out(op->getResult(0)));
  };
  auto binary = [&](auto kernel) {
    return call(op, kernel, in(op->getOperand(0)), in(op->getOperand(1)),
                out(op->getResult(0)));
  };
  // A linalg op's result starts from its init: result += init.
  auto addInit = [&](Out result, Value init) {
    return call(op, kernels::add, In{result.slot}, in(init), result);
  };
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](arith::ConstantOp constant) -> LogicalResult {
        FailureOr<Tensor> value = getConstantTensor(constant);
        if (failed(value))
          return failure();
        slots[constant.getResult()] =
            builder.addConstantSlot(std::move(*value));
        return success();
      })
      // Element-wise float math: operands of one type, by the verifiers.
      .Case([&](arith::AddFOp) { return binary(kernels::add); })
      .Case([&](arith::SubFOp) { return binary(kernels::sub); })
      .Case([&](arith::MulFOp) { return binary(kernels::mul); })
      .Case([&](arith::DivFOp) { return binary(kernels::div); })
      .Case([&](arith::MaximumFOp) { return binary(kernels::maximum); })
      .Case([&](arith::MinimumFOp) { return binary(kernels::minimum); })
      .Case([&](arith::NegFOp) { return unary(kernels::neg); })
      .Case([&](math::ExpOp) { return unary(kernels::exp); })
      .Case([&](math::LogOp) { return unary(kernels::log); })
      .Case([&](math::TanhOp) { return unary(kernels::tanh); })
      .Case([&](math::SqrtOp) { return unary(kernels::sqrt); })
      .Case([&](math::AbsFOp) { return unary(kernels::abs); })
      // Sizes and new tensors.
      .Case([&](tensor::DimOp dim) -> LogicalResult {
        std::optional<int64_t> index = dim.getConstantIndex();
        if (!index)
          return dim.emitOpError("cannot be run: its dimension is not a "
                                 "constant");
        return call(op, kernels::dimSize, in(dim.getSource()), *index,
                    out(dim.getResult()));
      })
      .Case([&](tensor::EmptyOp empty) {
        return call(op, kernels::zeros, getShape(empty.getType()),
                    in(empty.getDynamicSizes()), out(empty.getResult()));
      })
      // Linalg named ops on tensors (checkRunnableTypes refused memrefs).
      .Case([&](linalg::FillOp fill) {
        return call(op, kernels::fillLike, in(fill.getInputs()[0]),
                    in(fill.getOutputs()[0]), out(fill->getResult(0)));
      })
      .Case([&](linalg::MatmulOp matmul) -> LogicalResult {
        if (matmul.hasUserDefinedMaps())
          return matmul.emitOpError("cannot be run: the runtime runs it with "
                                    "the default indexing maps only");
        // result = init + A x B.
        Out result = out(matmul->getResult(0));
        if (failed(call(op, kernels::matmul, in(matmul.getInputs()[0]),
                        in(matmul.getInputs()[1]), result)))
          return failure();
        return addInit(result, matmul.getOutputs()[0]);
      })
      .Case([&](linalg::TransposeOp transpose) {
        ArrayRef<int64_t> permutation = transpose.getPermutation();
        return call(
            op, kernels::transpose, in(transpose.getInput()),
            std::vector<int64_t>(permutation.begin(), permutation.end()),
            out(transpose->getResult(0)));
      })
      .Case([&](linalg::ReduceOp reduce) -> LogicalResult {
        if (reduce->getNumResults() != 1 || !isSumReduction(reduce))
          return reduce.emitOpError(
              "cannot be run: the runtime runs a reduce of one tensor whose "
              "body is one arith.addf only");
        // result = init + the sum over the dimensions.
        Out result = out(reduce->getResult(0));
        std::vector<int64_t> dims(reduce.getDimensions().begin(),
                                  reduce.getDimensions().end());
        if (failed(call(op, kernels::reduceSum, in(reduce.getInputs()[0]), dims,
                        /*keepDims=*/false, result)))
          return failure();
        return addInit(result, reduce.getInits()[0]);
      })
      .Default([](Operation *) -> std::optional<LogicalResult> {
        return std::nullopt;
      });
}
