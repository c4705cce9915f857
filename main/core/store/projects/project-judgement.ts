/**
 * Is a captured memory about the project it was said in, or about the user everywhere? (issue 12)
 * Judged by the words, in this order:
 * 1. the user says it holds everywhere (所有專案, 每個 repo, in every project, in general) → global;
 * 2. the user points at this project (這個專案, 這個 repo, 本專案, 這個項目, in this repo, this
 *    codebase, our repo) → project-specific;
 * 3. it is about the user or the role's manner (語氣, 稱呼, 用中文回, reply in English, tone, call
 *    me) → global;
 * 4. it names the project's own things — a naming rule (命名, 前綴, snake_case, prefix), a build or
 *    test command (npm run, make, cargo, pytest…), a path (src/…, ./x, *.ts), a config file
 *    (package.json, Makefile, tsconfig), a `backticked` identifier, a branch → project-specific;
 * 5. anything else → global (a user-wide preference or habit, or a feeling).
 * The other half of the judgement is where it was said: a memory captured outside any project
 * (project-root.ts gives none) is global whatever its words.
 */
const EVERYWHERE =
  /所有(?:的)?(?:專案|项目|項目|repo|倉庫|仓库|程式|代碼|代码|程式碼)|每個(?:專案|項目|repo|倉庫)|每个(?:项目|仓库|repo)|不管(?:哪|什麼|什么)(?:個|个)?(?:專案|项目|項目|repo)|任何(?:專案|项目|項目|repo)|(?:in|across|for) (?:all|every|any) (?:of my )?(?:projects?|repos?|repositories|codebases?)|everywhere|in general|globally/;

const THIS_PROJECT =
  /(?:這個|这个|此|本|這|这)(?:專案|项目|項目|repo|倉庫|仓库|程式庫|代碼庫|代码库|codebase|工作區|工作区)|(?:咱們|我們|我们)(?:的)?(?:專案|项目|項目|repo|倉庫|仓库)(?:裡|里|中|內|内)?|\b(?:in |for |of )?(?:this|our) (?:repo|repository|project|codebase|workspace|monorepo)\b|\bhere in this\b/;

const ABOUT_THE_USER_OR_ROLE =
  /語氣|语气|口吻|稱呼|称呼|叫我|用(?:中文|英文|日文|繁體|繁体|簡體|简体)(?:回|說|说|寫|写)|回(?:覆|复|答)(?:用|請用)|\btone\b|\bcall me\b|\breply in\b|\banswer in\b|\brespond in\b|\bspeak (?:to me )?in\b/;

const PROJECT_THINGS = [
  // naming rules
  /命名|前綴|前缀|後綴|后缀|檔名|文件名|變數名|变量名|函式名|函數名|函数名|類別名|类名|\bnaming\b|\bprefix(?:ed)?\b|\bsuffix(?:ed)?\b|camel ?case|snake_case|kebab-case|pascal ?case/,
  // build, test and package commands
  /\b(?:npm|pnpm|yarn|npx|bun|deno) (?:run|test|install|i|ci|exec|build)\b|\bmake (?:build|test|install|all|lint|check|clean|dev|run|release)\b|\bcargo (?:build|test|run|check)\b|\bgo (?:build|test|run)\b|\bpytest\b|\btox\b|\bgradle\b|\bmvn\b|\bdocker[ -]compose\b|\bpoetry\b|\buv run\b|\bvitest\b|\bjest\b|\bbazel\b/,
  // paths and config files
  /(?:^|[\s`'"(（「])(?:\.{1,2}\/|~\/|src\/|lib\/|test\/|tests\/|docs\/|scripts\/|main\/|app\/|packages\/)|\b[\w.-]+\/[\w.-]+\.[a-z]{1,5}\b|\*\.[a-z]{1,5}\b|package\.json|tsconfig|makefile|dockerfile|\.env\b|cargo\.toml|pyproject\.toml|\.eslintrc|\.prettierrc|vite\.config|webpack\.config/,
  // an identifier in backticks, a branch
  /`[^`\s][^`]{0,60}`|\b(?:main|master|develop|dev) branch\b|(?:分支|branch) ?[\w-]+\/[\w/-]+/,
];

export type ProjectJudgement = 'project' | 'global';

export function judgeProjectScope(text: string): ProjectJudgement {
  const words = text.normalize('NFKC').toLowerCase();
  if (EVERYWHERE.test(words)) return 'global';
  if (THIS_PROJECT.test(words)) return 'project';
  if (ABOUT_THE_USER_OR_ROLE.test(words)) return 'global';
  return PROJECT_THINGS.some((pattern) => pattern.test(words)) ? 'project' : 'global';
}
