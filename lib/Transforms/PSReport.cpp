//===- PSReport.cpp - How parameters are spread over the servers ----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/PS/IR/PSNaming.h"
#include "openks/Support/Limits.h"
#include "openks/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace openks {
#define GEN_PASS_DEF_PSREPORTPASS
#include "openks/Transforms/Passes.h.inc"
} // namespace openks

using namespace mlir;
using namespace openks;

/// Returns the bytes a block's tensor holds; the verifier bounds the
/// element count (openks/Support/Limits.h), so the product cannot overflow.
static int64_t getByteSize(ps::BlockOp block) {
  RankedTensorType type = block.getParameterType();
  return type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
}

/// Prints one line per block of `server`: its rows of the origin, its bytes
/// and the message its update region receives, under Paddle's names.
static void printBlocks(llvm::raw_ostream &os, ps::ServerOp server) {
  llvm::DenseMap<Attribute, ps::UpdateOp> updates;
  for (ps::UpdateOp update : server.getBody().getOps<ps::UpdateOp>())
    updates[update.getBlockAttr().getAttr()] = update;
  for (ps::BlockOp block : server.getBody().getOps<ps::BlockOp>()) {
    os << "  @" << server.getSymName() << "  " << block.getSymName();
    if (block.isSlice()) {
      auto [begin, end] = block.getRows();
      os << "  rows [" << begin << ", " << end << ") of "
         << block.getOriginName();
    }
    os << "  " << getByteSize(block) << " bytes";
    if (ps::UpdateOp update = updates.lookup(block.getSymNameAttr()))
      os << "  on " << ps::getMessageName(block.getSymName(), update.getKind());
    else
      os << "  frozen";
    os << "\n";
  }
}

namespace {

struct PSReportPass : public openks::impl::PSReportPassBase<PSReportPass> {
  using PSReportPassBase::PSReportPassBase;

  void runOnOperation() override {
    markAllAnalysesPreserved();
    std::unique_ptr<llvm::ToolOutputFile> file;
    if (!outputFile.empty()) {
      std::string error;
      file = openOutputFile(outputFile, &error);
      if (!file) {
        getOperation().emitError("openks-ps-report: ") << error;
        return signalPassFailure();
      }
      file->keep();
    }
    llvm::raw_ostream &os = file ? file->os() : llvm::errs();
    report(os);
  }

  /// Writes the report of the module to `os`.
  void report(llvm::raw_ostream &os) {
    SmallVector<ps::ServerOp> servers(getOperation().getOps<ps::ServerOp>());
    if (servers.empty()) {
      os << "no ps.server in the module\n";
      return;
    }
    os << "server  endpoint  blocks  bytes\n";
    double total = 0;
    int64_t largest = 0;
    for (ps::ServerOp server : servers) {
      int64_t blocks = 0, bytes = 0;
      for (ps::BlockOp block : server.getBody().getOps<ps::BlockOp>()) {
        ++blocks;
        std::optional<int64_t> sum = checkedAdd(bytes, getByteSize(block));
        if (!sum) {
          block.emitOpError("brings the bytes of server @")
              << server.getSymName() << " past 2^63";
          return signalPassFailure();
        }
        bytes = *sum;
      }
      os << "@" << server.getSymName() << "  " << server.getEndpoint() << "  "
         << blocks << "  " << bytes << "\n";
      total += static_cast<double>(bytes);
      largest = std::max(largest, bytes);
    }
    double mean = total / static_cast<double>(servers.size());
    os << "imbalance (max / mean): "
       << llvm::format("%.3f", mean > 0 ? largest / mean : 1.0) << "\n";
    if (listBlocks)
      for (ps::ServerOp server : servers)
        printBlocks(os, server);
  }
};

} // namespace
