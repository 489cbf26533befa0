//===- Help.cpp - prec-compile --help and --version -----------------------===//

#include "Help.h"

#include "AscendPrec/Policy/Fusion.h"
#include "AscendPrec/Policy/Options.h"
#include "llvm/Config/llvm-config.h"

namespace ascendprec::driver {

static std::string optionLine(const std::string &flag, const std::string &help) {
  std::string line = "  " + flag;
  line += line.size() < 34 ? std::string(34 - line.size(), ' ') : "\n" + std::string(34, ' ');
  return line + help + "\n";
}

std::string helpText() {
  std::string text =
      "OVERVIEW: prec-compile - plan an Ascend model's precision as CANN would, and say why\n\n"
      "USAGE: prec-compile MODEL.onnx|MODEL.mlir --soc_version=SOC [CANN options] --output=DIR\n\n"
      "Writes DIR/planned.mlir, DIR/kernels.mlir (the plan lowered to AI Core kernels,\n"
      "with an estimated device time per kernel in the report),\n"
      "DIR/report.{json,txt,html,dot}, DIR/report.lock.cfg (a customize_dtypes\n"
      "lockfile) and DIR/options.json (the effective options); with --run also\n"
      "DIR/accuracy.json and DIR/run/output_<i>.pb.\n"
      "Nothing is written unless everything succeeds. Exit status: 0 success,\n"
      "1 user error (bad option, file or model; a rule that cannot be met),\n"
      "2 internal error, 130 interrupted (Ctrl-C; nothing is left behind).\n"
      "A model ATC would refuse (E13010: a node CANN's ONNX parser has no plugin\n"
      "for) is still planned, run and written, with a warning per op type and exit\n"
      "status 0, unless --atc-refusals=error.\n\n"
      "Input and output:\n" +
      optionLine("--output=DIR", "output folder (required)") +
      optionLine("--session_options=FILE", "JSON object of CANN options; the command line wins") +
      optionLine("--explain", "print why every op got its dtype, and its kernel") +
      optionLine("--keep-io-dtypes=false", "let the model's inputs/outputs take planned dtypes") +
      optionLine("--quiet", "no progress lines (also when stderr is not a terminal)") +
      optionLine("--full-constants", "write constants over 16 elements into planned.mlir (default: elided)") +
      optionLine("--fusion-respects-pins",
                 "do not fuse a node pinned by customize_dtypes or keep_dtype (AscendPrec's "
                 "extension; CANN drops such pins, FU-2)") +
      optionLine("--atc-refusals=warn|error",
                 "a node ATC's ONNX parser has no plugin for (E13010, ATC would not convert "
                 "the model): warn (default; planned, run and written all the same) or error "
                 "(exit 1, nothing written; for CI)") +
      optionLine("--list-fusion-passes", "print every fusion pass and exit") +
      "\nMeasuring accuracy on the host CPU (device rounding emulated):\n" +
      optionLine("--run[=DIR]", "run the plan and its fp32 reference on the CPU; DIR holds "
                                "input_<i>.pb (and expected output_<i>.pb), else seeded random "
                                "inputs; writes accuracy.json and run/output_<i>.pb into the "
                                "--output folder") +
      optionLine("--run-iterations=N", "time N runs of the plan (median; default 1)") +
      optionLine("--run-seed=N", "seed of the random inputs of --run (default 0)") +
      optionLine("--run-range=\"NAME:LO,HI;...\"",
                 "draw input NAME of --run from [LO, HI) (integers: whole numbers), e.g. "
                 "\"ids:0,30522;x:0,255\"") +
      optionLine("--threads=N", "threads sharing a kernel's blocks (default 1)") +
      optionLine("--kernel-cache=DIR|off",
                 "keep compiled kernels in DIR for later runs (default "
                 "$XDG_CACHE_HOME/ascendprec/kernels or ~/.cache/ascendprec/kernels; at most "
                 "1 GiB, $ASCENDPREC_KERNEL_CACHE_MAX_BYTES, least recently used first out); "
                 "entries are checked before use, and a folder others may write is not used") +
      optionLine("--compare-modes", "plan, estimate and run every precision mode on the same "
                                    "inputs; a table and compare.json (implies --run)") +
      optionLine("--search-precision=TARGET",
                 "find the fastest plan meeting TARGET, e.g. \"cosine>=0.9999\" or "
                 "\"logits:max_rel_err<=1e-3\" (cosine, max_rel_err, max_abs_err, rel_rmse vs "
                 "fp32; commas join conditions); writes CANN files reproducing it into "
                 "search/ (implies --compare-modes)") +
      optionLine("--search-budget=N", "plans the search may run (default 24)") +
      "\nJudging plans on a dataset (docs/reference/datasets.md; runs in the Python package):\n" +
      optionLine("--data=PATH", "every sample of PATH: test_data_set_*/ folders, .npz files or "
                                "folders of <input>.npy per sample, or one .npy/.npz with a "
                                "sample axis; per-sample figures with 95% intervals into "
                                "accuracy.json, samples.jsonl, report.txt and report.html. "
                                "With --compare-modes every mode with paired tests; with "
                                "--search-precision a dataset target, e.g. "
                                "\"top1_agreement>=0.995\" or \"cosine.p1>=0.9995\"") +
      optionLine("--labels=FILE", "ground-truth classes (.npy, one row per sample; default "
                                  "PATH/labels.npy)") +
      optionLine("--data-axis=N", "the sample axis of a single .npy/.npz (default 0)") +
      optionLine("--limit=N", "the first N samples only") +
      optionLine("--jobs=N", "samples run in N threads of this process") +
      optionLine("--scheduler=tcp://HOST:PORT", "run the samples on a Dask cluster") +
      optionLine("--reference-cache=DIR|off",
                 "where each sample's fp32 reference is kept (default "
                 "$XDG_CACHE_HOME/ascendprec/references)") +
      optionLine("--class-axis=OUTPUT:AXIS", "an output holding class scores along AXIS "
                                              "(default: outputs shaped [C] or [N, C])") +
      optionLine("--help", "this text") + optionLine("--version", "print the version");
  std::string group;
  for (const policy::OptionSpec &spec : policy::optionSpecs()) {
    if (spec.group != group) {
      group = spec.group;
      text += "\n" + group + ":\n";
    }
    std::string flag = "--" + spec.name + "=";
    switch (spec.type) {
    case policy::OptionType::Path:
      flag += "FILE";
      break;
    case policy::OptionType::Directory:
      flag += "DIR";
      break;
    case policy::OptionType::Bool:
      flag += "true|false";
      break;
    case policy::OptionType::Int:
      flag += spec.allowedValues.empty() ? "N" : "0|1";
      break;
    default:
      flag += "VALUE";
    }
    std::string help = spec.help;
    if (spec.type == policy::OptionType::Enum && spec.group != "Accepted for compatibility (no effect here)")
      help += " (" + policy::joinChoices(spec.allowedValues, ", ") + ")";
    text += optionLine(flag, help);
  }
  text += "\nReference: docs/user-guide.md, docs/generated/options.md.\n";
  return text;
}

std::string fusionPassList() {
  std::string text = "Fusion passes, in the order they run (FU-1). General passes are on by\n"
                     "default; others only when named in --enable_scope_fusion_passes. A\n"
                     "--fusion_switch_file turns either kind off (or a general one back on).\n";
  for (const policy::FusionPassInfo &pass : policy::fusionPasses()) {
    text += "\n" + pass.name + "\n";
    text += "  kind:      " + std::string(policy::fusionKindSection(pass.kind)) + "\n";
    text += std::string("  general:   ") + (pass.general ? "yes (on by default)" : "no (off by default)") + "\n";
    text += "  produces:  " + pass.fusedOpType + "\n";
    text += "  matches:   " + pass.matches + "\n";
  }
  text += "\nReference: docs/reference/fusion-passes.md.\n";
  return text;
}

std::string versionText() {
  return "prec-compile (AscendPrec) 0.1.0\nbuilt with LLVM/MLIR " LLVM_VERSION_STRING "\n";
}

} // namespace ascendprec::driver
