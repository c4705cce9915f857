import { preferBaselineCode } from '../core/hosts/daemon/baseline-code.js';

/**
 * Imported first by the Electron entry (main.ts), for its side effect alone: V8 is asked for
 * baseline code before the app's other modules run any function, so the hook answers of the
 * daemon the app hosts are compiled to it (main/core/hosts/daemon/baseline-code.ts).
 */
preferBaselineCode();
