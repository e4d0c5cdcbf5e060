//===- Kernels.h - One CPU kernel per train op ------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The kernels behind the `train` dialect's ops, one function per op, built on
// Eigen. Each kernel reads its inputs, sets the shape of each output (within
// the output's capacity, so it does not allocate in steady state) and writes
// it. Float kernels work on f32 and f64; ids and labels are i64. Outputs must
// already have the right dtype (a Tensor's dtype is fixed when it is made).
//
// Kernels check what they rely on: a rank, shape or dtype disagreement, a
// label outside the classes, an id outside the table, sequence lengths that
// do not cover the rows or the mean of an empty tensor returns an error
// Status whose message starts with the op's name; nothing crashes.
// Element-wise kernels (dropout too), softmax and reshape may write their
// output over an input; matmul, reduce_sum, concat, p_norm, cos_sim, the
// pooling kernels and nce may not.
//
// Optimizer kernels update their parameter and state tensors in place,
// from a dense gradient or a row-sparse one (only the rows it holds).
//
// A row-sparse value is two tensors: `rowIds` [k], distinct int64 ids in
// ascending order, and `values` [k, ...], the rows of a table at them.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_KERNELS_H
#define OPENKS_RUNTIME_KERNELS_H

#include "openks/Runtime/Random.h"
#include "openks/Runtime/Tensor.h"
#include "openks/Support/Status.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace openks::runtime::kernels {

//===----------------------------------------------------------------------===//
// Forward ops
//===----------------------------------------------------------------------===//

/// out = a x b for [M, K] x [K, N].
Status matmul(const Tensor &a, const Tensor &b, Tensor &out);
/// out = x + y, where y has x's shape or is a bias over x's last dimension.
Status add(const Tensor &x, const Tensor &y, Tensor &out);
/// out = x * y element-wise, with the same broadcast as add.
Status mul(const Tensor &x, const Tensor &y, Tensor &out);
/// out = max(x, 0).
Status relu(const Tensor &x, Tensor &out);
/// out = 1 / (1 + exp(-x)).
Status sigmoid(const Tensor &x, Tensor &out);
/// out = tanh(x).
Status tanh(const Tensor &x, Tensor &out);
/// Softmax over the last dimension (numerically stable).
Status softmax(const Tensor &x, Tensor &out);
/// out[i] = -log softmax(logits)[i, labels[i]]; logits [N, C], labels [N].
/// A label outside [0, C) is an error.
Status softmaxCrossEntropy(const Tensor &logits, const Tensor &labels,
                           Tensor &out);
/// out = max(x, 0) - x * z + log(1 + exp(-|x|)) element-wise.
Status sigmoidCrossEntropy(const Tensor &logits, const Tensor &labels,
                           Tensor &out);
/// out (rank 0) = mean of all elements of x.
Status mean(const Tensor &x, Tensor &out);
/// Sum over `dims` (all when empty), keeping them as size 1 if `keepDims`.
Status reduceSum(const Tensor &x, const std::vector<int64_t> &dims,
                 bool keepDims, Tensor &out);
/// out = x, with x's shape.
Status copy(const Tensor &x, Tensor &out);
/// out = x with shape `shape`, where a -1 entry takes the remaining size.
Status reshape(const Tensor &x, const Shape &shape, Tensor &out);
/// Concatenation of `inputs` along `axis`.
Status concat(const std::vector<const Tensor *> &inputs, int64_t axis,
              Tensor &out);
/// out = table[ids] with shape ids.shape + [D]; rows at `paddingIdx` are
/// zero. An id outside [0, V) is an error.
Status embedding(const Tensor &table, const Tensor &ids,
                 std::optional<int64_t> paddingIdx, Tensor &out);
/// Fills `out` (whose shape is already set) with `value`.
Status fill(double value, Tensor &out);
/// out = the rank-0 `value` in every element, with the shape of `like`
/// (linalg.fill); `value` has out's element type.
Status fillLike(const Tensor &value, const Tensor &like, Tensor &out);
/// out = zeros of shape `shape`, whose dynamic (-1) sizes are taken in order
/// from the rank-0 i64 `dynamicSizes` (tensor.empty).
Status zeros(const Shape &shape,
             const std::vector<const Tensor *> &dynamicSizes, Tensor &out);
/// out = the rank-0 i64 size of dimension `dim` of x (tensor.dim).
Status dimSize(const Tensor &x, int64_t dim, Tensor &out);
/// out[i_p0, ..., i_pn] = x[i_0, ..., i_n] for `permutation` p: dimension j
/// of out is dimension permutation[j] of x (linalg.transpose).
Status transpose(const Tensor &x, const std::vector<int64_t> &permutation,
                 Tensor &out);
/// out = factor * x.
Status scale(const Tensor &x, double factor, Tensor &out);

//===----------------------------------------------------------------------===//
// Gradient ops: each returns the gradients of the forward op's inputs.
//===----------------------------------------------------------------------===//

/// da = dout x b^T, db = a^T x dout. A null `da` or `db` is not computed
/// (the gradient of a fed input batch, which nothing reads).
Status matmulGrad(const Tensor &a, const Tensor &b, const Tensor &dout,
                  Tensor *da, Tensor *db);
/// dx = dout; dy = dout, or its sum over the leading dimensions for a bias.
Status addGrad(const Tensor &x, const Tensor &y, const Tensor &dout, Tensor &dx,
               Tensor &dy);
/// dx = dout * y; dy = dout * x (summed over leading dimensions for a bias).
Status mulGrad(const Tensor &x, const Tensor &y, const Tensor &dout, Tensor &dx,
               Tensor &dy);
/// dx = dout where out > 0, else 0.
Status reluGrad(const Tensor &out, const Tensor &dout, Tensor &dx);
/// dx = dout * out * (1 - out).
Status sigmoidGrad(const Tensor &out, const Tensor &dout, Tensor &dx);
/// dx = dout * (1 - out^2).
Status tanhGrad(const Tensor &out, const Tensor &dout, Tensor &dx);
/// dx = out * (dout - sum(dout * out, last dimension)).
Status softmaxGrad(const Tensor &out, const Tensor &dout, Tensor &dx);
/// dlogits[i, c] = dloss[i] * (softmax(logits)[i, c] - (c == labels[i])).
Status softmaxCrossEntropyGrad(const Tensor &logits, const Tensor &labels,
                               const Tensor &dloss, Tensor &dlogits);
/// dlogits = dloss * (sigmoid(logits) - labels).
Status sigmoidCrossEntropyGrad(const Tensor &logits, const Tensor &labels,
                               const Tensor &dloss, Tensor &dlogits);
/// dx = dout / numel(x) everywhere (dout is rank 0).
Status meanGrad(const Tensor &x, const Tensor &dout, Tensor &dx);
/// dx = dout broadcast back over the reduced dimensions.
Status reduceSumGrad(const Tensor &x, const Tensor &dout,
                     const std::vector<int64_t> &dims, bool keepDims,
                     Tensor &dx);
/// dx = dout in the shape of x.
Status reshapeGrad(const Tensor &x, const Tensor &dout, Tensor &dx);
/// Splits dout along `axis` back into one gradient per input.
Status concatGrad(const std::vector<const Tensor *> &inputs, const Tensor &dout,
                  int64_t axis, const std::vector<Tensor *> &dinputs);
/// dtable (shape `tableShape`) = scatter-add of dout's rows at ids, skipping
/// `paddingIdx`. An id outside the table is an error.
Status embeddingGrad(const Tensor &ids, const Tensor &dout,
                     const Shape &tableShape, std::optional<int64_t> paddingIdx,
                     Tensor &dtable);

//===----------------------------------------------------------------------===//
// Element-wise math: each forward kernel, then its gradient
//===----------------------------------------------------------------------===//

/// out = x - y, with the broadcast of add.
Status sub(const Tensor &x, const Tensor &y, Tensor &out);
/// out = x / y, with the broadcast of add; x / 0 is inf or NaN (IEEE).
Status div(const Tensor &x, const Tensor &y, Tensor &out);
/// dx = dout; dy = -dout (summed over the leading dimensions for a bias).
Status subGrad(const Tensor &x, const Tensor &y, const Tensor &dout, Tensor &dx,
               Tensor &dy);
/// dx = dout / y; dy = -dout * x / y^2 (summed for a bias).
Status divGrad(const Tensor &x, const Tensor &y, const Tensor &dout, Tensor &dx,
               Tensor &dy);
/// out = |x|.
Status abs(const Tensor &x, Tensor &out);
/// out = -x.
Status neg(const Tensor &x, Tensor &out);
/// out = max(x, y) element-wise, NaN if either is (IEEE maximum); x and y
/// have one shape.
Status maximum(const Tensor &x, const Tensor &y, Tensor &out);
/// out = min(x, y) element-wise, NaN if either is; x and y have one shape.
Status minimum(const Tensor &x, const Tensor &y, Tensor &out);
/// out = x * x.
Status square(const Tensor &x, Tensor &out);
/// out = sqrt(x); NaN for x < 0.
Status sqrt(const Tensor &x, Tensor &out);
/// out = exp(x).
Status exp(const Tensor &x, Tensor &out);
/// out = log(x); -inf at 0, NaN for x < 0.
Status log(const Tensor &x, Tensor &out);
/// out = x / (1 + |x|).
Status softsign(const Tensor &x, Tensor &out);
/// dx = dout * sign(x), 0 where x = 0.
Status absGrad(const Tensor &x, const Tensor &dout, Tensor &dx);
/// dx = 2 * x * dout.
Status squareGrad(const Tensor &x, const Tensor &dout, Tensor &dx);
/// dx = dout / (2 * out), from the forward result.
Status sqrtGrad(const Tensor &out, const Tensor &dout, Tensor &dx);
/// dx = dout * out, from the forward result.
Status expGrad(const Tensor &out, const Tensor &dout, Tensor &dx);
/// dx = dout / x.
Status logGrad(const Tensor &x, const Tensor &dout, Tensor &dx);
/// dx = dout / (1 + |x|)^2.
Status softsignGrad(const Tensor &x, const Tensor &dout, Tensor &dx);

//===----------------------------------------------------------------------===//
// Norms and cosine similarity
//===----------------------------------------------------------------------===//

/// out = the L`p` norm (p is 1 or 2) of x along `axis`, which is dropped
/// from the shape, or kept as size 1 if `keepDims`.
Status pNorm(const Tensor &x, int64_t p, int64_t axis, bool keepDims,
             Tensor &out);
/// dx = dout * x / (out + epsilon) for p = 2, dout * sign(x) for p = 1,
/// dout and out broadcast back along `axis`.
Status pNormGrad(const Tensor &x, const Tensor &out, const Tensor &dout,
                 int64_t p, int64_t axis, bool keepDims, double epsilon,
                 Tensor &dx);
/// out [N, 1] = the cosine of each row of x [N, D] with the same row of
/// y [N, D], or with the one row of y [1, D]; 0 where a row is zero.
Status cosSim(const Tensor &x, const Tensor &y, Tensor &out);
/// The gradients of cosSim; a one-row y gets the sum over the rows, and
/// zero rows get zero gradients.
Status cosSimGrad(const Tensor &x, const Tensor &y, const Tensor &dout,
                  Tensor &dx, Tensor &dy);

//===----------------------------------------------------------------------===//
// Regression and ranking losses
//===----------------------------------------------------------------------===//

/// out = (input - label)^2 element-wise.
Status squareError(const Tensor &input, const Tensor &label, Tensor &out);
/// dinput = 2 * (input - label) * dout, dlabel = -dinput.
Status squareErrorGrad(const Tensor &input, const Tensor &label,
                       const Tensor &dout, Tensor &dinput, Tensor &dlabel);
/// out = max(0, margin + pos - neg) element-wise.
Status marginLoss(const Tensor &pos, const Tensor &neg, double margin,
                  Tensor &out);
/// dpos = dout, dneg = -dout where margin + pos - neg > 0; 0 elsewhere.
Status marginLossGrad(const Tensor &pos, const Tensor &neg, const Tensor &dout,
                      double margin, Tensor &dpos, Tensor &dneg);

//===----------------------------------------------------------------------===//
// Pooling of variable-length sequences
//===----------------------------------------------------------------------===//

/// How the rows of one sequence combine: their sum, their mean, or their
/// sum divided by the square root of the sequence's length.
enum class PoolType { Sum, Mean, Sqrt };

/// out [B, ...] pools the rows of x [N, ...], taken in order as B sequences
/// of lengths [B] rows; an empty sequence pools to zeros. Negative lengths,
/// or lengths that do not sum to N, are an error.
Status sequencePool(const Tensor &x, const Tensor &lengths, PoolType type,
                    Tensor &out);
/// dx = dout[b] for each row of sequence b, divided as the pooling divides.
Status sequencePoolGrad(const Tensor &x, const Tensor &lengths,
                        const Tensor &dout, PoolType type, Tensor &dx);
/// sequencePool of embedding(table, ids): the rows of table [V, D] at ids [N]
/// pooled over lists of lengths [B]; a `paddingIdx` id is a zero row that
/// counts in its list's length.
Status embeddingPool(const Tensor &table, const Tensor &ids,
                     const Tensor &lengths, PoolType type,
                     std::optional<int64_t> paddingIdx, Tensor &out);
/// dtable (shape `tableShape`) = scatter-add of dout[b], divided as the
/// pooling divides, at each id of list b, skipping `paddingIdx`.
Status embeddingPoolGrad(const Tensor &ids, const Tensor &lengths,
                         const Tensor &dout, const Shape &tableShape,
                         PoolType type, std::optional<int64_t> paddingIdx,
                         Tensor &dtable);

//===----------------------------------------------------------------------===//
// Dropout and noise-contrastive estimation: random draws keyed by a seed,
// counted by position, on the stream of a rank-0 i64 step counter
//===----------------------------------------------------------------------===//

/// What a dropout mask keeps: element e at step s is kept when Philox keyed
/// by `seed` gives u(e, s) >= `prob` (counter e, stream s); a kept element is
/// scaled by 1 / (1 - prob) if `upscaleInTrain`.
struct DropoutMask {
  double prob = 0.5;
  uint64_t seed = 0;
  bool upscaleInTrain = false;
};

/// out = x * mask(step), in training. `firstRow` is the row of the whole
/// batch where `x` begins (a trainer's shard): element e of x draws at
/// counter firstRow * (elements per row) + e, so that a shard draws what
/// the same rows of the whole batch draw.
Status dropout(const Tensor &x, const Tensor &step, int64_t firstRow,
               const DropoutMask &mask, Tensor &out);
/// dx = dout * mask(step): the mask of the forward dropout, drawn again.
Status dropoutGrad(const Tensor &dout, const Tensor &step, int64_t firstRow,
                   const DropoutMask &mask, Tensor &dx);

/// How nce draws its negative classes: `numNegSamples` per row, negative j
/// of row i from `sampler` at counter (firstRow + i) * numNegSamples + j on
/// the stream of the step, with a ClassSampler keyed by `seed`; `firstRow`
/// is the row of the whole batch where the input begins.
struct NceSampling {
  int64_t numNegSamples = 1;
  ClassSampler::Kind sampler = ClassSampler::Kind::Uniform;
  uint64_t seed = 0;
};

/// Paddle's nce cost [B] of input [B, D] with true classes labels [B] or
/// [B, T], class weights [V, D] and biases [V]. A label outside [0, V) is an
/// error.
Status nce(const Tensor &input, const Tensor &labels, const Tensor &weight,
           const Tensor &bias, const Tensor &step, int64_t firstRow,
           const NceSampling &sampling, Tensor &cost);
/// The gradients of nce w.r.t. input, weight and bias (dense), from the same
/// draws.
Status nceGrad(const Tensor &input, const Tensor &labels, const Tensor &weight,
               const Tensor &bias, const Tensor &step, int64_t firstRow,
               const Tensor &dcost, const NceSampling &sampling, Tensor &dinput,
               Tensor &dweight, Tensor &dbias);

//===----------------------------------------------------------------------===//
// Row-sparse values
//===----------------------------------------------------------------------===//

/// The row-sparse form of embeddingGrad: `rowIds` the distinct ids but
/// `paddingIdx`, ascending, and `values` their rows, each summed over the
/// id's positions in order, as embeddingGrad sums them.
Status embeddingGradRows(const Tensor &ids, const Tensor &dout,
                         const Shape &tableShape,
                         std::optional<int64_t> paddingIdx, Tensor &rowIds,
                         Tensor &values);
/// The row-sparse form of embeddingPoolGrad, as embeddingGradRows.
Status embeddingPoolGradRows(const Tensor &ids, const Tensor &lengths,
                             const Tensor &dout, const Shape &tableShape,
                             PoolType type, std::optional<int64_t> paddingIdx,
                             Tensor &rowIds, Tensor &values);
/// The sum of row-sparse values of one table of shape `tableShape`: the
/// union of their ids, each row summed over the inputs in order.
Status mergeRows(const std::vector<const Tensor *> &rowIds,
                 const std::vector<const Tensor *> &values,
                 const Shape &tableShape, Tensor &outIds, Tensor &outValues);
/// out (shape `tableShape`) = zero but the rows of a row-sparse value.
Status rowsToDense(const Tensor &rowIds, const Tensor &values,
                   const Shape &tableShape, Tensor &out);
/// (outIds, outValues) = the row-sparse value of `lhs - rhs` over the rows
/// in which `lhs` and `rhs`, of one shape, differ in any element.
Status changedRows(const Tensor &lhs, const Tensor &rhs, Tensor &outIds,
                   Tensor &outValues);
/// Sets (or with `accumulate`, adds to) the rows of `param` that a
/// row-sparse value holds to its rows.
Status scatterRows(const Tensor &rowIds, const Tensor &values, bool accumulate,
                   Tensor &param);

/// The gradient an optimizer applies: a dense tensor shaped like the
/// parameter, or a row-sparse value of it. Converts from a dense tensor.
struct GradientRef {
  GradientRef(const Tensor &dense) : values(dense) {}
  GradientRef(const Tensor &rowIds, const Tensor &values)
      : values(values), rowIds(&rowIds) {}

  /// The dense gradient, or the rows of the row-sparse one.
  const Tensor &values;
  /// The ids of the rows, or null for a dense gradient.
  const Tensor *rowIds = nullptr;
};

//===----------------------------------------------------------------------===//
// Optimizers: update `param` (and state) in place; lr is a rank-0 tensor.
// With a row-sparse gradient only its rows of param and of the element-wise
// state change (lazily); the rank-0 state advances as for a dense one.
//===----------------------------------------------------------------------===//

/// param -= lr * grad.
Status sgd(Tensor &param, const GradientRef &grad, const Tensor &lr);
/// v = mu * v + grad; param -= lr * v, or lr * (grad + mu * v) if nesterov.
Status momentum(Tensor &param, Tensor &velocity, const GradientRef &grad,
                const Tensor &lr, double mu, bool nesterov);
/// Paddle's adam: moments, bias correction from the beta powers, then
/// beta1Pow *= beta1 and beta2Pow *= beta2.
Status adam(Tensor &param, Tensor &moment1, Tensor &moment2, Tensor &beta1Pow,
            Tensor &beta2Pow, const GradientRef &grad, const Tensor &lr,
            double beta1, double beta2, double epsilon);
/// moment += grad^2; param -= lr * grad / (sqrt(moment) + epsilon).
Status adagrad(Tensor &param, Tensor &moment, const GradientRef &grad,
               const Tensor &lr, double epsilon);

/// Paddle's rmsprop: meanSquare = decay * meanSquare + (1 - decay) * grad^2;
/// moment = momentum * moment + lr * grad / sqrt(meanSquare + epsilon);
/// param -= moment.
Status rmsprop(Tensor &param, Tensor &meanSquare, Tensor &moment,
               const GradientRef &grad, const Tensor &lr, double decay,
               double epsilon, double momentum);
/// Centered rmsprop: also meanGrad = decay * meanGrad + (1 - decay) * grad,
/// and the denominator is sqrt(meanSquare - meanGrad^2 + epsilon).
Status centeredRmsprop(Tensor &param, Tensor &meanSquare, Tensor &moment,
                       Tensor &meanGrad, const GradientRef &grad,
                       const Tensor &lr, double decay, double epsilon,
                       double momentum);
/// moment = decay * moment + (1 - decay) * grad^2;
/// param -= lr * grad / (sqrt(moment) + epsilon).
Status decayedAdagrad(Tensor &param, Tensor &moment, const GradientRef &grad,
                      const Tensor &lr, double decay, double epsilon);
/// Paddle's ftrl, with 1e-10 added to l1 and l2 as its kernel does: updates
/// the squared and linear accumulators and sets param to the proximal
/// solution, 0 where |linear| <= l1.
Status ftrl(Tensor &param, Tensor &squared, Tensor &linear,
            const GradientRef &grad, const Tensor &lr, double l1, double l2,
            double lrPower);
/// Paddle's adamax: moment = beta1 * moment + (1 - beta1) * grad,
/// infNorm = max(beta2 * infNorm + epsilon, |grad|),
/// param -= lr / (1 - beta1Pow) * moment / infNorm; then beta1Pow *= beta1.
Status adamax(Tensor &param, Tensor &moment, Tensor &infNorm, Tensor &beta1Pow,
              const GradientRef &grad, const Tensor &lr, double beta1,
              double beta2, double epsilon);

//===----------------------------------------------------------------------===//
// Clipping and regularization
//===----------------------------------------------------------------------===//

/// Scales every gradient by maxNorm / max(n, maxNorm), n being the L2 norm
/// of all of them together.
Status clipByGlobalNorm(const std::vector<const Tensor *> &grads,
                        double maxNorm, const std::vector<Tensor *> &clipped);
/// out = x * maxNorm / max(n, maxNorm), n being the L2 norm of x.
Status clipByNorm(const Tensor &x, double maxNorm, Tensor &out);
/// Writes the sum of the squares of the elements of `x`, added in double,
/// into `out`, a rank-0 f64 tensor: a share of a norm that several servers
/// compute together.
Status sumOfSquares(const Tensor &x, Tensor &out);
/// out = x * maxNorm / max(norm, maxNorm), `norm` being a rank-0 f64
/// tensor: the clip of a norm computed elsewhere.
Status clipToNorm(const Tensor &x, const Tensor &norm, double maxNorm,
                  Tensor &out);
/// out = min(max(x, min), max) element-wise.
Status clip(const Tensor &x, double min, double max, Tensor &out);
/// out = -1, 0 or 1 as x is negative, zero or positive.
Status sign(const Tensor &x, Tensor &out);

//===----------------------------------------------------------------------===//
// Learning-rate schedules (step: a rank-0 f32, f64 or i64 counter)
//===----------------------------------------------------------------------===//

/// out = x + 1 for a rank-0 counter.
Status increment(const Tensor &x, Tensor &out);
/// lr = learningRate * decayRate ^ (step / decaySteps), the exponent floored
/// if `staircase`.
Status exponentialDecay(const Tensor &step, double learningRate,
                        double decayRate, int64_t decaySteps, bool staircase,
                        Tensor &lr);
/// lr = values[i], i the number of boundaries at or below step.
Status piecewiseDecay(const Tensor &step,
                      const std::vector<int64_t> &boundaries,
                      const std::vector<double> &values, Tensor &lr);

//===----------------------------------------------------------------------===//
// Parameter-server row sections
//===----------------------------------------------------------------------===//

/// Splits x into consecutive row sections of `rows[i]` rows each.
Status splitRows(const Tensor &x, const std::vector<int64_t> &rows,
                 const std::vector<Tensor *> &outs);
/// Stacks the row-sparse values of consecutive row sections of `rows[i]`
/// rows each into the row-sparse value of the whole: the inverse of
/// splitRowSections.
Status concatRowSections(const std::vector<const Tensor *> &rowIds,
                         const std::vector<const Tensor *> &values,
                         const std::vector<int64_t> &rows, Tensor &outIds,
                         Tensor &outValues);
/// Gathers the distinct elements of every tensor of `ids`, ids of the table
/// `table` of `rows[0] + rows[1] + ...` rows, and splits them, ascending,
/// by its row sections of `rows[i]` rows each, local to each section.
Status routeIds(const std::vector<const Tensor *> &ids,
                const std::string &table, const std::vector<int64_t> &rows,
                const std::vector<Tensor *> &outs);
/// out = the position of each element of `ids` among the distinct ascending
/// `rowIds` (the rows a row-sparse value of a table of `tableRows` rows
/// holds), -1 for `paddingIdx`; an id that is not among them is an error.
Status findRows(const Tensor &rowIds, const Tensor &ids, int64_t tableRows,
                std::optional<int64_t> paddingIdx, Tensor &out);
/// Splits a row-sparse value of a table into the row-sparse values of its
/// consecutive row sections of `rows[i]` rows each: every row goes to the
/// section its id falls in, its id made local to the section.
Status splitRowSections(const Tensor &rowIds, const Tensor &values,
                        const std::vector<int64_t> &rows,
                        const std::vector<Tensor *> &outIds,
                        const std::vector<Tensor *> &outValues);

} // namespace openks::runtime::kernels

#endif // OPENKS_RUNTIME_KERNELS_H
