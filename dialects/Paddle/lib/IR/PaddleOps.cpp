//===- PaddleOps.cpp - Paddle dialect ops ---------------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Paddle/IR/PaddleOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace openks::paddle;

//===----------------------------------------------------------------------===//
// Variable types
//===----------------------------------------------------------------------===//

namespace {

/// How a VarType field is written.
enum class FieldForm {
  /// A TensorDesc: `<fp32 [8, 4]>`.
  Tensor,
  /// A LoDTensorDesc or LoDTensorArrayDesc: `<fp32 [8, 4], lod_level = 1>`.
  LoDTensor,
  /// A ReaderDesc: `[<fp32 [-1, 3], lod_level = 0>, ...]`.
  Reader,
  /// A Tuple: `[fp32, int64]`.
  Tuple,
};

/// A description field of VarType and the kind whose own description it is.
struct VarTypeField {
  StringLiteral name;
  VarTypeKind owner;
  FieldForm form;
};

} // namespace

/// The fields in the order of their field numbers, which is the order of
/// the description operands of the `custom<VarType>` directive.
static constexpr VarTypeField kVarTypeFields[] = {
    {"selected_rows", VarTypeKind::SelectedRows, FieldForm::Tensor},
    {"lod_tensor", VarTypeKind::LoDTensor, FieldForm::LoDTensor},
    {"tensor_array", VarTypeKind::LoDTensorArray, FieldForm::LoDTensor},
    {"reader", VarTypeKind::Reader, FieldForm::Reader},
    {"tuple", VarTypeKind::Tuple, FieldForm::Tuple},
    {"string", VarTypeKind::String, FieldForm::Tensor},
    {"strings", VarTypeKind::Strings, FieldForm::Tensor},
    {"vocab", VarTypeKind::Vocab, FieldForm::Tensor},
    {"sparse_coo", VarTypeKind::SparseCoo, FieldForm::Tensor},
    {"sparse_csr", VarTypeKind::SparseCsr, FieldForm::Tensor},
};
static constexpr size_t kNumVarTypeFields = std::size(kVarTypeFields);

/// Returns the index of the field that is `kind`'s own description, if any.
static std::optional<size_t> getOwnField(VarTypeKind kind) {
  for (auto [index, field] : llvm::enumerate(kVarTypeFields))
    if (field.owner == kind)
      return index;
  return std::nullopt;
}

static void printFieldValue(OpAsmPrinter &printer, FieldForm form,
                            Attribute value) {
  switch (form) {
  case FieldForm::Tensor:
  case FieldForm::LoDTensor:
    cast<TensorDescAttr>(value).print(printer);
    return;
  case FieldForm::Reader:
    printer << '[';
    llvm::interleaveComma(cast<ArrayAttr>(value), printer, [&](Attribute a) {
      cast<TensorDescAttr>(a).print(printer);
    });
    printer << ']';
    return;
  case FieldForm::Tuple:
    printer << '[';
    llvm::interleaveComma(
        cast<DenseI32ArrayAttr>(value).asArrayRef(), printer, [&](int32_t k) {
          if (std::optional<VarTypeKind> kind = symbolizeVarTypeKind(k))
            printer << stringifyVarTypeKind(*kind);
          else
            printer << k;
        });
    printer << ']';
    return;
  }
}

/// Parses a field value of `form`. With `optional`, succeeds with a null
/// value when the value's opening bracket is absent.
static ParseResult parseFieldValue(OpAsmParser &parser, FieldForm form,
                                   bool optional, Attribute &value) {
  MLIRContext *context = parser.getContext();
  if (form == FieldForm::Tensor || form == FieldForm::LoDTensor) {
    if (optional && failed(parser.parseOptionalLess()))
      return success();
    if (!optional && parser.parseLess())
      return failure();
    value = TensorDescAttr::parseBody(parser);
    return success(value != nullptr);
  }
  if (optional && failed(parser.parseOptionalLSquare()))
    return success();
  if (!optional && parser.parseLSquare())
    return failure();
  SmallVector<Attribute> descs;
  SmallVector<int32_t> kinds;
  auto parseElement = [&]() -> ParseResult {
    if (form == FieldForm::Reader) {
      Attribute desc;
      if (parseFieldValue(parser, FieldForm::LoDTensor, false, desc))
        return failure();
      descs.push_back(desc);
      return success();
    }
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<VarTypeKind> kind = symbolizeVarTypeKind(keyword);
    if (!kind)
      return parser.emitError(loc, "unknown Paddle var type '")
             << keyword << "'";
    kinds.push_back(static_cast<int32_t>(*kind));
    return success();
  };
  if (failed(parser.parseOptionalRSquare()) &&
      (parser.parseCommaSeparatedList(parseElement) || parser.parseRSquare()))
    return failure();
  if (form == FieldForm::Reader)
    value = ArrayAttr::get(context, descs);
  else
    value = DenseI32ArrayAttr::get(context, kinds);
  return success();
}

/// Parses `kind own-description? (field description)*`.
static ParseResult
parseVarType(OpAsmParser &parser, VarTypeKindAttr &kindAttr,
             TensorDescAttr &selectedRows, TensorDescAttr &lodTensor,
             TensorDescAttr &tensorArray, ArrayAttr &reader,
             DenseI32ArrayAttr &tuple, TensorDescAttr &string,
             TensorDescAttr &strings, TensorDescAttr &vocab,
             TensorDescAttr &sparseCoo, TensorDescAttr &sparseCsr) {
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<VarTypeKind> kind = symbolizeVarTypeKind(keyword);
  if (!kind)
    return parser.emitError(loc, "unknown Paddle var type '") << keyword << "'";
  kindAttr = VarTypeKindAttr::get(parser.getContext(), *kind);

  Attribute values[kNumVarTypeFields];
  if (std::optional<size_t> own = getOwnField(*kind))
    if (parseFieldValue(parser, kVarTypeFields[*own].form, /*optional=*/true,
                        values[*own]))
      return failure();
  SmallVector<StringRef> names;
  for (const VarTypeField &field : kVarTypeFields)
    names.push_back(field.name);
  StringRef name;
  while (succeeded(parser.parseOptionalKeyword(&name, names))) {
    size_t index = llvm::find(names, name) - names.begin();
    if (values[index])
      return parser.emitError(parser.getCurrentLocation(), "'")
             << name << "' is given twice";
    if (parseFieldValue(parser, kVarTypeFields[index].form,
                        /*optional=*/false, values[index]))
      return failure();
  }
  selectedRows = cast_or_null<TensorDescAttr>(values[0]);
  lodTensor = cast_or_null<TensorDescAttr>(values[1]);
  tensorArray = cast_or_null<TensorDescAttr>(values[2]);
  reader = cast_or_null<ArrayAttr>(values[3]);
  tuple = cast_or_null<DenseI32ArrayAttr>(values[4]);
  string = cast_or_null<TensorDescAttr>(values[5]);
  strings = cast_or_null<TensorDescAttr>(values[6]);
  vocab = cast_or_null<TensorDescAttr>(values[7]);
  sparseCoo = cast_or_null<TensorDescAttr>(values[8]);
  sparseCsr = cast_or_null<TensorDescAttr>(values[9]);
  return success();
}

static void printVarType(OpAsmPrinter &printer, VarOp, VarTypeKindAttr kind,
                         TensorDescAttr selectedRows, TensorDescAttr lodTensor,
                         TensorDescAttr tensorArray, ArrayAttr reader,
                         DenseI32ArrayAttr tuple, TensorDescAttr string,
                         TensorDescAttr strings, TensorDescAttr vocab,
                         TensorDescAttr sparseCoo, TensorDescAttr sparseCsr) {
  Attribute values[] = {selectedRows, lodTensor, tensorArray, reader,
                        tuple,        string,    strings,     vocab,
                        sparseCoo,    sparseCsr};
  printer << stringifyVarTypeKind(kind.getValue());
  std::optional<size_t> own = getOwnField(kind.getValue());
  if (own && values[*own])
    printFieldValue(printer, kVarTypeFields[*own].form, values[*own]);
  for (auto [index, field] : llvm::enumerate(kVarTypeFields)) {
    if (!values[index] || index == own)
      continue;
    printer << ' ' << field.name;
    printFieldValue(printer, field.form, values[index]);
  }
}

//===----------------------------------------------------------------------===//
// Attribute lists and slots
//===----------------------------------------------------------------------===//

/// Parses `(attrs {name = value, ...})?`.
static ParseResult parseAttrList(OpAsmParser &parser, ArrayAttr &names,
                                 ArrayAttr &values) {
  if (failed(parser.parseOptionalKeyword("attrs")))
    return success();
  SmallVector<Attribute> nameList, valueList;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, [&] {
        std::string name;
        Attribute value;
        if (parser.parseKeywordOrString(&name) || parser.parseEqual() ||
            parser.parseAttribute(value))
          return failure();
        nameList.push_back(parser.getBuilder().getStringAttr(name));
        valueList.push_back(value);
        return success();
      }))
    return failure();
  names = parser.getBuilder().getArrayAttr(nameList);
  values = parser.getBuilder().getArrayAttr(valueList);
  return success();
}

static void printAttrList(OpAsmPrinter &printer, Operation *, ArrayAttr names,
                          ArrayAttr values) {
  if (!names || names.empty())
    return;
  printer << " attrs {";
  llvm::interleaveComma(llvm::zip(names, values), printer, [&](auto pair) {
    printer.printKeywordOrString(cast<StringAttr>(std::get<0>(pair)));
    printer << " = ";
    printer.printAttribute(std::get<1>(pair));
  });
  printer << '}';
}

/// Parses `(slot = ["var", ...], ...)`.
static ParseResult parseSlots(OpAsmParser &parser, ArrayAttr &slots) {
  SmallVector<Attribute> slotList;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren, [&] {
        std::string name;
        ArrayAttr arguments;
        SMLoc loc = parser.getCurrentLocation();
        if (parser.parseKeywordOrString(&name) || parser.parseEqual() ||
            parser.parseAttribute(arguments))
          return failure();
        auto slot = SlotAttr::getChecked(
            [&] { return parser.emitError(loc); }, parser.getContext(),
            parser.getBuilder().getStringAttr(name), arguments);
        if (!slot)
          return failure();
        slotList.push_back(slot);
        return success();
      }))
    return failure();
  slots = parser.getBuilder().getArrayAttr(slotList);
  return success();
}

static void printSlots(OpAsmPrinter &printer, GenericOp, ArrayAttr slots) {
  printer << '(';
  llvm::interleaveComma(slots.getAsRange<SlotAttr>(), printer,
                        [&](SlotAttr slot) {
                          printer.printKeywordOrString(slot.getParameter());
                          printer << " = ";
                          printer.printAttribute(slot.getArguments());
                        });
  printer << ')';
}

/// Checks an attribute list: as many values as names, each name once, and
/// each value of one of `allowed` Paddle types.
static LogicalResult verifyAttrList(Operation *op, ArrayAttr names,
                                    ArrayAttr values,
                                    ArrayRef<AttrType> allowed) {
  if (!names && !values)
    return success();
  if (!names || !values || names.size() != values.size())
    return op->emitOpError("needs as many attribute values as names");
  llvm::StringSet<> seen;
  for (auto [name, value] :
       llvm::zip(names.getAsValueRange<StringAttr>(), values.getValue())) {
    if (!seen.insert(name).second)
      return op->emitOpError("has two attributes named '") << name << "'";
    std::optional<AttrType> type = getAttrType(value);
    if (!type)
      return op->emitOpError("attribute '")
             << name << "' is no Paddle attribute value: " << value;
    if (!llvm::is_contained(allowed, *type))
      return op->emitOpError("attribute '")
             << name << "' is a " << stringifyAttrType(*type)
             << ", which this op cannot hold";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

void ProgramOp::build(OpBuilder &builder, OperationState &state) {
  state.addRegion()->emplaceBlock();
}

/// Checks that `index` names one of `numBlocks` blocks (or none, -1, if
/// `allowNone`).
static LogicalResult verifyBlockIndex(Operation *op, StringRef what,
                                      int64_t index, size_t numBlocks,
                                      bool allowNone) {
  if ((allowNone && index == -1) ||
      (index >= 0 && static_cast<size_t>(index) < numBlocks))
    return success();
  return op->emitOpError() << what << " " << index
                           << " names no block: the program has " << numBlocks
                           << (numBlocks == 1 ? " block" : " blocks");
}

// The checks of how blocks link report at the element's location with its
// path (`blocks[1].ops[0]`), as the importer names elements, and without
// printing the op, which for a block can be large.

/// Writes the block indices `chain` as "1 -> 2 -> 1", at most 16 of them:
/// a longer chain shows its first and last 8.
static std::string formatChain(ArrayRef<size_t> chain) {
  constexpr size_t kShownAtEachEnd = 8;
  std::string text;
  for (size_t position = 0; position < chain.size(); ++position) {
    if (position == kShownAtEachEnd && chain.size() > 2 * kShownAtEachEnd) {
      text += " -> (" + std::to_string(chain.size() - 2 * kShownAtEachEnd) +
              " more)";
      position = chain.size() - kShownAtEachEnd;
    }
    text += (position ? " -> " : "") + std::to_string(chain[position]);
  }
  return text;
}

/// Checks that the parents of `blocks` form the tree Paddle builds: block 0
/// is the root, with parent_idx -1, and every other block's parent comes
/// before it, so that every chain of parents ends at the root. The indices
/// name blocks.
static LogicalResult verifyParents(MutableArrayRef<BlockOp> blocks) {
  auto getParent = [&](size_t index) {
    return static_cast<int32_t>(blocks[index].getParentIdx());
  };
  for (size_t index = 0; index < blocks.size(); ++index) {
    int32_t parent = getParent(index);
    if (index == 0 ? parent == -1
                   : parent != -1 && static_cast<size_t>(parent) < index)
      continue;
    auto fail = [&] {
      return emitError(blocks[index].getLoc())
             << "blocks[" << index << "]: parent_idx " << parent;
    };
    if (parent == -1)
      return fail() << ", but only the root block 0 has no parent";
    // Follow the chain through this and later blocks: it comes back to one
    // of them, or reaches an earlier block or -1.
    llvm::BitVector onChain(blocks.size());
    onChain.set(index);
    SmallVector<size_t> chain = {index};
    int32_t next = parent;
    while (next != -1 && static_cast<size_t>(next) >= index &&
           !onChain.test(next)) {
      onChain.set(next);
      chain.push_back(next);
      next = getParent(next);
    }
    if (next != -1 && static_cast<size_t>(next) >= index) {
      chain.push_back(next);
      return fail() << " leads into a cycle of parents, " << formatChain(chain)
                    << ": a chain of parents must end at the root block 0, "
                    << "whose parent_idx is -1";
    }
    if (index == 0)
      return fail() << ", but block 0 is the root block, whose parent_idx "
                    << "is -1";
    return fail() << " names a later block: a block's parent comes before it, "
                  << "so that its chain of parents ends at the root block 0";
  }
  return success();
}

/// Returns the blocks `value` names if it is a BLOCK or BLOCKS attribute.
static SmallVector<int32_t, 1> getBlockRefs(Attribute value) {
  if (auto ref = dyn_cast<BlockRefAttr>(value))
    return {ref.getIndex()};
  if (auto refs = dyn_cast<BlockRefsAttr>(value))
    return SmallVector<int32_t, 1>(refs.getIndices());
  return {};
}

/// Checks that no op of `blocks` runs, through a BLOCK or BLOCKS attribute,
/// a block that runs the op's own block again: its own block, or a block
/// whose ops run it, directly or through other blocks. The indices name
/// blocks.
static LogicalResult verifySubBlocks(MutableArrayRef<BlockOp> blocks) {
  /// A block that ops of a block run, with the first op that runs it.
  struct SubBlock {
    GenericOp op;
    uint32_t opIndex;
    uint32_t block;
  };
  // The sub-blocks of block `b`, each once, are subBlocks[begins[b]] up to
  // subBlocks[begins[b + 1]].
  SmallVector<SubBlock> subBlocks;
  SmallVector<size_t> begins;
  SmallVector<size_t> lastRunBy(blocks.size(), blocks.size());
  for (auto [index, block] : llvm::enumerate(blocks)) {
    begins.push_back(subBlocks.size());
    for (auto [opIndex, op] :
         llvm::enumerate(block.getBody().front().getOps<GenericOp>())) {
      if (!op.getAttrValuesAttr())
        continue;
      for (Attribute value : op.getAttrValuesAttr())
        for (int32_t subBlock : getBlockRefs(value))
          if (lastRunBy[subBlock] != index) {
            lastRunBy[subBlock] = index;
            subBlocks.push_back({op, static_cast<uint32_t>(opIndex),
                                 static_cast<uint32_t>(subBlock)});
          }
    }
  }
  begins.push_back(subBlocks.size());

  // A depth-first search over the sub-blocks, without recursion (a program
  // may nest thousands of blocks); `path` holds the blocks being searched
  // and the position of the next sub-block of each.
  enum class Visit : uint8_t { NotYet, OnPath, Done };
  SmallVector<Visit> visits(blocks.size(), Visit::NotYet);
  SmallVector<std::pair<size_t, size_t>> path;
  for (size_t start = 0; start < blocks.size(); ++start) {
    if (visits[start] != Visit::NotYet)
      continue;
    visits[start] = Visit::OnPath;
    path.push_back({start, begins[start]});
    while (!path.empty()) {
      auto [block, next] = path.back();
      if (next == begins[block + 1]) {
        visits[block] = Visit::Done;
        path.pop_back();
        continue;
      }
      ++path.back().second;
      SubBlock subBlock = subBlocks[next];
      if (visits[subBlock.block] == Visit::NotYet) {
        visits[subBlock.block] = Visit::OnPath;
        path.push_back({subBlock.block, begins[subBlock.block]});
        continue;
      }
      if (visits[subBlock.block] == Visit::Done)
        continue;
      // The path from the sub-block to this block, and back.
      auto onPath = llvm::find_if(path, [&](const auto &entry) {
        return entry.first == subBlock.block;
      });
      SmallVector<size_t> cycle = llvm::to_vector(
          llvm::make_first_range(llvm::make_range(onPath, path.end())));
      cycle.push_back(subBlock.block);
      GenericOp op = subBlock.op;
      StringAttr attrName;
      for (auto [name, value] :
           llvm::zip_equal(op.getAttrNamesAttr().getAsRange<StringAttr>(),
                           op.getAttrValuesAttr().getValue()))
        if (!attrName &&
            llvm::is_contained(getBlockRefs(value),
                               static_cast<int32_t>(subBlock.block)))
          attrName = name;
      return emitError(op.getLoc())
             << "blocks[" << block << "].ops[" << subBlock.opIndex << "] ('"
             << op.getOpType() << "'), attribute '" << attrName.getValue()
             << "': block reference " << subBlock.block
             << " closes a cycle of sub-blocks, " << formatChain(cycle)
             << ": each block runs the next";
    }
  }
  return success();
}

LogicalResult ProgramOp::verifyRegions() {
  if (getDefaultRequiredVersion() && !getOpCompatibleMap())
    return emitOpError("has a default_required_version but no "
                       "op_compatible_map");
  SmallVector<BlockOp> blocks;
  for (Operation &op : getBody().front()) {
    auto block = dyn_cast<BlockOp>(op);
    if (!block)
      return op.emitOpError("is not a paddle.block, but is in a program");
    if (block.getIdx() != blocks.size())
      return block.emitOpError("has idx ")
             << static_cast<int32_t>(block.getIdx()) << " at position "
             << blocks.size();
    blocks.push_back(block);
  }
  size_t numBlocks = blocks.size();
  if (numBlocks == 0)
    return emitOpError("needs at least one block, the root block");
  for (BlockOp block : blocks) {
    if (failed(verifyBlockIndex(block, "parent_idx",
                                static_cast<int32_t>(block.getParentIdx()),
                                numBlocks, /*allowNone=*/true)))
      return failure();
    if (std::optional<uint32_t> forward = block.getForwardBlockIdx())
      if (failed(verifyBlockIndex(block, "forward_block_idx",
                                  static_cast<int32_t>(*forward), numBlocks,
                                  /*allowNone=*/true)))
        return failure();
    for (auto op : block.getBody().front().getOps<GenericOp>()) {
      ArrayAttr values = op.getAttrValuesAttr();
      if (!values)
        continue;
      for (Attribute value : values)
        for (int32_t index : getBlockRefs(value))
          if (failed(verifyBlockIndex(op, "block reference", index, numBlocks,
                                      /*allowNone=*/false)))
            return failure();
    }
  }
  return failure(failed(verifyParents(blocks)) ||
                 failed(verifySubBlocks(blocks)));
}

//===----------------------------------------------------------------------===//
// BlockOp
//===----------------------------------------------------------------------===//

void BlockOp::build(OpBuilder &builder, OperationState &state, int32_t idx,
                    int32_t parentIdx) {
  build(builder, state, builder.getI32IntegerAttr(idx),
        builder.getI32IntegerAttr(parentIdx), IntegerAttr());
  state.regions.front()->emplaceBlock();
}

LogicalResult BlockOp::verifyRegions() {
  llvm::StringSet<> names;
  for (Operation &op : getBody().front()) {
    if (auto var = dyn_cast<VarOp>(op)) {
      if (!names.insert(var.getName()).second)
        return var.emitOpError("redeclares variable '")
               << var.getName() << "' of block "
               << static_cast<int32_t>(getIdx());
      continue;
    }
    if (!isa<GenericOp>(op))
      return op.emitOpError("is neither a paddle.var nor a paddle.op, but is "
                            "in a block");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// VarOp
//===----------------------------------------------------------------------===//

void VarOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                  VarTypeKind kind) {
  state.getOrAddProperties<Properties>().name = builder.getStringAttr(name);
  state.getOrAddProperties<Properties>().kind =
      VarTypeKindAttr::get(builder.getContext(), kind);
}

TensorDescAttr VarOp::getOwnTensorDesc() {
  switch (getKind()) {
  case VarTypeKind::LoDTensor:
    return getLodTensorAttr();
  case VarTypeKind::LoDTensorArray:
    return getTensorArrayAttr();
  case VarTypeKind::SelectedRows:
    return getSelectedRowsAttr();
  default:
    return {};
  }
}

LogicalResult VarOp::verify() {
  if (getName().empty())
    return emitOpError("needs a name");
  TensorDescAttr plainDescs[] = {getSelectedRowsAttr(), getStringAttr(),
                                 getStringsAttr(),      getVocabAttr(),
                                 getSparseCooAttr(),    getSparseCsrAttr()};
  for (TensorDescAttr desc : plainDescs)
    if (desc && desc.getLodLevel())
      return emitOpError("gives a lod_level to a description that has none");
  if (DenseI32ArrayAttr tuple = getTupleAttr())
    for (int32_t kind : tuple.asArrayRef())
      if (!symbolizeVarTypeKind(kind))
        return emitOpError("has an unknown tuple element type ") << kind;
  return verifyAttrList(*this, getAttrNamesAttr(), getAttrValuesAttr(),
                        {AttrType::Int, AttrType::String, AttrType::Ints});
}

//===----------------------------------------------------------------------===//
// GenericOp
//===----------------------------------------------------------------------===//

Attribute GenericOp::getPaddleAttr(StringRef name) {
  if (!getAttrNames())
    return {};
  for (auto [attrName, value] :
       llvm::zip(getAttrNamesAttr().getAsValueRange<StringAttr>(),
                 getAttrValuesAttr().getValue()))
    if (attrName == name)
      return value;
  return {};
}

/// Checks that no two slots of `slots` have one name.
static LogicalResult verifySlots(GenericOp op, ArrayAttr slots,
                                 StringRef direction) {
  llvm::StringSet<> names;
  for (auto slot : slots.getAsRange<SlotAttr>())
    if (!names.insert(slot.getParameter().getValue()).second)
      return op.emitOpError("has two ")
             << direction << " slots named '" << slot.getParameter().getValue()
             << "'";
  return success();
}

LogicalResult GenericOp::verify() {
  if (getOpType().empty())
    return emitOpError("needs an op type");
  if (failed(verifySlots(*this, getInputs(), "input")) ||
      failed(verifySlots(*this, getOutputs(), "output")))
    return failure();
  static constexpr AttrType kAnyType[] = {
      AttrType::Int,      AttrType::Float,    AttrType::String,
      AttrType::Ints,     AttrType::Floats,   AttrType::Strings,
      AttrType::Boolean,  AttrType::Booleans, AttrType::Block,
      AttrType::Long,     AttrType::Blocks,   AttrType::Longs,
      AttrType::Float64s, AttrType::Var,      AttrType::Vars,
      AttrType::Float64,  AttrType::Scalar,   AttrType::Scalars};
  return verifyAttrList(*this, getAttrNamesAttr(), getAttrValuesAttr(),
                        kAnyType);
}

#define GET_OP_CLASSES
#include "openks/Dialect/Paddle/IR/PaddleOps.cpp.inc"
