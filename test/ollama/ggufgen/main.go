// Command ggufgen writes a llama model with random weights as a GGUF file,
// for mm's tests against a real Ollama: the model answers noise, but the
// server that runs it (its HTTP, templates, tool support, grammars, context
// handling, slots and cache) is Ollama's own.
//
// The vocabulary is byte-level BPE as GPT-2 spells it: the 256 bytes, each
// one token, no merges, so that every text tokenizes to one token a byte;
// then the specials the Modelfiles' templates use.
//
//	ggufgen -o tiny.gguf                       # 2 layers, 64 wide: loads in a blink
//	ggufgen -o big.gguf -embd 512 -layers 8 -ff 1536   # ~27M parameters, for bench/
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"

	"github.com/ollama/ollama/fs/ggml"
)

// Specials are the control tokens after the 256 bytes, in this order.
var Specials = []string{"<|endoftext|>", "<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>"}

// Shape is the model's size.
type Shape struct {
	Embd, Layers, FF, Heads, KVHeads, Ctx int
	Seed                                  uint64
}

func main() {
	var s Shape
	out := flag.String("o", "", "the GGUF file to write")
	flag.IntVar(&s.Embd, "embd", 64, "embedding length")
	flag.IntVar(&s.Layers, "layers", 2, "blocks")
	flag.IntVar(&s.FF, "ff", 128, "feed-forward length")
	flag.IntVar(&s.Heads, "heads", 4, "attention heads")
	flag.IntVar(&s.KVHeads, "kvheads", 2, "key/value heads")
	flag.IntVar(&s.Ctx, "ctx", 32768, "the trained context length the file states")
	flag.Uint64Var(&s.Seed, "seed", 1, "seed of the weights")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: ggufgen -o model.gguf [-embd 64 -layers 2 -ff 128 -heads 4 -kvheads 2 -ctx 32768 -seed 1]")
		os.Exit(2)
	}
	if err := write(*out, s); err != nil {
		fmt.Fprintln(os.Stderr, "ggufgen:", err)
		os.Exit(1)
	}
}

func write(path string, s Shape) error {
	if s.Embd <= 0 || s.Heads <= 0 || s.KVHeads <= 0 || s.Embd%s.Heads != 0 || s.Heads%s.KVHeads != 0 {
		return fmt.Errorf("shape %+v: embd must divide by heads, heads by kvheads", s)
	}
	tokens, types := vocabulary()
	kv := ggml.KV{
		"general.architecture":                   "llama",
		"general.name":                           "mm-test",
		"general.file_type":                      uint32(0), // all F32
		"llama.block_count":                      uint32(s.Layers),
		"llama.context_length":                   uint32(s.Ctx),
		"llama.embedding_length":                 uint32(s.Embd),
		"llama.feed_forward_length":              uint32(s.FF),
		"llama.attention.head_count":             uint32(s.Heads),
		"llama.attention.head_count_kv":          uint32(s.KVHeads),
		"llama.attention.layer_norm_rms_epsilon": float32(1e-5),
		"llama.rope.freq_base":                   float32(10000),
		"llama.rope.dimension_count":             uint32(s.Embd / s.Heads),
		"llama.vocab_size":                       uint32(len(tokens)),
		"tokenizer.ggml.model":                   "gpt2",
		"tokenizer.ggml.pre":                     "default",
		"tokenizer.ggml.tokens":                  tokens,
		"tokenizer.ggml.token_type":              types,
		"tokenizer.ggml.merges":                  []string{},
		"tokenizer.ggml.bos_token_id":            uint32(256),
		"tokenizer.ggml.eos_token_id":            uint32(258), // <|im_end|>
		"tokenizer.ggml.padding_token_id":        uint32(256),
		"tokenizer.ggml.add_bos_token":           false,
		"tokenizer.ggml.add_eos_token":           false,
	}
	v, kvDim := uint64(len(tokens)), uint64(s.Embd/s.Heads*s.KVHeads)
	e, ff := uint64(s.Embd), uint64(s.FF)
	rng := rand.New(rand.NewPCG(s.Seed, 0x6d6d))
	var ts []*ggml.Tensor
	add := func(name string, fill func() float32, shape ...uint64) {
		n := uint64(1)
		for _, d := range shape {
			n *= d
		}
		vals := make([]float32, n)
		for i := range vals {
			vals[i] = fill()
		}
		ts = append(ts, &ggml.Tensor{Name: name, Kind: uint32(ggml.TensorTypeF32), Shape: shape, WriterTo: f32s(vals)})
	}
	one := func() float32 { return 1 }
	// Small weights keep the activations finite through every block.
	noise := func() float32 { return float32(rng.NormFloat64() * 0.02) }
	add("token_embd.weight", noise, e, v)
	add("output_norm.weight", one, e)
	add("output.weight", noise, e, v)
	for i := range s.Layers {
		b := fmt.Sprintf("blk.%d.", i)
		add(b+"attn_norm.weight", one, e)
		add(b+"attn_q.weight", noise, e, e)
		add(b+"attn_k.weight", noise, e, kvDim)
		add(b+"attn_v.weight", noise, e, kvDim)
		add(b+"attn_output.weight", noise, e, e)
		add(b+"ffn_norm.weight", one, e)
		add(b+"ffn_gate.weight", noise, e, ff)
		add(b+"ffn_up.weight", noise, e, ff)
		add(b+"ffn_down.weight", noise, ff, e)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := ggml.WriteGGUF(f, kv, ts); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

// vocabulary is GPT-2's byte-level alphabet, a token a byte, then the
// specials as control tokens (type 3; normal is 1).
func vocabulary() ([]string, []int32) {
	var tokens []string
	var types []int32
	for _, r := range byteRunes() {
		tokens = append(tokens, string(r))
		types = append(types, 1)
	}
	for _, s := range Specials {
		tokens = append(tokens, s)
		types = append(types, 3)
	}
	return tokens, types
}

// byteRunes is GPT-2's bytes_to_unicode: printable bytes stand for
// themselves, the others for the runes from U+0100 on, in byte order.
func byteRunes() [256]rune {
	var rs [256]rune
	next := rune(256)
	for b := range 256 {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			rs[b] = rune(b)
		} else {
			rs[b] = next
			next++
		}
	}
	return rs
}

// f32s writes its values as little-endian float32, as GGUF stores F32.
type f32s []float32

func (v f32s) WriteTo(w io.Writer) (int64, error) {
	buf := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(x))
	}
	n, err := w.Write(buf)
	return int64(n), err
}
