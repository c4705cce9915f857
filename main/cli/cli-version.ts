/** The version `kioku --version` prints; bin/kioku.js prints it without loading the command parser. */
export const KIOKU_VERSION = '0.1.0';
