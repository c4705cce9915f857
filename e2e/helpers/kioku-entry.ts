/**
 * `kioku` from source, for e2e runs where dist/ is older than the sources (development); CI
 * runs after `npm run build` and uses bin/kioku.js, i.e. exactly what ships.
 */
import { main } from '../../main/cli/kioku.js';

process.exitCode = await main(process.argv);
