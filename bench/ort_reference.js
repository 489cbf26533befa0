// Runs an ONNX model with onnxruntime-node on given inputs and writes its
// outputs, for bench/real_models_check.py to compare `prec-compile --run`
// against. Inputs and outputs are raw little-endian files described by a
// manifest: DIR/inputs.json lists {name, dtype, shape, file}; this writes
// DIR/ort/<i>.bin and DIR/ort/outputs.json in the same form.
// Usage: node ort_reference.js MODEL.onnx DIR
// (onnxruntime-node from `npm install --ignore-scripts onnxruntime-node` in
// bench/; a reference for the bench, not a dependency.)
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const arrays = {
  float32: Float32Array, int64: BigInt64Array, int32: Int32Array, bool: Uint8Array,
  uint8: Uint8Array, int8: Int8Array, float64: Float64Array,
};

async function main() {
  const [model, dir] = process.argv.slice(2);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'inputs.json')));
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: 2, interOpNumThreads: 1, graphOptimizationLevel: 'all'});
  const feeds = {};
  for (const input of manifest) {
    const bytes = fs.readFileSync(path.join(dir, input.file));
    const Array = arrays[input.dtype];
    const data = new Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / Array.BYTES_PER_ELEMENT);
    feeds[input.name] = new ort.Tensor(input.dtype, data, input.shape);
  }
  const results = await session.run(feeds);
  fs.mkdirSync(path.join(dir, 'ort'), {recursive: true});
  const written = [];
  session.outputNames.forEach((name, i) => {
    const tensor = results[name];
    const file = `ort/${i}.bin`;
    fs.writeFileSync(path.join(dir, file), Buffer.from(tensor.data.buffer, tensor.data.byteOffset,
                                                       tensor.data.byteLength));
    written.push({name, dtype: tensor.type, shape: tensor.dims, file});
  });
  fs.writeFileSync(path.join(dir, 'ort', 'outputs.json'), JSON.stringify(written));
}
main().catch((e) => { console.error(e.message); process.exit(1); });
