// Runs an ONNX model with onnxruntime-node on seeded random inputs (the
// distribution prec-compile --run draws: floats uniform in [-1, 1); integers
// 0 or 1), with a
// fixed thread count, and prints the median run time and peak RSS as JSON.
// Usage: node ort_run.js MODEL.onnx THREADS ITERATIONS [SHAPES]
// SHAPES fixes dynamic dimensions as prec-compile's --input_shape does
// ("x:1,3,640,640;mask:8,128"); dimensions it leaves dynamic are 1.
// (onnxruntime-node comes from `npm install --ignore-scripts onnxruntime-node`
// in bench/; it is a reference for speed, not a dependency.)
const ort = require('onnxruntime-node');

async function main() {
  const [model, threads, iterations, shapes] = process.argv.slice(2);
  const given = {};
  for (const entry of (shapes || '').split(';').filter((e) => e.length > 0)) {
    const colon = entry.lastIndexOf(':');
    given[entry.slice(0, colon)] = entry.slice(colon + 1).split(',').map(Number);
  }
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threads), interOpNumThreads: 1,
    executionMode: 'sequential', graphOptimizationLevel: 'all'});
  const feeds = {};
  for (const name of session.inputNames) {
    const meta = session.inputMetadata.find((m) => m.name === name);
    const shape = given[name] || meta.shape.map((d) => (typeof d === 'number' ? d : 1));
    const count = shape.reduce((a, b) => a * b, 1);
    // Integer inputs (token ids, masks) get small non-negative values,
    // valid indices of any table.
    const integer = meta.type === 'int64' || meta.type === 'int32';
    const data = meta.type === 'int64' ? new BigInt64Array(count)
               : meta.type === 'int32' ? new Int32Array(count) : new Float32Array(count);
    let state = 12345;
    for (let i = 0; i < count; i++) {
      state = (state * 1103515245 + 12345) % 2147483648;
      if (!integer)
        data[i] = (state / 2147483648) * 2 - 1;
      else if (meta.type === 'int64')
        data[i] = BigInt(state % 2);
      else
        data[i] = state % 2;
    }
    feeds[name] = new ort.Tensor(integer ? meta.type : 'float32', data, shape);
  }
  await session.run(feeds); // warm-up
  const times = [];
  for (let i = 0; i < Number(iterations); i++) {
    const start = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(JSON.stringify({run_ms: median, peak_rss_mb: process.resourceUsage().maxRSS / 1024}));
}
main();
