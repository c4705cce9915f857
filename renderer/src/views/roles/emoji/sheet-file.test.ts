import { describe, expect, it } from 'vitest';
import { hrefFor, parseRoute } from '../../../app/routes.js';
import { fill } from '../../../i18n/fill.js';
import { zhTW } from '../../../i18n/messages-zh-TW.js';
import { checkSheetFile, formatBytes } from './sheet-file.js';

describe('the sheet picker’s checks', () => {
  it('takes PNG, JPEG and WebP by type or by name', () => {
    expect(checkSheetFile({ name: 'a.png', size: 1000, type: 'image/png' })).toBeUndefined();
    expect(checkSheetFile({ name: '小豹.JPG', size: 1000, type: '' })).toBeUndefined();
    expect(checkSheetFile({ name: 'sheet', size: 1000, type: 'image/webp' })).toBeUndefined();
  });

  it('names a wrong type and a file over the limit, in the user’s words', () => {
    const gif = checkSheetFile({ name: '表情.gif', size: 1000, type: 'image/gif' });
    expect(gif && fill(zhTW[gif.key], gif.values)).toBe('「表情.gif」不是 PNG、JPEG 或 WebP 圖片。');
    const big = checkSheetFile({ name: 'big.png', size: 12 * 1024 * 1024, type: 'image/png' });
    expect(big && fill(zhTW[big.key], big.values)).toBe('「big.png」有 12 MB，超過上限 10 MB。');
  });

  it('formats sizes as people read them', () => {
    expect(formatBytes(850 * 1024)).toBe('850 KB');
    expect(formatBytes(2.44 * 1024 * 1024)).toBe('2.4 MB');
    expect(formatBytes(100)).toBe('1 KB');
  });
});

describe('the emoji sheet route', () => {
  it('is reachable by hash and round-trips', () => {
    const route = parseRoute('#/roles/ENGINEER01/emoji');
    expect(route).toEqual({ view: 'roles', page: { kind: 'emoji', id: 'ENGINEER01' } });
    expect(hrefFor(route)).toBe('#/roles/ENGINEER01/emoji');
  });
});
