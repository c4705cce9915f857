// The word scorer's WebAssembly text assembled to bytes with wabt (shared by the writer script
// and the test that checks the committed bytes).
import wabt from 'wabt';

/** @param {string} wat @returns {Promise<Uint8Array>} */
export async function assembleWordScorer(wat) {
  const tools = await wabt();
  const module = tools.parseWat('score-one-word.wat', wat);
  try {
    module.validate();
    return module.toBinary({}).buffer;
  } finally {
    module.destroy();
  }
}
