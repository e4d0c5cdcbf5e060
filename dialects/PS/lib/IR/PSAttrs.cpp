//===- PSAttrs.cpp - Parameter-server dialect attributes ------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The job attribute, and the checks of the discardable attributes the
// transpile passes leave on parameters.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/PS/IR/PSDialect.h"
#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/Support/Endpoint.h"
#include "openks/Support/Limits.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace openks;
using namespace openks::ps;

LogicalResult JobAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              Mode, int64_t trainers, ArrayAttr endpoints,
                              BoolAttr, SplitMethod, int64_t minBlockSize,
                              int64_t geoPushSteps) {
  if (trainers < 1)
    return emitError() << "a job needs at least one trainer, got " << trainers;
  std::vector<std::string> names;
  for (Attribute endpoint : endpoints) {
    auto name = dyn_cast<StringAttr>(endpoint);
    if (!name)
      return emitError() << "server endpoints must be strings, got "
                         << endpoint;
    names.push_back(name.str());
  }
  if (auto canonical = canonicalEndpointList(names, "server endpoints");
      !canonical)
    return emitError() << canonical.status().message();
  if (minBlockSize < 1)
    return emitError() << "min_block_size must be at least 1, got "
                       << minBlockSize;
  if (geoPushSteps < 1)
    return emitError() << "geo_push_steps must be at least 1, got "
                       << geoPushSteps;
  return success();
}

std::vector<std::string> JobAttr::getEndpointNames() const {
  std::vector<std::string> names;
  for (Attribute endpoint : getEndpoints())
    names.push_back(cast<StringAttr>(endpoint).str());
  return names;
}

/// Checks `ps.slices` on a parameter: positive row counts that add up to its
/// rows.
static LogicalResult verifySlices(Operation *op, Attribute attribute) {
  auto slices = dyn_cast<DenseI64ArrayAttr>(attribute);
  auto param = dyn_cast<train::ParamOp>(op);
  if (!slices || !param)
    return op->emitError("'")
           << PSDialect::kSlicesAttrName
           << "' must be an array<i64> of rows on a 'train.param'";
  // Discardable attributes are checked before the op's own attributes.
  TypeAttr typeAttr = param.getTypeAttr();
  auto type = typeAttr ? dyn_cast<RankedTensorType>(typeAttr.getValue())
                       : RankedTensorType();
  if (!type || !type.hasStaticShape())
    return op->emitError("'") << PSDialect::kSlicesAttrName
                              << "' needs a parameter of static tensor type";
  int64_t rows = type.getRank() == 0 ? 1 : type.getDimSize(0);
  int64_t total = 0;
  for (int64_t slice : slices.asArrayRef()) {
    std::optional<int64_t> sum = checkedAdd(total, slice);
    if (slice < 1 || !sum)
      return op->emitError("'") << PSDialect::kSlicesAttrName
                                << "' has a block of " << slice << " rows";
    total = *sum;
  }
  if (slices.empty() || total != rows)
    return op->emitError("'") << PSDialect::kSlicesAttrName << "' covers "
                              << total << " rows of a parameter with " << rows;
  return success();
}

/// Checks `ps.placement`: one server index of the module's job per block of
/// `ps.slices`, no server twice.
static LogicalResult verifyPlacement(Operation *op, Attribute attribute) {
  auto placement = dyn_cast<DenseI64ArrayAttr>(attribute);
  auto slices =
      op->getAttrOfType<DenseI64ArrayAttr>(PSDialect::kSlicesAttrName);
  if (!placement || !slices || placement.size() != slices.size())
    return op->emitError("'")
           << PSDialect::kPlacementAttrName
           << "' must be an array<i64> with one server index per block of '"
           << PSDialect::kSlicesAttrName << "'";
  auto module = op->getParentOfType<ModuleOp>();
  auto job =
      module ? module->getAttrOfType<JobAttr>(JobAttr::kAttrName) : JobAttr();
  if (!job)
    return op->emitError("'") << PSDialect::kPlacementAttrName
                              << "' indexes the servers of the module's '"
                              << JobAttr::kAttrName << "', which is missing";
  int64_t numServers = static_cast<int64_t>(job.getEndpoints().size());
  llvm::SmallDenseSet<int64_t> used;
  for (int64_t server : placement.asArrayRef()) {
    if (server < 0 || server >= numServers)
      return op->emitError("'")
             << PSDialect::kPlacementAttrName << "' names server " << server
             << ", but the job has " << numServers;
    if (!used.insert(server).second)
      return op->emitError("'") << PSDialect::kPlacementAttrName
                                << "' puts two blocks on server " << server;
  }
  return success();
}

LogicalResult PSDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (name == JobAttr::kAttrName) {
    if (!isa<ModuleOp>(op) || !isa<JobAttr>(attribute.getValue()))
      return op->emitError("'")
             << JobAttr::kAttrName << "' must be a #ps.job on a module";
    return success();
  }
  if (name == kSlicesAttrName)
    return verifySlices(op, attribute.getValue());
  if (name == kPlacementAttrName)
    return verifyPlacement(op, attribute.getValue());
  return op->emitError("unknown ps dialect attribute '") << name << "'";
}

#define GET_ATTRDEF_CLASSES
#include "openks/Dialect/PS/IR/PSAttrs.cpp.inc"

void PSDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "openks/Dialect/PS/IR/PSAttrs.cpp.inc"
      >();
}
