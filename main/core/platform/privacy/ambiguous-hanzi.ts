/**
 * Simplified characters that stand for more than one Traditional character (seed 000 §繁簡防線:
 * 一簡對多繁). Value: the Traditional candidates; when the Simplified glyph is itself a normal
 * Traditional character (后, 干, 里, 面…) it is listed among them, which also tells the script
 * guard that meeting it in a text proves nothing about the text being Simplified.
 *
 * opencc-js ships its character table with one candidate per character (发 → 發 only), so it
 * cannot tell us which characters are ambiguous; this table does. It lists characters whose
 * readings are all common in everyday writing. Characters whose second reading is rare or only
 * occurs inside words OpenCC's phrase table already covers (了/瞭, 才/纔, 出/齣, 价/价…) are
 * left out on purpose: warning on every 了 would bury the warnings that matter.
 */
export const AMBIGUOUS_SIMPLIFIED: Readonly<Record<string, string>> = {
  发: '發髮', 干: '干乾幹', 后: '后後', 里: '里裡', 复: '復複覆', 系: '系係繫', 脏: '髒臟',
  面: '面麵', 松: '松鬆', 斗: '斗鬥', 历: '歷曆', 钟: '鐘鍾', 台: '台臺檯颱', 只: '只隻',
  划: '划劃', 冲: '沖衝', 尽: '盡儘', 几: '几幾', 范: '范範', 制: '制製', 征: '征徵',
  准: '准準', 表: '表錶', 丑: '丑醜', 卜: '卜蔔', 谷: '谷穀', 汇: '匯彙', 获: '獲穫',
  饥: '飢饑', 姜: '姜薑', 卷: '卷捲', 蒙: '蒙矇濛懞', 弥: '彌瀰', 辟: '辟闢', 朴: '朴樸',
  仆: '仆僕', 签: '簽籤', 舍: '舍捨', 坛: '壇罈', 涂: '涂塗', 托: '托託', 咸: '咸鹹',
  须: '須鬚', 郁: '郁鬱', 余: '余餘', 御: '御禦', 吁: '吁籲', 云: '云雲', 折: '折摺',
  致: '致緻', 周: '周週', 注: '注註', 游: '游遊', 于: '于於', 伙: '伙夥', 岳: '岳嶽',
  占: '占佔', 扎: '扎紮', 蜡: '蜡蠟', 采: '采採', 尝: '嘗嚐', 荡: '蕩盪', 回: '回迴',
  克: '克剋', 困: '困睏', 腊: '腊臘', 霉: '霉黴', 念: '念唸', 凄: '淒悽', 苏: '蘇甦囌',
  尸: '尸屍', 厘: '厘釐', 帘: '帘簾', 么: '么麼', 欲: '欲慾', 背: '背揹', 布: '布佈',
  恶: '惡噁', 丰: '丰豐', 刮: '刮颳', 胡: '胡鬍衚', 奸: '奸姦', 夸: '夸誇', 炼: '煉鍊',
  宁: '寧甯', 纤: '纖縴', 叶: '叶葉', 佣: '佣傭', 涌: '涌湧', 种: '种種', 摆: '擺襬',
  板: '板闆', 淀: '淀澱', 吊: '吊弔', 杰: '杰傑', 梁: '梁樑', 卤: '滷鹵', 熏: '熏燻',
};

/** True when the character is one of several Traditional ones and only context can choose. */
export function isAmbiguousSimplified(char: string): boolean {
  return Object.hasOwn(AMBIGUOUS_SIMPLIFIED, char);
}

/** True when the Simplified glyph is also an ordinary Traditional character (后, 干, 面). */
export function isAlsoTraditional(char: string): boolean {
  return AMBIGUOUS_SIMPLIFIED[char]?.includes(char) ?? false;
}
