//===- AscendRecurrent.td - LSTM, GRU and RNN layers -------*- tablegen -*-===//
//
// ONNX's recurrent layers as the CANN op types that compute them: ATC's ONNX
// parser reads LSTM and GRU as CommonLSTM / CommonGRU, which CANN's fusion
// passes turn into DynamicRNN / DynamicGRUV2 before kernels are chosen; the
// simple RNN is CANN's RNN. Operands and attributes follow ONNX (weights in
// ONNX's gate order), so the import is exact; docs/onnx-import.md.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_DIALECT_ASCEND_IR_ASCENDRECURRENT_TD
#define ASCENDPREC_DIALECT_ASCEND_IR_ASCENDRECURRENT_TD

class Ascend_RecurrentOp<string mnemonic, string layer, int gates, dag states,
                         dag stateResults, dag extraAttrs = (ins)>
    : Ascend_Op<mnemonic, [AttrSizedOperandSegments]> {
  let summary = "a whole " # layer # " layer over a sequence";
  let description = "Runs one " # layer # " layer (" # gates # " gates) over "
    # "`x` (`[seq_length, batch, input_size]`), forward, reverse or both ways "
    # "(`direction`). `w` is `[num_directions, " # gates # "*hidden_size, "
    # "input_size]`, `r` is `[num_directions, " # gates # "*hidden_size, "
    # "hidden_size]`, `b` the optional biases, then the optional initial "
    # "states, then `seq_length`, the optional int32 length of each batch "
    # "row (ONNX's sequence_lens, CANN's seq_length: a row runs its first "
    # "seq_length[n] steps, reverse from its own last step; `y` is 0 past "
    # "them and the last state is the one after them; with it, `b` and the "
    # "initial states are present, zeros when the model has none). Results: every step's hidden state `y` (`[seq_length, "
    # "num_directions, batch, hidden_size]`) and the last one(s).\n\n"
    # "Example:\n```mlir\n%y, %h" # !if(!eq(gates, 4), ", %c", "")
    # " = ascend." # mnemonic # " %x, %w, %r {name = \"rnn\", hidden_size = 8 : i64,"
    # " operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0"
    # !if(!eq(gates, 4), ", 0", "") # ">}\n"
    # "    : (tensor<5x2x4xf32>, tensor<1x" # !mul(gates, 8) # "x4xf32>, tensor<1x"
    # !mul(gates, 8) # "x8xf32>)\n    -> (tensor<5x1x2x8xf32>, tensor<1x2x8xf32>"
    # !if(!eq(gates, 4), ", tensor<1x2x8xf32>", "") # ")\n```";
  let arguments = !con((ins Ascend_FloatTensor:$x, Ascend_FloatTensor:$w,
                            Ascend_FloatTensor:$r, Optional<Ascend_FloatTensor>:$b),
                       states,
                       // Last, so that the float operands keep the
                       // positions of the library's kernel rows.
                       (ins Optional<Ascend_IndexTensor>:$seq_length),
                       (ins I64Attr:$hidden_size,
                            DefaultValuedAttr<Ascend_RnnDirectionAttr, "::ascendprec::ascend::RnnDirection::Forward">:$direction),
                       extraAttrs, Ascend_CommonAttrs);
  let results = !con((outs Ascend_FloatTensor:$y, Ascend_FloatTensor:$y_h), stateResults);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Gates per step: 4 (LSTM), 3 (GRU), 1 (RNN).
    static constexpr int64_t kGates = }] # gates # [{;
  }];
}

def Ascend_DynamicRNNOp : Ascend_RecurrentOp<"DynamicRNN", "LSTM", 4,
    (ins Optional<Ascend_FloatTensor>:$init_h, Optional<Ascend_FloatTensor>:$init_c),
    (outs Ascend_FloatTensor:$y_c)>;

def Ascend_DynamicGRUV2Op : Ascend_RecurrentOp<"DynamicGRUV2", "GRU", 3,
    (ins Optional<Ascend_FloatTensor>:$init_h), (outs),
    (ins DefaultValuedAttr<I64Attr, "0">:$linear_before_reset)>;

def Ascend_RNNOp : Ascend_RecurrentOp<"RNN", "simple (tanh) RNN", 1,
    (ins Optional<Ascend_FloatTensor>:$init_h), (outs)>;

#endif // ASCENDPREC_DIALECT_ASCEND_IR_ASCENDRECURRENT_TD
