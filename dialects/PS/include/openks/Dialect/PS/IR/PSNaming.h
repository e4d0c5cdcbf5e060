//===- PSNaming.h - Paddle's names for blocks and messages ------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place where the names of parameter blocks and of the messages
// about them are made. They follow Paddle's DistributeTranspiler, so that
// reports and checkpoints map one to one onto a Paddle job's: a variable cut
// into several blocks has blocks `<var>.block<i>`; a gradient message is
// `<block>@GRAD`, a GEO delta `<block>.delta`, a parameter `<block>`. A
// norm that servers share is `@GLOBAL_NORM@` or `<var>@NORM`.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PS_IR_PSNAMING_H
#define OPENKS_DIALECT_PS_IR_PSNAMING_H

#include "openks/Dialect/PS/IR/PSOps.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace openks::ps {

/// Returns the name of block `index` of the `numBlocks` blocks of variable
/// `var`: `var` itself when it is one block, else `<var>.block<index>`.
std::string getBlockName(llvm::StringRef var, int64_t index, int64_t numBlocks);

/// Returns Paddle's name of a message of `kind` about `block`:
/// `<block>@GRAD`, `<block>.delta` or `<block>`.
std::string getMessageName(llvm::StringRef block, MessageKind kind);

/// Returns what a message of `kind` carries, for diagnostics: "gradient",
/// "delta" or "parameter".
llvm::StringRef describeMessageKind(MessageKind kind);

/// Returns the name of the copy of `state` that the update of `block` owns
/// alone (a learning-rate schedule's step counter): `<state>.<block>`.
std::string getPerBlockStateName(llvm::StringRef state, llvm::StringRef block);

/// The name of the norm of the gradients a global-norm clip covers, in the
/// style of Paddle's `@LR_DECAY_COUNTER@`: `@GLOBAL_NORM@`.
inline constexpr llvm::StringLiteral kGlobalNormName = "@GLOBAL_NORM@";

/// Returns the name of the norm of the gradient of `var`, a sliced
/// parameter clipped by its own norm: `<var>@NORM`.
std::string getParamNormName(llvm::StringRef var);

/// Returns the name of a GEO worker's copy of `var` as the servers last
/// sent it, which its push step keeps: `<var>.geo_old`. The copy is the
/// transpiler's, not a variable of the program.
std::string getGeoCopyName(llvm::StringRef var);

} // namespace openks::ps

#endif // OPENKS_DIALECT_PS_IR_PSNAMING_H
