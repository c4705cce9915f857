import { calendar } from './scenario-calendar.js';
import { datong } from './scenario-datong.js';
import { twoRoles } from './scenario-two-roles.js';
import type { Scenario } from './script.js';

/** Every quality scenario, in the order the bench plays them. */
export const SCENARIOS: Scenario[] = [datong, twoRoles, calendar];
