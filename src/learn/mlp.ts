import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { zScores } from './knn.js';
import { Rng } from './rng.js';
import type { Matrix } from './table.js';

/** One dense layer: out = act(in · W + bias), W row-major [in × out]. Hidden layers use ReLU, the last is linear. */
export interface DenseLayer {
  inputs: number;
  outputs: number;
  weights: Float32Array;
  bias: Float32Array;
}

/**
 * A small multilayer perceptron on standardised model features (missing = the mean). Trained with TensorFlow.js;
 * predictions use a plain float64 forward pass over the saved float32 weights, so serving needs no TensorFlow.
 */
export interface MlpModel {
  mean: number[];
  std: number[];
  yMean: number;
  yStd: number;
  layers: DenseLayer[];
}

export interface MlpParams {
  hidden: number[];
  learningRate: number;
  /** L2 penalty on the weights (not the biases). */
  l2: number;
  batchSize: number;
  /** Epochs at most; with a validation set, training stops after `patience` epochs without improvement. */
  maxEpochs: number;
  patience: number;
  seed: number;
}

export const MLP_DEFAULTS: MlpParams = { hidden: [64, 32], learningRate: 1e-3, l2: 1e-4, batchSize: 128, maxEpochs: 150, patience: 12, seed: 0 };

type Tf = typeof import('@tensorflow/tfjs');
let tfReady: Promise<{ tf: Tf; backend: string }> | null = null;

/**
 * Loads TensorFlow.js with its WebAssembly backend, the .wasm binaries read from the installed
 * @tensorflow/tfjs-backend-wasm package (no download), one thread so results repeat exactly.
 */
export function loadTf(): Promise<{ tf: Tf; backend: string }> {
  tfReady ??= (async () => {
    const tf = await import('@tensorflow/tfjs');
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    const require = createRequire(import.meta.url);
    const dir = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + '/';
    wasm.setWasmPaths(dir);
    wasm.setThreadsCount(1);
    let backend = 'wasm';
    if (!(await tf.setBackend('wasm'))) {
      await tf.setBackend('cpu');
      backend = 'cpu';
    }
    await tf.ready();
    return { tf, backend };
  })();
  return tfReady;
}

export interface MlpFit {
  model: MlpModel;
  /** Validation MSE (model space) after each epoch; empty without validation. */
  validationLoss: number[];
  /** Epochs of the returned weights. */
  epochs: number;
  backend: string;
}

/**
 * Trains an MLP (Adam, mean squared error on standardised targets, seeded Glorot-uniform initial weights, rows
 * shuffled by our seeded generator each epoch). With `valid`, keeps the weights of the epoch with the lowest
 * validation loss.
 */
export async function fitMlp(
  m: Matrix,
  y: Float64Array,
  stats: { mean: number[]; std: number[] },
  params: Partial<MlpParams> = {},
  valid?: { x: Matrix; y: Float64Array },
): Promise<MlpFit> {
  const p = { ...MLP_DEFAULTS, ...params };
  const { tf, backend } = await loadTf();
  const n = m.nRows;
  if (n === 0) throw new RangeError('no training rows');
  let yMean = 0;
  for (let i = 0; i < n; i++) yMean += y[i];
  yMean /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (y[i] - yMean) ** 2;
  const yStd = Math.sqrt(ss / n) > 1e-12 ? Math.sqrt(ss / n) : 1;
  const z = zScores(m, stats.mean, stats.std);
  const zy = Float32Array.from(y, (v) => (v - yMean) / yStd);
  const rng = new Rng(p.seed);
  const model = tf.sequential();
  let inputs = m.nCols;
  p.hidden.forEach((units, i) => {
    model.add(
      tf.layers.dense({
        units,
        activation: 'relu',
        inputShape: i === 0 ? [inputs] : undefined,
        kernelInitializer: tf.initializers.glorotUniform({ seed: rng.uint32() % 2147483647 }),
        biasInitializer: 'zeros',
        kernelRegularizer: p.l2 > 0 ? tf.regularizers.l2({ l2: p.l2 }) : undefined,
      }),
    );
    inputs = units;
  });
  model.add(
    tf.layers.dense({
      units: 1,
      inputShape: p.hidden.length === 0 ? [inputs] : undefined,
      kernelInitializer: tf.initializers.glorotUniform({ seed: rng.uint32() % 2147483647 }),
      biasInitializer: 'zeros',
    }),
  );
  model.compile({ optimizer: tf.train.adam(p.learningRate), loss: 'meanSquaredError' });
  const order = Int32Array.from({ length: n }, (_, i) => i);
  const xs = new Float32Array(n * m.nCols);
  const ys = new Float32Array(n);
  const validationLoss: number[] = [];
  let best: MlpModel | null = null;
  let bestLoss = Infinity;
  let bestEpoch = 0;
  const vz = valid ? zScores(valid.x, stats.mean, stats.std) : null;
  for (let epoch = 1; epoch <= p.maxEpochs; epoch++) {
    rng.shuffle(order);
    for (let i = 0; i < n; i++) {
      xs.set(z.subarray(order[i] * m.nCols, (order[i] + 1) * m.nCols), i * m.nCols);
      ys[i] = zy[order[i]];
    }
    const xt = tf.tensor2d(xs, [n, m.nCols]);
    const yt = tf.tensor2d(ys, [n, 1]);
    await model.fit(xt, yt, { epochs: 1, batchSize: p.batchSize, shuffle: false, verbose: 0 });
    xt.dispose();
    yt.dispose();
    if (valid && vz) {
      const current = snapshot(model, stats, yMean, yStd);
      const pred = forward(current, vz, valid.x.nRows);
      let sse = 0;
      for (let i = 0; i < pred.length; i++) sse += (pred[i] - valid.y[i]) ** 2;
      const loss = sse / pred.length;
      validationLoss.push(loss);
      if (loss < bestLoss) {
        bestLoss = loss;
        best = current;
        bestEpoch = epoch;
      } else if (epoch - bestEpoch >= p.patience) break;
    }
  }
  const out = valid && best ? best : snapshot(model, stats, yMean, yStd);
  const epochs = valid && best ? bestEpoch : p.maxEpochs;
  model.dispose();
  return { model: out, validationLoss, epochs, backend };
}

function snapshot(model: import('@tensorflow/tfjs').Sequential, stats: { mean: number[]; std: number[] }, yMean: number, yStd: number): MlpModel {
  const layers: DenseLayer[] = model.layers.map((layer) => {
    const [w, b] = layer.getWeights();
    const [inputs, outputs] = w.shape as [number, number];
    return { inputs, outputs, weights: Float32Array.from(w.dataSync()), bias: Float32Array.from(b.dataSync()) };
  });
  return { mean: stats.mean, std: stats.std, yMean, yStd, layers };
}

/** Forward pass over standardised rows `z` (row-major). */
function forward(model: MlpModel, z: Float64Array, nRows: number): Float64Array {
  const out = new Float64Array(nRows);
  const width = Math.max(...model.layers.map((l) => Math.max(l.inputs, l.outputs)));
  let a = new Float64Array(width);
  let b = new Float64Array(width);
  for (let r = 0; r < nRows; r++) {
    a.set(z.subarray(r * model.layers[0].inputs, (r + 1) * model.layers[0].inputs));
    for (let li = 0; li < model.layers.length; li++) {
      const L = model.layers[li];
      const last = li === model.layers.length - 1;
      for (let o = 0; o < L.outputs; o++) b[o] = L.bias[o];
      for (let i = 0; i < L.inputs; i++) {
        const ai = a[i];
        if (ai === 0) continue;
        const wo = i * L.outputs;
        for (let o = 0; o < L.outputs; o++) b[o] += ai * L.weights[wo + o];
      }
      if (!last) for (let o = 0; o < L.outputs; o++) if (b[o] < 0) b[o] = 0;
      const t = a;
      a = b;
      b = t;
    }
    out[r] = a[0] * model.yStd + model.yMean;
  }
  return out;
}

/** Predictions of an MLP for every row of `m` (model features). */
export function predictMlp(model: MlpModel, m: Matrix): Float64Array {
  return forward(model, zScores(m, model.mean, model.std), m.nRows);
}
