/**
 * PM-1 (issue 12): a gist is the turn's salient statement, not its first sentence. 「早安！我今天
 * 要把部署腳本改好。」 is about the deployment script; 「早安！」 said nothing a memory needs, and a gist
 * that says nothing is the first thing a budget cuts. Greetings, thanks and bare acknowledgements
 * are passed over; the first sentence with some content (MIN_CONTENT letters or digits) is the
 * gist, else the one with the most content.
 */
const GREETING =
  /^(?:早安|早啊|早|午安|晚安|嗨+|哈囉|你好|妳好|您好|安安|哈+|嗯+|喔+|好的?|好啊|收到|了解|謝謝你?|感謝|辛苦了|ok(?:ay)?|hi+|hello|hey|yo|good (?:morning|afternoon|evening|night)|thanks?(?: you)?|got it)(?:[\s,，~～]*(?:啊|呀|喔|唷|哦|耶|啦|呢|!|！|。|\.|～|~))*[\s!！~～。.,，]*$/iu;
const MIN_CONTENT = 4;

const contentOf = (text: string) => (text.match(/[\p{L}\p{N}]/gu) ?? []).length;

export function isSmallTalkOpener(form: string): boolean {
  return GREETING.test(form.trim());
}

export function salientSentence<T extends { text: string; form: string }>(sentences: readonly T[]): T | undefined {
  const content = sentences.filter((s) => !isSmallTalkOpener(s.form));
  const first = content.find((s) => contentOf(s.text) >= MIN_CONTENT);
  if (first) return first;
  let best: T | undefined;
  for (const s of content) if (!best || contentOf(s.text) > contentOf(best.text)) best = s;
  return best ?? sentences[0];
}
