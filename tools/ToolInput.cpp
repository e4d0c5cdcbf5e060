//===- ToolInput.cpp - The input and --threads of running tools -----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ToolInput.h"

#include "openks/Runtime/ComputeThreads.h"
#include "openks/Support/InputGuard.h"

#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cassert>
#include <optional>

using namespace mlir;
using namespace openks;

namespace cl = llvm::cl;

StatusOr<OwningOpRef<ModuleOp>>
tools::loadBoundedModule(const std::string &path, uint64_t maxBytes,
                         MLIRContext &context, llvm::SourceMgr &sourceMgr) {
  StatusOr<std::string> text = readBoundedInput(path, maxBytes);
  if (!text)
    return text.status();
  if (Status nesting = checkNestingDepth(*text, kMaxNestingDepth);
      !nesting.isOk())
    return nesting.withContext(path);
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(*text, path), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return Status::invalidArgument("cannot load {}", path);
  return module;
}

/// --threads, made by registerThreadsOption.
static std::optional<cl::opt<int>> threadsOption;

/// The most threads --threads takes: far more than any machine's cores, so
/// that a typo does not start thousands of threads.
static constexpr int kMaxThreads = 1024;

void tools::registerThreadsOption(llvm::StringRef description,
                                  cl::OptionCategory &category) {
  assert(!threadsOption && "--threads is registered once");
  if (cl::Option *ltoThreads = cl::getRegisteredOptions().lookup("threads"))
    ltoThreads->removeArgument();
  threadsOption.emplace("threads", cl::desc(description), cl::init(0),
                        cl::cat(category));
}

Status tools::checkThreadsOption() {
  assert(threadsOption && "--threads is not registered");
  int threads = threadsOption->getValue();
  if (!threadsOption->getNumOccurrences() ||
      (threads >= 1 && threads <= kMaxThreads))
    return Status::ok();
  return Status::invalidArgument("--threads must be between 1 and {}, got {}",
                                 kMaxThreads, threads);
}

void tools::applyThreadsOption() {
  assert(threadsOption && "--threads is not registered");
  if (threadsOption->getNumOccurrences())
    runtime::setComputeThreads(threadsOption->getValue());
}
