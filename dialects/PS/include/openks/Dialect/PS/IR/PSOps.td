//===- PSOps.td - Parameter-server dialect ops -------------*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PS_IR_PSOPS_TD
#define OPENKS_DIALECT_PS_IR_PSOPS_TD

include "openks/Dialect/PS/IR/PSAttrs.td"
include "openks/Dialect/PS/IR/PSBase.td"
include "openks/Dialect/Train/IR/TrainInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Slicing
//===----------------------------------------------------------------------===//

def PS_SplitOp : PS_PureOp<"split", [InferTypeOpAdaptor]> {
  let summary = "Splits a tensor into row sections.";
  let description = [{
    Section `i` takes the next `sections[i]` rows (Paddle's `split_byref`).
    The sections must cover the rows exactly when the row count is static.

    ```mlir
    %g0, %g1 = ps.split %dw rows [392, 392]
        : tensor<784x256xf32> -> tensor<392x256xf32>, tensor<392x256xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$sections);
  let results = (outs Variadic<AnyRankedTensor>:$outputs);
  let assemblyFormat = [{
    $input `rows` $sections attr-dict `:` type($input) `->` type($outputs)
  }];
}

def PS_ConcatOp : PS_PureOp<"concat", [InferTypeOpAdaptor]> {
  let summary = "Concatenates row sections back into one tensor.";
  let description = [{
    The inverse of `ps.split`: the inputs are stacked along dimension 0.

    ```mlir
    %w = ps.concat %p0, %p1
        : tensor<392x256xf32>, tensor<392x256xf32> -> tensor<784x256xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs);
  let results = (outs AnyRankedTensor:$output);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($output)
  }];
}

//===----------------------------------------------------------------------===//
// Communication
//===----------------------------------------------------------------------===//

def PS_SendOp : PS_CommunicationOp<"send"> {
  let summary = "Sends a named variable (block) to a server endpoint.";
  let description = [{
    ```mlir
    ps.send %g0 to "127.0.0.1:6171" as "fc1.w.block0@GRAD" : tensor<392x256xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value, StrAttr:$endpoint,
                       StrAttr:$var_name);
  let assemblyFormat = [{
    $value `to` $endpoint `as` $var_name attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
}

def PS_RecvOp : PS_CommunicationOp<"recv"> {
  let summary = "Receives a named variable (block) from a server endpoint.";
  let description = [{
    ```mlir
    %p0 = ps.recv "fc1.w.block0" from "127.0.0.1:6171" : tensor<392x256xf32>
    ```
  }];
  let arguments = (ins StrAttr:$var_name, StrAttr:$endpoint);
  let results = (outs AnyRankedTensor:$value);
  let assemblyFormat = [{
    $var_name `from` $endpoint attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
}

class PS_BarrierOp<string mnemonic, string when>
    : PS_CommunicationOp<mnemonic> {
  let summary = "Waits until every listed server has passed the " # mnemonic
                # ".";
  let description = [{
    }] # when # [{ The endpoints must be distinct.

    ```mlir
    ps.}] # mnemonic # [{ ["127.0.0.1:6170", "127.0.0.1:6171"]
    ```
  }];
  let arguments = (ins StrArrayAttr:$endpoints);
  let assemblyFormat = "$endpoints attr-dict";
  let hasVerifier = 1;
}

def PS_SendBarrierOp : PS_BarrierOp<"send_barrier",
    "Sent after a step's gradients: a server applies the step's updates once "
    "all of its trainers have reached it (Paddle's BATCH_BARRIER).">;
def PS_FetchBarrierOp : PS_BarrierOp<"fetch_barrier",
    "Sent after a step's receives: a server starts the next step once all of "
    "its trainers have fetched (Paddle's FETCH_BARRIER).">;

//===----------------------------------------------------------------------===//
// Role programs
//===----------------------------------------------------------------------===//

def PS_WorkerOp : PS_Op<"worker", [
    IsolatedFromAbove, NoRegionArguments, NoTerminator, SingleBlock, Symbol,
    SymbolTable]> {
  let summary = "The program every trainer runs.";
  let description = [{
    Holds the worker's local `train.param` copies and its `train.step`, whose
    communication with the servers is explicit.

    ```mlir
    ps.worker @mlp {
      train.param @fc1.b : tensor<256xf32> init #train.constant<0.0>
      train.step @step(...) { ... }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
}

def PS_ServerOp : PS_Op<"server", [
    IsolatedFromAbove, NoRegionArguments, NoTerminator, SingleBlock, Symbol,
    SymbolTable]> {
  let summary = "The program of one parameter server.";
  let description = [{
    A server listens on `endpoint`, expects `fan_in` trainers, synchronises
    in `mode`, holds the `ps.block`s placed on it and runs one `ps.update`
    region per trained block. It holds nothing else.

    ```mlir
    ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
      ps.block @fc1.b : tensor<256xf32> init #train.constant<0.0>
      ps.block @learning_rate : tensor<f32> init #train.constant<1.0e-01> frozen
      ps.update @fc1.b on "fc1.b@GRAD" (%g: tensor<256xf32>) {
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
}

def PS_BlockOp : PS_Op<"block", [
    Symbol, HasParent<"ServerOp">, Train_ParameterOpInterface]> {
  let summary = "A parameter block held by a server.";
  let description = [{
    A whole parameter, or rows `[row_begin, row_end)` of the parameter
    `origin` of type `origin_type` (whose name stays `<origin>.block<i>`).
    The initializer applies to the whole origin, so a server that
    initialises its rows gets exactly those rows of the single-process
    initialisation.

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
  }];
  let hasVerifier = 1;
}

def PS_UpdateOp : PS_Op<"update", [
    HasParent<"ServerOp">, NoTerminator, SingleBlock,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "How a server applies what it receives for one block.";
  let description = [{
    The region runs when the server has the gradient (or GEO delta) named
    `grad_name` for `block`: once per step on the sum of all trainers'
    gradients in sync mode, on every arrival otherwise. Its one argument is
    that value, with the block's type.

    ```mlir
    ps.update @fc1.b on "fc1.b@GRAD" (%g: tensor<256xf32>) {
      %lr = train.read @learning_rate : tensor<f32>
      train.sgd @fc1.b, %g, %lr : tensor<256xf32>, tensor<f32>
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$block, StrAttr:$grad_name);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // OPENKS_DIALECT_PS_IR_PSOPS_TD
