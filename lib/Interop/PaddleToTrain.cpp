//===- PaddleToTrain.cpp - A Paddle training program as a train.program ---===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Turns block 0 of an imported Paddle program into `train.program @main`:
//
// * persistable LoD tensors become `train.param`s, in declaration order,
//   with the initializer the startup program's fill_constant,
//   uniform_random or gaussian_random gives each; an optimizer's state
//   (learning rate, moments, beta powers) and int64 counters are frozen,
//   scalars of shape [1] among them rank 0;
// * the step's inputs are the feed ops' outputs in `col` order, or else the
//   variables read before anything writes them; its results are the fetch
//   ops' inputs, or else the outputs of the ops Paddle marks as computing
//   the loss, or else what nothing reads;
// * each op is mapped by its handler (PaddleOpsToTrain.cpp) in order, with
//   the variables' current values as SSA values.
//
// Variable names survive as the locations of the ops and arguments.
//
//===----------------------------------------------------------------------===//

#include "PaddleToTrain.h"
#include "openks/Interop/Paddle.h"
#include "openks/Support/Limits.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <charconv>
#include <cstdlib>

using namespace mlir;
using namespace openks;
using namespace openks::interop;
using paddle::GenericOp;
using paddle::VarOp;
using paddle::VarTypeKind;

double openks::interop::widenFloat(float value) {
  char buffer[32];
  std::to_chars_result end =
      std::to_chars(buffer, buffer + sizeof(buffer) - 1, value);
  *end.ptr = '\0';
  return std::strtod(buffer, nullptr);
}

//===----------------------------------------------------------------------===//
// OpReader
//===----------------------------------------------------------------------===//

std::string OpReader::describe() {
  return ("blocks[0].ops[" + Twine(opIndex) + "] ('" + op.getOpType() + "')")
      .str();
}

InFlightDiagnostic OpReader::fail() {
  return emitError(op.getLoc()) << describe() << ": ";
}

/// Returns the arguments of the slot named `slot` among `slots`.
static SmallVector<StringRef> getSlotNames(ArrayAttr slots, StringRef slot) {
  SmallVector<StringRef> names;
  for (auto attr : slots.getAsRange<paddle::SlotAttr>())
    if (attr.getParameter() == slot)
      llvm::append_range(names,
                         attr.getArguments().getAsValueRange<StringAttr>());
  return names;
}

SmallVector<StringRef> OpReader::getInputNames(StringRef slot) {
  return getSlotNames(op.getInputs(), slot);
}

SmallVector<StringRef> OpReader::getOutputNames(StringRef slot) {
  return getSlotNames(op.getOutputs(), slot);
}

template <typename ValueT>
FailureOr<ValueT> OpReader::getAttr(StringRef name, StringRef what) {
  Attribute attr = op.getPaddleAttr(name);
  auto value = dyn_cast_or_null<ValueT>(attr);
  if (attr && !value)
    return fail() << "attribute '" << name << "' is a "
                  << paddle::stringifyAttrType(*paddle::getAttrType(attr))
                  << ", not " << what;
  return value;
}

FailureOr<int64_t> OpReader::getInt(StringRef name, int64_t defaultValue) {
  FailureOr<IntegerAttr> attr = getAttr<IntegerAttr>(name, "an integer");
  if (failed(attr))
    return failure();
  if (*attr && isa<BoolAttr>(*attr))
    return fail() << "attribute '" << name << "' is a BOOLEAN, not an integer";
  return *attr ? attr->getInt() : defaultValue;
}

FailureOr<double> OpReader::getFloat(StringRef name, double defaultValue) {
  FailureOr<FloatAttr> attr = getAttr<FloatAttr>(name, "a float");
  if (failed(attr))
    return failure();
  if (!*attr)
    return defaultValue;
  if (attr->getType().isF32())
    return widenFloat(static_cast<float>(attr->getValueAsDouble()));
  return attr->getValueAsDouble();
}

FailureOr<bool> OpReader::getBool(StringRef name, bool defaultValue) {
  FailureOr<BoolAttr> attr = getAttr<BoolAttr>(name, "a BOOLEAN");
  if (failed(attr))
    return failure();
  return *attr ? attr->getValue() : defaultValue;
}

FailureOr<std::string> OpReader::getString(StringRef name,
                                           StringRef defaultValue) {
  FailureOr<StringAttr> attr = getAttr<StringAttr>(name, "a STRING");
  if (failed(attr))
    return failure();
  return (*attr ? attr->getValue() : defaultValue).str();
}

FailureOr<SmallVector<int64_t>>
OpReader::getInts(StringRef name,
                  std::optional<ArrayRef<int64_t>> defaultValue) {
  Attribute attr = op.getPaddleAttr(name);
  if (auto ints = dyn_cast_or_null<DenseI32ArrayAttr>(attr))
    return SmallVector<int64_t>(ints.asArrayRef());
  if (auto longs = dyn_cast_or_null<DenseI64ArrayAttr>(attr))
    return SmallVector<int64_t>(longs.asArrayRef());
  if (attr)
    return fail() << "attribute '" << name << "' is a "
                  << paddle::stringifyAttrType(*paddle::getAttrType(attr))
                  << ", not INTS or LONGS";
  if (!defaultValue)
    return fail() << "lacks the attribute '" << name << "'";
  return SmallVector<int64_t>(*defaultValue);
}

LogicalResult OpReader::checkInt(StringRef name, int64_t expected) {
  FailureOr<int64_t> value = getInt(name, expected);
  if (failed(value))
    return failure();
  if (*value != expected)
    return fail() << "has " << name << " = " << *value << "; train expresses "
                  << expected << " only";
  return success();
}

LogicalResult OpReader::checkFloat(StringRef name, double expected) {
  FailureOr<double> value = getFloat(name, expected);
  if (failed(value))
    return failure();
  if (*value != expected)
    return fail() << "has " << name << " = " << *value << "; train expresses "
                  << expected << " only";
  return success();
}

LogicalResult OpReader::checkBool(StringRef name, bool expected) {
  FailureOr<bool> value = getBool(name, expected);
  if (failed(value))
    return failure();
  if (*value != expected)
    return fail() << "has " << name << " = " << (*value ? "true" : "false")
                  << "; train expresses " << (expected ? "true" : "false")
                  << " only";
  return success();
}

std::optional<train::Role> OpReader::getRole() {
  auto opRole = dyn_cast_or_null<IntegerAttr>(op.getPaddleAttr("op_role"));
  if (!opRole || isa<BoolAttr>(opRole))
    return getDefaultRole(op.getOpType());
  return train::symbolizeRole(
      static_cast<uint32_t>(opRole.getInt() & ~kLossRoleBit));
}

//===----------------------------------------------------------------------===//
// StepBuilder
//===----------------------------------------------------------------------===//

void StepBuilder::setCurrentOp(GenericOp op, size_t index) {
  setOp(op, index);
  role = getRole();
  loc = op.getLoc();
}

LogicalResult StepBuilder::noteOnError(function_ref<LogicalResult()> fn) {
  ScopedDiagnosticHandler handler(builder.getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      diag.attachNote(getOp().getLoc())
          << "while mapping " << describe() << " onto train ops";
    return failure();
  });
  return fn();
}

LogicalResult StepBuilder::verifyCreated(Operation *created) {
  return noteOnError(
      [&] { return verify(created, /*verifyRecursively=*/false); });
}

FailureOr<Value> StepBuilder::readParam(StringRef name) {
  if (Value read = paramReads.lookup(name))
    return read;
  FailureOr<train::ReadOp> read =
      create<train::ReadOp>(params.lookup(name).type, name);
  if (failed(read))
    return failure();
  paramReads[name] = *read;
  return read->getValue();
}

FailureOr<Value> StepBuilder::getValue(StringRef name) {
  if (Value value = values.lookup(name))
    return value;
  if (params.contains(name))
    return readParam(name);
  // The Softmax output of softmax_with_cross_entropy, wanted after all.
  if (Value logits = softmaxOf.lookup(name)) {
    FailureOr<train::SoftmaxOp> softmax = create<train::SoftmaxOp>(logits);
    if (failed(softmax))
      return failure();
    values[name] = *softmax;
    return softmax->getOut();
  }
  if (onesLike.contains(name))
    return fail() << "reads '" << name
                  << "', ones of a fill_constant_batch_size_like, which "
                     "train has only as the Label of margin_rank_loss";
  return fail() << "reads '" << name
                << "', which no op before it writes and which is no "
                   "persistable tensor of the block";
}

FailureOr<Value> StepBuilder::getInput(StringRef slot) {
  SmallVector<StringRef> names = getInputNames(slot);
  if (names.size() != 1)
    return fail() << "needs one variable in input '" << slot << "', has "
                  << names.size();
  return getValue(names.front());
}

FailureOr<SmallVector<Value>> StepBuilder::getInputs(StringRef slot) {
  SmallVector<StringRef> names = getInputNames(slot);
  if (names.empty())
    return fail() << "needs a variable in input '" << slot << "'";
  SmallVector<Value> result;
  for (StringRef name : names) {
    FailureOr<Value> value = getValue(name);
    if (failed(value))
      return failure();
    result.push_back(*value);
  }
  return result;
}

LogicalResult StepBuilder::checkNoInput(StringRef slot) {
  if (getInputNames(slot).empty())
    return success();
  return fail() << "takes input '" << slot
                << "', which the train counterpart has no operand for";
}

LogicalResult StepBuilder::define(StringRef name, Value value) {
  if (name == kEmptyVarName)
    return success();
  if (!params.contains(name)) {
    values[name] = value;
    // The op that computes a variable is named after it (the first result
    // of an op made for the current op).
    auto result = dyn_cast<OpResult>(value);
    if (result && result.getResultNumber() == 0 &&
        result.getOwner()->getLoc() == loc)
      result.getOwner()->setLoc(NameLoc::get(builder.getStringAttr(name), loc));
    return success();
  }
  RankedTensorType type = params.lookup(name).type;
  if (type.getRank() == 0 && value.getType() != type) {
    FailureOr<Value> scalar = toScalar(value);
    if (failed(scalar))
      return failure();
    value = *scalar;
  }
  paramReads.erase(name);
  return create<train::WriteOp>(value, name);
}

LogicalResult StepBuilder::setOutput(StringRef slot, Value value) {
  SmallVector<StringRef> names = getOutputNames(slot);
  if (names.size() > 1)
    return fail() << "binds " << names.size() << " variables to output '"
                  << slot << "', which has one value";
  return names.empty() ? success() : define(names.front(), value);
}

LogicalResult StepBuilder::setOutputs(StringRef slot, ValueRange results) {
  SmallVector<StringRef> names = getOutputNames(slot);
  if (names.empty())
    return success();
  if (names.size() != results.size())
    return fail() << "binds " << names.size() << " variables to output '"
                  << slot << "', which has " << results.size() << " values";
  for (auto [name, value] : llvm::zip(names, results))
    if (failed(define(name, value)))
      return failure();
  return success();
}

FailureOr<FlatSymbolRefAttr> StepBuilder::getUpdatedParam(StringRef slot,
                                                          StringRef outSlot) {
  SmallVector<StringRef> names = getInputNames(slot);
  if (names.size() != 1)
    return fail() << "needs one variable in input '" << slot << "', has "
                  << names.size();
  StringRef name = names.front();
  if (!params.contains(name))
    return fail() << "updates '" << name
                  << "', which is no persistable tensor of the block";
  SmallVector<StringRef> outs = getOutputNames(outSlot);
  if (!outs.empty() && (outs.size() != 1 || outs.front() != name))
    return fail() << "writes the update of '" << name << "' to output '"
                  << outSlot << "' elsewhere; train updates in place";
  paramReads.erase(name);
  return FlatSymbolRefAttr::get(builder.getContext(), name);
}

FailureOr<Value> StepBuilder::toScalar(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() == 0)
    return value;
  if (!type.hasStaticShape() || type.getNumElements() != 1 ||
      !isa<FloatType>(type.getElementType()))
    return fail() << "needs a float scalar, got " << type;
  FailureOr<train::ReshapeOp> reshaped = create<train::ReshapeOp>(
      RankedTensorType::get({}, type.getElementType()), value);
  if (failed(reshaped))
    return failure();
  return reshaped->getOut();
}

bool StepBuilder::stopsGradient(StringRef name) {
  VarOp var = vars.lookup(name);
  return var && var.getStopGradient().value_or(false);
}

bool StepBuilder::isSparseTable(Value table) {
  auto read = table.getDefiningOp<train::ReadOp>();
  return read && params.lookup(read.getParam()).sparse;
}

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

namespace {

/// Builds `train.program @main` from a main and a startup program.
class ProgramMapper {
public:
  ProgramMapper(paddle::ProgramOp main, paddle::ProgramOp startup)
      : main(main), startup(startup), builder(main.getContext()) {}

  OwningOpRef<ModuleOp> run();

private:
  LogicalResult collect();
  LogicalResult planParams();
  LogicalResult findInitializers();
  LogicalResult planSignature();
  FailureOr<RankedTensorType> getFedType(VarOp var);
  LogicalResult buildStep(train::ProgramOp program);

  paddle::ProgramOp main, startup;
  OpBuilder builder;
  SmallVector<GenericOp> ops;
  llvm::StringMap<VarOp> vars;
  SmallVector<VarOp> paramVars;
  llvm::StringMap<ParamInfo> params;
  llvm::StringMap<Attribute> initializers;
  SmallVector<StringRef> argNames, resultNames;
  /// int64 inputs whose trailing 1 the step drops: labels and v1 ids.
  llvm::StringSet<> squeezed;
  /// The fed inputs whose LoD a sequence_pool reads: each gets an input of
  /// lengths after it.
  llvm::StringSet<> pooledInputs;
};

} // namespace

/// Returns the ops of block 0 of `program`.
static paddle::BlockOp getRootBlock(paddle::ProgramOp program) {
  return cast<paddle::BlockOp>(program.getBody().front().front());
}

LogicalResult ProgramMapper::collect() {
  auto blocks = main.getBody().front().getOps<paddle::BlockOp>();
  if (std::next(blocks.begin()) != blocks.end())
    return emitError((*std::next(blocks.begin())).getLoc())
           << "blocks[1]: the train form holds programs of one block; "
              "control flow has no train counterpart";
  paddle::BlockOp root = getRootBlock(main);
  for (VarOp var : root.getBody().front().getOps<VarOp>())
    vars[var.getName()] = var;
  OpReader reader;
  for (auto [index, op] :
       llvm::enumerate(root.getBody().front().getOps<GenericOp>())) {
    ops.push_back(op);
    StringRef type = op.getOpType();
    if (type == "feed" || type == "fetch" || lookupOpHandler(type))
      continue;
    reader.setOp(op, index);
    return reader.fail() << "has no train counterpart; import the program "
                            "into the paddle dialect to keep it as a "
                            "paddle.op";
  }
  return success();
}

/// Returns the element type of a Paddle data type train computes on.
static Type getTrainElementType(Builder &builder, VarTypeKind dataType) {
  switch (dataType) {
  case VarTypeKind::FP32:
    return builder.getF32Type();
  case VarTypeKind::FP64:
    return builder.getF64Type();
  case VarTypeKind::Int64:
    return builder.getI64Type();
  default:
    return {};
  }
}

/// Checks that a tensor of `dims` (-1 counting as 1) is one train ops take:
/// at most kMaxTensorRank dimensions and kMaxTensorElements elements.
static LogicalResult checkBounds(VarOp var, StringRef what,
                                 ArrayRef<int64_t> dims) {
  if (dims.size() > static_cast<size_t>(kMaxTensorRank))
    return emitError(var.getLoc())
           << what << " '" << var.getName() << "' has " << dims.size()
           << " dimensions; train tensors have at most " << kMaxTensorRank;
  SmallVector<int64_t> sizes;
  for (int64_t dim : dims)
    sizes.push_back(dim == -1 ? 1 : dim);
  if (!boundedProduct(sizes))
    return emitError(var.getLoc())
           << what << " '" << var.getName()
           << "' has more elements than the 2^40 a train tensor holds";
  return success();
}

LogicalResult ProgramMapper::planParams() {
  llvm::StringSet<> state, scalars, updated;
  // The tables looked up with is_sparse (or is_distributed), and without.
  llvm::StringSet<> sparseLookups, denseLookups;
  bool hasOptimizers = false;
  OpReader reader;
  for (auto [index, op] : llvm::enumerate(ops)) {
    StringRef type = op.getOpType();
    if (type.starts_with("lookup_table")) {
      reader.setOp(op, index);
      FailureOr<bool> isSparse = reader.getBool("is_sparse", false);
      FailureOr<bool> isDistributed = reader.getBool("is_distributed", false);
      if (failed(isSparse) || failed(isDistributed))
        return failure();
      for (StringRef table : reader.getInputNames("W"))
        (*isSparse || *isDistributed ? sparseLookups : denseLookups)
            .insert(table);
    }
    hasOptimizers |= getDefaultRole(type) == train::Role::Optimize;
    for (auto slot : op.getInputs().getAsRange<paddle::SlotAttr>()) {
      bool isScalar;
      bool isState = isStateSlot(type, slot.getParameter(), isScalar);
      for (StringRef name : slot.getArguments().getAsValueRange<StringAttr>()) {
        if (isState)
          state.insert(name);
        if (isScalar)
          scalars.insert(name);
        if (slot.getParameter() == "Param" &&
            getDefaultRole(type) == train::Role::Optimize)
          updated.insert(name);
      }
    }
  }

  for (VarOp var : getRootBlock(main).getBody().front().getOps<VarOp>()) {
    if (!var.isPersistable() || var.getKind() != VarTypeKind::LoDTensor)
      continue;
    StringRef name = var.getName();
    paddle::TensorDescAttr desc = var.getLodTensorAttr();
    if (!desc)
      return emitError(var.getLoc()) << "persistable variable '" << name
                                     << "' has no tensor description";
    Type elementType = getTrainElementType(builder, desc.getDataType());
    if (!elementType)
      return emitError(var.getLoc())
             << "persistable variable '" << name << "' holds "
             << paddle::stringifyVarTypeKind(desc.getDataType())
             << "; train parameters hold fp32, fp64 or int64";
    ArrayRef<int64_t> dims = desc.getDims();
    if (llvm::any_of(dims, [](int64_t dim) { return dim < 1; }))
      return emitError(var.getLoc()) << "persistable variable '" << name
                                     << "' has a dimension that is not static";
    if (failed(checkBounds(var, "persistable variable", dims)))
      return failure();
    if (scalars.contains(name) && dims.size() == 1 && dims.front() == 1)
      dims = {};
    bool frozen;
    if (elementType.isInteger(64) || state.contains(name))
      frozen = true;
    else if (std::optional<bool> isParameter = var.getIsParameter())
      frozen = !*isParameter || var.getStopGradient().value_or(false);
    else if (var.getStopGradient().value_or(false))
      frozen = true;
    else
      frozen = hasOptimizers && !updated.contains(name);
    // Paddle sums a sparse and a dense gradient of one table into a dense
    // one.
    bool sparse = !frozen && !dims.empty() && sparseLookups.contains(name) &&
                  !denseLookups.contains(name);
    if (!frozen && sparseLookups.contains(name) && denseLookups.contains(name))
      emitWarning(var.getLoc())
          << "table '" << name
          << "' is looked up both with and without is_sparse, so its "
             "gradient is dense: it is not a sparse table";
    params[name] = {RankedTensorType::get(dims, elementType), frozen, sparse};
    paramVars.push_back(var);
  }
  return success();
}

LogicalResult ProgramMapper::findInitializers() {
  if (!startup) {
    if (paramVars.empty())
      return success();
    return emitError(paramVars.front().getLoc())
           << "parameter '" << paramVars.front().getName()
           << "' needs an initializer, but there is no startup program";
  }
  MLIRContext *context = builder.getContext();
  OpReader reader;
  for (auto [index, op] : llvm::enumerate(
           getRootBlock(startup).getBody().front().getOps<GenericOp>())) {
    reader.setOp(op, index);
    SmallVector<StringRef> outs = reader.getOutputNames("Out");
    if (outs.size() != 1 || !params.contains(outs.front()))
      continue;
    StringRef type = op.getOpType();
    RankedTensorType paramType = params.lookup(outs.front()).type;
    FailureOr<SmallVector<int64_t>> shape = reader.getInts("shape");
    if (failed(shape))
      return failure();
    if (ArrayRef<int64_t>(*shape) != paramType.getShape() &&
        !(paramType.getRank() == 0 && shape->size() == 1 &&
          shape->front() == 1))
      return reader.fail() << "initializes '" << outs.front()
                           << "' with another shape than its declaration's";
    Attribute initializer;
    if (type == "fill_constant") {
      FailureOr<double> value = reader.getFloat("value", 0.0);
      FailureOr<std::string> text = reader.getString("str_value", "");
      if (failed(value) || failed(text))
        return failure();
      double fill = *value;
      if (!text->empty() && !llvm::to_float(*text, fill))
        return reader.fail() << "has str_value '" << *text << "', not a number";
      initializer = train::ConstantInitAttr::get(context, APFloat(fill));
    } else if (type == "uniform_random" || type == "gaussian_random") {
      bool uniform = type == "uniform_random";
      FailureOr<double> first =
          reader.getFloat(uniform ? "min" : "mean", uniform ? -1.0 : 0.0);
      FailureOr<double> second = reader.getFloat(uniform ? "max" : "std", 1.0);
      FailureOr<int64_t> seed = reader.getInt("seed", 0);
      if (failed(first) || failed(second) || failed(seed))
        return failure();
      if (*seed < 0)
        return reader.fail()
               << "has seed " << *seed << "; train seeds are unsigned";
      initializer =
          uniform ? Attribute(train::UniformInitAttr::get(
                        context, APFloat(*first), APFloat(*second), *seed))
                  : Attribute(train::GaussianInitAttr::get(
                        context, APFloat(*first), APFloat(*second), *seed));
    } else {
      return reader.fail() << "initializes '" << outs.front()
                           << "', but has no train initializer counterpart";
    }
    initializers[outs.front()] = initializer;
  }
  for (VarOp var : paramVars)
    if (!initializers.contains(var.getName()))
      return emitError(var.getLoc())
             << "parameter '" << var.getName()
             << "' has no initializer in the startup program";
  return success();
}

/// Returns whether input `slot` of `type` wants int64 ids without Paddle's
/// trailing 1.
static bool isSqueezingUse(StringRef type, StringRef slot) {
  if (slot == "Label")
    return llvm::is_contained({"softmax_with_cross_entropy",
                               "softmax_with_cross_entropy_grad",
                               "cross_entropy", "cross_entropy2"},
                              type);
  return slot == "Ids" &&
         llvm::is_contained({"lookup_table", "lookup_table_grad"}, type);
}

LogicalResult ProgramMapper::planSignature() {
  OpReader reader;
  SmallVector<std::pair<int64_t, StringRef>> feeds, fetches;
  for (auto [index, op] : llvm::enumerate(ops)) {
    StringRef type = op.getOpType();
    if (type != "feed" && type != "fetch")
      continue;
    reader.setOp(op, index);
    FailureOr<int64_t> col = reader.getInt("col", 0);
    SmallVector<StringRef> names = type == "feed" ? reader.getOutputNames("Out")
                                                  : reader.getInputNames("X");
    if (failed(col))
      return failure();
    if (names.size() != 1)
      return reader.fail() << "names " << names.size() << " variables";
    (type == "feed" ? feeds : fetches).push_back({*col, names.front()});
  }
  for (auto *list : {&feeds, &fetches}) {
    llvm::sort(*list);
    for (auto [position, entry] : llvm::enumerate(*list))
      if (entry.first != static_cast<int64_t>(position))
        return emitError(main.getLoc())
               << "the " << (list == &feeds ? "feed" : "fetch")
               << " ops' columns are not 0, 1, ...: '" << entry.second
               << "' is at column " << entry.first;
  }

  // Which variables each op reads and writes, and the names read later.
  llvm::StringSet<> written, read, seen;
  llvm::StringMap<unsigned> squeezingUses, plainUses;
  for (GenericOp op : ops) {
    StringRef type = op.getOpType();
    if (type == "feed" || type == "fetch")
      continue;
    for (auto slot : op.getInputs().getAsRange<paddle::SlotAttr>())
      for (StringRef name : slot.getArguments().getAsValueRange<StringAttr>()) {
        ++(isSqueezingUse(type, slot.getParameter()) ? squeezingUses
                                                     : plainUses)[name];
        read.insert(name);
        VarOp var = vars.lookup(name);
        if (feeds.empty() && !written.contains(name) && var &&
            !var.isPersistable() && seen.insert(name).second)
          argNames.push_back(name);
      }
    for (auto slot : op.getOutputs().getAsRange<paddle::SlotAttr>())
      for (StringRef name : slot.getArguments().getAsValueRange<StringAttr>())
        written.insert(name);
  }
  for (auto [col, name] : feeds)
    argNames.push_back(name);
  for (StringRef name : argNames)
    if (squeezingUses.lookup(name) && !plainUses.lookup(name))
      squeezed.insert(name);

  // The fed inputs whose LoD, or whose lookups' LoD, a sequence_pool pools.
  llvm::StringMap<StringRef> lodSources;
  for (StringRef name : argNames)
    lodSources[name] = name;
  for (GenericOp op : ops) {
    StringRef type = op.getOpType();
    auto slotNames = [&](ArrayAttr slots, StringRef slot) {
      for (auto attr : slots.getAsRange<paddle::SlotAttr>())
        if (attr.getParameter() == slot && attr.getArguments().size() == 1)
          return cast<StringAttr>(attr.getArguments()[0]).getValue();
      return StringRef();
    };
    StringRef source = lodSources.lookup(
        slotNames(op.getInputs(), type == "sequence_pool" ? "X" : "Ids"));
    if (source.empty())
      continue;
    if (type == "sequence_pool")
      pooledInputs.insert(source);
    else if (type == "lookup_table" || type == "lookup_table_v2")
      lodSources[slotNames(op.getOutputs(), "Out")] = source;
  }

  if (!fetches.empty()) {
    for (auto [col, name] : fetches)
      resultNames.push_back(name);
    return success();
  }
  // The loss Paddle marks, else the outputs of ops whose outputs nothing
  // after them reads.
  for (auto [index, op] : llvm::enumerate(ops)) {
    reader.setOp(op, index);
    FailureOr<int64_t> opRole = reader.getInt("op_role", 0);
    if (failed(opRole))
      return failure();
    if (*opRole == kLossRoleBit)
      llvm::append_range(resultNames, reader.getOutputNames("Out"));
  }
  if (!resultNames.empty())
    return success();
  llvm::StringSet<> readLater;
  SmallVector<SmallVector<StringRef>> unread;
  for (GenericOp op : llvm::reverse(ops)) {
    SmallVector<StringRef> outs;
    for (auto slot : op.getOutputs().getAsRange<paddle::SlotAttr>())
      for (StringRef name : slot.getArguments().getAsValueRange<StringAttr>())
        if (name != kEmptyVarName && !params.contains(name))
          outs.push_back(name);
    if (op.getOpType() != "feed" &&
        llvm::none_of(outs, [&](StringRef n) { return readLater.contains(n); }))
      unread.push_back(outs);
    for (auto slot : op.getInputs().getAsRange<paddle::SlotAttr>())
      for (StringRef name : slot.getArguments().getAsValueRange<StringAttr>())
        readLater.insert(name);
  }
  for (ArrayRef<StringRef> outs : llvm::reverse(unread))
    llvm::append_range(resultNames, outs);
  return success();
}

FailureOr<RankedTensorType> ProgramMapper::getFedType(VarOp var) {
  paddle::TensorDescAttr desc = var.getLodTensorAttr();
  if (var.getKind() != VarTypeKind::LoDTensor || !desc)
    return emitError(var.getLoc())
           << "input '" << var.getName()
           << "' is not a LoD tensor with a description";
  Type elementType = getTrainElementType(builder, desc.getDataType());
  if (!elementType)
    return emitError(var.getLoc())
           << "input '" << var.getName() << "' holds "
           << paddle::stringifyVarTypeKind(desc.getDataType())
           << "; train steps take fp32, fp64 or int64";
  SmallVector<int64_t> dims;
  for (int64_t dim : desc.getDims()) {
    if (dim < 1 && dim != -1)
      return emitError(var.getLoc())
             << "input '" << var.getName() << "' has dimension " << dim;
    dims.push_back(dim == -1 ? ShapedType::kDynamic : dim);
  }
  if (failed(checkBounds(var, "input", desc.getDims())))
    return failure();
  if (squeezed.contains(var.getName()) && dims.size() >= 2 && dims.back() == 1)
    dims.pop_back();
  return RankedTensorType::get(dims, elementType);
}

LogicalResult ProgramMapper::buildStep(train::ProgramOp program) {
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (StringRef name : argNames) {
    VarOp var = vars.lookup(name);
    if (!var)
      return emitError(main.getLoc()) << "the step's input '" << name
                                      << "' is not a variable of block 0";
    FailureOr<RankedTensorType> type = getFedType(var);
    if (failed(type))
      return failure();
    argTypes.push_back(*type);
    argLocs.push_back(NameLoc::get(builder.getStringAttr(name), var.getLoc()));
    // The lengths of the lists of its LoD (level 1), which train has as
    // an input of its own.
    if (pooledInputs.contains(name)) {
      argTypes.push_back(
          RankedTensorType::get({ShapedType::kDynamic}, builder.getI64Type()));
      argLocs.push_back(
          NameLoc::get(builder.getStringAttr(name + ".lengths"), var.getLoc()));
    }
  }
  builder.setInsertionPointToEnd(&program.getBody().front());
  auto step = train::StepOp::create(builder, main.getLoc(), "step",
                                    builder.getFunctionType(argTypes, {}));
  Block &body = step.getBody().front();
  for (auto [arg, loc] : llvm::zip(body.getArguments(), argLocs))
    arg.setLoc(loc);
  builder.setInsertionPointToEnd(&body);

  StepBuilder stepBuilder(builder, vars, params);
  unsigned argIndex = 0;
  for (StringRef name : argNames) {
    stepBuilder.bind(name, body.getArgument(argIndex++));
    if (pooledInputs.contains(name))
      stepBuilder.setLengthsOf(name, body.getArgument(argIndex++));
  }
  for (auto [index, op] : llvm::enumerate(ops)) {
    StringRef type = op.getOpType();
    if (type == "feed" || type == "fetch")
      continue;
    stepBuilder.setCurrentOp(op, index);
    if (failed(lookupOpHandler(type)(stepBuilder)))
      return failure();
  }

  SmallVector<Value> results;
  for (StringRef name : resultNames) {
    FailureOr<Value> value = stepBuilder.getValue(name);
    if (failed(value))
      return failure();
    results.push_back(*value);
  }
  train::YieldOp::create(builder, main.getLoc(), results);
  step.setFunctionType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  return success();
}

OwningOpRef<ModuleOp> ProgramMapper::run() {
  MLIRContext *context = builder.getContext();
  context->loadDialect<train::TrainDialect>();
  if (failed(collect()) || failed(planParams()) || failed(findInitializers()) ||
      failed(planSignature()))
    return {};
  OwningOpRef<ModuleOp> module = ModuleOp::create(main.getLoc());
  builder.setInsertionPointToEnd(module->getBody());
  auto program = train::ProgramOp::create(builder, main.getLoc(), "main");
  builder.setInsertionPointToEnd(&program.getBody().front());
  for (VarOp var : paramVars) {
    const ParamInfo &info = params[var.getName()];
    train::ParamOp::create(
        builder, var.getLoc(), var.getName(), info.type,
        cast<train::InitializerAttrInterface>(initializers[var.getName()]),
        info.frozen)
        .setSparse(info.sparse);
  }
  if (failed(buildStep(program)) || failed(verify(*module)))
    return {};
  return module;
}

OwningOpRef<ModuleOp> openks::convertPaddleToTrain(paddle::ProgramOp main,
                                                   paddle::ProgramOp startup) {
  return ProgramMapper(main, startup).run();
}
