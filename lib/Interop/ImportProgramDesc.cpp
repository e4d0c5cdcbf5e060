//===- ImportProgramDesc.cpp - ProgramDesc bytes to the paddle dialect ----===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads a serialized ProgramDesc in three steps: the wire check names the
// byte where a damaged file goes wrong, protobuf parses it (by field
// number, skipping fields it does not know, packed or not) and names the
// required fields that are missing, and the importer below turns the
// message into `paddle` ops, checking what the format leaves open: names
// given twice, block indices that name no block.
//
//===----------------------------------------------------------------------===//

#include "WireCheck.h"
#include "framework.pb.h"
#include "openks/Dialect/Paddle/IR/PaddleOps.h"
#include "openks/Interop/Paddle.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"

#include <climits>

using namespace mlir;
using namespace openks;
using namespace openks::paddle;
namespace proto = ::paddle::framework::proto;

namespace {

/// Builds the `paddle.program` of one ProgramDesc message.
class ProgramImporter {
public:
  ProgramImporter(MLIRContext *context, Location fileLoc)
      : builder(context), fileLoc(fileLoc) {}

  OwningOpRef<ModuleOp> import(const proto::ProgramDesc &program);

private:
  /// Starts an error about the element at `path`.
  InFlightDiagnostic fail(const Twine &path) {
    return emitError(fileLoc) << path << ": ";
  }

  /// The location of the element at `path`: its path, in the file.
  Location getLoc(const Twine &path) {
    return NameLoc::get(builder.getStringAttr(path), fileLoc);
  }

  LogicalResult importBlock(const proto::BlockDesc &block, int numBlocks);
  LogicalResult importVar(const proto::VarDesc &var, const std::string &path);
  LogicalResult importOp(const proto::OpDesc &op, const std::string &path,
                         int numBlocks);
  FailureOr<ArrayAttr>
  importSlots(const google::protobuf::RepeatedPtrField<proto::OpDesc::Var> &,
              const std::string &path, StringRef direction);
  FailureOr<Attribute> importAttr(const proto::OpDesc::Attr &attr,
                                  const std::string &opPath, int numBlocks);
  Attribute importScalar(const proto::Scalar &scalar);
  TensorDescAttr importTensorDesc(const proto::VarType::TensorDesc &desc,
                                  std::optional<int32_t> lodLevel);

  OpBuilder builder;
  Location fileLoc;
};

} // namespace

/// Returns `message`'s lod_level if the file has one.
template <typename LoDDescT>
static std::optional<int32_t> getLoDLevel(const LoDDescT &message) {
  if (message.has_lod_level())
    return message.lod_level();
  return std::nullopt;
}

/// Returns the elements of `field` without copying them.
template <typename ElementT>
static ArrayRef<ElementT>
getElements(const google::protobuf::RepeatedField<ElementT> &field) {
  return ArrayRef<ElementT>(field.data(), field.size());
}

static ArrayAttr
getStringArray(Builder &builder,
               const google::protobuf::RepeatedPtrField<std::string> &field) {
  SmallVector<Attribute> strings;
  for (const std::string &value : field)
    strings.push_back(builder.getStringAttr(value));
  return builder.getArrayAttr(strings);
}

TensorDescAttr
ProgramImporter::importTensorDesc(const proto::VarType::TensorDesc &desc,
                                  std::optional<int32_t> lodLevel) {
  return TensorDescAttr::get(builder.getContext(),
                             static_cast<VarTypeKind>(desc.data_type()),
                             getElements(desc.dims()), lodLevel);
}

Attribute ProgramImporter::importScalar(const proto::Scalar &scalar) {
  switch (scalar.type()) {
  case proto::Scalar::BOOLEAN:
    return builder.getBoolAttr(scalar.b());
  case proto::Scalar::LONG:
    return builder.getI64IntegerAttr(scalar.i());
  case proto::Scalar::FLOAT64:
    return builder.getF64FloatAttr(scalar.r());
  case proto::Scalar::COMPLEX128:
    return builder.getDenseF64ArrayAttr({scalar.c().r(), scalar.c().i()});
  }
  llvm_unreachable("the wire check admits declared enum values only");
}

FailureOr<Attribute>
ProgramImporter::importAttr(const proto::OpDesc::Attr &attr,
                            const std::string &opPath, int numBlocks) {
  auto checkBlock = [&](int32_t index) {
    if (index >= 0 && index < numBlocks)
      return success();
    fail(opPath + ", attribute '" + attr.name() + "'")
        << "block reference " << index << " names no block: the "
        << "program has " << numBlocks
        << (numBlocks == 1 ? " block" : " blocks");
    return failure();
  };
  MLIRContext *context = builder.getContext();
  switch (attr.type()) {
  case proto::INT:
    return Attribute(builder.getI32IntegerAttr(attr.i()));
  case proto::FLOAT:
    return Attribute(builder.getF32FloatAttr(attr.f()));
  case proto::STRING:
    return Attribute(builder.getStringAttr(attr.s()));
  case proto::INTS:
    return Attribute(builder.getDenseI32ArrayAttr(getElements(attr.ints())));
  case proto::FLOATS:
    return Attribute(builder.getDenseF32ArrayAttr(getElements(attr.floats())));
  case proto::STRINGS:
    return Attribute(getStringArray(builder, attr.strings()));
  case proto::BOOLEAN:
    return Attribute(builder.getBoolAttr(attr.b()));
  case proto::BOOLEANS:
    return Attribute(builder.getDenseBoolArrayAttr(getElements(attr.bools())));
  case proto::BLOCK:
    if (failed(checkBlock(attr.block_idx())))
      return failure();
    return Attribute(BlockRefAttr::get(context, attr.block_idx()));
  case proto::LONG:
    return Attribute(builder.getI64IntegerAttr(attr.l()));
  case proto::BLOCKS:
    for (int32_t index : attr.blocks_idx())
      if (failed(checkBlock(index)))
        return failure();
    return Attribute(
        BlockRefsAttr::get(context, getElements(attr.blocks_idx())));
  case proto::LONGS:
    return Attribute(builder.getDenseI64ArrayAttr(getElements(attr.longs())));
  case proto::FLOAT64S:
    return Attribute(
        builder.getDenseF64ArrayAttr(getElements(attr.float64s())));
  case proto::VAR:
    return Attribute(
        VarRefAttr::get(context, builder.getStringAttr(attr.var_name())));
  case proto::VARS:
    return Attribute(
        VarRefsAttr::get(context, getStringArray(builder, attr.vars_name())));
  case proto::FLOAT64:
    return Attribute(builder.getF64FloatAttr(attr.float64()));
  case proto::SCALAR:
    return Attribute(ScalarAttr::get(context, importScalar(attr.scalar())));
  case proto::SCALARS: {
    SmallVector<Attribute> values;
    for (const proto::Scalar &scalar : attr.scalars())
      values.push_back(importScalar(scalar));
    return Attribute(ScalarsAttr::get(context, builder.getArrayAttr(values)));
  }
  }
  llvm_unreachable("the wire check admits declared enum values only");
}

FailureOr<ArrayAttr> ProgramImporter::importSlots(
    const google::protobuf::RepeatedPtrField<proto::OpDesc::Var> &slots,
    const std::string &path, StringRef direction) {
  SmallVector<Attribute> result;
  llvm::StringSet<> names;
  for (const proto::OpDesc::Var &slot : slots) {
    if (!names.insert(slot.parameter()).second) {
      fail(path) << "two " << direction << " slots named '" << slot.parameter()
                 << "'";
      return failure();
    }
    result.push_back(SlotAttr::get(builder.getContext(),
                                   builder.getStringAttr(slot.parameter()),
                                   getStringArray(builder, slot.arguments())));
  }
  return builder.getArrayAttr(result);
}

LogicalResult ProgramImporter::importOp(const proto::OpDesc &op,
                                        const std::string &path,
                                        int numBlocks) {
  std::string where = path + " ('" + op.type() + "')";
  if (op.type().empty())
    return fail(path) << "an op without a type";
  FailureOr<ArrayAttr> inputs = importSlots(op.inputs(), where, "input");
  FailureOr<ArrayAttr> outputs = importSlots(op.outputs(), where, "output");
  if (failed(inputs) || failed(outputs))
    return failure();
  SmallVector<Attribute> names, values;
  llvm::StringSet<> seen;
  for (const proto::OpDesc::Attr &attr : op.attrs()) {
    if (!seen.insert(attr.name()).second)
      return fail(where) << "two attributes named '" << attr.name() << "'";
    FailureOr<Attribute> value = importAttr(attr, where, numBlocks);
    if (failed(value))
      return failure();
    names.push_back(builder.getStringAttr(attr.name()));
    values.push_back(*value);
  }
  GenericOp::create(builder, getLoc(path), op.type(), *inputs, *outputs,
                    names.empty() ? ArrayAttr() : builder.getArrayAttr(names),
                    values.empty() ? ArrayAttr() : builder.getArrayAttr(values),
                    op.has_is_target() ? builder.getBoolAttr(op.is_target())
                                       : BoolAttr());
  return success();
}

LogicalResult ProgramImporter::importVar(const proto::VarDesc &var,
                                         const std::string &path) {
  if (var.name().empty())
    return fail(path) << "a variable without a name";
  std::string where = path + " ('" + var.name() + "')";
  const proto::VarType &type = var.type();
  auto op = VarOp::create(builder, getLoc(path), var.name(),
                          static_cast<VarTypeKind>(type.type()));
  MLIRContext *context = builder.getContext();
  if (type.has_selected_rows())
    op.setSelectedRowsAttr(importTensorDesc(type.selected_rows(), {}));
  if (type.has_lod_tensor())
    op.setLodTensorAttr(importTensorDesc(type.lod_tensor().tensor(),
                                         getLoDLevel(type.lod_tensor())));
  if (type.has_tensor_array())
    op.setTensorArrayAttr(importTensorDesc(type.tensor_array().tensor(),
                                           getLoDLevel(type.tensor_array())));
  if (type.has_reader()) {
    SmallVector<Attribute> descs;
    for (const proto::VarType::LoDTensorDesc &desc : type.reader().lod_tensor())
      descs.push_back(importTensorDesc(desc.tensor(), getLoDLevel(desc)));
    op.setReaderAttr(builder.getArrayAttr(descs));
  }
  if (type.has_tuple()) {
    SmallVector<int32_t> kinds(type.tuple().element_type().begin(),
                               type.tuple().element_type().end());
    op.setTupleAttr(DenseI32ArrayAttr::get(context, kinds));
  }
  if (type.has_string())
    op.setStringAttr(importTensorDesc(type.string(), {}));
  if (type.has_strings())
    op.setStringsAttr(importTensorDesc(type.strings(), {}));
  if (type.has_vocab())
    op.setVocabAttr(importTensorDesc(type.vocab(), {}));
  if (type.has_sparse_coo())
    op.setSparseCooAttr(importTensorDesc(type.sparse_coo(), {}));
  if (type.has_sparse_csr())
    op.setSparseCsrAttr(importTensorDesc(type.sparse_csr(), {}));

  if (var.has_persistable())
    op.setPersistableAttr(builder.getBoolAttr(var.persistable()));
  if (var.has_need_check_feed())
    op.setNeedCheckFeedAttr(builder.getBoolAttr(var.need_check_feed()));
  if (var.has_is_parameter())
    op.setIsParameterAttr(builder.getBoolAttr(var.is_parameter()));
  if (var.has_stop_gradient())
    op.setStopGradientAttr(builder.getBoolAttr(var.stop_gradient()));

  if (var.attrs().empty())
    return success();
  SmallVector<Attribute> names, values;
  llvm::StringSet<> seen;
  for (const proto::VarDesc::Attr &attr : var.attrs()) {
    if (!seen.insert(attr.name()).second)
      return fail(where) << "two attributes named '" << attr.name() << "'";
    names.push_back(builder.getStringAttr(attr.name()));
    switch (attr.type()) {
    case proto::INT:
      values.push_back(builder.getI32IntegerAttr(attr.i()));
      break;
    case proto::STRING:
      values.push_back(builder.getStringAttr(attr.s()));
      break;
    case proto::INTS:
      values.push_back(builder.getDenseI32ArrayAttr(getElements(attr.ints())));
      break;
    default:
      return fail(where) << "attribute '" << attr.name() << "' is a "
                         << proto::AttrType_Name(attr.type())
                         << ", which a variable attribute cannot hold";
    }
  }
  op.setAttrNamesAttr(builder.getArrayAttr(names));
  op.setAttrValuesAttr(builder.getArrayAttr(values));
  return success();
}

LogicalResult ProgramImporter::importBlock(const proto::BlockDesc &block,
                                           int numBlocks) {
  std::string path = "blocks[" + std::to_string(block.idx()) + "]";
  auto checkIndex = [&](StringRef what, int32_t index) -> LogicalResult {
    if (index >= -1 && index < numBlocks)
      return success();
    return fail(path) << what << " " << index << " names no block: the "
                      << "program has " << numBlocks
                      << (numBlocks == 1 ? " block" : " blocks");
  };
  if (failed(checkIndex("parent_idx", block.parent_idx())) ||
      (block.has_forward_block_idx() &&
       failed(checkIndex("forward_block_idx", block.forward_block_idx()))))
    return failure();
  auto blockOp =
      BlockOp::create(builder, getLoc(path), block.idx(), block.parent_idx());
  if (block.has_forward_block_idx())
    blockOp.setForwardBlockIdxAttr(
        builder.getI32IntegerAttr(block.forward_block_idx()));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&blockOp.getBody().front());
  llvm::StringSet<> names;
  for (auto [index, var] : llvm::enumerate(block.vars())) {
    std::string varPath = path + ".vars[" + std::to_string(index) + "]";
    if (!names.insert(var.name()).second)
      return fail(varPath) << "variable '" << var.name()
                           << "' is declared twice in the block";
    if (failed(importVar(var, varPath)))
      return failure();
  }
  for (auto [index, op] : llvm::enumerate(block.ops()))
    if (failed(importOp(op, path + ".ops[" + std::to_string(index) + "]",
                        numBlocks)))
      return failure();
  return success();
}

OwningOpRef<ModuleOp>
ProgramImporter::import(const proto::ProgramDesc &program) {
  int numBlocks = program.blocks_size();
  if (numBlocks == 0) {
    emitError(fileLoc) << "the ProgramDesc has no blocks (an empty file, or "
                          "not a Paddle program)";
    return {};
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto programOp = ProgramOp::create(builder, fileLoc);
  if (program.has_version() && program.version().has_version())
    programOp.setVersionAttr(
        builder.getI64IntegerAttr(program.version().version()));
  MLIRContext *context = builder.getContext();
  if (program.has_op_version_map()) {
    SmallVector<Attribute> pairs;
    for (const auto &pair : program.op_version_map().pair())
      pairs.push_back(OpVersionAttr::get(context,
                                         builder.getStringAttr(pair.op_name()),
                                         pair.op_version().version()));
    programOp.setOpVersionMapAttr(builder.getArrayAttr(pairs));
  }
  if (program.has_op_compatible_map()) {
    const proto::OpCompatibleMap &map = program.op_compatible_map();
    SmallVector<Attribute> pairs;
    for (const auto &pair : map.pair())
      pairs.push_back(OpCompatibleAttr::get(
          context, builder.getStringAttr(pair.op_name()),
          builder.getStringAttr(pair.compatible_info().version()),
          static_cast<Compatibility>(pair.compatible_info().type())));
    programOp.setOpCompatibleMapAttr(builder.getArrayAttr(pairs));
    if (map.has_default_required_version())
      programOp.setDefaultRequiredVersionAttr(
          builder.getStringAttr(map.default_required_version()));
  }

  builder.setInsertionPointToEnd(&programOp.getBody().front());
  for (auto [position, block] : llvm::enumerate(program.blocks())) {
    if (block.idx() != static_cast<int>(position)) {
      emitError(fileLoc) << "blocks[" << position << "]: the block at "
                         << "position " << position << " has idx "
                         << block.idx();
      return {};
    }
    if (failed(importBlock(block, numBlocks)))
      return {};
  }
  if (failed(verify(*module)))
    return {};
  return module;
}

/// Refuses a program that holds more than `limits` allow, before protobuf
/// allocates anything for it.
static LogicalResult checkImportLimits(const interop::WireTally &tally,
                                       const PaddleImportLimits &limits,
                                       Location fileLoc) {
  struct Limit {
    uint64_t count;
    uint64_t max;
    StringRef what;
  };
  const Limit checks[] = {
      {tally.messages, limits.maxMessages,
       "messages (blocks, variables, ops, attributes, slots and the "
       "messages in them)"},
      {tally.values, limits.maxValues,
       "values of lists (attribute lists, slot arguments, dims) and fields "
       "outside the schema"},
      {tally.stringBytes, limits.maxStringBytes,
       "bytes of strings (names, string attributes, fields outside the "
       "schema)"},
  };
  for (const Limit &check : checks)
    if (check.count > check.max)
      return emitError(fileLoc)
             << "the ProgramDesc is too large to import: it holds "
             << check.count << " " << check.what << ", "
             << check.count - check.max << " more than the limit of "
             << check.max;
  return success();
}

OwningOpRef<ModuleOp>
openks::importPaddleProgram(StringRef bytes, MLIRContext *context,
                            StringRef bufferName,
                            const PaddleImportLimits &limits) {
  context->loadDialect<PaddleDialect>();
  Location fileLoc = FileLineColLoc::get(context, bufferName, 0, 0);
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    emitError(fileLoc) << "a ProgramDesc holds at most 2 GiB, the input has "
                       << bytes.size() << " bytes";
    return {};
  }
  const google::protobuf::Descriptor *descriptor =
      proto::ProgramDesc::descriptor();
  interop::WireTally tally;
  if (std::string damage = interop::findWireError(bytes, descriptor, tally);
      !damage.empty()) {
    emitError(fileLoc) << "not a valid ProgramDesc: " << damage;
    return {};
  }
  if (failed(checkImportLimits(tally, limits, fileLoc)))
    return {};
  proto::ProgramDesc program;
  if (!program.ParsePartialFromArray(bytes.data(),
                                     static_cast<int>(bytes.size()))) {
    emitError(fileLoc) << "not a valid ProgramDesc";
    return {};
  }
  std::vector<std::string> missing;
  program.FindInitializationErrors(&missing);
  if (!missing.empty()) {
    InFlightDiagnostic diag = emitError(fileLoc)
                              << "not a valid ProgramDesc: missing required ";
    diag << (missing.size() == 1 ? "field " : "fields ");
    constexpr size_t kShown = 5;
    for (auto [index, path] : llvm::enumerate(missing)) {
      if (index == kShown) {
        diag << " and " << missing.size() - kShown << " more";
        break;
      }
      diag << (index ? ", " : "") << path;
    }
    return {};
  }
  return ProgramImporter(context, fileLoc).import(program);
}
