//===- PSAttrs.cpp - Parameter-server dialect attributes ------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// The job attribute, and the checks of the discardable attributes the
// transpile passes leave on parameters.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/PS/IR/PSDialect.h"
#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Support/Endpoint.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
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

SmallVector<StringRef> JobAttr::getEndpointNames() const {
  SmallVector<StringRef> names;
  for (Attribute endpoint : getEndpoints())
    names.push_back(cast<StringAttr>(endpoint).getValue());
  return names;
}

/// Checks `ps.slices` on a parameter: positive row counts that add up to its
/// rows.
static LogicalResult verifySlices(Operation *op, Attribute attribute) {
  auto slices = dyn_cast<DenseI64ArrayAttr>(attribute);
  auto param = dyn_cast<train::ParameterOpInterface>(op);
  if (!slices || !param)
    return op->emitError("'")
           << PSDialect::kSlicesAttrName
           << "' must be an array<i64> of rows on a parameter";
  RankedTensorType type = param.getParameterType();
  int64_t rows = type.getRank() == 0 ? 1 : type.getDimSize(0);
  int64_t total = 0;
  for (int64_t slice : slices.asArrayRef()) {
    if (slice < 1)
      return op->emitError("'") << PSDialect::kSlicesAttrName
                                << "' has a block of " << slice << " rows";
    total += slice;
  }
  if (slices.empty() || total != rows)
    return op->emitError("'") << PSDialect::kSlicesAttrName << "' covers "
                              << total << " rows of a parameter with " << rows;
  return success();
}

/// Checks `ps.placement`: one valid endpoint per block of `ps.slices`.
static LogicalResult verifyPlacement(Operation *op, Attribute attribute) {
  auto placement = dyn_cast<ArrayAttr>(attribute);
  auto slices =
      op->getAttrOfType<DenseI64ArrayAttr>(PSDialect::kSlicesAttrName);
  if (!placement || !slices ||
      placement.size() != static_cast<size_t>(slices.size()))
    return op->emitError("'") << PSDialect::kPlacementAttrName
                              << "' must list one endpoint per block of '"
                              << PSDialect::kSlicesAttrName << "'";
  for (Attribute endpoint : placement) {
    auto name = dyn_cast<StringAttr>(endpoint);
    if (!name)
      return op->emitError("'")
             << PSDialect::kPlacementAttrName << "' must hold endpoint strings";
    if (StatusOr<Endpoint> parsed = parseEndpoint(name.getValue()); !parsed)
      return op->emitError(parsed.status().message());
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
