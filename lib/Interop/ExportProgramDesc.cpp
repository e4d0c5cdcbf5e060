//===- ExportProgramDesc.cpp - The paddle dialect to ProgramDesc bytes ----===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Writes a `paddle.program` as a ProgramDesc message, field for field. The
// message serializes with the fields in number order and repeated scalars
// unpacked, as Paddle writes them, so a program imported from a file Paddle
// wrote exports to the same bytes.
//
//===----------------------------------------------------------------------===//

#include "framework.pb.h"
#include "openks/Dialect/Paddle/IR/PaddleOps.h"
#include "openks/Interop/Paddle.h"

#include "llvm/ADT/TypeSwitch.h"

#include <climits>

using namespace mlir;
using namespace openks;
using namespace openks::paddle;
namespace proto = ::paddle::framework::proto;

/// Appends the elements of `values` to the repeated field `field`.
template <typename FieldT, typename RangeT>
static void append(FieldT *field, RangeT &&values) {
  for (auto value : values)
    field->Add(value);
}

static void
appendStrings(google::protobuf::RepeatedPtrField<std::string> *field,
              ArrayAttr strings) {
  for (StringRef value : strings.getAsValueRange<StringAttr>())
    field->Add(value.str());
}

static void exportTensorDesc(TensorDescAttr desc,
                             proto::VarType::TensorDesc *message) {
  message->set_data_type(static_cast<proto::VarType::Type>(desc.getDataType()));
  append(message->mutable_dims(), desc.getDims());
}

/// Fills a LoDTensorDesc or LoDTensorArrayDesc.
template <typename LoDDescT>
static void exportLoDTensorDesc(TensorDescAttr desc, LoDDescT *message) {
  exportTensorDesc(desc, message->mutable_tensor());
  if (std::optional<int32_t> lodLevel = desc.getLodLevel())
    message->set_lod_level(*lodLevel);
}

static void exportScalar(Attribute value, proto::Scalar *message) {
  TypeSwitch<Attribute>(value)
      .Case([&](BoolAttr b) {
        message->set_type(proto::Scalar::BOOLEAN);
        message->set_b(b.getValue());
      })
      .Case([&](IntegerAttr i) {
        message->set_type(proto::Scalar::LONG);
        message->set_i(i.getInt());
      })
      .Case([&](FloatAttr r) {
        message->set_type(proto::Scalar::FLOAT64);
        message->set_r(r.getValueAsDouble());
      })
      .Case([&](DenseF64ArrayAttr c) {
        message->set_type(proto::Scalar::COMPLEX128);
        message->mutable_c()->set_r(c[0]);
        message->mutable_c()->set_i(c[1]);
      });
}

/// Fills the type and value of an op attribute from a verified value.
static void exportAttrValue(Attribute value, proto::OpDesc::Attr *message) {
  AttrType type = *getAttrType(value);
  message->set_type(static_cast<proto::AttrType>(type));
  switch (type) {
  case AttrType::Int:
    message->set_i(static_cast<int32_t>(cast<IntegerAttr>(value).getInt()));
    return;
  case AttrType::Float:
    message->set_f(
        static_cast<float>(cast<FloatAttr>(value).getValueAsDouble()));
    return;
  case AttrType::String:
    message->set_s(cast<StringAttr>(value).str());
    return;
  case AttrType::Ints:
    append(message->mutable_ints(),
           cast<DenseI32ArrayAttr>(value).asArrayRef());
    return;
  case AttrType::Floats:
    append(message->mutable_floats(),
           cast<DenseF32ArrayAttr>(value).asArrayRef());
    return;
  case AttrType::Strings:
    appendStrings(message->mutable_strings(), cast<ArrayAttr>(value));
    return;
  case AttrType::Boolean:
    message->set_b(cast<BoolAttr>(value).getValue());
    return;
  case AttrType::Booleans:
    append(message->mutable_bools(),
           cast<DenseBoolArrayAttr>(value).asArrayRef());
    return;
  case AttrType::Block:
    message->set_block_idx(cast<BlockRefAttr>(value).getIndex());
    return;
  case AttrType::Long:
    message->set_l(cast<IntegerAttr>(value).getInt());
    return;
  case AttrType::Blocks:
    append(message->mutable_blocks_idx(),
           cast<BlockRefsAttr>(value).getIndices());
    return;
  case AttrType::Longs:
    append(message->mutable_longs(),
           cast<DenseI64ArrayAttr>(value).asArrayRef());
    return;
  case AttrType::Float64s:
    append(message->mutable_float64s(),
           cast<DenseF64ArrayAttr>(value).asArrayRef());
    return;
  case AttrType::Var:
    message->set_var_name(cast<VarRefAttr>(value).getName().str());
    return;
  case AttrType::Vars:
    appendStrings(message->mutable_vars_name(),
                  cast<VarRefsAttr>(value).getNames());
    return;
  case AttrType::Float64:
    message->set_float64(cast<FloatAttr>(value).getValueAsDouble());
    return;
  case AttrType::Scalar:
    exportScalar(cast<ScalarAttr>(value).getValue(), message->mutable_scalar());
    return;
  case AttrType::Scalars:
    for (Attribute scalar : cast<ScalarsAttr>(value).getValues())
      exportScalar(scalar, message->add_scalars());
    return;
  }
}

static void
exportSlots(ArrayAttr slots,
            google::protobuf::RepeatedPtrField<proto::OpDesc::Var> *messages) {
  for (auto slot : slots.getAsRange<SlotAttr>()) {
    proto::OpDesc::Var *message = messages->Add();
    message->set_parameter(slot.getParameter().str());
    appendStrings(message->mutable_arguments(), slot.getArguments());
  }
}

static void exportOp(GenericOp op, proto::OpDesc *message) {
  exportSlots(op.getInputs(), message->mutable_inputs());
  exportSlots(op.getOutputs(), message->mutable_outputs());
  message->set_type(op.getOpType().str());
  if (ArrayAttr names = op.getAttrNamesAttr()) {
    for (auto [name, value] : llvm::zip(names.getAsValueRange<StringAttr>(),
                                        op.getAttrValuesAttr())) {
      proto::OpDesc::Attr *attr = message->add_attrs();
      attr->set_name(name.str());
      exportAttrValue(value, attr);
    }
  }
  if (std::optional<bool> isTarget = op.getIsTarget())
    message->set_is_target(*isTarget);
}

static void exportVar(VarOp var, proto::VarDesc *message) {
  message->set_name(var.getName().str());
  proto::VarType *type = message->mutable_type();
  type->set_type(static_cast<proto::VarType::Type>(var.getKind()));
  if (TensorDescAttr desc = var.getSelectedRowsAttr())
    exportTensorDesc(desc, type->mutable_selected_rows());
  if (TensorDescAttr desc = var.getLodTensorAttr())
    exportLoDTensorDesc(desc, type->mutable_lod_tensor());
  if (TensorDescAttr desc = var.getTensorArrayAttr())
    exportLoDTensorDesc(desc, type->mutable_tensor_array());
  if (ArrayAttr reader = var.getReaderAttr()) {
    proto::VarType::ReaderDesc *readerDesc = type->mutable_reader();
    for (auto desc : reader.getAsRange<TensorDescAttr>())
      exportLoDTensorDesc(desc, readerDesc->add_lod_tensor());
  }
  if (DenseI32ArrayAttr tuple = var.getTupleAttr()) {
    proto::VarType::Tuple *tupleDesc = type->mutable_tuple();
    for (int32_t kind : tuple.asArrayRef())
      tupleDesc->add_element_type(static_cast<proto::VarType::Type>(kind));
  }
  if (TensorDescAttr desc = var.getStringAttr())
    exportTensorDesc(desc, type->mutable_string());
  if (TensorDescAttr desc = var.getStringsAttr())
    exportTensorDesc(desc, type->mutable_strings());
  if (TensorDescAttr desc = var.getVocabAttr())
    exportTensorDesc(desc, type->mutable_vocab());
  if (TensorDescAttr desc = var.getSparseCooAttr())
    exportTensorDesc(desc, type->mutable_sparse_coo());
  if (TensorDescAttr desc = var.getSparseCsrAttr())
    exportTensorDesc(desc, type->mutable_sparse_csr());

  if (std::optional<bool> flag = var.getPersistable())
    message->set_persistable(*flag);
  if (std::optional<bool> flag = var.getNeedCheckFeed())
    message->set_need_check_feed(*flag);
  if (std::optional<bool> flag = var.getIsParameter())
    message->set_is_parameter(*flag);
  if (std::optional<bool> flag = var.getStopGradient())
    message->set_stop_gradient(*flag);

  ArrayAttr names = var.getAttrNamesAttr();
  if (!names)
    return;
  for (auto [name, value] : llvm::zip(names.getAsValueRange<StringAttr>(),
                                      var.getAttrValuesAttr())) {
    proto::VarDesc::Attr *attr = message->add_attrs();
    attr->set_name(name.str());
    attr->set_type(static_cast<proto::AttrType>(*getAttrType(value)));
    TypeSwitch<Attribute>(value)
        .Case([&](IntegerAttr i) {
          attr->set_i(static_cast<int32_t>(i.getInt()));
        })
        .Case([&](StringAttr s) { attr->set_s(s.str()); })
        .Case([&](DenseI32ArrayAttr ints) {
          append(attr->mutable_ints(), ints.asArrayRef());
        });
  }
}

LogicalResult openks::exportPaddleProgram(ProgramOp program,
                                          llvm::raw_ostream &os) {
  proto::ProgramDesc message;
  for (auto block : program.getBody().front().getOps<BlockOp>()) {
    proto::BlockDesc *blockDesc = message.add_blocks();
    blockDesc->set_idx(static_cast<int32_t>(block.getIdx()));
    blockDesc->set_parent_idx(static_cast<int32_t>(block.getParentIdx()));
    for (auto var : block.getBody().front().getOps<VarOp>())
      exportVar(var, blockDesc->add_vars());
    for (auto op : block.getBody().front().getOps<GenericOp>())
      exportOp(op, blockDesc->add_ops());
    if (std::optional<uint32_t> forward = block.getForwardBlockIdx())
      blockDesc->set_forward_block_idx(static_cast<int32_t>(*forward));
  }
  if (ArrayAttr pairs = program.getOpCompatibleMapAttr()) {
    proto::OpCompatibleMap *map = message.mutable_op_compatible_map();
    for (auto pair : pairs.getAsRange<OpCompatibleAttr>()) {
      auto *entry = map->add_pair();
      entry->set_op_name(pair.getOpName().str());
      entry->mutable_compatible_info()->set_version(pair.getVersion().str());
      entry->mutable_compatible_info()->set_type(
          static_cast<proto::CompatibleInfo::Type>(pair.getType()));
    }
    if (std::optional<StringRef> version = program.getDefaultRequiredVersion())
      map->set_default_required_version(version->str());
  }
  if (std::optional<uint64_t> version = program.getVersion())
    message.mutable_version()->set_version(static_cast<int64_t>(*version));
  if (ArrayAttr pairs = program.getOpVersionMapAttr()) {
    proto::OpVersionMap *map = message.mutable_op_version_map();
    for (auto pair : pairs.getAsRange<OpVersionAttr>()) {
      auto *entry = map->add_pair();
      entry->set_op_name(pair.getOpName().str());
      entry->mutable_op_version()->set_version(pair.getVersion());
    }
  }
  if (message.ByteSizeLong() > static_cast<size_t>(INT_MAX))
    return emitError(program.getLoc())
           << "the program is larger than the 2 GiB a ProgramDesc holds";
  std::string bytes;
  if (!message.SerializeToString(&bytes))
    return emitError(program.getLoc()) << "the program could not be serialized";
  os << bytes;
  return success();
}
