/** Every scenario of the engagement corpus: people first, then machines (scripts/engagement-corpus.ts). */
import type { Scenario } from "./engagement-corpus";
import { MACHINES } from "./engagement-corpus-machines";
import { PEOPLE } from "./engagement-corpus-people";

export const SCENARIOS: Scenario[] = [...PEOPLE, ...MACHINES];
