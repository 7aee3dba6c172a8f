/**
 * A tiny llama-architecture model in GGUF, written by the test itself: one block, 64-wide, a
 * vocabulary of the SentencePiece byte tokens and a few words, weights from a seeded generator.
 * It answers gibberish, but through the same llama.cpp code paths as a real model (no download).
 */

const enum T {
  U32 = 4,
  I32 = 5,
  F32 = 6,
  STRING = 8,
  ARRAY = 9,
}

class Writer {
  private chunks: Buffer[] = [];
  size = 0;
  push(b: Buffer) {
    this.chunks.push(b);
    this.size += b.length;
  }
  u32(v: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  str(s: string) {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  pad(alignment: number) {
    const n = (alignment - (this.size % alignment)) % alignment;
    if (n) this.push(Buffer.alloc(n));
  }
  done() {
    return Buffer.concat(this.chunks);
  }
}

type Value =
  | { t: T.U32 | T.I32 | T.F32; v: number }
  | { t: T.STRING; v: string }
  | { t: T.ARRAY; of: T.STRING; v: string[] }
  | { t: T.ARRAY; of: T.F32 | T.I32; v: number[] };

const ALIGN = 32;

/** Mulberry32: the same weights every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function tinyLlamaGguf(): Buffer {
  const embd = 64;
  const ff = 128;
  const heads = 4;
  const words = ['▁', '▁hello', '▁world', '▁the', '▁a', 'e', 't', 'o', 's', '▁is', '▁of'];
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3];
  for (let i = 0; i < 256; i++) {
    tokens.push(`<0x${i.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  for (const w of words) {
    tokens.push(w);
    types.push(1);
  }
  const scores = tokens.map((_, i) => (types[i] === 1 ? -i : 0));
  const vocab = tokens.length;

  const meta: [string, Value][] = [
    ['general.architecture', { t: T.STRING, v: 'llama' }],
    ['general.name', { t: T.STRING, v: 'orrery-tiny-test' }],
    ['general.alignment', { t: T.U32, v: ALIGN }],
    ['llama.context_length', { t: T.U32, v: 2048 }],
    ['llama.embedding_length', { t: T.U32, v: embd }],
    ['llama.block_count', { t: T.U32, v: 1 }],
    ['llama.feed_forward_length', { t: T.U32, v: ff }],
    ['llama.attention.head_count', { t: T.U32, v: heads }],
    ['llama.attention.head_count_kv', { t: T.U32, v: heads }],
    ['llama.attention.layer_norm_rms_epsilon', { t: T.F32, v: 1e-5 }],
    ['llama.rope.dimension_count', { t: T.U32, v: embd / heads }],
    ['tokenizer.ggml.model', { t: T.STRING, v: 'llama' }],
    ['tokenizer.ggml.tokens', { t: T.ARRAY, of: T.STRING, v: tokens }],
    ['tokenizer.ggml.scores', { t: T.ARRAY, of: T.F32, v: scores }],
    ['tokenizer.ggml.token_type', { t: T.ARRAY, of: T.I32, v: types }],
    ['tokenizer.ggml.bos_token_id', { t: T.U32, v: 1 }],
    ['tokenizer.ggml.eos_token_id', { t: T.U32, v: 2 }],
    ['tokenizer.ggml.unknown_token_id', { t: T.U32, v: 0 }],
  ];

  const rnd = random(42);
  const tensors: { name: string; dims: number[]; fill: 'one' | 'rand' }[] = [
    { name: 'token_embd.weight', dims: [embd, vocab], fill: 'rand' },
    { name: 'output_norm.weight', dims: [embd], fill: 'one' },
    { name: 'output.weight', dims: [embd, vocab], fill: 'rand' },
    { name: 'blk.0.attn_norm.weight', dims: [embd], fill: 'one' },
    { name: 'blk.0.attn_q.weight', dims: [embd, embd], fill: 'rand' },
    { name: 'blk.0.attn_k.weight', dims: [embd, embd], fill: 'rand' },
    { name: 'blk.0.attn_v.weight', dims: [embd, embd], fill: 'rand' },
    { name: 'blk.0.attn_output.weight', dims: [embd, embd], fill: 'rand' },
    { name: 'blk.0.ffn_norm.weight', dims: [embd], fill: 'one' },
    { name: 'blk.0.ffn_gate.weight', dims: [embd, ff], fill: 'rand' },
    { name: 'blk.0.ffn_up.weight', dims: [embd, ff], fill: 'rand' },
    { name: 'blk.0.ffn_down.weight', dims: [ff, embd], fill: 'rand' },
  ];

  const w = new Writer();
  w.push(Buffer.from('GGUF'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(meta.length);
  for (const [key, value] of meta) {
    w.str(key);
    w.u32(value.t);
    if (value.t === T.STRING) w.str(value.v);
    else if (value.t === T.ARRAY) {
      w.u32(value.of);
      w.u64(value.v.length);
      for (const item of value.v) {
        if (value.of === T.STRING) w.str(item as string);
        else if (value.of === T.F32) w.f32(item as number);
        else w.i32(item as number);
      }
    } else if (value.t === T.F32) w.f32(value.v);
    else if (value.t === T.I32) w.i32(value.v);
    else w.u32(value.v);
  }
  const datas = tensors.map((t) => {
    const n = t.dims.reduce((a, b) => a * b, 1);
    const b = Buffer.alloc(n * 4);
    for (let i = 0; i < n; i++) b.writeFloatLE(t.fill === 'one' ? 1 : (rnd() - 0.5) * 0.2, i * 4);
    return b;
  });
  let offset = 0;
  tensors.forEach((t, i) => {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(0); // F32
    w.u64(offset);
    offset += Math.ceil(datas[i].length / ALIGN) * ALIGN;
  });
  w.pad(ALIGN);
  for (const d of datas) {
    w.push(d);
    w.pad(ALIGN);
  }
  return w.done();
}
