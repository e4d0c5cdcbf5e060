//===- PSNaming.cpp - Paddle's names for blocks and messages --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/PS/IR/PSNaming.h"

#include "llvm/ADT/Twine.h"

using namespace openks;
using namespace openks::ps;

std::string ps::getBlockName(llvm::StringRef var, int64_t index,
                             int64_t numBlocks) {
  if (numBlocks == 1)
    return var.str();
  return (var + ".block" + llvm::Twine(index)).str();
}

std::string ps::getMessageName(llvm::StringRef block, MessageKind kind) {
  switch (kind) {
  case MessageKind::Grad:
    return (block + "@GRAD").str();
  case MessageKind::Delta:
    return (block + ".delta").str();
  case MessageKind::Param:
    return block.str();
  }
  llvm_unreachable("unknown message kind");
}

llvm::StringRef ps::describeMessageKind(MessageKind kind) {
  switch (kind) {
  case MessageKind::Grad:
    return "gradient";
  case MessageKind::Delta:
    return "delta";
  case MessageKind::Param:
    return "parameter";
  }
  llvm_unreachable("unknown message kind");
}

std::string ps::getPerBlockStateName(llvm::StringRef state,
                                     llvm::StringRef block) {
  return (state + "." + block).str();
}

std::string ps::getParamNormName(llvm::StringRef var) {
  return (var + "@NORM").str();
}

std::string ps::getGeoCopyName(llvm::StringRef var) {
  return (var + ".geo_old").str();
}
