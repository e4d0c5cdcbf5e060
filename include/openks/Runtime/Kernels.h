//===- Kernels.h - One CPU kernel per train op ------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
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
// label outside the classes, an id outside the table or the mean of an empty
// tensor returns an error Status whose message starts with the op's name;
// nothing crashes. Element-wise kernels, softmax and reshape may write their
// output over an input; matmul, reduce_sum and concat may not.
//
// Optimizer kernels update their parameter and state tensors in place.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_KERNELS_H
#define OPENKS_RUNTIME_KERNELS_H

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
// Optimizers: update `param` (and state) in place; lr is a rank-0 tensor.
//===----------------------------------------------------------------------===//

/// param -= lr * grad.
Status sgd(Tensor &param, const Tensor &grad, const Tensor &lr);
/// v = mu * v + grad; param -= lr * v, or lr * (grad + mu * v) if nesterov.
Status momentum(Tensor &param, Tensor &velocity, const Tensor &grad,
                const Tensor &lr, double mu, bool nesterov);
/// Paddle's adam: moments, bias correction from the beta powers, then
/// beta1Pow *= beta1 and beta2Pow *= beta2.
Status adam(Tensor &param, Tensor &moment1, Tensor &moment2, Tensor &beta1Pow,
            Tensor &beta2Pow, const Tensor &grad, const Tensor &lr,
            double beta1, double beta2, double epsilon);
/// moment += grad^2; param -= lr * grad / (sqrt(moment) + epsilon).
Status adagrad(Tensor &param, Tensor &moment, const Tensor &grad,
               const Tensor &lr, double epsilon);

/// Paddle's rmsprop: meanSquare = decay * meanSquare + (1 - decay) * grad^2;
/// moment = momentum * moment + lr * grad / sqrt(meanSquare + epsilon);
/// param -= moment.
Status rmsprop(Tensor &param, Tensor &meanSquare, Tensor &moment,
               const Tensor &grad, const Tensor &lr, double decay,
               double epsilon, double momentum);
/// Centered rmsprop: also meanGrad = decay * meanGrad + (1 - decay) * grad,
/// and the denominator is sqrt(meanSquare - meanGrad^2 + epsilon).
Status centeredRmsprop(Tensor &param, Tensor &meanSquare, Tensor &moment,
                       Tensor &meanGrad, const Tensor &grad, const Tensor &lr,
                       double decay, double epsilon, double momentum);
/// moment = decay * moment + (1 - decay) * grad^2;
/// param -= lr * grad / (sqrt(moment) + epsilon).
Status decayedAdagrad(Tensor &param, Tensor &moment, const Tensor &grad,
                      const Tensor &lr, double decay, double epsilon);
/// Paddle's ftrl, with 1e-10 added to l1 and l2 as its kernel does: updates
/// the squared and linear accumulators and sets param to the proximal
/// solution, 0 where |linear| <= l1.
Status ftrl(Tensor &param, Tensor &squared, Tensor &linear, const Tensor &grad,
            const Tensor &lr, double l1, double l2, double lrPower);
/// Paddle's adamax: moment = beta1 * moment + (1 - beta1) * grad,
/// infNorm = max(beta2 * infNorm + epsilon, |grad|),
/// param -= lr / (1 - beta1Pow) * moment / infNorm; then beta1Pow *= beta1.
Status adamax(Tensor &param, Tensor &moment, Tensor &infNorm, Tensor &beta1Pow,
              const Tensor &grad, const Tensor &lr, double beta1, double beta2,
              double epsilon);

//===----------------------------------------------------------------------===//
// Clipping and regularization
//===----------------------------------------------------------------------===//

/// Scales every gradient by maxNorm / max(n, maxNorm), n being the L2 norm
/// of all of them together.
Status clipByGlobalNorm(const std::vector<const Tensor *> &grads,
                        double maxNorm, const std::vector<Tensor *> &clipped);
/// out = x * maxNorm / max(n, maxNorm), n being the L2 norm of x.
Status clipByNorm(const Tensor &x, double maxNorm, Tensor &out);
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

} // namespace openks::runtime::kernels

#endif // OPENKS_RUNTIME_KERNELS_H
