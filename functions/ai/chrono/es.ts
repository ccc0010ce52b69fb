/** chrono's Spanish parser, as `#chrono-es` (functions/ai/entities.ts says why); its other languages are tree-shaken out. */
import { es } from 'chrono-node';

export const casual = es.casual;
