/**
 * The words capture listens for (CAP-1, CAP-4, PRIV-3), in one place so that the filter, the
 * consent detector and the local condenser never disagree about what a cue is.
 * Design notes: docs/design-notes.md, "main/core/platform/text/cue-words.ts".
 */

/** Simplified → Traditional for the characters the patterns below use (generated with OpenCC tw→cn). */
const PAIRS =
  '并併侣侶系係个個们們伤傷优優储儲儿兒别別删刪刚剛动動厌厭问問丧喪单單啰囉压壓伙夥妈媽写寫帮幫后後爱愛惯慣虑慮忆憶恋戀担擔时時暂暫会會乐樂样樣检檢权權欢歡气氣决決测測温溫溃潰为為烦煩发發确確积積绪緒线線继繼续續习習兴興亲親计計讨討记記许許询詢试試话話认認语語说說请請谢謝赞讚贴貼资資这這过過录錄长長闭閉开開间間关關阶階难難预預领領体體点點';
const SIMPLIFIED_TO_TRADITIONAL: ReadonlyMap<string, string> = new Map(
  Array.from({ length: PAIRS.length / 2 }, (_, i) => [PAIRS[2 * i]!, PAIRS[2 * i + 1]!] as const),
);

export function matchForm(text: string): string {
  let out = '';
  for (const char of text.normalize('NFKC').toLowerCase()) out += SIMPLIFIED_TO_TRADITIONAL.get(char) ?? char;
  return out;
}

/** Behaviour to change next time (MEM-5: what decides behaviour → preference). */
export const PREFERENCE =
  /喜歡|偏好|以後[^。！？!?\n]{0,12}(?:都|請|不要|別|也|就|一律|改)|之後(?:都|請|不要|別|也)|下次(?:也|請|不要|別|記得|再|改)|每次都|一律|不要再|別再|不要用|別用|不准|禁止|絕對不要|千萬不要|習慣用|請用|改用|換成|請勿|務必|prefer|always|never|from now on|next time|in the future|i like|i don'?t like|i hate|stop doing|keep doing|please use|don'?t use|do not use|must not|no longer|instead|\bno\b[^.!?\n]{0,60}\bever\b|\bavoid\b/;

/** A permission or exception: behaviour-changing too, and the usual carrier of a time limit. */
export const PERMISSION =
  /允許|授權|准許|放行|例外|不用再?(?:問|確認|詢問|測試|跑|檢查)|不必再?(?:問|確認|測試)|可以直接|直接(?:push|merge|推|合併|部署|上線|發布|刪)|先不要|先別|跳過|略過|(?:may|can) (?:skip|go ahead|push|merge|deploy)|go ahead and|no need to|allowed to|permission to/;

/** Feedback on the role, positive side (CAP-4: a preference/emotion of this role only). */
export const POSITIVE_FEEDBACK =
  /謝謝|感謝|多謝|太好了|好棒|很棒|做得很?好|辛苦了|讚|很喜歡你|喜歡你(?:的|這樣|剛剛)|thank|good job|well done|great job|nice work|i (?:like|love) how you|you did (?:great|well)|that was (?:great|perfect|lovely)/;

export const NEGATIVE_FEEDBACK =
  /不喜歡你|不要這樣|別這樣|太囉嗦|太長了|很煩|不太好|不好笑|討厭你|don'?t like (?:it|that|how)|stop (?:doing|saying)|too (?:long|verbose)|not helpful|annoying/;

/** A request: thanks inside one is politeness ("幫我修 bug，謝謝"), not feedback — bonds are forever (MEM-7). */
export const POLITE_REQUEST = /幫我|請你|麻煩|能不能|可不可以|可以幫|please|can you|could you|would you/;

/** "你剛剛…" is feedback on the role only with an evaluation in the same sentence. */
export const ABOUT_THE_ROLE = /你剛剛|你剛才|你這樣|你的(?:回覆|語氣|說法)|你說話|\byou (?:just|were|did)\b|\bthe way you\b/;
export const EVALUATION = /好|棒|喜歡|開心|可愛|貼心|溫柔|討厭|煩|謝謝|nice|great|love|like|hate|perfect|cute|kind/;

/** Feedback that says what to repeat or change: the preference half of a feedback sentence. */
export const BEHAVIOUR_HINT = /以後|下次|繼續|保持|也這樣|都這樣|多一點|少一點|keep|again|continue|more of|less of|from now on/;

/** How it felt (→ emotional). "想你" alone also means "want you to", so it needs 好/很/了. */
export const EMOTION =
  /開心|高興|快樂|難過|傷心|(?:好|很|有點)想(?:你|妳)|想(?:你|妳)了|想念|累(?![積計加])|疲倦|壓力|焦慮|擔心|害怕|生氣|失望|感動|寂寞|孤單|安心|幸福|哭|愛(?:你|妳)|溫暖|心情|委屈|崩潰|沮喪|\bi (?:feel|felt)\b|\bi'?m (?:so |very |really |a bit )?(?:happy|sad|tired|exhausted|lonely|anxious|worried|upset|scared|proud|glad|stressed)\b|miss you|love you|made my day|heartwarming/;

/**
 * Relationship talk (CAP-4): about the user and the role themselves.
 * Kin words count only when the role is addressed in the same sentence — "我女兒今天生病" is the
 * user's own family, not a statement about who the role is to them.
 */
export const RELATIONSHIP =
  /我們(?:之間)?的?關係|關係定位|(?:喜歡|愛)(?:你|妳)(?![的這那剛說寫做])|(?:好|很)想(?:你|妳)|love you(?! to)|our relationship|be my\b/;
export const KIN =
  /家人|家庭|女兒|兒子|爸爸|媽媽|父親|母親|妹妹|姊姊|姐姐|哥哥|弟弟|戀人|女朋友|男朋友|伴侶|老婆|老公|朋友|夥伴|關係|family|daughter|\bson\b|girlfriend|boyfriend|partner|friend|wife|husband|relationship/;
export const ADDRESSES_ROLE = /你|妳|\byou\b/;

/** The role answering in kind: turns a user→role bond into a mutual one. */
export const RECIPROCATED = /我也(?:喜歡|愛|想)|(?:喜歡|愛|珍惜|想)(?:你|妳)|love you too|i love you|miss you too|i care about you/;

/** The reply's own feeling, for the emotional memory's key points ("角色自己的情緒是合法的記憶主體"). */
export const ROLE_FEELING = /開心|高興|害羞|安心|感動|難過|擔心|期待|幸福|glad|happy|touched|worried|excited/;

/**
 * MEM-8: when the user says "this time", "for now", "temporarily", "today" or "this PR"
 * (這次, 先, 暫時, 今天, 這個 PR), it is almost always a temporary permission.
 * First match wins; a date beats a condition because an expired date is enforced automatically
 * (MEM-8), a condition only by the role's judgement. 「先」 is common in other words (首先, 先生,
 * 優先, 先前), hence the guards around it.
 */
export interface TemporaryMarker {
  pattern: RegExp;
  /** 'today' → the local date of the turn; anything else is the condition text stored as written. */
  expires: 'today' | string;
}
export const TEMPORARY_MARKERS: readonly TemporaryMarker[] = [
  { pattern: /今天|今晚|今日|today|tonight/, expires: 'today' },
  { pattern: /這個\s*pr|本\s*pr|this pr\b|this pull request/, expires: '這個 PR 合併或關閉後失效' },
  { pattern: /這次|這一次|本次|this time|just this once|this once/, expires: '本工作階段' },
  { pattern: /暫時|目前先|for now|temporarily|for the time being/, expires: '本工作階段' },
  { pattern: /(?<![首原優事預率領祖起早])先(?![生前後])/, expires: '本工作階段' },
];

/**
 * PRIV-3 (never infer consent that was not stated): only words that are about
 * saving personal data. Refusal is tested first because 不同意保存 contains 同意保存.
 */
export const CONSENT_DECLINED =
  /不同意(?:你)?(?:保存|儲存|記錄|記住|記憶)|(?:不要|別|不准|請勿|不可以)(?:幫我)?(?:保存|儲存|記住|記錄|記)(?:我的)?(?:個人|個資|私人|名字|姓名|資料)|don'?t (?:save|store|remember|keep) (?:my )?personal|do not (?:save|store|remember|keep) (?:my )?personal|i (?:don'?t|do not) consent|i (?:decline|refuse)(?: to)? (?:consent|let you)/;
export const CONSENT_ACCEPTED =
  /(?<!不)同意(?:你)?(?:保存|儲存|記錄|記住|記憶)|(?<!不)可以(?:保存|儲存|記住|記錄|記)(?:我的)?(?:個人|個資|名字|姓名|資料)|you (?:may|can) (?:save|store|remember|keep) (?:my )?(?:personal|details|name|info)|i consent|i agree (?:to|that) you (?:save|store|remember|keep)/;
/** A bare 同意 / I agree is explicit only as an answer about personal data, which the reply then names. */
export const BARE_AGREEMENT = /^(?:我)?(?:同意|i agree|i consent|agreed)[。.!！\s]*$/;
export const BARE_REFUSAL = /^(?:我)?(?:不同意|i (?:don'?t|do not) agree|i disagree)[。.!！\s]*$/;
export const CONSENT_TOPIC = /個人資料|個資|保存|記憶|personal (?:data|details|information)|remember/;

/** "Don't remember this" — the turn itself is not to be kept (the user's word wins over capture). */
export const FORGET_THIS_TURN =
  /(?:不要|別|不用)(?:記住|記下|記錄|保存|記)(?:這個|這段|這件事|這些|這次|剛剛的)|off the record|don'?t (?:remember|save|record) (?:this|that)|do not (?:remember|save|record) (?:this|that)/;

/**
 * Cues that keep a short turn (CAP-1). Deliberately broad: a false keep costs one local
 * condensing, a false skip loses the memory. Only the user's words are tested — roles show a
 * mood in almost every reply (ROLE-6), so the reply's emotion words would keep every
 * turn and defeat the quota control of CTX-2/CAP-1.
 */
export const FILTER_CUES = {
  remember: /記住|記得|記下|記一下|別忘|不要忘|remember|don'?t forget|do not forget|keep in mind/,
  // Issue 12: an explicit rule is kept whatever its length (請用 camelCase, 不要用 var, 改用 pnpm).
  preference:
    /喜歡|偏好|以後|之後都|下次|每次都|一律|不要(?!記|保存|儲存|存)|別再|別用|請用|請勿|請改|改用|換成|其實是|務必|必須|prefer|always|never|from now on|next time|please (?:use|don'?t|do not|avoid|stop)|instead|no longer|don'?t use|do not use|must(?: not)?\b|\bno\b[^.!?\n]{0,60}\bever\b|\bavoid\b|不准|禁止/,
  feedback:
    /謝謝|感謝|太好了|好棒|很棒|做得好|辛苦了|你剛剛|你剛才|你這樣|thank|good job|well done|great job|i like how you|i love how you/,
  emotion:
    /開心|高興|難過|傷心|想你|想妳|想念|累(?![積計加])|壓力|焦慮|擔心|害怕|生氣|失望|感動|寂寞|孤單|安心|愛你|愛妳|\blove\b|\bmiss\b|\bsad\b|lonely|tired|exhausted|worried|upset/,
  consent: /同意|不要記|別記|可以記|不要保存|個人資料|個資|you (?:may|can) remember|don'?t remember|do not remember|don'?t save|consent/,
  permission: PERMISSION,
  relationship: /關係|家人|女兒|relationship|family|daughter/,
  // Issue 12: the user saying who they are (self-description.ts reads what exactly).
  self: /我叫(?![你妳他她它們了過醒])|叫我|稱呼我|我的?名字|我是[^，。,.!！?？\s]{2,4}(?:[，。,.!！]|$)|我住在|我來自|我在.{1,12}(?:工作|上班|任職)|my name is|call me|i work (?:at|as|for)|i live in/,
} as const satisfies Record<string, RegExp>;
