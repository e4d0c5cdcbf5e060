//===- PSBase.td - Parameter-server dialect definition -----*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `ps` dialect, its channel resource, enums and op base classes.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PS_IR_PSBASE_TD
#define OPENKS_DIALECT_PS_IR_PSBASE_TD

include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "openks/Dialect/Train/IR/TrainInterfaces.td"

def PS_Dialect : Dialect {
  let name = "ps";
  let cppNamespace = "::openks::ps";
  let summary = "Parameter-server programs: slicing, communication, server "
                "and worker programs.";
  let description = [{
    The `ps` dialect holds what the transpiler adds to a `train` program:
    row splits and concatenations of sliced variables, the sends, receives
    and barriers between a worker and the servers, and the programs of each
    role (`ps.worker`, `ps.server` with its `ps.block`s and `ps.update`
    regions).

    Workers and servers are tied together by symbols: a send names the
    server and the block it feeds (`@ps1::@fc1.w.block0`), a barrier the
    servers it waits for, a worker its steps, and the kind of each message
    (gradient, GEO delta, parameter) is an enum. Endpoints appear only on
    `ps.server` and in the module's `#ps.job`. The worker's verifier checks
    the whole job against its servers, so a job whose two sides do not
    match is rejected before it runs.

    Communication ops are never pure: they read and write the channel
    resource, so canonicalization and CSE neither drop, merge nor reorder
    them.
  }];
  // Server update regions hold train ops; ps.block uses train initializers.
  let dependentDialects = ["::openks::train::TrainDialect"];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Registers the job attribute.
    void registerAttributes();

    /// Rows per block of a sliced parameter (`openks-slice-variables`).
    static constexpr ::llvm::StringLiteral kSlicesAttrName = "ps.slices";
    /// The server of each block, as its index in the job's endpoints
    /// (`openks-dispatch`).
    static constexpr ::llvm::StringLiteral kPlacementAttrName =
        "ps.placement";
  }];
}

/// The message channels between workers and servers.
def PS_ChannelResource : Resource<"::openks::ps::ChannelResource">;

/// Base class of every `ps` op.
class PS_Op<string mnemonic, list<Trait> traits = []>
    : Op<PS_Dialect, mnemonic, !listconcat(traits, [Train_BoundedTensors, Train_FiniteFloatAttrs])>;

/// Base class of the side-effect free `ps` ops.
class PS_PureOp<string mnemonic, list<Trait> traits = []>
    : PS_Op<mnemonic, !listconcat(traits, [Pure])>;

/// Base class of communication ops: they read and write the channels.
class PS_CommunicationOp<string mnemonic, list<Trait> traits = []>
    : PS_Op<mnemonic, !listconcat(traits, [
          MemoryEffects<[MemRead<PS_ChannelResource>,
                         MemWrite<PS_ChannelResource>]>])>;

/// A ranked tensor of floats: a gradient or a parameter block.
def PS_FloatTensor : RankedTensorOf<[F32, F64]>;
/// Ids a step looks up, of any shape, and a list of row ids.
def PS_IdTensor : RankedTensorOf<[I64]>;
def PS_IdVector : 1DTensorOf<[I64]>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

/// The synchronisation mode of a server; the values are Paddle's
/// `distributed_mode`.
def PS_Mode : I32EnumAttr<"Mode", "parameter-server synchronisation mode", [
    I32EnumAttrCase<"Sync", 0, "sync">,
    I32EnumAttrCase<"Async", 1, "async">,
    I32EnumAttrCase<"HalfAsync", 2, "half_async">,
    I32EnumAttrCase<"Geo", 3, "geo">]> {
  let cppNamespace = "::openks::ps";
}

/// What a message between a worker and a server carries. Reports and
/// checkpoints name messages as Paddle does: `<block>@GRAD`,
/// `<block>.delta` and `<block>` (see PSNaming.h).
def PS_MessageKind : I32EnumAttr<"MessageKind", "what a message carries", [
    I32EnumAttrCase<"Grad", 0, "grad">,
    I32EnumAttrCase<"Delta", 1, "delta">,
    I32EnumAttrCase<"Param", 2, "param">]> {
  let cppNamespace = "::openks::ps";
}

#endif // OPENKS_DIALECT_PS_IR_PSBASE_TD
