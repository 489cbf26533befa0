#!/usr/bin/env python3
"""Realistic samples and a two-model audio pipeline, for judging plans on data.

  text_crops(n)      text lines rendered with DejaVu fonts (sizes, colours,
                     backgrounds, noise), half of them turned 180 degrees,
                     preprocessed as PaddleOCR's direction classifier takes
                     them (48 x 192, (x/255 - 0.5) / 0.5); label 0 upright,
                     1 turned
  spoken_clips(n)    one second of 16 kHz speech each: words spoken by
                     espeak-ng with varied voices, speeds and pitches, and a
                     few synthetic clips (tones, chirps, noise bursts)
  write_audio_models(folder)
                     frontend.onnx: a log-mel front end as PyTorch exports
                     Whisper's (STFT as a strided Conv, power, mel MatMul,
                     Clip(min=1e-10), Log, an axis-less ReduceMax, Max) and
                     classifier.onnx: a CNN over the log-mel (Conv/Relu/
                     MaxPool, global pooling, Gemm, Softmax)

Usage: datasets.py OUT_DIR [--crops N] [--clips N]
Writes OUT_DIR/crops/ (one .npz per sample and labels.npy),
OUT_DIR/clips/ (one .npz per clip) and the two models.
"""

import argparse
import os
import subprocess
import tempfile
import wave

import numpy as np

FONT_DIR = "/usr/share/fonts/truetype/dejavu"
WORDS = ["seven", "north", "yes", "no", "stop", "go", "left", "right", "up", "down",
         "alpha", "bravo", "river", "window", "orange", "forty", "hello", "zero"]
TEXT = ["Invoice 2024-117", "TOTAL 38.50", "Bahnhofstr. 12", "precision_mode",
        "Ascend 910B", "fp16 vs fp32", "Lot No. A7734", "EXP 11/2027", "www.example.org",
        "Room 4.12", "Tel 0211 55 31", "Order #88120", "Qty 3 x 19.99", "KEEP DRY"]


def text_crops(count, seed=0, height=48, width=192):
    """(images [count, 1, 3, 48, 192] float32, labels [count] int64)."""
    from PIL import Image, ImageDraw, ImageFilter, ImageFont
    rng = np.random.default_rng(seed)
    fonts = sorted(f for f in os.listdir(FONT_DIR) if f.endswith(".ttf"))
    images = np.zeros((count, 1, 3, height, width), np.float32)
    labels = np.zeros(count, np.int64)
    for i in range(count):
        text = TEXT[rng.integers(len(TEXT))]
        font = ImageFont.truetype(os.path.join(FONT_DIR, fonts[rng.integers(len(fonts))]),
                                  int(rng.integers(22, 34)))
        background = tuple(int(v) for v in rng.integers(150, 256, 3))
        ink = tuple(int(v) for v in rng.integers(0, 90, 3))
        left, top, right, bottom = font.getbbox(text)
        canvas = Image.new("RGB", (right + 12, bottom + 10), background)
        ImageDraw.Draw(canvas).text((6 - left, 5 - top), text, font=font, fill=ink)
        if rng.random() < 0.5:
            canvas = canvas.filter(ImageFilter.GaussianBlur(float(rng.uniform(0.2, 1.0))))
        if i % 2:
            canvas = canvas.rotate(180)
            labels[i] = 1
        # PaddleOCR's cls preprocessing: height 48, width by aspect up to 192.
        scaled = min(width, int(np.ceil(height * canvas.width / canvas.height)))
        canvas = canvas.resize((scaled, height), Image.BILINEAR)
        pixels = np.asarray(canvas, np.float32)
        pixels = pixels + rng.normal(0, rng.uniform(0, 6), pixels.shape)
        pixels = (np.clip(pixels, 0, 255) / 255 - 0.5) / 0.5
        images[i, 0, :, :, :scaled] = pixels.transpose(2, 0, 1)
    return images, labels


def _espeak(word, voice, speed, pitch, rate=16000):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "w.wav")
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch),
                        "-w", path, word], check=True, capture_output=True)
        with wave.open(path) as stream:
            source_rate = stream.getframerate()
            data = np.frombuffer(stream.readframes(stream.getnframes()), np.int16)
    audio = data.astype(np.float32) / 32768
    if source_rate != rate:
        times = np.arange(int(len(audio) * rate / source_rate)) / rate
        audio = np.interp(times, np.arange(len(audio)) / source_rate, audio).astype(np.float32)
    return audio


def spoken_clips(count, seed=0, rate=16000):
    """(clips [count, 1, 16000] float32, labels [count] int64: the word's
    index, or len(WORDS) for a synthetic clip)."""
    rng = np.random.default_rng(seed)
    voices = ["en", "en-us", "en-gb-x-rp", "de", "fr", "es"]
    clips = np.zeros((count, 1, rate), np.float32)
    labels = np.zeros(count, np.int64)
    t = np.arange(rate) / rate
    for i in range(count):
        if i % 6 == 5:
            kind = i // 6 % 3
            if kind == 0:
                audio = 0.3 * np.sin(2 * np.pi * rng.uniform(200, 2000) * t)
            elif kind == 1:
                audio = 0.3 * np.sin(2 * np.pi * (300 + 1500 * t) * t)
            else:
                audio = rng.normal(0, 0.2, rate) * (t > 0.3) * (t < 0.6)
            labels[i] = len(WORDS)
        else:
            word = int(rng.integers(len(WORDS)))
            audio = _espeak(WORDS[word], voices[rng.integers(len(voices))],
                            int(rng.integers(120, 220)), int(rng.integers(20, 80)))
            labels[i] = word
            audio = audio[:rate] * rng.uniform(0.3, 1.0)
        start = int(rng.integers(0, max(1, rate - len(audio) + 1)))
        clips[i, 0, start:start + len(audio)] = audio[:rate - start]
        clips[i, 0] += rng.normal(0, 1e-3, rate).astype(np.float32)  # a quiet room
    return clips, labels


def _mel_filterbank(bins=201, mels=64, rate=16000):
    def to_mel(f):
        return 2595 * np.log10(1 + f / 700)
    points = 700 * (10 ** (np.linspace(to_mel(0), to_mel(rate / 2), mels + 2) / 2595) - 1)
    freqs = np.linspace(0, rate / 2, bins)
    bank = np.zeros((mels, bins), np.float32)
    for m in range(mels):
        lo, mid, hi = points[m], points[m + 1], points[m + 2]
        bank[m] = np.clip(np.minimum((freqs - lo) / (mid - lo), (hi - freqs) / (hi - mid)), 0, None)
    return bank


def write_audio_models(folder, seed=0):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(seed)
    window, hop, bins = 400, 160, 201
    n = np.arange(window)
    hann = 0.5 - 0.5 * np.cos(2 * np.pi * n / window)
    k = np.arange(bins)[:, None]
    basis = np.concatenate([np.cos(2 * np.pi * k * n / window) * hann,
                            -np.sin(2 * np.pi * k * n / window) * hann]).astype(np.float32)
    inits = [numpy_helper.from_array(basis[:, None, :], "stft.weight"),
             numpy_helper.from_array(_mel_filterbank(), "mel_filters"),
             numpy_helper.from_array(np.array([0, 1], np.int64), "unsq_axes"),
             numpy_helper.from_array(np.array([bins, bins], np.int64), "split"),
             numpy_helper.from_array(np.array(1 / np.log(10), np.float32), "inv_ln10"),
             numpy_helper.from_array(np.array(8.0, np.float32), "range"),
             numpy_helper.from_array(np.array(4.0, np.float32), "four")]
    nodes = [
        helper.make_node("Conv", ["audio", "stft.weight"], ["spec"], name="/stft/Conv",
                         strides=[hop]),
        helper.make_node("Split", ["spec", "split"], ["re", "im"], name="/Split", axis=1),
        helper.make_node("Mul", ["re", "re"], ["re2"], name="/Mul"),
        helper.make_node("Mul", ["im", "im"], ["im2"], name="/Mul_1"),
        helper.make_node("Add", ["re2", "im2"], ["power"], name="/Add"),
        helper.make_node("MatMul", ["mel_filters", "power"], ["mel_spec"], name="/MatMul"),
        helper.make_node("Clip", ["mel_spec", "clip_min"], ["clamped"], name="/Clip"),
        helper.make_node("Log", ["clamped"], ["ln"], name="/Log"),
        helper.make_node("Mul", ["ln", "inv_ln10"], ["log10"], name="/Mul_2"),
        helper.make_node("ReduceMax", ["log10"], ["peak"], name="/ReduceMax", keepdims=0),
        helper.make_node("Sub", ["peak", "range"], ["floor"], name="/Sub"),
        helper.make_node("Max", ["log10", "floor"], ["limited"], name="/Max"),
        helper.make_node("Add", ["limited", "four"], ["shifted"], name="/Add_1"),
        helper.make_node("Div", ["shifted", "four"], ["log_mel"], name="/Div"),
    ]
    inits.append(numpy_helper.from_array(np.array(1e-10, np.float32), "clip_min"))
    graph = helper.make_graph(nodes, "log_mel_frontend",
                              [helper.make_tensor_value_info("audio", TensorProto.FLOAT,
                                                             [1, 1, 16000])],
                              [helper.make_tensor_value_info("log_mel", TensorProto.FLOAT,
                                                             [1, 64, 98])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="pytorch", producer_version="2.1.0")
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(folder, "frontend.onnx"))

    classes = len(WORDS) + 1
    layers, channels, inits, nodes = [16, 32, 64], 1, [], []
    value = "x4"
    nodes.append(helper.make_node("Unsqueeze", ["log_mel", "axis1"], [value], name="/Unsqueeze"))
    inits.append(numpy_helper.from_array(np.array([1], np.int64), "axis1"))
    for index, width in enumerate(layers):
        weight = rng.normal(0, np.sqrt(2 / (9 * channels)), (width, channels, 3, 3))
        inits += [numpy_helper.from_array(weight.astype(np.float32), "conv%d.weight" % index),
                  numpy_helper.from_array(rng.normal(0, 0.05, width).astype(np.float32),
                                          "conv%d.bias" % index)]
        nodes += [helper.make_node("Conv", [value, "conv%d.weight" % index,
                                            "conv%d.bias" % index], ["c%d" % index],
                                   name="/conv%d/Conv" % index, pads=[1, 1, 1, 1]),
                  helper.make_node("Relu", ["c%d" % index], ["r%d" % index],
                                   name="/relu%d/Relu" % index),
                  helper.make_node("MaxPool", ["r%d" % index], ["p%d" % index],
                                   name="/pool%d/MaxPool" % index, kernel_shape=[2, 2],
                                   strides=[2, 2])]
        value, channels = "p%d" % index, width
    head = rng.normal(0, 1.5 / np.sqrt(channels), (classes, channels)).astype(np.float32)
    inits += [numpy_helper.from_array(head, "fc.weight"),
              numpy_helper.from_array(np.zeros(classes, np.float32), "fc.bias")]
    nodes += [helper.make_node("GlobalAveragePool", [value], ["gap"], name="/GlobalAveragePool"),
              helper.make_node("Flatten", ["gap"], ["features"], name="/Flatten"),
              helper.make_node("Gemm", ["features", "fc.weight", "fc.bias"], ["logits"],
                               name="/fc/Gemm", transB=1),
              helper.make_node("Softmax", ["logits"], ["probs"], name="/Softmax", axis=-1)]
    graph = helper.make_graph(nodes, "keyword_cnn",
                              [helper.make_tensor_value_info("log_mel", TensorProto.FLOAT,
                                                             [1, 64, 98])],
                              [helper.make_tensor_value_info("probs", TensorProto.FLOAT,
                                                             [1, classes])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="pytorch", producer_version="2.1.0")
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(folder, "classifier.onnx"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--crops", type=int, default=30)
    parser.add_argument("--clips", type=int, default=30)
    args = parser.parse_args()
    os.makedirs(os.path.join(args.out, "crops"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "clips"), exist_ok=True)
    images, labels = text_crops(args.crops)
    for i, image in enumerate(images):
        np.savez(os.path.join(args.out, "crops", "crop_%04d.npz" % i), x=image)
    np.save(os.path.join(args.out, "crops", "labels.npy"), labels)
    clips, words = spoken_clips(args.clips)
    for i, clip in enumerate(clips):
        np.savez(os.path.join(args.out, "clips", "clip_%04d.npz" % i), audio=clip[None])
    np.save(os.path.join(args.out, "clips", "labels.npy"), words)
    write_audio_models(args.out)


if __name__ == "__main__":
    main()
