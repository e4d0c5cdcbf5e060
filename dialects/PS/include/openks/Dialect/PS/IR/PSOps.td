//===- PSOps.td - Parameter-server dialect ops -------------*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PS_IR_PSOPS_TD
#define OPENKS_DIALECT_PS_IR_PSOPS_TD

include "openks/Dialect/PS/IR/PSAttrs.td"
include "openks/Dialect/PS/IR/PSBase.td"
include "openks/Dialect/Train/IR/TrainInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

/// The train dialect's row-sparse value (`!train.rows`); TrainTypes.td is
/// not included, as it would bring the train dialect's enums along.
def PS_Rows : Type<CPred<"::llvm::isa<::openks::train::RowsType>($_self)">,
                   "row-sparse value", "::openks::train::RowsType">;

/// What a worker splits and sends: a tensor, or the row-sparse gradient of
/// a sparse table.
def PS_Value : AnyTypeOf<[AnyRankedTensor, PS_Rows],
                         "ranked tensor or row-sparse value">;

//===----------------------------------------------------------------------===//
// Slicing
//===----------------------------------------------------------------------===//

def PS_SplitOp : PS_PureOp<"split", [InferTypeOpAdaptor]> {
  let summary = "Splits a tensor or a row-sparse value into row sections.";
  let description = [{
    Section `i` takes the next `sections[i]` rows (Paddle's `split_byref`).
    The sections must cover the rows exactly when the row count is static.

    A row-sparse value (`!train.rows`) of a table splits into row-sparse
    values of the sections: each row goes to the section its id falls in,
    with its id made local to the section (the id minus the section's first
    row), in the same order. This is how a worker routes the touched rows
    of a sparse table to the servers that own them (Paddle's
    `split_selected_rows`).

    ```mlir
    %g0, %g1 = ps.split %dw rows [392, 392]
        : tensor<784x256xf32> -> tensor<392x256xf32>, tensor<392x256xf32>
    %e0, %e1 = ps.split %demb rows [500, 500]
        : !train.rows<tensor<1000x16xf32>>
        -> !train.rows<tensor<500x16xf32>>, !train.rows<tensor<500x16xf32>>
    ```
  }];
  let arguments = (ins PS_Value:$input, DenseI64ArrayAttr:$sections);
  let results = (outs Variadic<PS_Value>:$outputs);
  let assemblyFormat = [{
    $input `rows` $sections attr-dict `:` type($input) `->` type($outputs)
  }];
}

def PS_ConcatOp : PS_PureOp<"concat", [InferTypeOpAdaptor]> {
  let summary = "Concatenates row sections back into one tensor.";
  let description = [{
    The inverse of `ps.split`: the inputs are stacked along dimension 0.
    Row-sparse values of the sections give the row-sparse value of the
    whole, each id offset by its section's first row.

    ```mlir
    %w = ps.concat %p0, %p1
        : tensor<392x256xf32>, tensor<392x256xf32> -> tensor<784x256xf32>
    %e = ps.concat %r0, %r1
        : !train.rows<tensor<500x16xf32>>, !train.rows<tensor<500x16xf32>>
        -> !train.rows<tensor<1000x16xf32>>
    ```
  }];
  let arguments = (ins Variadic<PS_Value>:$inputs);
  let results = (outs PS_Value:$output);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($output)
  }];
}

def PS_RouteIdsOp : PS_PureOp<"route_ids", [InferTypeOpAdaptor]> {
  let summary = "Routes the ids a step looks up to the blocks of a table.";
  let description = [{
    Gathers the distinct ids of every `ids` operand (of any shape), which
    must lie in the rows of the sparse table `table`, and splits them by
    the table's row sections as `ps.split` does: result `i` holds, in
    ascending order, the ids in section `i`, made local to it (minus the
    section's first row). A worker fetches exactly these rows of each
    block (`ps.prefetch`), once each however often the step looks them up.
    An id outside the table is an error that names the op, the table and
    the id.

    ```mlir
    %b0, %b1 = ps.route_ids %h, %t for @entity rows [128, 128]
        : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>, tensor<?xi64>
    ```
  }];
  let arguments = (ins Variadic<PS_IdTensor>:$ids, FlatSymbolRefAttr:$table,
                       DenseI64ArrayAttr:$sections);
  let results = (outs Variadic<PS_IdVector>:$local_ids);
  let assemblyFormat = [{
    $ids `for` $table `rows` $sections attr-dict `:` type($ids) `->`
    type($local_ids)
  }];
}

//===----------------------------------------------------------------------===//
// Communication
//===----------------------------------------------------------------------===//

def PS_SendOp : PS_CommunicationOp<"send", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Sends a gradient or a GEO delta of one block to its server.";
  let description = [{
    `target` names the server and the block, `@server::@block`; the value
    has the block's type, or is a row-sparse value of it whose ids are the
    block's own rows, and the server has an update region of the same kind
    for the block, which receives the value's type. A gradient (`grad`) is
    sent by the worker's main step, a GEO delta (`delta`) by its GEO push
    step. A row-sparse value travels as its ids and rows only.

    ```mlir
    ps.send grad %g0 to @ps1::@fc1.w.block0 : tensor<392x256xf32>
    ps.send grad %e1 to @ps1::@emb.block1 : !train.rows<tensor<500x16xf32>>
    ```
  }];
  let arguments = (ins PS_Value:$value, PS_MessageKind:$kind,
                       SymbolRefAttr:$target);
  let assemblyFormat = [{
    $kind $value `to` $target attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Returns the server the value goes to.
    ::mlir::FlatSymbolRefAttr getServerAttr() {
      return ::mlir::FlatSymbolRefAttr::get(getTarget().getRootReference());
    }
  }];
}

def PS_PrefetchOp : PS_CommunicationOp<"prefetch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Fetches some rows of one block from its server.";
  let description = [{
    `source` names the server and the block, `@server::@block`; `rows` are
    block-local row ids, distinct and ascending (`ps.route_ids`). The
    result holds those rows' current values: a row-sparse value of the
    block's type. Only the rows travel, and the server reads each under
    the block's lock, so a row is never torn by a concurrent update. In a
    sync step it reads the values the previous step's updates left; the
    step's fetch barrier lists the server (Paddle's remote prefetch).

    ```mlir
    %r1 = ps.prefetch %b1 from @ps1::@entity.block1
        : tensor<?xi64> -> !train.rows<tensor<128x32xf32>>
    ```
  }];
  let arguments = (ins PS_IdVector:$rows, SymbolRefAttr:$source);
  let results = (outs PS_Rows:$value);
  let assemblyFormat = [{
    $rows `from` $source attr-dict `:` type($rows) `->` qualified(type($value))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Returns the server the rows come from.
    ::mlir::FlatSymbolRefAttr getServerAttr() {
      return ::mlir::FlatSymbolRefAttr::get(getSource().getRootReference());
    }
  }];
}

def PS_RecvOp : PS_CommunicationOp<"recv", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Receives the current value of one block from its server.";
  let description = [{
    `source` names the server and the block, `@server::@block`; the result
    has the block's type.

    ```mlir
    %p0 = ps.recv @ps1::@fc1.w.block0 : tensor<392x256xf32>
    ```
  }];
  let arguments = (ins SymbolRefAttr:$source);
  let results = (outs AnyRankedTensor:$value);
  let assemblyFormat = "$source attr-dict `:` type($value)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Returns the server the value comes from.
    ::mlir::FlatSymbolRefAttr getServerAttr() {
      return ::mlir::FlatSymbolRefAttr::get(getSource().getRootReference());
    }
  }];
}

class PS_BarrierOp<string mnemonic, string when>
    : PS_CommunicationOp<mnemonic, [
          DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Waits until every listed server has passed the " # mnemonic
                # ".";
  let description = [{
    }] # when # [{ The servers are `ps.server` symbols, each listed once.

    ```mlir
    ps.}] # mnemonic # [{ [@ps0, @ps1]
    ```
  }];
  let arguments = (ins FlatSymbolRefArrayAttr:$servers);
  let assemblyFormat = "$servers attr-dict";
  let hasVerifier = 1;
}

def PS_SendBarrierOp : PS_BarrierOp<"send_barrier",
    "Follows a step's sends and lists exactly the servers the step sends to: "
    "in sync mode a server applies the step's updates once all of its "
    "trainers have reached it (Paddle's BATCH_BARRIER); in half_async mode "
    "it returns once the server has applied this trainer's gradients, and no "
    "trainer waits for another.">;
def PS_FetchBarrierOp : PS_BarrierOp<"fetch_barrier",
    "Follows a step's receives and lists exactly the servers the step "
    "receives from: a server starts the next step once all of its trainers "
    "have fetched (Paddle's FETCH_BARRIER).">;

//===----------------------------------------------------------------------===//
// Norms across servers
//===----------------------------------------------------------------------===//

def PS_ReduceNormOp : PS_CommunicationOp<"reduce_norm", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Completes a gradient norm that several servers share.";
  let description = [{
    A sync step's clipping by a norm over gradients that several servers
    hold (a global-norm clip, or the norm clip of a sliced parameter) needs
    the norm of the step's averaged gradients before any server updates.
    Each listed server, once every trainer has reached its send barrier,
    offers its share of `norm`: the sum of the squares of the values its
    update regions clip by it (`ps.clip_by_global_norm`). This op takes
    the shares in list order, adds them in f64, and gives every listed
    server the square root; the servers then finish their updates. Every
    trainer computes the same value from the same shares, and a server
    refuses a step whose trainers disagree.

    It follows the step's `ps.send_barrier` and precedes its receives, and
    lists exactly the servers that declare `norm`.

    ```mlir
    ps.send_barrier [@ps0, @ps1]
    ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$norm,
                       FlatSymbolRefArrayAttr:$servers);
  let assemblyFormat = "$norm `over` $servers attr-dict";
  let hasVerifier = 1;
}

def PS_NormOp : PS_Op<"norm", [Symbol, HasParent<"ServerOp">]> {
  let summary = "A gradient norm a server shares with the others.";
  let description = [{
    Declares that the server's update regions clip by the norm `sym_name`,
    which the job computes over the gradients of several servers (see
    `ps.reduce_norm`). Servers of a sync job only.

    ```mlir
    ps.norm @"@GLOBAL_NORM@"
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let assemblyFormat = "$sym_name attr-dict";
}

def PS_ClipByGlobalNormOp : PS_CommunicationOp<"clip_by_global_norm", [
    AllTypesMatch<["value", "clipped"]>, HasParent<"UpdateOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Clips a block's gradient by a norm shared across servers.";
  let description = [{
    The distributed form of `train.clip_by_global_norm` and
    `train.clip_by_norm`: `clipped = value * max_norm / max(n, max_norm)`,
    where `n` is the job-wide `norm`, to which `value`'s squares
    contribute. The update region runs up to this op for every block of
    the step, the server offers its share of the norm, and the rest of the
    region runs once a trainer's `ps.reduce_norm` has given the norm back.
    At most one per update region.

    ```mlir
    %c = ps.clip_by_global_norm %avg norm @"@GLOBAL_NORM@"
        max_norm 5.000000e+00 : tensor<392x256xf32>
    ```
  }];
  let arguments = (ins PS_FloatTensor:$value, FlatSymbolRefAttr:$norm,
                       F64Attr:$max_norm);
  let results = (outs PS_FloatTensor:$clipped);
  let assemblyFormat = [{
    $value `norm` $norm `max_norm` $max_norm attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Role programs
//===----------------------------------------------------------------------===//

def PS_WorkerOp : PS_Op<"worker", [
    IsolatedFromAbove, NoRegionArguments, NoTerminator, SingleBlock, Symbol,
    SymbolTable, HasParent<"::mlir::ModuleOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "The program every trainer runs.";
  let description = [{
    Holds the worker's local `train.param` copies and its steps, whose
    communication with the servers is explicit, and names the steps by
    role: `main` runs once per mini-batch; `startup` (no arguments or
    results) runs once before it and pulls every block's initial value; in
    GEO mode `geo_push` (no arguments or results) runs every
    `geo_push_steps` steps and trades deltas for the servers' blocks.

    The worker's verifier checks the whole job of its module, which must
    carry a `#ps.job`: one `ps.server` per job endpoint, with the job's
    trainers as `fan_in` and its mode; every gradient or delta the worker
    sends has an update region of its kind on the server it names, and
    every update region is fed once per step; every step's barriers list
    exactly the servers it sends to or receives from, in the order the
    mode requires; and no block is owned by two servers, except whole
    frozen blocks (the learning rate, a beta power), which each server may
    keep a copy of.

    ```mlir
    ps.worker @mlp main @step startup @startup {
      train.param @fc1.b : tensor<256xf32> init #train.constant<0.0>
      train.step @step(...) { ... }
      train.step @startup() { ... }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, FlatSymbolRefAttr:$main,
                       FlatSymbolRefAttr:$startup,
                       OptionalAttr<FlatSymbolRefAttr>:$geo_push);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `main` $main `startup` $startup (`geo_push` $geo_push^)?
    attr-dict-with-keyword $body
  }];
}

def PS_ServerOp : PS_Op<"server", [
    IsolatedFromAbove, NoRegionArguments, NoTerminator, SingleBlock, Symbol,
    SymbolTable, HasParent<"::mlir::ModuleOp">]> {
  let summary = "The program of one parameter server.";
  let description = [{
    A server listens on `endpoint`, expects `fan_in` trainers, synchronises
    in `mode`, holds the `ps.block`s placed on it and runs one `ps.update`
    region per trained block: on gradients in every mode but `geo`, on
    deltas in `geo`. In `sync` mode it may also declare the norms it
    computes together with other servers (`ps.norm`). It holds nothing
    else. Its endpoint is the only place a
    job names where the server runs (besides the module's `#ps.job`).

    ```mlir
    ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
      ps.block @fc1.b : tensor<256xf32> init #train.constant<0.0>
      ps.block @learning_rate : tensor<f32> init #train.constant<1.0e-01> frozen
      ps.update @fc1.b on grad (%g: tensor<256xf32>) {
        %lr = train.read @learning_rate : tensor<f32>
        train.sgd @fc1.b, %g, %lr : tensor<256xf32>, tensor<f32>
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$endpoint,
                       I64Attr:$fan_in, PS_Mode:$mode);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `endpoint` $endpoint `fan_in` $fan_in `mode` $mode
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Returns the number of trainers the server expects (`fan_in`, read as
    /// a signed value).
    int64_t getNumTrainers() { return getFanInAttr().getInt(); }
    /// Returns the kind of message this server's update regions receive:
    /// deltas in geo mode, gradients otherwise.
    ::openks::ps::MessageKind getUpdateKind() {
      return getMode() == ::openks::ps::Mode::Geo
                 ? ::openks::ps::MessageKind::Delta
                 : ::openks::ps::MessageKind::Grad;
    }
  }];
}

def PS_BlockOp : PS_Op<"block", [
    Symbol, HasParent<"ServerOp">, Train_ParameterOpInterface]> {
  let summary = "A parameter block held by a server.";
  let description = [{
    A whole parameter, or rows `[row_begin, row_end)` of the parameter
    `origin` of type `origin_type` (whose name stays `<origin>.block<i>`).
    The initializer applies to the whole origin, so a server that
    initialises its rows gets exactly those rows of the single-process
    initialisation. A trainable block has an update region on its server.

    ```mlir
    ps.block @fc1.w.block1 : tensor<392x256xf32>
        of @fc1.w : tensor<784x256xf32> rows [392, 784)
        init #train.xavier<seed = 1>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<AnyRankedTensor>:$type,
                       OptionalAttr<FlatSymbolRefAttr>:$origin,
                       OptionalAttr<TypeAttrOf<AnyRankedTensor>>:$origin_type,
                       OptionalAttr<I64Attr>:$row_begin,
                       OptionalAttr<I64Attr>:$row_end,
                       Train_InitializerAttrInterface:$initializer,
                       UnitAttr:$frozen);
  let assemblyFormat = [{
    $sym_name `:` $type
    (`of` $origin^ `:` $origin_type `rows` ` ` `[` $row_begin `,` $row_end `)`)?
    `init` $initializer (`frozen` $frozen^)? attr-dict
  }];
  let extraClassDeclaration = [{
    /// Returns the block's tensor type.
    ::mlir::RankedTensorType getParameterType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getType());
    }
    /// Returns whether optimizers may update the block.
    bool isTrainable() { return !getFrozen(); }
    /// Returns whether the block is a row slice of a larger parameter.
    bool isSlice() { return getOrigin().has_value(); }
    /// Returns the rows `[begin, end)` of the origin a slice holds, read as
    /// signed values.
    std::pair<int64_t, int64_t> getRows() {
      return {getRowBeginAttr().getInt(), getRowEndAttr().getInt()};
    }
    /// Returns the name of the parameter the block belongs to: its origin,
    /// or the block itself when it is whole.
    ::llvm::StringRef getOriginName() {
      return isSlice() ? *getOrigin() : getSymName();
    }
  }];
  let hasVerifier = 1;
}

def PS_UpdateOp : PS_Op<"update", [
    HasParent<"ServerOp">, NoTerminator, SingleBlock,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "How a server applies what it receives for one block.";
  let description = [{
    The region runs when the server has a message of `kind` for `block`: a
    gradient (`grad`) in sync, async and half-async mode, a GEO delta
    (`delta`) in geo mode. In sync mode it runs once per step on the sum of
    all trainers' gradients, otherwise on every arrival. Its one argument
    is that value, with the block's type or, for the row-sparse gradient of
    a sparse table, `!train.rows` of it: in sync mode the server then sums
    the trainers' rows in trainer order, a row at a time, which gives the
    rows of the dense sum exactly. A sync region may pause once, at
    a `ps.clip_by_global_norm`, for a norm the servers share.

    ```mlir
    ps.update @fc1.b on grad (%g: tensor<256xf32>) {
      %lr = train.read @learning_rate : tensor<f32>
      train.sgd @fc1.b, %g, %lr : tensor<256xf32>, tensor<f32>
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$block, PS_MessageKind:$kind);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // OPENKS_DIALECT_PS_IR_PSOPS_TD
