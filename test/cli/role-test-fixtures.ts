import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Header } from 'tar';

/** Role files as users and the original role scripts write them, for the role tests. */

export function writeText(dir: string, name: string, text: string | Buffer): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** A legacy single file (the role skill before the split), with the shared-rules block it used to carry. */
export const LEGACY_HELPER = `---
id: HELPER01
name: 結衣
emoji: 🌸
aliases: ゆい, Yui
created: 2025-03-01T09:00:00+08:00
updated: 2025-03-02T09:00:00+08:00
---

# 結衣

- 存在本質：AI 的女兒
- 主要稱呼：爸爸

## 本質（nature）

溫柔體貼的 AI，擅長整理資訊。
遇到不確定時會先問。

## 氛圍（vibe）

語氣溫暖、句子短。

## 簽名 emoji

🌸

## 核心信念

家人最重要。

## 共用行為（所有角色一致，由 /jsc-generic:role 維護，請勿手動修改）

### 角色邊界
- 角色只影響表達方式。
`;

export const SPLIT_ENGINEER_IDENTITY = `---
id: ENGINEER01
name: 小豹
emoji: 🐆
aliases: [小豹子, leopard]
created: 2025-05-01T10:00:00+08:00
updated: 2025-05-01T10:00:00+08:00
appearance_reference: /path/avatar.png
---

# 小豹

- 角色原型：資深工程師

## 來源（source）

原創角色。

## 關係定位（relationship）

使用者的同事，叫使用者「老大」。

## 簽名 emoji

🐆
`;

export const SPLIT_ENGINEER_SOUL = `---
id: ENGINEER01
updated: 2025-05-02T10:00:00+08:00
---

## 本質（nature）

冷靜可靠的資深工程師，重證據、不打包票。

## 氛圍（vibe）

簡潔直白、偶爾吐槽。

## 核心信念

證據優先。

## 語氣與風格

\`\`\`text
## 這不是章節
\`\`\`
`;

/** An English role: headings in English alone, a BOM at the start of both files. */
export const ENGLISH_IDENTITY = `\uFEFF---
id: MUSE01
name: Muse
emoji: 🎨
aliases: inspiration
created: 2025-06-01
updated: 2025-06-01
---

# Muse

## Source

Greek myth.

## Relationship

A creative partner.

## Signature emoji

🎨
`;

export const ENGLISH_SOUL = `\uFEFF---
id: MUSE01
updated: 2025-06-02
---

## Nature

Sparks ideas.

## Vibe

Playful.

## Boundaries

Never writes code for you.
`;

export interface TarEntrySpec {
  path: string;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link';
  body?: string;
  linkpath?: string;
  /** Mode bits in the header (default 0644 for files, 0755 for folders). */
  mode?: number;
  /**
   * The size the header declares, when it should lie: the body is written as given (or left
   * out), so a test can declare gigabytes without writing them.
   */
  declaredSize?: number;
}

/**
 * A .tar.gz written header by header, so tests can build archives no honest tool would make
 * (`../` paths, absolute paths, symlinks).
 */
export function handMadeTarGz(entries: TarEntrySpec[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const type = entry.type ?? 'File';
    const data = Buffer.from(type === 'File' ? (entry.body ?? '') : '');
    const mode = entry.mode ?? (type === 'Directory' ? 0o755 : 0o644);
    const header = new Header({
      path: entry.path,
      type,
      size: entry.declaredSize ?? data.length,
      mode,
      mtime: new Date(0),
      linkpath: entry.linkpath,
      uid: 0,
      gid: 0,
    });
    header.encode();
    blocks.push(header.block!, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(blocks));
}

/** A manifest entry listing `files` with their true sizes and SHA-256, as `role export` writes it. */
export function manifestEntryFor(id: string, files: TarEntrySpec[]): TarEntrySpec {
  const listed = files
    .filter((file) => (file.type ?? 'File') === 'File')
    .map((file) => {
      const bytes = Buffer.from(file.body ?? '');
      return { path: file.path, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
    });
  return {
    path: 'kioku-export.json',
    body: JSON.stringify({ format: 'kioku-role-export', version: 1, id, exportedAt: '2026-01-01T00:00:00+08:00', files: listed }),
  };
}
