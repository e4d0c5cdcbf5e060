//===- PSReport.cpp - How parameters are spread over the servers ----------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace openks {
#define GEN_PASS_DEF_PSREPORTPASS
#include "openks/Transforms/Passes.h.inc"
} // namespace openks

using namespace mlir;
using namespace openks;

namespace {

struct PSReportPass : public openks::impl::PSReportPassBase<PSReportPass> {
  void runOnOperation() override {
    struct Row {
      std::string server, endpoint;
      int64_t blocks = 0, bytes = 0;
    };
    SmallVector<Row> rows;
    getOperation().walk([&](ps::ServerOp server) {
      Row &row = rows.emplace_back();
      row.server = ("@" + server.getSymName()).str();
      row.endpoint = server.getEndpoint().str();
      for (ps::BlockOp block : server.getBody().getOps<ps::BlockOp>()) {
        RankedTensorType type = block.getParameterType();
        ++row.blocks;
        row.bytes += type.getNumElements() *
                     ((type.getElementTypeBitWidth() + 7) / 8);
      }
    });
    llvm::raw_ostream &os = llvm::outs();
    if (rows.empty()) {
      os << "no ps.server in the module\n";
      markAllAnalysesPreserved();
      return;
    }
    os << "server  endpoint  blocks  bytes\n";
    int64_t total = 0, largest = 0;
    for (const Row &row : rows) {
      os << row.server << "  " << row.endpoint << "  " << row.blocks << "  "
         << row.bytes << "\n";
      total += row.bytes;
      largest = std::max(largest, row.bytes);
    }
    double mean = static_cast<double>(total) / rows.size();
    os << "imbalance (max / mean): "
       << llvm::format("%.3f", mean > 0 ? largest / mean : 1.0) << "\n";
    markAllAnalysesPreserved();
  }
};

} // namespace
