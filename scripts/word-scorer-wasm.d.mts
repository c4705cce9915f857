/** score-one-word.wat assembled to WebAssembly bytes with wabt. */
export function assembleWordScorer(wat: string): Promise<Uint8Array>;
