//===- OptimizerNames.h - The names of optimizer state ----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place where the names of the variables an optimizer adds to a
// program are spelled, as Paddle spells them: openks-append-optimizer
// creates them under these names, and checkpoints check the values they
// load by them (a learning rate must be positive, a sum of squares
// non-negative). A parameter's state is named `<param><suffix>`.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_SUPPORT_OPTIMIZERNAMES_H
#define OPENKS_SUPPORT_OPTIMIZERNAMES_H

#include <string_view>

namespace openks::optimizer_names {

/// The learning rate, a frozen scalar.
inline constexpr std::string_view kLearningRate = "learning_rate";
/// The step counter of a learning-rate schedule.
inline constexpr std::string_view kStepCounter = "@LR_DECAY_COUNTER@";

/// Momentum's velocity.
inline constexpr std::string_view kVelocitySuffix = ".velocity";
/// Adam's first and second moments and Adam's and Adamax's beta powers.
inline constexpr std::string_view kMoment1Suffix = ".moment1";
inline constexpr std::string_view kMoment2Suffix = ".moment2";
inline constexpr std::string_view kBeta1PowSuffix = ".beta1_pow";
inline constexpr std::string_view kBeta2PowSuffix = ".beta2_pow";
/// The moment of Adagrad, decayed Adagrad, RMSProp and Adamax: a sum of
/// squares for the first two, signed for the others.
inline constexpr std::string_view kMomentSuffix = ".moment";
/// RMSProp's mean square and, centered, mean gradient.
inline constexpr std::string_view kMeanSquareSuffix = ".mean_square";
inline constexpr std::string_view kMeanGradSuffix = ".mean_grad";
/// FTRL's squared gradients and linear term.
inline constexpr std::string_view kSquaredSuffix = ".squared";
inline constexpr std::string_view kLinearSuffix = ".linear";
/// Adamax's infinity norm.
inline constexpr std::string_view kInfNormSuffix = ".inf_norm";

} // namespace openks::optimizer_names

#endif // OPENKS_SUPPORT_OPTIMIZERNAMES_H
