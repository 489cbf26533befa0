"""Planes and rows larger than UB (issue 56): every op is lowered, in windows
CANN's kernels would use, and the windows put together give what the op
computes on the whole plane. Each op's fp32 run (must_keep_origin_dtype) is
checked against an independent numpy version on a rendered image, not random
data alone."""

import warnings

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import ascendprec

SOC = dict(soc_version="Ascend910B1", precision_mode="must_keep_origin_dtype")


def rendered_image(channels, height, width):
    """A synthetic photo: a lit gradient, discs, stripes of 'text' and a
    little sensor noise, per channel in [0, 1]."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    rng = np.random.default_rng(7)
    planes = []
    for c in range(channels):
        plane = 0.3 + 0.4 * (x / width) * (1 - y / height) + 0.05 * c
        for _ in range(6):
            cy, cx, r = rng.uniform(0, height), rng.uniform(0, width), rng.uniform(1, max(2, min(height, width) / 4))
            plane[(y - cy) ** 2 + (x - cx) ** 2 < r * r] = rng.uniform(0, 1)
        stripes = (np.sin(x / 3.0) > 0.7) & ((y // 12) % 4 == 1)
        plane[stripes] *= 0.2
        planes.append(plane + rng.normal(0, 0.01, plane.shape))
    return np.clip(np.stack(planes), 0, 1).astype(np.float32)[None]


def onnx_model(node, inputs, output, initializers=(), opset=17):
    graph = helper.make_graph(
        [node], "large", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
        [], list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    inferred = onnx.shape_inference.infer_shapes(model)
    model.graph.output.extend([v for v in inferred.graph.value_info if v.name == output])
    return model.SerializeToString()


def resize_axis(data, axis, mode, coordinates, out_size):
    """ONNX Resize of `data` along `axis` (linear, or cubic with a = -0.75
    and exclude_outside = 0; taps past the edge read it), in float64."""
    size = data.shape[axis]
    o = np.arange(out_size, dtype=np.float64)
    if coordinates == "align_corners":
        x = o * (size - 1) / (out_size - 1) if out_size > 1 else 0 * o
    elif coordinates == "half_pixel":
        x = (o + 0.5) * size / out_size - 0.5
    else:
        x = o * size / out_size
    base = np.floor(x).astype(np.int64)
    t = x - base
    if mode == "linear":
        taps = [(base, 1 - t), (base + 1, t)]
    else:
        a = -0.75
        near = lambda d: ((a + 2) * d - (a + 3)) * d * d + 1  # noqa: E731
        far = lambda d: ((a * d - 5 * a) * d + 8 * a) * d - 4 * a  # noqa: E731
        taps = [(base - 1, far(t + 1)), (base, near(t)), (base + 1, near(1 - t)),
                (base + 2, far(2 - t))]
    shape = [1] * data.ndim
    shape[axis] = out_size
    result = 0
    for index, weight in taps:
        result = result + np.take(data, np.clip(index, 0, size - 1), axis=axis) * \
            weight.reshape(shape)
    return result


def planned_op(plan, op_type):
    ops = [op for op in plan.ops if op.op_type == op_type]
    assert len(ops) == 1, [op.op_type for op in plan.ops]
    return ops[0]


@pytest.mark.parametrize("mode,coordinates,shape,out_hw", [
    # 2.4 MB planes: windows of output rows, whole rows wide.
    ("linear", "half_pixel", (2, 640, 480), (1280, 960)),
    ("linear", "align_corners", (1, 1024, 1024), (512, 512)),
    ("cubic", "asymmetric", (1, 600, 400), (900, 700)),
    # A row of 60,000 fp32 values does not fit 192 KB twice: columns too.
    ("linear", "half_pixel", (1, 3, 60000), (5, 90000)),
])
def test_resize_in_windows_matches_the_whole_plane(mode, coordinates, shape, out_hw):
    channels, height, width = shape
    image = rendered_image(channels, height, width)
    sizes = numpy_helper.from_array(np.array([1, channels, *out_hw], np.int64), "sizes")
    node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode=mode,
                            coordinate_transformation_mode=coordinates)
    plan = ascendprec.plan(onnx_model(node, [("x", [1, *shape])], "y", [sizes]), **SOC)
    resize = planned_op(plan, "ResizeBicubic" if mode == "cubic" else "ResizeBilinearV2")
    assert resize.kernel and resize.est_us > 0, "the resize is not lowered"
    got = plan.run({"x": image}).outputs["y"][0].astype(np.float64)
    want = resize_axis(image[0].astype(np.float64), 1, mode, coordinates, out_hw[0])
    want = resize_axis(want, 2, mode, coordinates, out_hw[1])
    assert np.max(np.abs(got - want)) <= 2e-6 * max(1.0, np.max(np.abs(want)))


def logits_like(rows, length):
    """Scores as a classifier's head writes them: mostly negative, a few
    classes far above, smooth in between (a rendered ramp, not noise alone)."""
    ramp = np.linspace(-12.0, -2.0, length)
    rng = np.random.default_rng(11)
    scores = np.stack([np.roll(ramp, 977 * r) + rng.normal(0, 0.5, length) for r in range(rows)])
    scores[:, rng.integers(0, length, 5)] += 14.0
    return scores.astype(np.float32)


def run_single(node, inputs, output, feeds, initializers=()):
    # An op that is not lowered is a PlanWarning: here an error.
    with warnings.catch_warnings():
        warnings.simplefilter("error", ascendprec.PlanWarning)
        plan = ascendprec.plan(onnx_model(node, inputs, output, initializers), **SOC)
    result = plan.run(feeds).outputs[output]
    return result if result.dtype.kind in "iu" else result.astype(np.float64)


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax"])
def test_softmax_over_a_row_longer_than_ub(op):
    # 100,003 classes (a prime: the last chunk is shorter than the others).
    x = logits_like(2, 100003)
    got = run_single(helper.make_node(op, ["x"], ["y"], axis=-1), [("x", [2, 100003])], "y",
                     {"x": x})
    shifted = x.astype(np.float64) - x.max(axis=1, keepdims=True)
    log_sum = np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    want = shifted - log_sum if op == "LogSoftmax" else np.exp(shifted - log_sum)
    assert np.max(np.abs(got - want)) <= 1e-5 * max(1.0, np.max(np.abs(want)))


def test_softmax_over_channels_of_a_large_map():
    # A segmentation head's per-pixel softmax over 5 classes of 1024x1024.
    image = rendered_image(5, 1024, 1024) * 8.0
    got = run_single(helper.make_node("Softmax", ["x"], ["y"], axis=1), [("x", [1, 5, 1024, 1024])],
                     "y", {"x": image})
    e = np.exp(image.astype(np.float64) - image.max(axis=1, keepdims=True))
    want = e / e.sum(axis=1, keepdims=True)
    assert np.max(np.abs(got - want)) <= 1e-6


@pytest.mark.parametrize("op,identity", [("ReduceMax", -np.inf), ("ReduceMin", np.inf)])
def test_reduction_chunks_stop_at_the_row_end(op, identity):
    # Every value below zero (max) or above it (min): a chunk that read past
    # the row's end would bring in zeros.
    x = logits_like(2, 100003) - 30.0
    assert x.max() < 0
    if op == "ReduceMin":
        x = -x
    got = run_single(helper.make_node(op, ["x"], ["y"], axes=[1], keepdims=1), [("x", [2, 100003])],
                     "y", {"x": x})
    want = x.max(axis=1, keepdims=True) if op == "ReduceMax" else x.min(axis=1, keepdims=True)
    assert np.array_equal(got, want.astype(np.float64))


@pytest.mark.parametrize("op", ["ArgMax", "ReduceSum"])
def test_reduction_over_channels_of_a_large_map(op):
    # A segmentation head: per pixel, the class (ArgMax) or the channel sum
    # over 6 classes of a 1024x1024 map; one column of C fits UB, a whole
    # [C, H*W] slab does not.
    scores = rendered_image(6, 1024, 1024) * 4.0
    if op == "ArgMax":
        node, inits = helper.make_node(op, ["x"], ["y"], axis=1, keepdims=0), []
    else:  # opset 13 on: the axes are an input
        node = helper.make_node(op, ["x", "axes"], ["y"], keepdims=0)
        inits = [numpy_helper.from_array(np.array([1], np.int64), "axes")]
    got = run_single(node, [("x", [1, 6, 1024, 1024])], "y", {"x": scores}, inits)
    if op == "ArgMax":
        assert np.array_equal(got, np.argmax(scores, axis=1))
    else:
        want = scores.astype(np.float64).sum(axis=1)
        assert np.max(np.abs(got - want)) <= 1e-5


def test_instance_norm_of_planes_larger_than_ub():
    # A style-transfer block: InstanceNorm over 3 channels of 1024x1021 (the
    # last chunk of each plane is shorter).
    image = rendered_image(3, 1024, 1021)
    scale = numpy_helper.from_array(np.array([1.5, 0.5, -1.0], np.float32), "s")
    bias = numpy_helper.from_array(np.array([0.1, 0.0, 0.3], np.float32), "b")
    got = run_single(helper.make_node("InstanceNormalization", ["x", "s", "b"], ["y"]),
                     [("x", [1, 3, 1024, 1021])], "y", {"x": image}, [scale, bias])
    x = image.astype(np.float64)
    mean = x.mean(axis=(2, 3), keepdims=True)
    var = x.var(axis=(2, 3), keepdims=True)
    want = (x - mean) / np.sqrt(var + 1e-5) * np.array([1.5, 0.5, -1.0]).reshape(1, 3, 1, 1) + \
        np.array([0.1, 0.0, 0.3]).reshape(1, 3, 1, 1)
    assert np.max(np.abs(got - want)) <= 2e-5


def test_layer_norm_of_a_row_longer_than_ub():
    x = logits_like(2, 100003)
    gamma = np.linspace(0.5, 1.5, 100003).astype(np.float32)
    beta = np.linspace(-0.1, 0.1, 100003).astype(np.float32)
    got = run_single(helper.make_node("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1),
                     [("x", [2, 100003])], "y", {"x": x},
                     [numpy_helper.from_array(gamma, "g"), numpy_helper.from_array(beta, "b")])
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    want = (x64 - mean) / np.sqrt(x64.var(axis=1, keepdims=True) + 1e-5) * gamma + beta
    assert np.max(np.abs(got - want)) <= 2e-5


def pool_reference(x, kind, kernel, strides, pads, count_include_pad=0):
    """ONNX MaxPool / AveragePool over the last two axes of [N, C, H, W],
    padding never the maximum, counted in an average only when asked."""
    n, c, h, w = x.shape
    (kh, kw), (sh, sw), (pt, pl, pb, pr) = kernel, strides, pads
    ho, wo = (h + pt + pb - kh) // sh + 1, (w + pl + pr - kw) // sw + 1
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pt, pb), (pl, pr)),
                    constant_values=-np.inf if kind == "max" else 0.0)
    valid = np.pad(np.ones((h, w)), ((pt, pb), (pl, pr)))
    out = np.full((n, c, ho, wo), -np.inf if kind == "max" else 0.0)
    count = np.zeros((ho, wo))
    for i in range(kh):
        for j in range(kw):
            window = padded[:, :, i:i + sh * (ho - 1) + 1:sh, j:j + sw * (wo - 1) + 1:sw]
            out = np.maximum(out, window) if kind == "max" else out + window
            count += valid[i:i + sh * (ho - 1) + 1:sh, j:j + sw * (wo - 1) + 1:sw]
    if kind == "avg":
        out /= kh * kw if count_include_pad else count
    return out


@pytest.mark.parametrize("kind,kernel,strides,pads,count_include_pad", [
    # A ResNet stem's pooling at 1024x1024: padded on every side.
    ("max", (3, 3), (2, 2), (1, 1, 1, 1), 0),
    ("avg", (3, 3), (1, 1), (1, 1, 1, 1), 0),
    ("avg", (5, 5), (2, 2), (2, 1, 2, 1), 1),
])
def test_padded_pooling_of_planes_larger_than_ub(kind, kernel, strides, pads, count_include_pad):
    image = rendered_image(2, 1024, 1000) - 0.5  # negative values: padding must not win a max
    attrs = dict(kernel_shape=list(kernel), strides=list(strides), pads=list(pads))
    if kind == "avg":
        attrs["count_include_pad"] = count_include_pad
    op = "MaxPool" if kind == "max" else "AveragePool"
    got = run_single(helper.make_node(op, ["x"], ["y"], **attrs), [("x", [1, 2, 1024, 1000])],
                     "y", {"x": image})
    onnx_pads = (pads[0], pads[1], pads[2], pads[3])
    want = pool_reference(image, kind, kernel, strides, onnx_pads, count_include_pad)
    assert got.shape == want.shape
    assert np.max(np.abs(got - want)) <= 1e-6


def test_one_dimensional_pooling_along_a_long_signal():
    # A 1-D MaxPool over 100,003 audio samples, imported as [1, W] planes:
    # cut along W.
    t = np.arange(100003) / 16000.0
    signal = (np.sin(2 * np.pi * 220 * t) * np.exp(-t) - 0.2).astype(np.float32)
    x = np.stack([signal, -signal])[None]
    got = run_single(helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[5], strides=[2],
                                      pads=[2, 2]), [("x", [1, 2, 100003])], "y", {"x": x})
    want = pool_reference(x[:, :, None, :], "max", (1, 5), (1, 2), (0, 2, 0, 2))[:, :, 0, :]
    assert np.max(np.abs(got - want)) == 0


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin"])
def test_arg_reduction_over_a_row_longer_than_ub(op):
    # A language model's next-token scores over 100,003 entries. Row 0's
    # extreme appears twice, in different chunks (the first one wins); row
    # 1 holds a NaN late in the row (NumPy's argmax and argmin return the
    # first NaN).
    x = logits_like(3, 100003)
    sign = 1.0 if op == "ArgMax" else -1.0
    x[0, 500] = x[0, 90000] = sign * 50.0
    x[1, 77777] = np.nan
    got = run_single(helper.make_node(op, ["x"], ["y"], axis=1, keepdims=0), [("x", [3, 100003])],
                     "y", {"x": x})
    want = np.argmax(x, axis=1) if op == "ArgMax" else np.argmin(x, axis=1)
    assert list(got) == list(want) and want[0] == 500 and want[1] == 77777
