import { expect, it } from 'vitest';
import { selfDescriptionOf } from './self-description.js';
it('reads a name, a form of address and background; grammar clauses (我是認真的, 我是說) and 我叫你… are no names (issue 12)', () => {
  const n = (t: string) => selfDescriptionOf([t]);
  expect(n('我是王大同，叫我大同就好。')).toMatchObject({ name: '王大同', address: '大同' });
  expect(n('我是認真的。')).toBeUndefined();
  expect(n('我是開玩笑啦！')).toBeUndefined();
  expect(n('我是說，這樣比較好。')).toBeUndefined();
  expect(n('我叫你改的檔案呢？')).toBeUndefined();
  expect(n('叫我阿明就好')).toMatchObject({ address: '阿明' });
  expect(n('My name is Alice Chen, call me Alice.')).toMatchObject({ name: 'Alice Chen', address: 'Alice' });
  expect(n('我在新竹當後端工程師。')?.background).toEqual(['我在新竹當後端工程師。']);
});
