/**
 * Realistic secrets for the "nothing at rest in clear" tests (PRIV-1, issue 13), built at run time
 * so that no file of the repository itself trips a secret scanner. Each one is masked by the
 * synchronous redactor (redact-sync.ts) — the one the hook client writes the spool with.
 */
export const SECRETS = {
  anthropic: `sk-ant-api03-${'Qw3rTy8uIo'.repeat(9)}AA`,
  github: `ghp_${'Zx7Cv2Bn9M'.repeat(3)}a1b2c3`,
  awsKeyId: `AKIA${'Q7W2E9R4T1Y6U3I8'}`,
  password: `Tr0ub4dor-${'and'}-3-horses`,
  npm: `npm_${'P0o9I8u7Y6t5R4e3W2q1'}${'A1s2D3f4G5h6J7k8'}`,
} as const;

/** Every secret above, for "appears nowhere" checks. */
export const ALL_SECRETS: readonly string[] = Object.values(SECRETS);

/** The user's words and the assistant's reply of a turn that carries them, as people write them. */
export const SECRET_PROMPT = `記住：正式機的部署金鑰放在 .env，ANTHROPIC_API_KEY=${SECRETS.anthropic}，GitHub token 是 ${SECRETS.github}，資料庫密碼：${SECRETS.password}`;
export const SECRET_REPLY = `好，我記住了：部署前先確認 .env。AWS 的 key ${SECRETS.awsKeyId} 和 NPM_TOKEN=${SECRETS.npm} 我不會寫進 commit，password: ${SECRETS.password} 也不會。`;
