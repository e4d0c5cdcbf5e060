//===- TrainAttrs.td - Train dialect attributes ------------*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parameter initializers.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINATTRS_TD
#define OPENKS_DIALECT_TRAIN_IR_TRAINATTRS_TD

include "openks/Dialect/Train/IR/TrainBase.td"
include "openks/Dialect/Train/IR/TrainInterfaces.td"

/// A double-precision float written as an MLIR float literal (`0.5`,
/// `-1.0e-02`).
def Train_DoubleParameter
    : AttrOrTypeParameter<"::llvm::APFloat", "a 64-bit float"> {
  let parser = [{ ::openks::train::parseDoubleParameter($_parser) }];
  let printer = [{ $_printer.printFloat($_self) }];
  let comparator = [{ $_lhs.bitwiseIsEqual($_rhs) }];
}

class Train_InitializerAttr<string name, string attrMnemonic>
    : AttrDef<Train_Dialect, name,
              [DeclareAttrInterfaceMethods<Train_InitializerAttrInterface>]> {
  let mnemonic = attrMnemonic;
}

def Train_ConstantInitAttr : Train_InitializerAttr<"ConstantInit", "constant"> {
  let summary = "Fills a parameter with one value.";
  let description = [{
    Every element takes `value`. For an integer parameter the value must be
    integral.

    ```mlir
    train.param @fc1.b : tensor<256xf32> init #train.constant<0.0>
    ```
  }];
  let parameters = (ins Train_DoubleParameter:$value);
  let assemblyFormat = "`<` $value `>`";
  let genVerifyDecl = 1;
}

def Train_UniformInitAttr : Train_InitializerAttr<"UniformInit", "uniform"> {
  let summary = "Draws each element uniformly from [min, max).";
  let description = [{
    ```mlir
    train.param @emb : tensor<1000x16xf32>
        init #train.uniform<min = -1.0e-01, max = 1.0e-01, seed = 7>
    ```
  }];
  let parameters = (ins Train_DoubleParameter:$min, Train_DoubleParameter:$max,
                        "uint64_t":$seed);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Train_GaussianInitAttr : Train_InitializerAttr<"GaussianInit", "gaussian"> {
  let summary = "Draws each element from a normal distribution.";
  let description = [{
    ```mlir
    train.param @w : tensor<16x8xf32>
        init #train.gaussian<mean = 0.0, std = 1.0e-02, seed = 3>
    ```
  }];
  let parameters = (ins Train_DoubleParameter:$mean, Train_DoubleParameter:$std,
                        "uint64_t":$seed);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Train_XavierInitAttr : Train_InitializerAttr<"XavierInit", "xavier"> {
  let summary = "Glorot/Xavier uniform initialisation.";
  let description = [{
    Draws each element uniformly from [-l, l) with
    l = sqrt(6 / (fan_in + fan_out)), as Paddle's default `Xavier`
    initializer does. fan_in is the first dimension and fan_out the product of
    the others (fan_out = fan_in for rank-1 parameters), both taken from the
    whole parameter even when only a slice is initialised.

    ```mlir
    train.param @fc1.w : tensor<784x256xf32> init #train.xavier<seed = 1>
    ```
  }];
  let parameters = (ins "uint64_t":$seed);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINATTRS_TD
