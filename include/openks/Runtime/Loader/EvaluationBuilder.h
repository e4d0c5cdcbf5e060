//===- EvaluationBuilder.h - Evaluation plans of a step ---------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Derives what Evaluator.h runs from a training step: its forward pass
// without the backward pass and the optimizer (no parameter is written, and
// dropout keeps every element, as Paddle's is_test), fetching the loss and
// what the loss says the model predicts; for a margin loss over triple
// distances, also the distance of any (head, relation, tail).
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_LOADER_EVALUATIONBUILDER_H
#define OPENKS_RUNTIME_LOADER_EVALUATIONBUILDER_H

#include "openks/Runtime/Evaluator.h"
#include "openks/Runtime/Loader/PlanBuilder.h"

namespace openks::runtime {

/// Builds the evaluation model of `step`, a train.step of a train.program
/// (forward-only or minimized), against `store`, built from that program.
/// The forward plan takes `options.maxBatch` rows; the distance plan of a
/// link predictor takes `distanceBatch`. The task follows from the op that
/// the step's loss reduces (by mean, sum or scale): softmax_cross_entropy
/// and sigmoid_cross_entropy with labels fed as a step argument, and
/// margin_loss whose positive distance depends only on the first three
/// arguments (heads, relations and tails, as triples data feeds them) with
/// the heads looked up in an entity table; any other loss is evaluated as a
/// loss only. The step is left as it was; errors are reported on it.
mlir::FailureOr<EvaluationModel>
buildEvaluationModel(mlir::Operation *step, const ParameterStore &store,
                     const PlanOptions &options, int64_t distanceBatch);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_LOADER_EVALUATIONBUILDER_H
